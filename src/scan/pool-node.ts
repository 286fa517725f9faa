// The pool's workers under Node: worker_threads running worker-node.ts (from source, through
// tsx) or dist/scan-worker.mjs (built), each handed the WASM module compiled once.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SpawnWorker } from './pool.js';

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './worker-node.ts' : './scan-worker.mjs', import.meta.url);

export function nodeWorkers(wasm: WebAssembly.Module | null): SpawnWorker {
  return (message, died) => {
    const w = FROM_SOURCE
      ? new Worker(sourceBootstrap(), { eval: true, workerData: { wasm } })
      : new Worker(WORKER_URL, { workerData: { wasm }, execArgv: workerExecArgv() });
    let gone = false;
    w.on('message', message);
    w.on('error', (e) => {
      if (!gone) {
        gone = true;
        died(`worker threw: ${(e as Error)?.message ?? e}`);
      }
    });
    w.on('exit', (code) => {
      if (!gone) {
        gone = true;
        died(`worker exited with code ${code}`);
      }
    });
    // Not unref'd: while the pool is open its workers are what keeps the process running (a
    // scan waiting for a worker to start has nothing else pending); close() terminates them.
    return {
      post: (job, transfer) => w.postMessage(job, transfer),
      terminate: () => {
        gone = true;
        void w.terminate();
      },
    };
  };
}

/** From source (tests, `npm run levelkit`), a worker first registers tsx's loader, then imports the TypeScript entry. */
function sourceBootstrap(): string {
  // The ESM build of tsx's API (require.resolve would give the CommonJS one).
  const api = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(WORKER_URL.href)}); });`;
}

/** The process's Node flags minus those that only make sense for the main script (`node --input-type=module -e …` would kill every worker). */
function workerExecArgv(): string[] {
  return process.execArgv.filter((a) => !/^--(input-type|eval|print)\b|^-[ep]$/.test(a));
}
