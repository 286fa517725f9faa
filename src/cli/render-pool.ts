// Where `levelkit render` draws: one level on the main thread (no worker start-up for `render a.map`),
// more than one on the scan's worker pool (src/scan/pool.ts) running render-worker.ts, each level
// with its time limit, hung or crashed workers replaced. The main thread reads the levels, hands
// their bytes over (transferred, not copied) and writes what comes back; at most a few levels per
// worker are in flight, so memory does not grow with the folder. An AbortSignal stops the run.
import { compileWasm } from '../index.js';
import { lostRecord } from '../scan/job.js';
import { Pool, type PoolTask } from '../scan/pool.js';
import { nodeWorkers } from '../scan/pool-node.js';
import { workerMemoryMb } from '../scan/workers.js';
import type { OutputTarget } from '../scan/write.js';
import type { LevelInput } from './inputs.js';
import type { RenderAnswer, RenderJob } from './render-level.js';
import { tuneTieringForScan } from './tiering.js';

/** One level to draw: its input, where its PNG goes (none: only a sheet cell or a record), its place in the input order. */
export interface RenderWork {
  level: LevelInput;
  target: OutputTarget | undefined;
  index: number;
}

export interface RunnerOptions {
  workers: number;
  /** Time limit per level (ms, scaled up for levels over 8 MiB as in scan). */
  timeoutMs: number;
  job: RenderJob;
  signal?: AbortSignal;
  /** Called once per level added, with its answer (on the main thread). */
  answer: (work: RenderWork, a: RenderAnswer) => void;
  /** Draws one level here (a run of a single level). */
  inProcess: (work: RenderWork) => RenderAnswer;
}

interface RenderTask extends PoolTask {
  work: RenderWork;
}

/** Levels in flight per worker: enough that none waits for its next batch. */
const IN_FLIGHT_PER_WORKER = 8;
/** Levels per message: drawing one takes milliseconds to seconds, so batches stay small and the tail is shared. */
const BATCH = { files: 2, bytes: 16 << 20 };
const WORKER_SCRIPT = new URL(import.meta.url.endsWith('.ts') ? './render-worker.ts' : './render-worker.mjs', import.meta.url);

export class RenderRunner {
  private first: RenderWork | undefined;
  private pool: Pool<RenderTask, RenderJob, RenderAnswer> | undefined;
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly o: RunnerOptions) {
    o.signal?.addEventListener('abort', () => this.wake(), { once: true });
  }

  private get stopped(): boolean {
    return this.o.signal?.aborted === true;
  }

  /** Takes one level; waits while enough are in flight. The first is held: a run of one level never starts a worker. */
  async add(work: RenderWork): Promise<void> {
    if (this.stopped) return;
    if (!this.pool && !this.first) {
      this.first = work;
      return;
    }
    if (!this.pool) {
      this.pool = await this.start();
      this.submit(this.first!);
      this.first = undefined;
    }
    this.submit(work);
    while (this.inFlight >= this.o.workers * IN_FLIGHT_PER_WORKER && !this.stopped) {
      this.pool.dispatch(true);
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** Draws what is left and waits for every answer (or the signal); the workers are ended. */
  async finish(): Promise<void> {
    const first = this.first;
    this.first = undefined;
    if (first && !this.stopped) this.o.answer(first, this.o.inProcess(first));
    const pool = this.pool;
    if (!pool) return;
    try {
      pool.draining = true;
      pool.dispatch(true);
      while (this.inFlight > 0 && !this.stopped) await new Promise<void>((r) => this.waiters.push(r));
    } finally {
      pool.close();
    }
  }

  private async start(): Promise<Pool<RenderTask, RenderJob, RenderAnswer>> {
    // As for scan (tiering.ts): each worker isolate optimises only the hot code, not every lukewarm function again.
    tuneTieringForScan();
    // One compile for the pool, as scan does; a host without WASM leaves the workers on the JS kernels.
    const wasm = this.o.job.decode.backend === 'js' ? null : await compileWasm().catch(() => null);
    const spawn = nodeWorkers<RenderJob, RenderAnswer>(wasm, { script: WORKER_SCRIPT, memoryMb: workerMemoryMb(undefined, this.o.workers) });
    return new Pool<RenderTask, RenderJob, RenderAnswer>(
      spawn,
      this.o.workers,
      this.o.job,
      this.o.timeoutMs,
      (task, a) => {
        this.inFlight--;
        if (!this.stopped) this.o.answer(task.work, 'drawn' in a || 'error' in a ? a : { error: lostRecord({ path: '', member: null }, null, a).error! });
        this.wake();
      },
      BATCH,
    );
  }

  private submit(work: RenderWork): void {
    const { path, member, bytes } = work.level;
    this.inFlight++;
    this.pool!.push({ item: { kind: 'bytes', path: path.toString('latin1'), member, bytes, levelName: true }, size: bytes.length, work });
    this.pool!.dispatch(false);
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }
}
