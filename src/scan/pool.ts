// A pool of scan workers, written against a minimal worker interface so the same code drives
// Node worker threads (pool-node.ts) now and Web Workers later. A worker takes a batch of items
// at a time (many small files, or one big one), but each file keeps its own time limit: the
// worker marks in shared memory which item it is on and since when, so on expiry the pool knows
// which file hung. That file is answered TIMEOUT (or WORKER_CRASHED when its worker died), the
// worker is replaced, and the batch's unanswered rest goes back to the front of the queue.
import type { IndexBatch } from '../archive-index/level-rows.js';
import {
  type BatchMessage,
  type BatchResult,
  type ItemResult,
  type LostItem,
  noStageTimes,
  PROGRESS_BATCH,
  PROGRESS_INDEX,
  PROGRESS_RULE,
  PROGRESS_SLOTS,
  PROGRESS_STARTED,
  type ScanConfig,
  type ScanItem,
  type StageTimes,
} from './job.js';

/** What the pool needs of a worker. */
export interface PoolWorker<C = ScanConfig> {
  post(batch: BatchMessage<C>, transfer: ArrayBuffer[]): void;
  terminate(): void;
}

/** What a slot holds for the moment before start() spawns its worker (start() replaces it at once). */
const NOT_STARTED: PoolWorker<never> = { post() {}, terminate() {} };

/**
 * Starts one worker; it calls `message` with `'ready'` once it can take batches (code loaded,
 * WASM instantiated), then with each batch's results, and `died` once if it exits or throws
 * (`cause` 'memory': it reached its heap limit).
 */
export type SpawnWorker<C = ScanConfig, R = ItemResult> = (
  message: (r: BatchResult<R> | 'ready') => void,
  died: (reason: string, cause?: 'memory') => void,
) => PoolWorker<C>;

/** One file for the pool: the item and its size as declared (file system or zip directory), for batching and its time limit. */
export interface PoolTask {
  item: ScanItem;
  size: number;
}

/** An item's answer: the worker's result, or why there is none. */
export type PoolAnswer<R = ItemResult> = R | LostItem;

/** A batch holds at most this many files… */
export const BATCH_FILES = 64;
/** …and at most this many declared bytes (a bigger file goes alone). */
export const BATCH_BYTES = 4 << 20;
/** Time limits are for files up to this size; a bigger one gets proportionally more. */
const TIMEOUT_SCALE_BYTES = 8 << 20;
/** The longest delay setTimeout honours (it turns anything longer into 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Workers dying in a row before ready, after which the pool stops replacing them. */
const START_FAILURES = 4;

interface Slot<T extends PoolTask, C> {
  worker: PoolWorker<C>;
  ready: boolean;
  batch: T[] | null;
  batchId: number;
  /** Index in `batch` of the first item not answered yet. */
  next: number;
  postedAt: number;
  timer: ReturnType<typeof setTimeout> | null;
  generation: number;
  progress: Int32Array;
  /** CPU time its worker reported last (ms; -1: unknown). */
  cpuMs: number;
}

/**
 * `C`, `R`: the config every batch carries and an item's answer: a scan's by default; `levelkit
 * render` runs its own worker script (decode, draw, PNG) on the same pool.
 */
export class Pool<T extends PoolTask, C = ScanConfig, R = ItemResult> {
  private readonly slots: Slot<T, C>[] = [];
  private readonly queue = new Deque<T>();
  private queuedBytes = 0;
  private closed = false;
  private nextBatch = 1;
  /** The clock workers stamp PROGRESS_STARTED with (ms), shared by every thread of the process. */
  private readonly epoch = performance.timeOrigin + performance.now();
  /** Workers replaced after a hang or a crash. */
  replaced = 0;
  /** Workers in a row that died before they were ready; set `broken` at START_FAILURES. */
  private startFailures = 0;
  /** Why no worker can start (then every task is answered at once with this reason). */
  broken: string | null = null;
  /** Receives the index rows workers send (config.index), each message's before its records are answered. */
  onIndex: ((batch: IndexBatch) => void) | null = null;
  /** The workers' time per stage, summed over every batch answered so far. */
  readonly stages: StageTimes = noStageTimes();
  /** CPU time of workers already replaced (ms). */
  private retiredCpuMs = 0;

  /** Tasks pushed so far: a worker is started only for a task no started worker accounts for. */
  private pushed = 0;

  constructor(
    private readonly spawn: SpawnWorker<C, R>,
    /** The most workers this pool runs; each is started when the tasks pushed outnumber the workers started. */
    private readonly size: number,
    private readonly config: C,
    private readonly timeoutMs: number,
    /** Called once per task pushed, with its answer. */
    private readonly answer: (task: T, a: PoolAnswer<R>) => void,
    /** Most files and declared bytes per batch: a scan's (many small files per message) unless told otherwise. */
    private readonly batchLimits: { files: number; bytes: number } = { files: BATCH_FILES, bytes: BATCH_BYTES },
  ) {}

