// The bulk scan: walks folders (streaming), opens zip archives (nested too) through their central
// directory, sends each candidate file's bytes to a worker pool with a bounded queue, and yields
// one record per file in completion order (or sorted at the end with `sort`). See src/scan/README.md.
import * as nodeFs from 'node:fs';
import { availableParallelism } from 'node:os';
import { compileWasm, DEFAULT_LIMITS, type DecodeOptions, detect, type ErrorRecord, LEVEL_EXTENSIONS } from '../index.js';
import type { Depth, Inject, JobMessage } from './job.js';
import { extOf, fileFields, pathBytes } from './names.js';
import { Pool, type PoolAnswer, type SpawnWorker } from './pool.js';
import { nodeWorkers } from './pool-node.js';
import { type FileIdentity, HEAD_BYTES, ioFailure, type ReadFs, readFileSafe } from './read.js';
import { type WalkFs, walk } from './walk.js';
import { BytesReader, FileHandleReader, InflateBudget, isZipHead, memberBytes, members, ZipError } from './zip.js';

/** One line of a scan's output. `format: null` with no `error`: a file no format recognises (listed only with `all`). */
export interface ScanRecord {
  /** The file on disk, as text (`\xNN` escapes when the name is not UTF-8; then `pathBytes` holds base64 of the exact bytes). */
  path: string;
  pathBytes?: string;
  /** The path inside the archive (`outer.zip`'s `inner.zip!/a.map` is `inner.zip/a.map`), or null for a plain file. */
  member: string | null;
  /** Size of the file or member in bytes (for a failure before reading: what the file system or zip directory says, or null). */
  bytes: number | null;
  format: string | null;
  version?: string | number;
  summary?: object;
  warnings?: { code: string; message: string; offset: number | null }[];
  /** SHA-256 of the bytes (hex), for finding identical files. */
  contentDigest?: string;
  error?: ErrorRecord;
}

export interface ScanOptions {
  /** `cheap` (default): `sections: 'summary'`; `full`: decode every section. */
  depth?: Depth;
  /** Worker threads; default: available cores. */
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
  /** Heap limit of each worker in MiB; a file whose decode needs more is a LIMIT_EXCEEDED record. Default: Node's (or the process's --max-old-space-size). */
  workerMemoryMb?: number;
  /**
   * Files never read, by identity (device and inode, as `fs.statSync(p, { bigint: true })` gives
   * them): the scan's own outputs, which a walk over their folder would otherwise meet
   * half-written. Matched on the open handle, so any path to them (a link, `./x`, `a/../x`) is skipped.
   */
  exclude?: readonly FileIdentity[];
  /** Updated as the scan goes: files found by the walk, and whether the walk has ended. */
  stats?: ScanStats;
  /** Test-only fault injection (see job.ts); never set it otherwise. */
  inject?: Inject;
  /** Replaces the worker factory (tests; the browser pool later). */
  spawn?: SpawnWorker;
  /** Replaces the fs functions of the walk and of reading (tests reach errors root cannot provoke). */
  fs?: ReadFs & WalkFs;
}

export interface ScanStats {
  found: number;
  walkDone: boolean;
  replacedWorkers: number;
}

/** Nested zips deeper than this are reported, not opened (a quine zip would otherwise never end). */
const MAX_ZIP_DEPTH = 8;
const DEFAULT_TIMEOUT_MS = 5000;
/** Smallest worker heap accepted: below this V8 cannot start the decoder at all. */
export const MIN_WORKER_MEMORY_MB = 16;
/** The longest delay setTimeout honours. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Scans files, folders and the zips in them; yields one record per file in completion order.
 * Never throws for a bad file: every failure is that file's record.
 */
