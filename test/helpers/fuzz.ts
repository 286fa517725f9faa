// Starts the fuzz worker with a wall-clock limit: a decoder that hangs fails the test.
import { Worker } from 'node:worker_threads';
import type { FuzzJob, FuzzReport } from './fuzz-worker.js';

export function fuzz(job: FuzzJob, timeoutMs = 100_000): Promise<FuzzReport> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./fuzz-worker.ts', import.meta.url), { workerData: job, execArgv: ['--import', 'tsx'] });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`fuzz run did not finish within ${timeoutMs} ms (a decoder hangs?) seed=${job.seed}`));
    }, timeoutMs);
    worker.once('message', (r: FuzzReport) => { clearTimeout(timer); void worker.terminate(); resolve(r); });
    worker.once('error', (e) => { clearTimeout(timer); reject(e); });
  });
}