  /** Starts one more worker while there are fewer than `size` and than the tasks pushed, so one file never starts 256 threads. */
  private grow(): void {
    if (this.slots.length >= this.size || this.slots.length >= this.pushed || this.closed) return;
    const progress = new Int32Array(new SharedArrayBuffer(PROGRESS_SLOTS * 4));
    const slot: Slot<T, C> = {
      worker: NOT_STARTED,
      ready: false,
      batch: null,
      batchId: 0,
      next: 0,
      postedAt: 0,
      timer: null,
      generation: 0,
      progress,
      cpuMs: 0,
    };
    this.slots.push(slot);
    this.start(slot);
  }

  /** The workers' CPU time so far (ms, replaced workers included), or -1 where the host cannot tell. */
  get workerCpuMs(): number {
    let sum = this.retiredCpuMs;
    for (const s of this.slots) {
      if (s.cpuMs < 0) return -1;
      sum += s.cpuMs;
    }
    return sum;
  }

  /**
   * Set once nothing more will be pushed (the walk and every zip listing are done). From then on
   * batches shrink with the queue, so the workers run out of work together instead of one
   * finishing a full batch alone while the others wait (see dispatch).
   */
  draining = false;

  /** Tasks waiting for a worker. */
  get queued(): number {
    return this.queue.length;
  }

  /** Queues a task (answered later through `answer`); `dispatch` hands queued tasks to idle workers. */
  push(task: T): void {
    if (this.broken) {
      this.answer(task, { crashed: this.broken });
      return;
    }
    this.queue.push(task);
    this.queuedBytes += task.size;
    this.pushed++;
    this.grow();
  }

  /** Time limit of one file, in ms. */
  limitOf(task: PoolTask): number {
    // A huge --timeout must mean "very long", not "at once".
    return Math.min(MAX_TIMER_MS, Math.round(this.timeoutMs * Math.max(1, task.size / TIMEOUT_SCALE_BYTES)));
  }

