// The scan worker under Node (worker_threads): receives the compiled WASM module once, then
// batches of items (job.ts). For each item it marks in the shared progress slots which one it is
// on (so the pool can time each file and name the one that hung or crashed), reads it
// (item-node.ts), scans it (job.ts) and sends the results back, per batch or every few tens of
// milliseconds in a long one. dist/scan-worker.mjs is built from this file.
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { emptyIndexText, type IndexText } from '../archive-index/rows-text.js';
import { init } from '../index.js';
import { baseOf, type ReadOutcome, readFileItem, readMemberItem } from './item-node.js';
import {
  type BatchMessage,
  type BatchResult,
  type ItemResult,
  noStageTimes,
  PROGRESS_BATCH,
  PROGRESS_INDEX,
  PROGRESS_STARTED,
  type ScanConfig,
  type ScanItem,
  type StageTimes,
  scanBytes,
} from './job.js';
import { jsonText } from './json-text.js';
import { procCpuMs } from './thread-cpu.js';

const port = parentPort;
if (!port) throw new Error('levelkit: scan-worker runs only as a worker thread');
const data = workerData as { wasm: WebAssembly.Module | null; wasmByMessage?: true };
/** The pool's compiled module: in workerData, or for a worker started before the pool existed (pool-node.ts, prestartScanWorkers) in its first message. */
const wasm: Promise<WebAssembly.Module | null> = data.wasmByMessage
  ? new Promise((resolve) => port.once('message', (m: { wasm: WebAssembly.Module | null }) => resolve(m.wasm)))
  : Promise.resolve(data.wasm);
// The module was compiled once by the pool; instantiating it is cheap.
const ready = wasm.then((m) => (m ? init(m) : undefined));
const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const exit = () => process.exit(70);
/**
 * This thread's CPU time in ms (Linux), or -1 where the host cannot tell. The file is opened per
 * call (a handle kept open would outlive a worker the pool terminates: descriptors belong to the process).
 */
const threadCpuMs = () => {
  const ms = procCpuMs('thread-self');
  return Number.isNaN(ms) ? -1 : ms;
};
// Tells the pool this worker can take jobs (a module that failed to instantiate leaves the JS kernels).
ready.then(
  () => port.postMessage('ready'),
  () => port.postMessage('ready'),
);

/** A long batch sends what it has at least this often, so results stream and a timeout loses little. */
const POST_EVERY_MS = 50;

// Batches come after 'ready', so never the module's message (port.once above takes that first).
wasm.then(() =>
  port.on('message', (msg: BatchMessage) => {
    const run = () => runBatch(msg);
    ready.then(run, run);
  }),
);

function runBatch(msg: BatchMessage): void {
  const progress = new Int32Array(msg.progress);
  let stages = noStageTimes();
  let results: (ItemResult | null)[] = [];
  let lines: string[] = [];
  let index = msg.config.index ? emptyIndexText() : undefined;
  let from = 0;
  let lastPost = performance.now();
  for (let i = 0; i < msg.items.length; i++) {
    const now = performance.now();
    Atomics.store(progress, PROGRESS_STARTED, Math.round(performance.timeOrigin + now - msg.epoch));
    Atomics.store(progress, PROGRESS_INDEX, i);
    Atomics.store(progress, PROGRESS_BATCH, msg.batch);
    const r = scanItem(msg.items[i]!, msg.config, stages, index);
    if ('record' in r) {
      results.push(null);
      lines.push(jsonText(r.record));
    } else results.push(r);
    if (i + 1 < msg.items.length && performance.now() - lastPost >= POST_EVERY_MS) {
      port!.postMessage({
        batch: msg.batch,
        from,
        results,
        lines: lines.join('\n'),
        done: false,
        ...(index ? { index } : {}),
        stages,
        cpuMs: threadCpuMs(),
      } satisfies BatchResult);
      from = i + 1;
      results = [];
      lines = [];
      if (index) index = emptyIndexText();
      stages = noStageTimes();
      lastPost = performance.now();
    }
  }
  port!.postMessage({
    batch: msg.batch,
    from,
    results,
    lines: lines.join('\n'),
    done: true,
    ...(index ? { index } : {}),
    stages,
    cpuMs: threadCpuMs(),
  } satisfies BatchResult);
}

function scanItem(item: ScanItem, config: ScanConfig, stages: StageTimes, index: IndexText | undefined): ItemResult {
  const t0 = performance.now();
  const base = baseOf(item.path, item.kind === 'file' ? null : item.member);
  let read: ReadOutcome | { opened: Uint8Array };
  if (item.kind === 'file') read = readFileItem(item.path, item.named, config, base, undefined, item);
  else if (item.kind === 'bytes') read = { bytes: item.bytes, levelName: item.levelName };
  else read = readMemberItem(item, item.member, base);
  stages.read += performance.now() - t0;
  if ('bytes' in read) return { record: scanBytes(base, read.bytes, read.levelName, config, item.fault, hash, exit, stages, index) };
  if ('opened' in read) {
    // A nested zip the scan will list: shared, so each of its members' items can point into it.
    const shared = new SharedArrayBuffer(read.opened.length);
    new Uint8Array(shared).set(read.opened);
    return { opened: shared, size: read.opened.length };
  }
  return read;
}
