// The scan's scheduling, around the worker pool (pool.ts): the producers (the walk, the archive
// lister) submit tasks and wait while too many are queued, in workers or answered but not taken
// (back-pressure); each answer is routed (a record to the consumer, a zip to the lister); the
// consumer takes records as they come. See src/scan/README.md ("Streaming and bounded").

import { baseOf } from './item-node.js';
import { lostRecord, type ScanConfig, type ScanRecord } from './job.js';
import { recordOfLine } from './line.js';
import { BATCH_FILES, Pool, type PoolAnswer, type SpawnWorker } from './pool.js';
import type { CheckedScanOptions, ScanOptions, ScanStats } from './scan-options.js';
import type { Task } from './task.js';

/** Where the zips the workers find go to be listed (archives.ts). */
export interface ZipLister {
  /** A file that is a zip (its task ends once it is listed). */
  file(task: Task): void;
  /** A member that is a zip (its task ends once its own members are answered). */
  nested(task: Task): void;
  /** Whether it is listing now: a producer, like the walk. */
  readonly listing: boolean;
}

const mtimes = new WeakMap<ScanRecord, number>();

/** The modification time (ms) the scan saw of a yielded record's file (a member: its zip), before reading it; null when unknown. */
export function recordMtimeMs(record: ScanRecord): number | null {
  return mtimes.get(record) ?? null;
}

export class Schedule {
  private readonly pool: Pool<Task>;
  /** Producers wait while this many tasks are queued, in workers or their records not taken yet: enough for every worker to have a full batch running and two waiting. So memory does not grow with the number of files. */
  private readonly highWater: number;
  private readonly out: ScanRecord[] = [];
  private inFlight = 0;
  /**
   * Of the tasks in flight, the zips the lister holds (answered "zip" or "nested zip", waiting to
   * be listed or being listed): only the lister can end them, so it must not wait for room they
   * take, or a folder of more zips than the high-water mark stops the scan for good.
   */
  private withLister = 0;
  private readonly listerTasks = new WeakSet<Task>();
  private wake: (() => void) | null = null;
  /** Producers waiting for room, and the archive lister waiting for any task to end. */
  private roomWaiters: (() => void)[] = [];
  private changeWaiters: (() => void)[] = [];
  /** Also once the scan has ended (its consumer may stop early): producers still waiting then stop instead of opening more. */
  private ended = false;
  private walkDone = false;
  private walkError: unknown = null;
  /** A producer's failure that no record can say (fail()). */
  private failure: { error: unknown } | null = null;
  private zips: ZipLister | null = null;

