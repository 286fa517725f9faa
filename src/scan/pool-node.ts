// The pool's workers under Node: worker_threads running worker-node.ts (from source, through
// tsx) or dist/scan-worker.mjs (built), each handed the WASM module compiled once.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ItemResult, ScanConfig } from './job.js';
import type { SpawnWorker } from './pool.js';

const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * Each worker's young generation, in MiB (V8's default here is 48: three 16 MiB semi-spaces).
 * A worker's allocations live for one file, so a scavenge of a small space finds little alive and
 * is cheap; at V8's default the two workers' young generations were a third of `scan --index`'s
 * peak RSS over the corpus (bench/README.md §Archive index).
 */
export const WORKER_YOUNG_MB = 8;

/** The V8 limits every pool worker starts with. */
function limitsOf(memoryMb: number | undefined): { resourceLimits: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb: number } } {
  return { resourceLimits: { ...(memoryMb === undefined ? {} : { maxOldGenerationSizeMb: memoryMb }), maxYoungGenerationSizeMb: WORKER_YOUNG_MB } };
}
const WORKER_URL = new URL(FROM_SOURCE ? './worker-node.ts' : './scan-worker.mjs', import.meta.url);

export interface NodeWorkerOptions {
  /** Heap limit of each worker in MiB (V8's old generation); a worker that needs more dies and its file is reported. */
  memoryMb?: number;
  /** The worker script, a module calling serveBatches (worker-loop.ts); default the scan's. A `.ts` one is started through tsx. */
  script?: URL;
}

export function nodeWorkers<C = ScanConfig, R = ItemResult>(wasm: WebAssembly.Module | null, opts: NodeWorkerOptions = {}): SpawnWorker<C, R> {
  const script = opts.script ?? WORKER_URL;
  // Decided at the first start, then kept: the flags every worker is given.
  let execArgv: string[] | undefined;
  const memoryMb = opts.memoryMb;
  const resourceLimits = limitsOf(memoryMb);
  const create = (argv: string[]) => {
    // Workers started early are scan workers.
    const early = script === WORKER_URL ? adoptPrestarted(argv, memoryMb) : undefined;
    if (early) {
      early.postMessage({ wasm });
      return early;
    }
    const w = script.pathname.endsWith('.ts')
      ? new Worker(sourceBootstrap(script), { eval: true, workerData: { wasm }, execArgv: argv, ...OWN_STDIO, ...resourceLimits })
      : new Worker(script, { workerData: { wasm }, execArgv: argv, ...OWN_STDIO, ...resourceLimits });
    forwardStdio(w);
    return w;
  };
  return (message, died) => {
    let w: Worker;
    if (execArgv) w = create(execArgv);
    else {
      const attempt = startWithFlags(create, workerExecArgv());
      w = attempt.worker;
      execArgv = attempt.execArgv;
    }
    let gone = false;
    w.on('message', message);
    w.on('error', (e) => {
      if (!gone) {
        gone = true;
        const code = (e as NodeJS.ErrnoException)?.code;
        died(`worker threw: ${(e as Error)?.message ?? e}`, code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : undefined);
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

/** Workers started before the pool (prestartScanWorkers), waiting to be adopted; `alive` turns false if one dies first. */
const prestarted: { worker: Worker; execArgv: string[]; memoryMb: number; alive: boolean }[] = [];

/**
 * Worker output is not piped into this process's stdout and stderr by Node (it would add an
 * `error` listener to each per worker: from 11 workers, Node's MaxListenersExceededWarning on
 * every scan) but forwarded by one listener on the worker's own streams (forwardStdio).
 */
const OWN_STDIO = { stdout: true, stderr: true } as const;

/** Copies what a worker prints (a warning of Node's) to this process's stderr: its stdout is the scan's JSON lines. */
function forwardStdio(w: Worker): void {
  const toStderr = (chunk: Buffer) => process.stderr.write(chunk);
  w.stdout.on('data', toStderr);
  w.stderr.on('data', toStderr);
}

/**
 * Starts `count` scan workers now, for a pool that does not exist yet: the `levelkit` entry
 * (cli/bin.ts) calls this before it loads the CLI and the library, so the workers' start-up
 * (~55 ms each: a Node environment, then the library) runs beside this thread's (~40 ms)
 * instead of after it. They get the WASM module in their first message, when a pool adopts them
 * (same flags and heap limit as it would start with). Until then they are unref'd: one nobody
 * adopts (an output that exists, fewer files than workers) never keeps the process alive. Built
 * code only (from source a worker needs tsx's loader first); a worker that cannot start is skipped.
 */
export function prestartScanWorkers(count: number, memoryMb: number): void {
  if (FROM_SOURCE) return;
  const execArgv = workerExecArgv();
  for (let i = 0; i < count; i++) {
    let worker: Worker;
    try {
      worker = new Worker(WORKER_URL, {
        workerData: { wasm: null, wasmByMessage: true },
        execArgv,
        ...OWN_STDIO,
        ...limitsOf(memoryMb),
      });
    } catch {
      return;
    }
    // Its output is forwarded once it is adopted: a flowing stdio stream would keep the process alive.
    const entry = { worker, execArgv, memoryMb, alive: true };
    // Until adopted: a death is noted (an 'error' with no listener would throw here).
    worker.once('error', () => {
      entry.alive = false;
    });
    worker.once('exit', () => {
      entry.alive = false;
    });
    worker.unref();
    prestarted.push(entry);
  }
}

/** A prestarted worker with these flags and heap limit, still alive, now the pool's (ref'd); or undefined. */
function adoptPrestarted(execArgv: string[], memoryMb: number | undefined): Worker | undefined {
  for (;;) {
    const entry = prestarted.shift();
    if (!entry) return undefined;
    if (!entry.alive) continue;
    if (entry.memoryMb !== memoryMb || entry.execArgv.length !== execArgv.length || entry.execArgv.some((a, i) => a !== execArgv[i])) {
      void entry.worker.terminate();
      continue;
    }
    entry.worker.ref();
    forwardStdio(entry.worker);
    return entry.worker;
  }
}

/**
 * Starts the first worker with the process's flags, less those a worker refuses. Node refuses
 * per-process and V8 flags in a worker's execArgv (`node --max-old-space-size=4096 levelkit scan`
 * would fail every file), and says which in its error; V8 flags are process-wide anyway, so the
 * workers still run under them. If the error cannot be read, workers get no flags at all.
 */
function startWithFlags(create: (argv: string[]) => Worker, wanted: string[]): { worker: Worker; execArgv: string[] } {
  try {
    return { worker: create(wanted), execArgv: wanted };
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e;
    const refused = new Set(/flags: (.*)$/s.exec((e as Error).message)?.[1]?.split(', ') ?? []);
    const kept = wanted.filter((a) => !refused.has(a));
    if (refused.size && kept.length < wanted.length)
      try {
        return { worker: create(kept), execArgv: kept };
      } catch (again) {
        if ((again as NodeJS.ErrnoException)?.code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw again;
      }
    return { worker: create([]), execArgv: [] };
  }
}

/** From source (tests, `npm run levelkit`), a worker first registers tsx's loader, then imports the TypeScript entry. */
export function sourceBootstrap(script: URL): string {
  // The ESM build of tsx's API (require.resolve would give the CommonJS one).
  const api = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(script.href)}); });`;
}

/** The process's Node flags minus those that only make sense for the main script (`node --input-type=module -e …` would kill every worker). */
function workerExecArgv(): string[] {
  return process.execArgv.filter((a) => !/^--(input-type|eval|print)\b|^-[ep]$/.test(a));
}
