// scan()'s options checked before anything starts: a program's mistake (a shard past its count,
// depth 'bogus', a decode option the decoders refuse) is a TypeError or RangeError naming the
// option, thrown by scan() itself, not a scan of the wrong files or an INTERNAL record per file.
// The scan's first stage; its option types (public, re-exported by scan.ts) are declared here too.
import { availableParallelism } from 'node:os';
import type { IndexBatch } from '../archive-index/level-rows.js';
import { RULE_IDS } from '../check/registry.js';
import { closest } from '../core/suggest.js';
import { DEFAULT_LIMITS, DecodeError, type DecodeOptions, wwd } from '../index.js';
import type { Depth, Inject, ScanConfig, StageTimes } from './job.js';
import type { SpawnWorker } from './pool.js';
import type { FileIdentity, ReadFs } from './read.js';
import type { WalkFs } from './walk.js';
import { MIN_WORKER_MEMORY_MB, maxWorkers, workerMemoryMb } from './workers.js';

export interface ScanOptions {
  /** `cheap` (default): `sections: 'summary'`; `full`: decode every section. */
  depth?: Depth;
  /** Worker threads at most; default: available cores. Capped at WORKERS_PER_CORE (4) × cores, and never more than the files found. */
  workers?: number;
  /** Largest file or member read, in bytes; default the library's `maxInflatedBytes` (256 MiB). */
  maxBytes?: number;
  /**
   * Bytes one zip may inflate, all its members (and nested zips' members) together, as a multiple
   * of the zip's own size (a whole number ≥ 1); at least ZIP_INFLATE_ALLOWANCE (1 MiB) whatever the ratio. A member
   * that would go past it is a LIMIT_EXCEEDED record and is not inflated. Default 100
   * (the library's `limits.maxZipRatio`, which GWZ decoding uses too).
   */
  maxZipRatio?: number;
  /** Time limit per file in ms for a file up to 8 MiB, scaled by size above that; default 5000. */
  timeoutMs?: number;
  /** Decode options passed to every decode (backend, inflate, strict, encoding, limits). */
  decode?: Pick<DecodeOptions, 'backend' | 'inflate' | 'strict' | 'encoding' | 'limits'>;
  /** Yield files of no known format as records with `format: null`. */
  all?: boolean;
  /** Walk into symbolic links to folders. */
  follow?: boolean;
  /** Yield records sorted by path and member after the scan (holds every record in memory). */
  sort?: boolean;
  /** Only this share of the input: files whose path hashes to `index` modulo `count` (0-based). */
  shard?: { index: number; count: number };
  /** Stops the scan early; records yielded so far stand. */
  signal?: AbortSignal;
  /**
   * Heap limit of each worker in MiB; a file whose decode needs more is a LIMIT_EXCEEDED record
   * (its worker is replaced, the scan goes on). Default: the process's --max-old-space-size, else
   * half the machine's memory shared by the workers, between 256 MiB and 4 GiB.
   */
  workerMemoryMb?: number;
  /**
   * Files never read, by identity (device and inode, as `fs.statSync(p, { bigint: true })` gives
   * them): the scan's own outputs, which a walk over their folder would otherwise meet
   * half-written. Matched on the open handle, so any path to them (a link, `./x`, `a/../x`) is skipped.
   */
  exclude?: readonly FileIdentity[];
  /** Updated as the scan goes: files found by the walk, and whether the walk has ended. */
  stats?: ScanStats;
  /**
   * Writing an archive index: workers add each decoded level's rows (ids made from `run`) and
   * `onRows` receives them, each message's rows before its records are yielded. Needs depth `full`.
   */
  index?: { run: string; onRows: (batch: IndexBatch) => void };
  /** Running check rules on each level (job.ts ScanConfig.check); needs depth `full`. */
  check?: ScanConfig['check'];
  /**
   * Resuming: a file (or zip member) for which this returns true is not read and has no record
   * (`stats.skipped` counts it). `mtimeMs` is the file's (for a member, its zip's) modification time.
   */
  skip?: (key: ResumeKey) => boolean;
  /** Test-only fault injection (see job.ts); never set it otherwise. */
  inject?: Inject;
  /** Replaces the worker factory (tests; the browser pool later). */
  spawn?: SpawnWorker;
  /** Replaces the fs functions of the walk and of reading (tests reach errors root cannot provoke). */
  fs?: ReadFs & WalkFs;
}