  constructor(
    spawn: SpawnWorker,
    config: ScanConfig,
    private readonly checked: CheckedScanOptions,
    private readonly options: ScanOptions,
    private readonly stats: ScanStats,
  ) {
    this.highWater = checked.workers * BATCH_FILES * 3;
    this.pool = new Pool<Task>(spawn, checked.workers, config, checked.timeoutMs, (task, a) => this.answer(task, a));
    if (options.index) {
      const onRows = options.index.onRows;
      // Called from a worker's message handler: what it throws would be uncaught there, and scan() would never settle.
      this.pool.onIndex = (batch) => {
        if (this.failure) return;
        try {
          const answer: unknown = onRows(batch);
          // The rows must be taken before their records are yielded; a Promise's rejection would also go unheard.
          if (answer instanceof Promise) {
            answer.catch(() => {});
            throw new TypeError("levelkit: scan option 'index.onRows' must take the rows synchronously; it returned a Promise");
          }
        } catch (e) {
          this.fail(e);
        }
      };
    }
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Where the zips found go; set once, before the walk starts. */
  listZipsWith(zips: ZipLister): void {
    this.zips = zips;
  }

  aborted(): boolean {
    return this.ended || this.options.signal?.aborted === true;
  }

  /** A record for the consumer; `mtimeMs`, what the walk saw of its file (recordMtimeMs). */
  emit(r: ScanRecord, mtimeMs: number | null = null): void {
    if (mtimeMs !== null) mtimes.set(r, mtimeMs);
    this.out.push(r);
    this.notify();
  }

  /** Hands a task to the pool; it counts as in flight until its answer is routed. */
  submit(task: Task): void {
    this.inFlight++;
    if (task.archive) task.archive.pending++;
    this.pool.push(task);
    this.pool.dispatch(false);
  }

  /** A task that a producer holds itself (a zip read on this thread), in flight until `listed`. */
  hold(): void {
    this.inFlight++;
  }

  /** A zip file held or answered "zip" has been listed: its members are tasks of their own. */
  listed(task: Task): void {
    this.inFlight--;
    this.leaveLister(task);
    this.freeRoom();
    this.notify();
  }

  /** A task outside the accounting (a nested zip's bytes): its answer comes back here, not to the consumer. */
  request(task: Task): Promise<PoolAnswer> {
    return new Promise<PoolAnswer>((resolve) => {
      this.pool.push({ ...task, opened: resolve });
      this.pool.dispatch(true);
    });
  }

  /**
   * Waits while the tasks in flight and the records not taken reach the high-water mark. The
   * lister (`lister`) counts only what others will end: the workers' tasks and the records.
   */
  async waitForRoom(lister = false): Promise<void> {
    while (this.inFlight - (lister ? this.withLister : 0) + this.out.length >= this.highWater && !this.aborted()) {
      // The producer is about to wait: whatever is queued goes out, full batch or not.
      this.pool.dispatch(true);
      await new Promise<void>((r) => this.roomWaiters.push(r));
    }
  }

  /** Resolves when any task ends (or the scan does). */
  nextChange(): Promise<void> {
    return new Promise<void>((r) => this.changeWaiters.push(r));
  }

  /** Whatever is queued goes out, full batch or not (a producer waits or pauses). */
  flush(): void {
    this.pool.dispatch(true);
  }

  /** Tasks are about to be pushed by the lister: batches are full-sized again until it stops. */
  refilling(): void {
    this.pool.draining = false;
  }

  /** A producer stopped: once none is left, batches shrink with the queue so the workers run out together. */
  producerEnded(): void {
    this.pool.draining = !this.producing();
    this.pool.dispatch(true);
    this.notify();
  }

  /** Follows the walk, the first producer; its failure is thrown by `finished` once the tasks in flight are answered. */
  followWalk(walk: Promise<void>): Promise<void> {
    return walk.then(
      () => {
        this.walkDone = true;
        this.stats.walkDone = true;
        this.producerEnded();
      },
      (e) => {
        this.walkError = e;
        this.walkDone = true;
        this.notify();
      },
    );
  }

  /** Routes one answer of the pool: a record to the consumer, a zip to the lister, a lost worker to a record saying so. */
  answer(task: Task, a: PoolAnswer): void {
    if (task.opened) {
      task.opened(a);
      return;
    }
    if ('line' in a) {
      this.emit(recordOfLine(a.line), task.mtimeMs);
      this.done(task);
    } else if ('record' in a) {
      this.emit(a.record, task.mtimeMs);
      this.done(task);
    } else if ('zip' in a) {
      this.enterLister(task);
      this.zips!.file(task);
    } else if ('nestedZip' in a) {
      this.enterLister(task);
      this.zips!.nested(task);
      this.changed();
    } else if ('excluded' in a) {
      // One of the scan's own outputs, met under another path than the walk's stat saw (a swap).
      this.stats.found--;
      this.done(task);
    } else if ('opened' in a) {
      // Only asked for with `opened` set (above).
      this.done(task);
    } else {
      const { item } = task;
      this.emit(lostRecord(baseOf(item.path, item.kind === 'file' ? null : item.member), task.declared, a, this.checked.memoryMb), task.mtimeMs);
      this.done(task);
    }
  }

  /** A task is over: its archive may be closed, producers may go on, and the consumer looks again (it may have been the last). */
  done(task: Task): void {
    this.inFlight--;
    this.leaveLister(task);
    task.archive?.release();
    this.changed();
    this.notify();
  }

  /** The next record for the consumer, or undefined when none is waiting. Records of no known format are passed over unless `all`. */
  take(): ScanRecord | undefined {
    // After a failure (fail()) no more records: the one whose index rows the caller could not take would follow.
    if (this.failure) return undefined;
    while (this.out.length) {
      const r = this.out.shift()!;
      this.freeRoom();
      if (r.format === null && !r.error && !this.options.all) continue;
      return r;
    }
    return undefined;
  }

  /** A producer failed in a way no record can say (the caller's callback threw, or a bug): the scan stops and `finished` throws it. */
  fail(e: unknown): void {
    this.failure ??= { error: e };
    this.notify();
  }

  /** Whether the consumer has had every record (or the scan stopped); throws when no worker can run, a producer failed, or the walk failed. */
  finished(): boolean {
    this.stats.replacedWorkers = this.pool.replaced;
    if (this.pool.broken) throw new Error(`levelkit scan: ${this.pool.broken}`);
    if (this.failure) throw this.failure.error;
    if (!this.producing() && this.inFlight === 0) return true;
    return this.aborted() && (!this.producing() || this.inFlight === 0);
  }

  /** Resolves when a record comes, a producer ends or the scan is stopped. */
  next(): Promise<void> {
    return new Promise<void>((r) => {
      this.wake = r;
    });
  }

  /** After the last record: waits for the walk to stop and throws its failure. */
  async walkEnded(walk: Promise<void>): Promise<void> {
    await walk;
    if (this.walkError) throw this.walkError;
  }

  /** Ends the scan: workers terminated, waiting producers woken (they see `aborted` and stop), the workers' figures kept. */
  close(): void {
    this.ended = true;
    this.options.signal?.removeEventListener('abort', this.onAbort);
    Object.assign(this.stats.workerStages!, this.pool.stages);
    this.stats.workerCpuMs = this.pool.workerCpuMs;
    this.pool.close();
    this.freeRoom();
    this.changed();
  }

  /** A zip is the lister's now: the lister may go on submitting members without counting it. */
  private enterLister(task: Task): void {
    this.listerTasks.add(task);
    this.withLister++;
    this.freeRoom();
  }

  private leaveLister(task: Task): void {
    if (this.listerTasks.delete(task)) this.withLister--;
  }

  private producing(): boolean {
    return !this.walkDone || this.zips?.listing === true;
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  private freeRoom(): void {
    if (this.roomWaiters.length === 0) return;
    const ws = this.roomWaiters;
    this.roomWaiters = [];
    for (const w of ws) w();
  }

  private changed(): void {
    if (this.changeWaiters.length === 0) return;
    const ws = this.changeWaiters;
    this.changeWaiters = [];
    for (const w of ws) w();
  }

  // An abort wakes both sides at once: the walker waiting for room and the consumer waiting for
  // a record, so a stop does not wait for the job in flight to end.
  private readonly onAbort = () => {
    this.freeRoom();
    this.notify();
  };
}
