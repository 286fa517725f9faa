// How many scan workers, and how much heap each may use, from the machine's cores and memory:
// one answer for the library's scan() and for the `levelkit` entry, which starts workers before
// the library loads (cli/bin.ts), so it imports nothing but node:os.
import { availableParallelism, totalmem } from 'node:os';

/** Workers per core at most: more only adds threads (each ~10 MB and a V8 isolate) that wait for a core. */
export const WORKERS_PER_CORE = 4;
/** Smallest worker heap accepted: below this V8 cannot start the decoder at all. */
export const MIN_WORKER_MEMORY_MB = 16;
/** Bounds of the default worker heap (MiB): enough for any level the default limits admit, and V8's usual ceiling. */
const DEFAULT_MEMORY_FLOOR_MB = 256;
const DEFAULT_MEMORY_CEILING_MB = 4096;

/** The most workers a scan runs: WORKERS_PER_CORE × the cores this process may use. */
export function maxWorkers(): number {
  return WORKERS_PER_CORE * availableParallelism();
}

/**
 * Each worker's heap limit in MiB: `asked` (--worker-memory) when given, else the process's own
 * `--max-old-space-size`, else half the machine's memory shared by the `workers`, between 256 MiB
 * and 4 GiB. Without a limit a file that makes a decoder build millions of objects would take the
 * machine's memory (every worker's together) before V8 stopped it.
 */
export function workerMemoryMb(asked: number | undefined, workers: number): number {
  if (asked !== undefined) return asked;
  const flag = heapFlagMb(process.execArgv);
  if (flag !== undefined) return flag;
  const share = Math.floor(totalmem() / 2 ** 20 / 2 / Math.max(1, workers));
  return Math.min(DEFAULT_MEMORY_CEILING_MB, Math.max(DEFAULT_MEMORY_FLOOR_MB, share));
}

/** `--max-old-space-size=N` (or with underscores) among Node's flags: the main heap's limit. */
function heapFlagMb(argv: readonly string[]): number | undefined {
  let mb: number | undefined;
  for (const a of argv) {
    const m = /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(a);
    if (m) mb = Number(m[1]);
  }
  return mb;
}
