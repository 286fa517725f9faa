// A pool of scan workers, written against a minimal worker interface so the same code drives
// Node worker threads (pool-node.ts) now and Web Workers later. Each worker runs one job at a
// time, so a job's time limit is its own; a worker that times out is terminated and one that
// dies is replaced, and either way its job is answered (TIMEOUT / WORKER_CRASHED), never lost.
import type { JobMessage, JobResult } from './job.js';

/** What the pool needs of a worker. */
export interface PoolWorker {
  post(job: JobMessage, transfer: ArrayBuffer[]): void;
  terminate(): void;
}

/** What a slot holds for the moment before start() spawns its worker (start() replaces it at once). */
const NOT_STARTED: PoolWorker = { post() {}, terminate() {} };

/**
 * Starts one worker; it calls `message` with `'ready'` once it can take jobs (code loaded, WASM
 * instantiated), then with each result, and `died` once if it exits or throws (`cause` 'memory':
 * it reached its heap limit).
 */
export type SpawnWorker = (message: (r: JobResult | 'ready') => void, died: (reason: string, cause?: 'memory') => void) => PoolWorker;

/** A job's answer: the worker's result, or why there is none. */
export type PoolAnswer = JobResult | { id: number; timeout: number } | { id: number; crashed: string; outOfMemory?: true };

/** Workers dying in a row before ready, after which the pool stops replacing them. */
const START_FAILURES = 4;

interface Pending {
  job: JobMessage;
  timeoutMs: number;
  resolve: (a: PoolAnswer) => void;
}
interface Slot {
  worker: PoolWorker;
  ready: boolean;
  busy: Pending | null;
  timer: ReturnType<typeof setTimeout> | null;
  generation: number;
}

export class Pool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private closed = false;
  /** Workers replaced after a hang or a crash. */
  replaced = 0;
  /** Workers in a row that died before they were ready; set `broken` at START_FAILURES. */
  private startFailures = 0;
  /** Why no worker can start (then every job is answered at once with this reason). */
  broken: string | null = null;

  constructor(
    private readonly spawn: SpawnWorker,
    size: number,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.start({ worker: NOT_STARTED, ready: false, busy: null, timer: null, generation: 0 }));
  }

  /** Jobs waiting plus jobs running. */
  get load(): number {
    return this.queue.length + this.slots.filter((s) => s.busy).length;
  }

  /** Runs `job` (its bytes are transferred) with a time limit; always resolves. */
  run(job: JobMessage, timeoutMs: number): Promise<PoolAnswer> {
    return new Promise((resolve) => {
      if (this.broken) {
        resolve({ id: job.id, crashed: this.broken });
        return;
      }
      this.queue.push({ job, timeoutMs, resolve });
      this.dispatch();
    });
  }

  /** Terminates every worker; jobs not answered yet are dropped. */
  close(): void {
    this.closed = true;
    for (const s of this.slots) {
      if (s.timer) clearTimeout(s.timer);
      s.worker.terminate();
    }
  }

  private start(slot: Slot): Slot {
    const generation = ++slot.generation;
    // A late message or exit from a worker already replaced must not touch its successor's job.
    const current = () => slot.generation === generation;
    slot.ready = false;
    slot.worker = this.spawn(
      (r) => {
        if (!current()) return;
        // A job's clock starts only once its worker has started: loading code is not decoding.
        if (r === 'ready') {
          slot.ready = true;
          this.startFailures = 0;
          this.dispatch();
          return;
        }
        if (slot.busy && r.id === slot.busy.job.id) this.finish(slot, r);
      },
      (reason, cause) => {
        if (!current() || this.closed) return;
        // Workers that die before they can take a job (bad flags, missing files) would be
        // replaced for ever: after a few in a row, the pool gives up and answers every job.
        if (!slot.ready && ++this.startFailures >= START_FAILURES) {
          this.giveUp(`no worker could start: ${reason}`);
          return;
        }
        const p = slot.busy;
        this.replace(slot);
        if (p) p.resolve(cause === 'memory' ? { id: p.job.id, crashed: reason, outOfMemory: true } : { id: p.job.id, crashed: reason });
      },
    );
    return slot;
  }

  private giveUp(reason: string): void {
    this.broken = reason;
    this.close();
    for (const s of this.slots) if (s.busy) s.busy.resolve({ id: s.busy.job.id, crashed: reason });
    for (const p of this.queue.splice(0)) p.resolve({ id: p.job.id, crashed: reason });
  }

  private replace(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
    slot.worker.terminate();
    this.replaced++;
    this.start(slot);
    this.dispatch();
  }

  private finish(slot: Slot, r: PoolAnswer): void {
    const p = slot.busy!;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
    p.resolve(r);
    this.dispatch();
  }

  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.busy || !slot.ready) continue;
      const p = this.queue.shift();
      if (!p) return;
      slot.busy = p;
      slot.timer = setTimeout(() => {
        // A decoder in an endless loop never yields, so the only way out is to end its thread.
        this.replace(slot);
        p.resolve({ id: p.job.id, timeout: p.timeoutMs });
      }, p.timeoutMs);
      const buf = p.job.bytes.buffer as ArrayBuffer;
      slot.worker.post(p.job, buf.byteLength === p.job.bytes.byteLength ? [buf] : []);
    }
  }
}
