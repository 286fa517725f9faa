// Starts the fuzz worker with a wall-clock limit: a decoder that hangs fails the test.
import { Worker } from 'node:worker_threads';
import type { FuzzJob, FuzzReport } from './fuzz-worker.js';

export function fuzz(job: FuzzJob, timeoutMs = 100_000): Promise<FuzzReport> {
  return new Promise((resolve, reject) => {
    // Node 20 ignores `--import tsx` in a worker's execArgv (the .ts entry then fails to load), so
    // the worker registers tsx's hooks itself before importing the TypeScript entry.
    const entry = JSON.stringify(new URL('./fuzz-worker.ts', import.meta.url).href);
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); });`;
    const worker = new Worker(boot, { eval: true, workerData: job });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`fuzz run did not finish within ${timeoutMs} ms (a decoder hangs?) seed=${job.seed}`));
    }, timeoutMs);
    worker.once('message', (r: FuzzReport) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(r);
    });
    worker.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}
