// The loop every pool worker under Node (worker_threads) runs: receives the compiled WASM module
// once, says 'ready', then takes batches of items (job.ts). Before each item it marks in the shared
// progress slots which one it is on (so the pool can time each file and name the one that hung or
// crashed), works on it (`work`: a scan's record, a render's picture) and sends the answers back,
// per batch or every few tens of milliseconds in a long one.
import { parentPort, workerData } from 'node:worker_threads';
import type { LevelRowsBuilder } from '../archive-index/level-rows.js';
import { batchBuffers } from '../archive-index/parquet/columns.js';
import { init } from '../index.js';
import {
  type BatchMessage,
  type BatchResult,
  markRulesIn,
  noStageTimes,
  PROGRESS_BATCH,
  PROGRESS_INDEX,
  PROGRESS_RULE,
  PROGRESS_STARTED,
  type ScanItem,
  type StageTimes,
} from './job.js';
import { procCpuMs } from './thread-cpu.js';

/** A long batch sends what it has at least this often, so results stream and a timeout loses little. */
const POST_EVERY_MS = 50;

/**
 * This thread's CPU time in ms (Linux), or -1 where the host cannot tell. The file is opened per
 * call (a handle kept open would outlive a worker the pool terminates: descriptors belong to the process).
 */
function threadCpuMs(): number {
  const ms = procCpuMs('thread-self');
  return Number.isNaN(ms) ? -1 : ms;
}

/**
 * Serves the pool from this worker thread. `work` answers one item and never throws; `asLine`
 * turns an answer that is a record into the text of its JSON line (sent as one string with the
 * batch's other lines: cheaper across threads than one object per record), else undefined.
 * `indexRows`: for a scan with `--index`, the builder a batch gathers archive-index rows in; `work`
 * adds its levels' rows to it, and each message takes them along (their buffers moved, not copied).
 */
export function serveBatches<C, R>(
  work: (item: ScanItem, config: C, stages: StageTimes, index: LevelRowsBuilder | undefined) => R,
  asLine: (r: R) => string | undefined = () => undefined,
  indexRows: (config: C) => LevelRowsBuilder | undefined = () => undefined,
): void {
  const port = parentPort;
  if (!port) throw new Error('levelkit: a pool worker runs only as a worker thread');
  const data = workerData as { wasm: WebAssembly.Module | null; wasmByMessage?: true };
  /** The pool's compiled module: in workerData, or for a worker started before the pool existed (pool-node.ts, prestartScanWorkers) in its first message. */
  const wasm: Promise<WebAssembly.Module | null> = data.wasmByMessage
    ? new Promise((resolve) => port.once('message', (m: { wasm: WebAssembly.Module | null }) => resolve(m.wasm)))
    : Promise.resolve(data.wasm);
  // The module was compiled once by the pool; instantiating it is cheap.
  const ready = wasm.then((m) => (m ? init(m) : undefined));
  // Tells the pool this worker can take jobs (a module that failed to instantiate leaves the JS kernels).
  ready.then(
    () => port.postMessage('ready'),
    () => port.postMessage('ready'),
  );

  const runBatch = (msg: BatchMessage<C>): void => {
    const progress = new Int32Array(msg.progress);
    markRulesIn(progress);
    let stages = noStageTimes();
    let results: (R | null)[] = [];
    let lines: string[] = [];
    const index = indexRows(msg.config);
    let from = 0;
    let lastPost = performance.now();
    const send = (done: boolean) => {
      const rows = index?.take() ?? null;
      port.postMessage(
        {
          batch: msg.batch,
          from,
          results,
          lines: lines.join('\n'),
          done,
          ...(rows ? { index: rows } : {}),
          stages,
          cpuMs: threadCpuMs(),
        } satisfies BatchResult<R>,
        rows ? batchBuffers(rows) : [],
      );
    };
    for (let i = 0; i < msg.items.length; i++) {
      const now = performance.now();
      Atomics.store(progress, PROGRESS_RULE, 0);
      Atomics.store(progress, PROGRESS_STARTED, Math.round(performance.timeOrigin + now - msg.epoch));
      Atomics.store(progress, PROGRESS_INDEX, i);
      Atomics.store(progress, PROGRESS_BATCH, msg.batch);
      const r = work(msg.items[i]!, msg.config, stages, index);
      const line = asLine(r);
      if (line !== undefined) {
        results.push(null);
        lines.push(line);
      } else results.push(r);
      if (i + 1 < msg.items.length && performance.now() - lastPost >= POST_EVERY_MS) {
        send(false);
        from = i + 1;
        results = [];
        lines = [];
        stages = noStageTimes();
        lastPost = performance.now();
      }
    }
    send(true);
  };

  // Batches come after 'ready', so never the module's message (port.once above takes that first).
  wasm.then(() =>
    port.on('message', (msg: BatchMessage<C>) => {
      const run = () => runBatch(msg);
      ready.then(run, run);
    }),
  );
}
