// The scan worker under Node (worker_threads): receives the compiled WASM module once, then jobs
// (job.ts), and answers each with its result. dist/scan-worker.mjs is built from this file.
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { init } from '../index.js';
import { type JobMessage, runJob } from './job.js';

const port = parentPort;
if (!port) throw new Error('levelkit: scan-worker runs only as a worker thread');
const data = workerData as { wasm: WebAssembly.Module | null };
// The module was compiled once by the pool and posted here; instantiating it is cheap.
const ready = data.wasm ? init(data.wasm) : Promise.resolve();
const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
// Tells the pool this worker can take jobs (a module that failed to instantiate leaves the JS kernels).
ready.then(
  () => port.postMessage('ready'),
  () => port.postMessage('ready'),
);

port.on('message', (job: JobMessage) => {
  ready.then(
    () => port.postMessage(runJob(job, hash, () => process.exit(70))),
    () => port.postMessage(runJob(job, hash, () => process.exit(70))),
  );
});
