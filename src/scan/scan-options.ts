// scan()'s options checked before anything starts: a program's mistake (a shard past its count,
// depth 'bogus', a decode option the decoders refuse) is a TypeError or RangeError naming the
// option, thrown by scan() itself, not a scan of the wrong files or an INTERNAL record per file.
import { availableParallelism } from 'node:os';
import { DEFAULT_LIMITS, DecodeError, wwd } from '../index.js';
import type { Depth } from './job.js';
import type { ScanOptions } from './scan.js';
import { MIN_WORKER_MEMORY_MB, maxWorkers, workerMemoryMb } from './workers.js';

const OPTION_NAMES: readonly string[] = [
  'depth',
  'workers',
  'maxBytes',
  'maxZipRatio',
  'timeoutMs',
  'decode',
  'all',
  'follow',
  'sort',
  'shard',
  'signal',
  'workerMemoryMb',
  'exclude',
  'stats',
  'inject',
  'spawn',
  'fs',
  'index',
  'skip',
  'check',
];
/** What `decode` may hold: the options that travel to the workers (functions cannot). */
const DECODE_NAMES: readonly string[] = ['backend', 'inflate', 'strict', 'encoding', 'limits'];
const DEFAULT_TIMEOUT_MS = 5000;

/** scan()'s options with defaults filled in and the worker count capped (WORKERS_PER_CORE × cores). */
export interface CheckedScanOptions {
  depth: Depth;
  workers: number;
  maxBytes: number;
  maxZipRatio: number;
  timeoutMs: number;
  /** Each worker's heap limit (MiB); undefined only for a caller's own `spawn`. */
  memoryMb: number | undefined;
}

export function checkScanOptions(paths: unknown, options: ScanOptions): CheckedScanOptions {
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string' || Buffer.isBuffer(p)))
    throw new TypeError('levelkit: scan() takes an array of paths (strings or Buffers)');
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`levelkit: scan options must be an object, got ${options === null ? 'null' : typeof options}`);
  for (const key of Object.keys(options))
    if (!OPTION_NAMES.includes(key)) throw new TypeError(`levelkit: unknown scan option '${key}' (known: ${OPTION_NAMES.join(', ')})`);
  const depth = options.depth ?? 'cheap';
  if (depth !== 'cheap' && depth !== 'full') throw new RangeError(`levelkit: scan option 'depth' must be 'cheap' or 'full', got ${shown(depth)}`);
  const workers = options.workers ?? undefined;
  if (workers !== undefined) wholeNumber('workers', workers, 1);
  const maxBytes = options.maxBytes ?? DEFAULT_LIMITS.maxInflatedBytes;
  wholeNumber('maxBytes', maxBytes, 1);
  // --max-zip-ratio, or the decoders' limits.maxZipRatio (--limit maxZipRatio=…): one ratio for zips and GWZ alike.
  const maxZipRatio = options.maxZipRatio ?? options.decode?.limits?.maxZipRatio ?? DEFAULT_LIMITS.maxZipRatio;
  wholeNumber('maxZipRatio', maxZipRatio, 1);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs))
    throw new RangeError(`levelkit: scan option 'timeoutMs' must be a number > 0; got ${shown(timeoutMs)}`);
  if (options.workerMemoryMb !== undefined) wholeNumber('workerMemoryMb', options.workerMemoryMb, MIN_WORKER_MEMORY_MB);
  for (const flag of ['all', 'follow', 'sort'] as const)
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean')
      throw new TypeError(`levelkit: scan option '${flag}' must be true or false, got ${shown(options[flag])}`);
  if (options.shard !== undefined) checkShard(options.shard);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw new TypeError(`levelkit: scan option 'signal' must be an AbortSignal`);
  if (options.exclude !== undefined && !(Array.isArray(options.exclude) && options.exclude.every(isIdentity)))
    throw new TypeError(`levelkit: scan option 'exclude' must be an array of { dev, ino } bigints (fs.statSync(p, { bigint: true }))`);
  if (options.spawn !== undefined && typeof options.spawn !== 'function') throw new TypeError(`levelkit: scan option 'spawn' must be a function`);
  if (options.check !== undefined) {
    const rules = (options.check as { rules?: unknown }).rules;
    if (
      typeof options.check !== 'object' ||
      options.check === null ||
      (rules !== undefined && !(Array.isArray(rules) && rules.every((r) => typeof r === 'string')))
    )
      throw new TypeError("levelkit: scan option 'check' must be { rules?: rule ids (strings) }");
    if (depth !== 'full') throw new RangeError("levelkit: scan option 'check' needs depth 'full' (the rules read every section)");
  }
  if (options.index !== undefined) {
    const ix = options.index as { run?: unknown; onRows?: unknown };
    if (typeof ix !== 'object' || ix === null || typeof ix.run !== 'string' || ix.run === '' || typeof ix.onRows !== 'function')
      throw new TypeError(`levelkit: scan option 'index' must be { run: a non-empty string, onRows: a function }`);
    if (depth !== 'full') throw new RangeError("levelkit: scan option 'index' needs depth 'full' (an index holds every layer and object)");
  }
  if (options.skip !== undefined && typeof options.skip !== 'function') throw new TypeError(`levelkit: scan option 'skip' must be a function`);
  checkDecode(options.decode);
  const running = Math.min(workers ?? availableParallelism(), maxWorkers());
  return {
    depth,
    workers: running,
    maxBytes,
    maxZipRatio,
    timeoutMs,
    memoryMb: options.spawn ? options.workerMemoryMb : workerMemoryMb(options.workerMemoryMb, running),
  };
}

function checkShard(shard: unknown): void {
  if (typeof shard !== 'object' || shard === null) throw new TypeError(`levelkit: scan option 'shard' must be { index, count }, got ${shown(shard)}`);
  const { index, count } = shard as { index: unknown; count: unknown };
  wholeNumber('shard.count', count, 1);
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0 || index >= (count as number))
    throw new RangeError(
      `levelkit: scan option 'shard.index' must be a whole number from 0 to shard.count − 1 (${(count as number) - 1}); got ${shown(index)}`,
    );
}

/**
 * The decode options, checked by the decoders' own validation (a decode of no bytes checks its
 * options first, then finds nothing to decode), so a scan refuses exactly what decode() refuses.
 */
function checkDecode(decode: unknown): void {
  if (decode === undefined) return;
  if (typeof decode !== 'object' || decode === null) throw new TypeError(`levelkit: scan option 'decode' must be an object, got ${shown(decode)}`);
  for (const key of Object.keys(decode))
    if (!DECODE_NAMES.includes(key)) throw new TypeError(`levelkit: unknown scan option 'decode.${key}' (known: ${DECODE_NAMES.join(', ')})`);
  try {
    wwd.decode(new Uint8Array(0), decode);
  } catch (e) {
    if (e instanceof DecodeError) return;
    if (e instanceof TypeError || e instanceof RangeError)
      throw new (e instanceof TypeError ? TypeError : RangeError)(`levelkit: scan option 'decode': ${e.message.replace(/^levelkit: /, '')}`);
    throw e;
  }
}

function wholeNumber(name: string, v: unknown, min: number): void {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
    throw new RangeError(`levelkit: scan option '${name}' must be a whole number ≥ ${min}; got ${shown(v)}`);
}

function isIdentity(x: unknown): boolean {
  return typeof x === 'object' && x !== null && typeof (x as { dev: unknown }).dev === 'bigint' && typeof (x as { ino: unknown }).ino === 'bigint';
}

function shown(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : typeof v === 'bigint' ? `${v}n` : String(v);
}