/** What identifies a file as unchanged since an earlier scan (`--resume`). */
export interface ResumeKey {
  path: string;
  member: string | null;
  bytes: number;
  mtimeMs: number;
}

export interface ScanStats {
  found: number;
  /** Files and members skipped as unchanged (`skip`). */
  skipped?: number;
  walkDone: boolean;
  replacedWorkers: number;
  /** Milliseconds the workers spent per stage (read, detect, decode, hash, record), summed over workers. */
  workerStages?: StageTimes;
  /** Milliseconds this thread spent walking (listing folders, stat'ing files). */
  walkMs?: number;
  /** CPU time of the worker threads (ms), at the end of the scan; -1 where the host cannot tell. */
  workerCpuMs?: number;
}

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
const CHECK_NAMES: readonly string[] = ['rules'];
const INDEX_NAMES: readonly string[] = ['run', 'onRows'];
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
  const { maxBytes, maxZipRatio } = sizeCaps(options);
  wholeNumber('maxBytes', maxBytes, 1);
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
  if (options.stats !== undefined && (typeof options.stats !== 'object' || options.stats === null))
    throw new TypeError(`levelkit: scan option 'stats' must be an object (the scan updates it), got ${shown(options.stats)}`);
  if (options.check !== undefined) checkCheck(options.check, depth);
  if (options.index !== undefined) {
    const ix = options.index as { run?: unknown; onRows?: unknown };
    if (typeof ix !== 'object' || ix === null || typeof ix.run !== 'string' || ix.run === '' || typeof ix.onRows !== 'function')
      throw new TypeError(`levelkit: scan option 'index' must be { run: a non-empty string, onRows: a function }`);
    knownKeys('index', ix, INDEX_NAMES);
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

/** `check`: `{ rules? }`, each rule one levelkit has (a mistyped id would otherwise run no rule and find nothing), as `levelkit check --rule` refuses it. */
function checkCheck(check: unknown, depth: Depth): void {
  const rules = (check as { rules?: unknown } | null)?.rules;
  if (typeof check !== 'object' || check === null || (rules !== undefined && !(Array.isArray(rules) && rules.every((r) => typeof r === 'string'))))
    throw new TypeError("levelkit: scan option 'check' must be { rules?: rule ids (strings) }");
  knownKeys('check', check, CHECK_NAMES);
  for (const id of (rules as string[] | undefined) ?? []) {
    if (RULE_IDS.includes(id)) continue;
    const guess = closest(id, RULE_IDS);
    throw new RangeError(`levelkit: scan option 'check.rules': unknown rule ${JSON.stringify(id)}${guess ? ` (did you mean '${guess}'?)` : ''}`);
  }
  if (depth !== 'full') throw new RangeError("levelkit: scan option 'check' needs depth 'full' (the rules read every section)");
}

/** TypeError for a key of the option `name` that is not one of `known`: a misspelt key would otherwise be ignored. */
function knownKeys(name: string, value: object, known: readonly string[]): void {
  for (const key of Object.keys(value))
    if (!known.includes(key)) throw new TypeError(`levelkit: unknown scan option '${name}.${key}' (known: ${known.join(', ')})`);
}

/** The scan's own size caps with their defaults: the largest file read, and the one inflate ratio of zips and GWZ alike. */
export function sizeCaps(options: Pick<ScanOptions, 'maxBytes' | 'maxZipRatio' | 'decode'>): { maxBytes: number; maxZipRatio: number } {
  return {
    maxBytes: options.maxBytes ?? DEFAULT_LIMITS.maxInflatedBytes,
    // --max-zip-ratio, or the decoders' limits.maxZipRatio (--limit maxZipRatio=…).
    maxZipRatio: options.maxZipRatio ?? options.decode?.limits?.maxZipRatio ?? DEFAULT_LIMITS.maxZipRatio,
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
  knownKeys('decode', decode, DECODE_NAMES);
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