export async function* scan(paths: readonly (string | Buffer)[], options: ScanOptions = {}): AsyncGenerator<ScanRecord> {
  const workers = options.workers ?? availableParallelism();
  const maxBytes = options.maxBytes ?? DEFAULT_LIMITS.maxInflatedBytes;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) throw new RangeError(`levelkit: scan option 'timeoutMs' must be a number > 0; got ${timeoutMs}`);
  const maxZipRatio = options.maxZipRatio ?? DEFAULT_LIMITS.maxZipRatio;
  if (!Number.isSafeInteger(maxZipRatio) || maxZipRatio < 1)
    throw new RangeError(`levelkit: scan option 'maxZipRatio' must be a whole number ≥ 1; got ${maxZipRatio}`);
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new RangeError(`levelkit: scan option 'maxBytes' must be a whole number ≥ 1; got ${maxBytes}`);
  const depth = options.depth ?? 'cheap';
  const stats = options.stats ?? { found: 0, walkDone: false, replacedWorkers: 0 };
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be a whole number ≥ 1; got ${workers}`);
  const memoryMb = options.workerMemoryMb;
  if (memoryMb !== undefined && !(Number.isInteger(memoryMb) && memoryMb >= MIN_WORKER_MEMORY_MB))
    throw new RangeError(`workerMemoryMb must be a whole number ≥ ${MIN_WORKER_MEMORY_MB}; got ${memoryMb}`);
  let spawn = options.spawn;
  if (!spawn) {
    // One compile for the whole pool; a host without WASM leaves the workers on the JS kernels.
    let wasm: WebAssembly.Module | null = null;
    if (options.decode?.backend !== 'js') wasm = await compileWasm().catch(() => null);
    spawn = nodeWorkers(wasm, memoryMb === undefined ? {} : { memoryMb });
  }
  const pool = new Pool(spawn, workers);
  // A GWZ member is a zip too: its decode keeps to the same ratio.
  const decodeOpts: DecodeOptions =
    options.maxZipRatio === undefined ? (options.decode ?? {}) : { ...options.decode, limits: { ...options.decode?.limits, maxZipRatio } };
  // Back-pressure: the walker waits while this many files are queued, running or unread.
  const highWater = workers * 4;
  const out: ScanRecord[] = [];
  let wake: (() => void) | null = null;
  let producerDone = false;
  let producerError: unknown = null;
  let inFlight = 0;
  let nextId = 0;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const waitForRoom = async () => {
    while (inFlight + out.length >= highWater && !options.signal?.aborted)
      await new Promise<void>((r) => {
        roomWaiters.push(r);
      });
  };
  const roomWaiters: (() => void)[] = [];
  const freeRoom = () => {
    while (roomWaiters.length) roomWaiters.shift()!();
  };
  const emit = (r: ScanRecord) => {
    out.push(r);
    notify();
  };
  // An abort wakes both sides at once: the walker waiting for room and the consumer waiting for
  // a record, so a stop does not wait for the job in flight to end.
  const onAbort = () => {
    freeRoom();
    notify();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const submit = async (base: Base, bytes: Uint8Array) => {
    await waitForRoom();
    inFlight++;
    const fault = faultFor(options.inject, base);
    const job: JobMessage = { id: nextId++, bytes, depth, decode: decodeOpts, ...(fault ? { fault } : {}) };
    const size = bytes.length;
    // setTimeout takes at most 2^31 - 1 ms and turns anything longer into 1 ms: a huge --timeout must mean "very long", not "at once".
    const limit = Math.min(MAX_TIMER_MS, Math.round(timeoutMs * Math.max(1, size / (8 << 20))));
    void pool.run(job, limit).then((a) => {
      inFlight--;
      emit(recordOf(base, size, a, memoryMb));
    });
  };

  const walkAll = async () => {
    for (const entry of walk(paths, { follow: options.follow ?? false, ...(options.fs ? { fs: options.fs } : {}) })) {
      if (options.signal?.aborted) return;
      if (entry.kind === 'not-followed') continue;
      if (entry.kind === 'unreadable') {
        emit({ ...pathFields(entry.path), member: null, bytes: null, format: null, error: err(entry.failure.code, entry.failure.message) });
        continue;
      }
      if (options.shard && shardOf(entry.path, options.shard.count) !== options.shard.index) continue;
      stats.found++;
      await waitForRoom();
      await visitFile(entry.path, entry.named);
    }
  };

  const visitFile = async (path: Buffer, named: boolean) => {
    const base: Base = { ...pathFields(path), member: null };
    const levelName = LEVEL_EXTENSIONS.includes(extOf(path));
    let zip = false;
    let headFormat = false;
    const r = readFileSafe(path, {
      maxBytes,
      ...(options.fs ? { fs: options.fs } : {}),
      ...(options.exclude?.length ? { exclude: options.exclude } : {}),
      wanted: (head) => {
        headFormat = detect(head) !== undefined;
        // A zip not named like a level is an archive to open, whatever detect() says: the GWZ
        // format claims every zip head (it cannot see the member list in 64 bytes), but only a
        // `.gwz` is handed to it.
        zip = !levelName && isZipHead(head);
        return !zip && (named || levelName || headFormat || options.all === true);
      },
    });
    if ('excluded' in r) {
      stats.found--;
      return;
    }
    if ('unwanted' in r) {
      if (zip) await visitZipFile(path, base);
      else emit({ ...base, bytes: sizeOf(path), format: null });
      return;
    }
    if ('failure' in r) {
      emit({ ...base, bytes: sizeOf(path), format: null, error: err(r.failure.code, r.failure.message) });
      return;
    }
    await candidate(base, r.bytes, levelName || named);
  };

  /** A file's or member's bytes: to a worker when a format may claim them, else an unknown record. */
  const candidate = async (base: Base, bytes: Uint8Array, levelName: boolean) => {
    if (detect(bytes.subarray(0, HEAD_BYTES)) !== undefined) {
      await submit(base, bytes);
      return;
    }
    if (levelName)
      emit({ ...base, bytes: bytes.length, format: null, error: err('UNKNOWN_FORMAT', 'named like a level, but no levelkit format recognises its content') });
    else emit({ ...base, bytes: bytes.length, format: null });
  };

  const visitZipFile = async (path: Buffer, base: Base) => {
    let fd: number | undefined;
    try {
      fd = nodeFs.openSync(path, (nodeFs.constants.O_RDONLY ?? 0) | (nodeFs.constants.O_NONBLOCK ?? 0));
      const st = nodeFs.fstatSync(fd);
      if (!st.isFile()) {
        emit({ ...base, bytes: null, format: null, error: err('NOT_A_FILE', 'not a regular file; only regular files are read') });
        return;
      }
      await visitZip(new FileHandleReader(fd, st.size), base, '', 1, undefined);
    } catch (e) {
      emit({ ...base, bytes: null, format: null, error: err('IO', ioFailure(e).message) });
    } finally {
      if (fd !== undefined) nodeFs.closeSync(fd);
    }
  };

  const visitZip = async (reader: FileHandleReader | BytesReader, base: Base, prefix: string, level: number, parent: InflateBudget | undefined) => {
    const size = reader.size;
    let list: Awaited<ReturnType<typeof members>>;
    try {
      list = await members(reader, maxBytes);
    } catch (e) {
      // A zip whose directory cannot be read, or whose members overlap, is itself the failed file (or member).
      if (!(e instanceof ZipError)) throw e;
      emit({ ...base, bytes: size, format: null, error: err(e.code, `zip: ${e.message}`) });
      return;
    }
    const budget = new InflateBudget(size, maxZipRatio, parent);
    for (const m of list) {
      if (options.signal?.aborted) return;
      if (m.kind === 'folder') continue;
      const mb: Base = { ...base, member: prefix + m.name };
      const ext = extOf(Buffer.from(m.name, 'utf8'));
      const levelName = LEVEL_EXTENSIONS.includes(ext);
      if (m.size > maxBytes || m.compressedSize > maxBytes) {
        const n = Math.max(m.size, m.compressedSize);
        emit({ ...mb, bytes: m.size, format: null, error: err('LIMIT_EXCEEDED', `${n} bytes, over the ${maxBytes}-byte limit (--max-bytes)`) });
        continue;
      }
      // Charged before inflating: inflating stops at the declared size, so that is all it can cost.
      const over = m.fault ? undefined : budget.charge(m.size);
      if (over) {
        emit({ ...mb, bytes: m.size, format: null, error: err('LIMIT_EXCEEDED', over) });
        continue;
      }
      await waitForRoom();
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = await memberBytes(reader, m);
      } catch (e) {
        if (!(e instanceof ZipError)) throw e;
        emit({ ...mb, bytes: m.size, format: null, error: err(e.code, `zip member: ${e.message}`) });
        continue;
      }
      if (!levelName && isZipHead(bytes)) {
        if (level >= MAX_ZIP_DEPTH)
          emit({ ...mb, bytes: bytes.length, format: null, error: err('LIMIT_EXCEEDED', `zip nested more than ${MAX_ZIP_DEPTH} deep`) });
        else await visitZip(new BytesReader(bytes), mb, `${mb.member}/`, level + 1, budget);
        continue;
      }
      await candidate(mb, bytes, levelName);
    }
  };

  const producer = walkAll().then(
    () => {
      producerDone = true;
      stats.walkDone = true;
      notify();
    },
    (e) => {
      producerError = e;
      producerDone = true;
      notify();
    },
  );

  const sorted: ScanRecord[] = [];
  try {
    for (;;) {
      while (out.length) {
        const r = out.shift()!;
        freeRoom();
        if (r.format === null && !r.error && !options.all) continue;
        if (options.sort) sorted.push(r);
        else yield r;
      }
      stats.replacedWorkers = pool.replaced;
      if (pool.broken) throw new Error(`levelkit scan: ${pool.broken}`);
      if (producerDone && inFlight === 0) break;
      if (options.signal?.aborted && (producerDone || inFlight === 0)) break;
      await new Promise<void>((r) => {
        wake = r;
      });
    }
    await producer;
    if (producerError) throw producerError;
    if (options.sort) {
      sorted.sort(compareRecords);
      yield* sorted;
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    pool.close();
    freeRoom();
  }
}

type Base = { path: string; pathBytes?: string; member: string | null };

function pathFields(p: Buffer): { path: string; pathBytes?: string } {
  const f = fileFields(p);
  return f.fileBytes ? { path: f.file, pathBytes: f.fileBytes } : { path: f.file };
}

function err(code: string, message: string): ErrorRecord {
  return { code, offset: null, path: '', message };
}

function sizeOf(p: Buffer): number | null {
  try {
    return nodeFs.statSync(p).size;
  } catch {
    return null;
  }
}

function recordOf(base: Base, size: number, a: PoolAnswer, memoryMb: number | undefined): ScanRecord {
  if ('timeout' in a)
    return { ...base, bytes: size, format: null, error: err('TIMEOUT', `decoding took longer than ${a.timeout} ms (--timeout); its worker was replaced`) };
  if ('crashed' in a && a.outOfMemory)
    return {
      ...base,
      bytes: size,
      format: null,
      error: err(
        'LIMIT_EXCEEDED',
        `decoding needed more memory than a worker may use (${memoryMb === undefined ? 'the limit Node gives it' : `${memoryMb} MiB`}, --worker-memory); its worker was replaced`,
      ),
    };
  if ('crashed' in a)
    return { ...base, bytes: size, format: null, error: err('WORKER_CRASHED', `the worker decoding this file died (${a.crashed}); it was replaced`) };
  if ('ok' in a)
    return { ...base, bytes: size, format: a.ok.format, version: a.ok.version, summary: a.ok.summary, warnings: a.ok.warnings, contentDigest: a.contentDigest };
  return { ...base, bytes: size, format: a.format, contentDigest: a.contentDigest, error: a.error };
}

function faultFor(inject: Inject | undefined, base: Base): 'hang' | 'crash' | undefined {
  if (!inject) return undefined;
  const name = `${base.path}!${base.member ?? ''}`;
  if (inject.hang && name.includes(inject.hang)) return 'hang';
  if (inject.crash && name.includes(inject.crash)) return 'crash';
  return undefined;
}

/** Shard of a path: FNV-1a over its bytes, modulo `count`. Members follow their archive, which is hashed as a whole. */
export function shardOf(path: Buffer | string, count: number): number {
  const b = pathBytes(path);
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i]!, 0x01000193) >>> 0;
  return h % count;
}

/** Order of `sort`: by path bytes, then member (a plain file before its... it has none). */
export function compareRecords(a: ScanRecord, b: ScanRecord): number {
  const pa = a.pathBytes ?? a.path;
  const pb = b.pathBytes ?? b.path;
  if (pa !== pb) return pa < pb ? -1 : 1;
  const ma = a.member ?? '';
  const mb = b.member ?? '';
  return ma < mb ? -1 : ma > mb ? 1 : 0;
}
