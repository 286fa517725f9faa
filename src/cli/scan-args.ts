// A scan's command line, checked whole: the one reader of `levelkit scan`'s arguments, used by the
// `levelkit` entry (cli/bin.ts) before it starts any worker, and by the scan command itself. It
// loads neither the library nor the scan (options.ts needs only plain data), so checking costs
// the entry nothing; a mistake is a UsageError before a thread exists.
import { availableParallelism } from 'node:os';
import { printable } from '../scan/names.js';
import { MIN_WORKER_MEMORY_MB, maxWorkers, workerMemoryMb } from '../scan/workers.js';
import { type OptionName, type Parsed, parseCommandArgs, UsageError } from './options.js';

/** The options `levelkit scan` takes. */
export const SCAN_OPTIONS = [
  'out',
  'report',
  'index',
  'resume',
  'check',
  'depth',
  'workers',
  'worker-memory',
  'max-bytes',
  'max-zip-ratio',
  'max-cells',
  'max-inflated',
  'limit',
  'timeout',
  'all',
  'sort',
  'shard',
  'quiet',
  'follow',
  'force',
  'strict',
  'backend',
  'inflate',
  'encoding',
] as const satisfies readonly OptionName[];

/** `--workers` above this is a usage error (below it, past WORKERS_PER_CORE × cores, it is capped). */
const MOST_WORKERS_ASKED = 1024;

/** What a scan's own options say, checked. */
export interface ScanSettings {
  /** Workers to run: --workers (default: the cores), capped at WORKERS_PER_CORE × cores. */
  workers: number;
  /** --workers as given, when the cap lowered it (the CLI says so). */
  cappedFrom?: number;
  /** --worker-memory, when given. */
  workerMemoryMb?: number;
  timeoutSeconds: number;
  depth: 'cheap' | 'full';
  /** --index: the archive index's folder. */
  index?: string;
  /** --resume: skip what the index already holds. */
  resume: boolean;
  /** --check: the index gets a findings table. */
  check: boolean;
  shard?: { index: number; count: number };
  quiet: boolean;
}

/** Checks the scan's own options (the shared ones were checked by parseCommandArgs); throws UsageError naming the option. */
export function scanSettings({ positionals, raw }: Parsed, env: NodeJS.ProcessEnv = process.env): ScanSettings {
  if (positionals.length === 0) throw new UsageError('scan needs at least one file, folder or zip');
  const asked = askedWorkers(raw.workers as string | undefined);
  const workers = Math.min(asked, maxWorkers());
  const timeoutSeconds = raw.timeout === undefined ? 5 : positiveNumber('timeout', raw.timeout as string);
  const memory = raw['worker-memory'] === undefined ? undefined : wholeNumber('worker-memory', raw['worker-memory'] as string, MIN_WORKER_MEMORY_MB, 2 ** 20);
  const index = raw.index as string | undefined;
  if (index === '') throw new UsageError('--index needs a folder: --index "" names none');
  if (raw.resume && index === undefined) throw new UsageError('--resume needs --index <dir> (it resumes from what the index holds)');
  if (raw.check && index === undefined) throw new UsageError('--check writes findings into the index: it needs --index <dir> (levelkit check prints them)');
  const depth = (raw.depth ?? (index === undefined ? 'cheap' : 'full')) as string;
  if (depth !== 'cheap' && depth !== 'full') throw new UsageError(`--depth must be cheap or full; got '${printable(depth)}'`);
  if (index !== undefined && depth !== 'full') throw new UsageError('--index holds every layer and object: it needs --depth full (the default with --index)');
  const shard = raw.shard === undefined ? undefined : parseShard(raw.shard as string, env);
  return {
    workers,
    ...(workers < asked ? { cappedFrom: asked } : {}),
    ...(memory === undefined ? {} : { workerMemoryMb: memory }),
    timeoutSeconds,
    depth,
    ...(index === undefined ? {} : { index }),
    resume: raw.resume === true,
    check: raw.check === true,
    ...(shard ? { shard } : {}),
    quiet: raw.quiet === true,
  };
}

/** --workers as given (default: the cores), before the cap; also render's. */
export function askedWorkers(s: string | undefined): number {
  return s === undefined ? availableParallelism() : wholeNumber('workers', s, 1, MOST_WORKERS_ASKED);
}

/**
 * The workers the `levelkit` entry may start before the CLI loads, for `levelkit scan …`: none
 * unless the whole command line is a valid scan (not --help), then as many as the scan will run
 * but no more than the cores (the walk has not counted the files yet), with the heap limit the
 * scan will give them.
 */
export function scanPrestart(args: readonly string[], env: NodeJS.ProcessEnv = process.env): { count: number; memoryMb: number } | undefined {
  if (args[0] !== 'scan') return undefined;
  try {
    const parsed = parseCommandArgs(args.slice(1), SCAN_OPTIONS);
    if (parsed.options.help) return undefined;
    const s = scanSettings(parsed, env);
    return { count: Math.min(s.workers, availableParallelism()), memoryMb: workerMemoryMb(s.workerMemoryMb, s.workers) };
  } catch (e) {
    // main.ts reads the same arguments with the same functions and reports the mistake.
    if (e instanceof UsageError) return undefined;
    throw e;
  }
}

/** --shard k/n or auto/n (k from Kubernetes' or Slurm's environment: set, it must be a whole number). */
function parseShard(s: string, env: NodeJS.ProcessEnv): { index: number; count: number } {
  const m = /^(\d+|auto)\/(\d+)$/.exec(s);
  if (!m) throw new UsageError(`--shard must be k/n or auto/n; got '${printable(s)}'`);
  const count = Number(m[2]);
  let index: number;
  if (m[1] === 'auto') {
    // Kubernetes Indexed Jobs count from 0; so must a Slurm array (--array=0-<n-1>): k is the task
    // id itself. Subtracting SLURM_ARRAY_TASK_MIN would make a failed task submitted again alone
    // (--array=5: its minimum is 5) scan shard 0 again, silently. A variable set but empty or not a
    // number is a broken job template: read as 0 it would also scan shard 0 again.
    const job = envIndex(env, 'JOB_COMPLETION_INDEX');
    const slurm = job === undefined ? envIndex(env, 'SLURM_ARRAY_TASK_ID') : undefined;
    if (job === undefined && slurm === undefined) throw new UsageError('--shard auto/n needs JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID in the environment');
    index = job ?? slurm!;
    if (job === undefined && index >= count)
      throw new UsageError(`--shard auto/${count}: SLURM_ARRAY_TASK_ID is ${index}; shards are 0…${count - 1}, so submit the array as --array=0-${count - 1}`);
  } else index = Number(m[1]);
  if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(index) || index < 0 || index >= count) {
    throw new UsageError(`--shard: k must be 0…n-1 and n ≥ 1; got ${index}/${m[2]}`);
  }
  return { index, count };
}

/** A whole number ≥ 0 from the environment variable `name`; undefined when it is not set; UsageError when it is set to anything else. */
function envIndex(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const v = env[name];
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw new UsageError(`--shard auto: ${name} must be a whole number ≥ 0; got '${printable(v)}'`);
  return Number(v);
}

function wholeNumber(name: string, s: string, min: number, max: number): number {
  const n = Number(s);
  if (!/^\d+$/.test(s) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}; got '${printable(s)}'`);
  return n;
}

export function positiveNumber(name: string, s: string): number {
  const n = Number(s);
  if (!/^\d+(\.\d+)?$/.test(s) || !(n > 0)) throw new UsageError(`--${name} must be a positive number; got '${printable(s)}'`);
  return n;
}