  /**
   * Hands batches to idle, ready workers. `partial`: also a batch smaller than a full one (the
   * producers are waiting or done, or a worker would otherwise sit idle).
   */
  dispatch(partial: boolean): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.batch || !slot.ready) continue;
      if (this.queue.length === 0) return;
      const { files, bytes: batchBytes } = this.batchLimits;
      if (!partial && this.queue.length < files && this.queuedBytes < batchBytes) return;
      // Draining: each batch takes at most a (2 × workers)th of what is left, by count and by
      // bytes (guided self-scheduling), so the last batches are small and the tail is shared.
      const share = 2 * this.slots.length;
      const maxFiles = this.draining ? Math.min(files, Math.ceil(this.queue.length / share)) : files;
      const maxBytes = this.draining ? Math.min(batchBytes, Math.ceil(this.queuedBytes / share)) : batchBytes;
      const batch: T[] = [];
      let bytes = 0;
      while (this.queue.length && batch.length < maxFiles) {
        const t = this.queue.peek()!;
        if (batch.length && bytes + t.size > maxBytes) break;
        this.queue.shift();
        this.queuedBytes -= t.size;
        bytes += t.size;
        batch.push(t);
      }
      this.post(slot, batch);
    }
  }

  /** Terminates every worker; tasks not answered yet are dropped. */
  close(): void {
    this.closed = true;
    for (const s of this.slots) {
      if (s.timer) clearTimeout(s.timer);
      s.worker.terminate();
    }
  }

  private post(slot: Slot<T, C>, batch: T[]): void {
    slot.batch = batch;
    slot.batchId = this.nextBatch++;
    slot.next = 0;
    slot.postedAt = this.now();
    const transfer: ArrayBuffer[] = [];
    for (const t of batch) {
      // Bytes the scan read itself are moved, not copied (only when the view is the whole buffer).
      if (t.item.kind === 'bytes' && t.item.bytes.buffer instanceof ArrayBuffer && t.item.bytes.buffer.byteLength === t.item.bytes.byteLength)
        transfer.push(t.item.bytes.buffer);
    }
    this.arm(slot, this.limitOf(batch[0]!));
    slot.worker.post(
      { batch: slot.batchId, items: batch.map((t) => t.item), config: this.config, progress: slot.progress.buffer as SharedArrayBuffer, epoch: this.epoch },
      transfer,
    );
  }

  private now(): number {
    return performance.timeOrigin + performance.now();
  }

  private arm(slot: Slot<T, C>, ms: number): void {
    const generation = slot.generation;
    const batchId = slot.batchId;
    slot.timer = setTimeout(() => {
      slot.timer = null;
      if (slot.generation === generation && slot.batchId === batchId && slot.batch) this.check(slot);
    }, ms);
  }

  /** The item the worker is on and when it started it (the first unanswered one, from when the batch was posted, until the worker marks one). */
  private current(slot: Slot<T, C>): { index: number; started: number; rule: number } {
    const p = slot.progress;
    if (Atomics.load(p, PROGRESS_BATCH) !== slot.batchId) return { index: slot.next, started: slot.postedAt, rule: 0 };
    const index = Atomics.load(p, PROGRESS_INDEX);
    const started = this.epoch + Atomics.load(p, PROGRESS_STARTED);
    // An item already answered: the worker is between it and the next one.
    return index < slot.next ? { index: slot.next, started: this.now(), rule: 0 } : { index, started, rule: Atomics.load(p, PROGRESS_RULE) };
  }

  /** A slot's timer went off: the file it is on is over its limit (TIMEOUT), or the timer is set for that file's deadline. */
  private check(slot: Slot<T, C>): void {
    const { index, started, rule } = this.current(slot);
    const batch = slot.batch!;
    const task = batch[Math.min(index, batch.length - 1)]!;
    const limit = this.limitOf(task);
    const left = started + limit - this.now();
    if (left > 0) {
      this.arm(slot, Math.ceil(left));
      return;
    }
    // A decoder in an endless loop never yields, so the only way out is to end its thread.
    this.lose(slot, index, rule ? { timeout: limit, rule } : { timeout: limit });
  }

  /** Ends the slot's worker: the item at `index` gets `why`, the batch's other unanswered items go back to the queue. */
  private lose(slot: Slot<T, C>, index: number, why: LostItem): void {
    const batch = slot.batch;
    const from = slot.next;
    this.replace(slot);
    if (batch) {
      const i = Math.min(Math.max(index, from), batch.length - 1);
      for (let k = batch.length - 1; k >= from; k--)
        if (k !== i) {
          this.queue.unshift(batch[k]!);
          this.queuedBytes += batch[k]!.size;
        }
      this.answer(batch[i]!, why);
    }
    this.dispatch(true);
  }

  private start(slot: Slot<T, C>): Slot<T, C> {
    const generation = ++slot.generation;
    // A late message or exit from a worker already replaced must not touch its successor's batch.
    const current = () => slot.generation === generation;
    slot.ready = false;
    slot.worker = this.spawn(
      (r) => {
        if (!current()) return;
        // A file's clock starts only once its worker has started: loading code is not decoding.
        if (r === 'ready') {
          slot.ready = true;
          this.startFailures = 0;
          this.dispatch(true);
          return;
        }
        this.receive(slot, r);
      },
      (reason, cause) => {
        if (!current() || this.closed) return;
        // Workers that die before they can take a batch (bad flags, missing files) would be
        // replaced for ever: after a few in a row, the pool gives up and answers every task.
        if (!slot.ready && ++this.startFailures >= START_FAILURES) {
          this.giveUp(`no worker could start: ${reason}`);
          return;
        }
        this.lose(slot, slot.batch ? this.current(slot).index : 0, cause === 'memory' ? { crashed: reason, outOfMemory: true } : { crashed: reason });
      },
    );
    return slot;
  }

  private receive(slot: Slot<T, C>, r: BatchResult<R>): void {
    const batch = slot.batch;
    if (!batch || r.batch !== slot.batchId) return;
    const s = this.stages;
    s.read += r.stages.read;
    s.detect += r.stages.detect;
    s.decode += r.stages.decode;
    s.hash += r.stages.hash;
    s.record += r.stages.record;
    slot.cpuMs = r.cpuMs;
    slot.next = r.from + r.results.length;
    // Before the records they belong to, so a consumer has a level's rows when it sees its record.
    if (r.index) this.onIndex?.(r.index);
    if (r.done) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      slot.batch = null;
    }
    // The worker's next batch first: answering may take a while (render writes each PNG here).
    if (r.done) this.dispatch(true);
    let at = 0;
    for (let k = 0; k < r.results.length; k++) {
      let a = r.results[k] as R | null;
      if (a === null) {
        const end = r.lines.indexOf('\n', at);
        // Only a scan's workers answer with lines, and a scan's answers include them.
        a = { line: r.lines.slice(at, end < 0 ? r.lines.length : end) } as R;
        at = end + 1;
      }
      this.answer(batch[r.from + k]!, a as R);
    }
    // And whatever answering queued (a zip's members).
    if (r.done) this.dispatch(true);
  }

  private giveUp(reason: string): void {
    this.broken = reason;
    this.close();
    for (const s of this.slots) {
      const batch = s.batch;
      s.batch = null;
      if (batch) for (let k = s.next; k < batch.length; k++) this.answer(batch[k]!, { crashed: reason });
    }
    while (this.queue.length) this.answer(this.queue.shift()!, { crashed: reason });
  }

  private replace(slot: Slot<T, C>): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.batch = null;
    slot.worker.terminate();
    if (slot.cpuMs > 0) this.retiredCpuMs += slot.cpuMs;
    slot.cpuMs = 0;
    this.replaced++;
    this.start(slot);
  }
}

/** A FIFO with O(1) push and shift that can also put items back at its front. */
class Deque<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }
  push(t: T): void {
    this.items.push(t);
  }
  peek(): T | undefined {
    return this.items[this.head];
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const t = this.items[this.head]!;
    this.items[this.head++] = undefined as T;
    // Drop the consumed front now and then, so the array does not grow with every task ever queued.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return t;
  }
  unshift(t: T): void {
    if (this.head > 0) this.items[--this.head] = t;
    else this.items.unshift(t);
  }
}
