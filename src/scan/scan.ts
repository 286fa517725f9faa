// The bulk scan: walks folders (streaming) and hands each candidate file's path to a worker
// pool in batches; the workers read, detect, decode and hash, and send records back. Zip
// archives (nested too) are listed here through their central directory, and their members go
// to the workers as places in the archive. Records are yielded in completion order (or sorted at
// the end with `sort`). See src/scan/README.md.

import * as nodeFs from 'node:fs';
import { compileWasm, type DecodeOptions, type ErrorRecord } from '../index.js';
import { baseOf, readFileItem } from './item-node.js';
import { type Fault, type Inject, lostRecord, type MemberPlace, noStageTimes, type RecordBase, type ScanConfig, type ScanRecord } from './job.js';
import { recordOfLine } from './line.js';
import { pathBytes } from './names.js';
import { BATCH_FILES, Pool, type PoolAnswer, type PoolTask } from './pool.js';
import { nodeWorkers } from './pool-node.js';
import { type FileIdentity, ioFailure, NOT_AS_LISTED, sameIdentity } from './read.js';
import { type CheckedScanOptions, checkScanOptions, type ResumeKey, type ScanOptions } from './scan-options.js';
import { type WalkEntry, walk } from './walk.js';
import { BytesReader, FileHandleReader, InflateBudget, type Member, memberRefusal, members, ZipError } from './zip.js';

export type { ScanRecord } from './job.js';

type FileEntry = Extract<WalkEntry, { kind: 'file' }>;

export type { ResumeKey, ScanOptions, ScanStats } from './scan-options.js';

export { MIN_WORKER_MEMORY_MB } from './workers.js';

/** Zip archives on disk held open at once for their members' workers (each is one file descriptor). */
const MAX_OPEN_ZIPS = 256;

/** A task of this scan: the pool's, plus what its answer feeds. */
interface Task extends PoolTask {
  /** Size for the record when its worker is lost (what the file system or zip directory said). */
  declared: number | null;
  /** The archive it is a member of (its descriptor is closed, or its bytes released, when the last member is answered). */
  archive: Archive | null;
  /** Set on a request for a nested zip's bytes: where the answer goes. */
  opened?: (a: PoolAnswer) => void;
  /** Modification time the walk saw (for a member: its zip's), for its record (recordMtimeMs); null when unknown. */
  mtimeMs: number | null;
}

const mtimes = new WeakMap<ScanRecord, number>();

/** The modification time (ms) the scan saw of a yielded record's file (a member: its zip), before reading it; null when unknown. */
export function recordMtimeMs(record: ScanRecord): number | null {
  return mtimes.get(record) ?? null;
}

/** An archive whose members are in the queue or in workers. */
interface Archive {
  fd: number | null;
  /** Members not answered yet, plus one while its directory is being listed. */
  pending: number;
  /** Of those, members that are zips waiting for the zip loop to open them. */
  nested: number;
  /** What its members may inflate, all together (charged before each is handed to a worker); set once its directory is read. */
  budget: InflateBudget | null;
}

/**
 * Scans files, folders and the zips in them; yields one record per file in completion order.
 * Never throws for a bad file: every failure is that file's record. Bad options throw here, at
 * the call (TypeError or RangeError naming the option), before any worker starts or file is read.
 */
export function scan(paths: readonly (string | Buffer)[], options: ScanOptions = {}): AsyncGenerator<ScanRecord> {
  return scanChecked(paths, options, checkScanOptions(paths, options));
}

async function* scanChecked(paths: readonly (string | Buffer)[], options: ScanOptions, checked: CheckedScanOptions): AsyncGenerator<ScanRecord> {
  const { workers, maxBytes, timeoutMs, maxZipRatio, depth, memoryMb } = checked;
  const stats = options.stats ?? { found: 0, walkDone: false, replacedWorkers: 0 };
  stats.workerStages ??= noStageTimes();
  stats.walkMs ??= 0;
  let spawn = options.spawn;
  if (!spawn) {
    // One compile for the whole pool; a host without WASM leaves the workers on the JS kernels.
    let wasm: WebAssembly.Module | null = null;
    if (options.decode?.backend !== 'js') wasm = await compileWasm().catch(() => null);
    spawn = nodeWorkers(wasm, { memoryMb });
  }
  // A GWZ member is a zip too: its decode keeps to the same ratio.
  const decodeOpts: DecodeOptions = { ...options.decode, limits: { ...options.decode?.limits, maxZipRatio } };
  const exclude = options.exclude?.length ? options.exclude : undefined;
  const config: ScanConfig = {
    depth,
    decode: decodeOpts,
    maxBytes,
    all: options.all === true,
    ...(exclude ? { exclude } : {}),
    ...(options.index ? { index: { run: options.index.run } } : {}),
  };
  // Also once the scan has ended (its consumer may stop early): producers still waiting then stop instead of opening more.
  let ended = false;
  const aborted = () => ended || options.signal?.aborted === true;

  // Back-pressure: the producers (walk, zip listing) wait while this many tasks are queued,
  // in workers or their records not taken yet; enough for every worker to have a full batch
  // running and two waiting. So memory does not grow with the number of files.
  const highWater = workers * BATCH_FILES * 3;
  const out: ScanRecord[] = [];
  let inFlight = 0;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  // Producers waiting for room, and the zip loop waiting for any task to end.
  let roomWaiters: (() => void)[] = [];
  let changeWaiters: (() => void)[] = [];
  const freeRoom = () => {
    if (roomWaiters.length === 0) return;
    const ws = roomWaiters;
    roomWaiters = [];
    for (const w of ws) w();
  };
  const changed = () => {
    if (changeWaiters.length === 0) return;
    const ws = changeWaiters;
    changeWaiters = [];
    for (const w of ws) w();
  };
  const nextChange = () => new Promise<void>((r) => changeWaiters.push(r));
  const waitForRoom = async () => {
    while (inFlight + out.length >= highWater && !aborted()) {
      // The producer is about to wait: whatever is queued goes out, full batch or not.
      pool.dispatch(true);
      await new Promise<void>((r) => roomWaiters.push(r));
    }
  };
  const emit = (r: ScanRecord, mtimeMs: number | null = null) => {
    if (mtimeMs !== null) mtimes.set(r, mtimeMs);
    out.push(r);
    notify();
  };
  const skipped = (key: ResumeKey) => {
    if (!options.skip?.(key)) return false;
    stats.skipped = (stats.skipped ?? 0) + 1;
    return true;
  };
  // An abort wakes both sides at once: the walker waiting for room and the consumer waiting for
  // a record, so a stop does not wait for the job in flight to end.
  const onAbort = () => {
    freeRoom();
    notify();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const openZips: Set<number> = new Set();
  /** A task is over: its archive may be closed, producers may go on. */
  const done = (task: Task) => {
    inFlight--;
    const a = task.archive;
    if (a && --a.pending === 0) closeArchive(a);
    changed();
  };
  const closeArchive = (a: Archive) => {
    if (a.fd === null) return;
    openZips.delete(a.fd);
    nodeFs.closeSync(a.fd);
    a.fd = null;
  };

  // Zips found by the workers wait here for the zip loop: files on disk first-come, members that
  // are zips last-come (depth first, so the nested zips held in memory are one chain at most).
  const zipFiles: Task[] = [];
  const nestedZips: Task[] = [];
  let zipLoop: Promise<void> | null = null;

  const answer = (task: Task, a: PoolAnswer) => {
    if (task.opened) {
      task.opened(a);
      return;
    }
    if ('line' in a) {
      emit(recordOfLine(a.line), task.mtimeMs);
      done(task);
    } else if ('record' in a) {
      emit(a.record, task.mtimeMs);
      done(task);
    } else if ('zip' in a) {
      zipFiles.push(task);
      runZips();
    } else if ('nestedZip' in a) {
      if (task.archive) task.archive.nested++;
      nestedZips.push(task);
      changed();
      runZips();
    } else if ('excluded' in a) {
      // One of the scan's own outputs, met under another path than the walk's stat saw (a swap).
      stats.found--;
      done(task);
    } else if ('opened' in a) {
      // Only asked for with `opened` set (above).
      done(task);
    } else {
      emit(lostRecord(baseOf(task.item.path, task.item.kind === 'file' ? null : task.item.member), task.declared, a, memoryMb), task.mtimeMs);
      done(task);
    }
  };
  const pool = new Pool<Task>(spawn, workers, config, timeoutMs, answer);
  if (options.index) pool.onIndex = options.index.onRows;

  const submit = (task: Task) => {
    inFlight++;
    if (task.archive) task.archive.pending++;
    pool.push(task);
    pool.dispatch(false);
  };

  /** A file found by the walk or named: from here on it is a worker's to read (or, with replaced fs functions, read here). */
  const visitFile = async (entry: FileEntry) => {
    const { path, named } = entry;
    const latin1 = path.toString('latin1');
    const fault = faultFor(options.inject, path, null);
    // The file as listed (through the folder's handle while the walk holds it): the worker reads
    // that file or none, so a folder above it swapped for a link meanwhile leads nowhere.
    const st = statOf(entry, options.fs ?? nodeFs);
    const listed = st ? { id: st.id, ...(entry.noFollow ? { noFollow: true } : {}) } : {};
    if (options.fs) {
      // Replaced fs functions cannot travel to a worker: read here, send the bytes.
      const base = baseOf(latin1, null);
      const r = readFileItem(latin1, named, config, base, options.fs, listed);
      if ('excluded' in r) stats.found--;
      else if ('record' in r) emit(r.record);
      else if ('bytes' in r) {
        const item = { kind: 'bytes' as const, path: latin1, member: null, bytes: r.bytes, levelName: r.levelName, ...(fault ? { fault } : {}) };
        submit({ item, size: r.bytes.length, declared: r.bytes.length, archive: null, mtimeMs: null });
      } else if ('zip' in r) {
        inFlight++;
        zipFiles.push({ item: { kind: 'file', path: latin1, named, ...listed }, size: 0, declared: null, archive: null, mtimeMs: null });
        runZips();
      }
      return;
    }
    // The scan's own outputs (--out, --report) are never read: a walk over their folder would
    // meet them half-written. The worker checks again on the handle it opens.
    const id = st?.id;
    if (id && exclude?.some((x) => x.dev === id.dev && x.ino === id.ino)) {
      stats.found--;
      return;
    }
    const size = st ? st.size : null;
    const mtimeMs = st ? st.mtimeMs : null;
    if (st && options.skip && skipped({ path: baseOf(latin1, null).path, member: null, bytes: st.size, mtimeMs: st.mtimeMs })) {
      stats.found--;
      return;
    }
    submit({ item: { kind: 'file', path: latin1, named, ...listed, ...(fault ? { fault } : {}) }, size: size ?? 0, declared: size, archive: null, mtimeMs });
  };

  const walkAll = async () => {
    let t0 = performance.now();
    for (const entry of walk(paths, { follow: options.follow ?? false, ...(options.fs ? { fs: options.fs } : {}) })) {
      if (aborted()) return;
      if (entry.kind === 'not-followed') continue;
      if (entry.kind === 'unreadable') {
        emit({ ...baseOf(entry.path.toString('latin1'), null), bytes: null, format: null, error: err(entry.failure.code, entry.failure.message) });
        continue;
      }
      if (options.shard && shardOf(entry.path, options.shard.count) !== options.shard.index) continue;
      stats.found++;
      const t1 = performance.now();
      stats.walkMs! += t1 - t0;
      await waitForRoom();
      t0 = performance.now();
      await visitFile(entry);
    }
    stats.walkMs! += performance.now() - t0;
  };

  /** Lists every zip the workers found, one at a time; members go to the pool. */
  const runZips = () => {
    // Members are about to be pushed: batches are full-sized again until the listing ends.
    pool.draining = false;
    if (zipLoop) return;
    let ended = false;
    const loop = (async () => {
      try {
        while (!aborted()) {
          const nested = nestedZips.pop();
          if (nested) {
            await openNested(nested);
            continue;
          }
          if (zipFiles.length === 0) break;
          if (openZips.size >= MAX_OPEN_ZIPS) {
            // Wait for an archive to be done (or a nested zip, which needs no descriptor).
            pool.dispatch(true);
            await nextChange();
            continue;
          }
          await openZipFile(zipFiles.shift()!);
        }
      } finally {
        ended = true;
        zipLoop = null;
        pool.draining = walkDone;
        pool.dispatch(true);
        notify();
      }
    })();
    // A loop that ended before its first wait (the scan already stopped) ran its finally before
    // this line: kept as running, the scan would wait for a listing that never ends.
    if (!ended) zipLoop = loop;
  };

  const openZipFile = async (task: Task) => {
    const path = task.item.path;
    const base = baseOf(path, null);
    const archive: Archive = { fd: null, pending: 1, nested: 0, budget: null };
    try {
      const item = task.item.kind === 'file' ? task.item : undefined;
      const flags = (nodeFs.constants.O_RDONLY ?? 0) | (nodeFs.constants.O_NONBLOCK ?? 0) | (item?.noFollow ? (nodeFs.constants.O_NOFOLLOW ?? 0) : 0);
      const fd = nodeFs.openSync(Buffer.from(path, 'latin1'), flags);
      archive.fd = fd;
      openZips.add(fd);
      const st = nodeFs.fstatSync(fd, { bigint: true });
      if (item?.id && !sameIdentity(st, item.id)) {
        emit({ ...base, bytes: null, format: null, error: err('IO', NOT_AS_LISTED) });
        return;
      }
      if (!st.isFile()) {
        emit({ ...base, bytes: null, format: null, error: err('NOT_A_FILE', 'not a regular file; only regular files are read') });
        return;
      }
      task.mtimeMs = Number(st.mtimeMs);
      const size = Number(st.size);
      await visitZip(new FileHandleReader(fd, size), task, base, '', 1, { fd, size }, archive, undefined);
    } catch (e) {
      emit({ ...base, bytes: null, format: null, error: err('IO', ioFailure(e).message) });
    } finally {
      // The zip itself was a task until now; its members are tasks of their own.
      inFlight--;
      if (--archive.pending === 0) closeArchive(archive);
      freeRoom();
      notify();
    }
  };

  /** A member that is a zip: its bytes are asked for again (a worker inflates them into shared memory), then it is listed like a file. */
  const openNested = async (task: Task) => {
    const item = task.item;
    if (item.kind !== 'member') return;
    if (task.archive) task.archive.nested--;
    const a = await new Promise<PoolAnswer>((resolve) => {
      pool.push({ item: { ...item, open: true }, size: task.size, declared: task.declared, archive: null, opened: resolve, mtimeMs: task.mtimeMs });
      pool.dispatch(true);
    });
    if ('opened' in a) {
      const bytes = new Uint8Array(a.opened);
      const archive: Archive = { fd: null, pending: 1, nested: 0, budget: null };
      await visitZip(
        new BytesReader(bytes),
        task,
        baseOf(item.path, item.member),
        `${item.member}/`,
        item.level + 1,
        { shared: a.opened, size: a.size },
        archive,
        // Its members charge its own budget and every archive's around it.
        task.archive?.budget ?? undefined,
      );
      // Hold this zip's bytes until its members are answered: then the nested zips found among
      // them (pushed meanwhile) come next, and the zips held in memory stay one chain.
      while (archive.pending - 1 > archive.nested && !aborted()) {
        pool.dispatch(true);
        await nextChange();
      }
      done(task);
      return;
    }
    answer(task, 'line' in a || 'record' in a || 'timeout' in a || 'crashed' in a ? a : { crashed: 'no bytes for a nested zip' });
  };

  const visitZip = async (
    reader: FileHandleReader | BytesReader,
    task: Task,
    base: RecordBase,
    prefix: string,
    level: number,
    source: MemberPlace['source'],
    archive: Archive,
    parent: InflateBudget | undefined,
  ) => {
    let list: Member[];
    try {
      // The directory and every local header are read and checked here, the layout as a whole
      // (overlapping members are a bomb's): workers get only places that passed.
      list = await members(reader, maxBytes);
    } catch (e) {
      // A zip whose directory cannot be read, or whose members overlap, is itself the failed file (or member).
      if (!(e instanceof ZipError)) throw e;
      emit({ ...base, bytes: source.size, format: null, error: err(e.code, `zip: ${e.message}`) });
      return;
    }
    const budget = new InflateBudget(source.size, maxZipRatio, parent);
    archive.budget = budget;
    for (const m of list) {
      if (aborted()) return;
      if (m.kind === 'folder') continue;
      const member = prefix + m.name;
      // Charged before a worker inflates it: inflating stops at the declared size, so that is all it can cost.
      const refused = memberRefusal(m, maxBytes, budget);
      if (refused) {
        emit({ ...base, member, bytes: m.size, format: null, error: err(refused.code, refused.message) });
        continue;
      }
      if (task.mtimeMs !== null && options.skip && skipped({ path: base.path, member, bytes: m.size, mtimeMs: task.mtimeMs })) continue;
      await waitForRoom();
      const fault = faultFor(options.inject, Buffer.from(task.item.path, 'latin1'), member);
      const place: MemberPlace = { source, dataStart: m.dataStart, compressedSize: m.compressedSize, size: m.size, method: m.method, level };
      const item = { kind: 'member' as const, path: task.item.path, member, ...place, ...(fault ? { fault } : {}) };
      submit({ item, size: m.size, declared: m.size, archive, mtimeMs: task.mtimeMs });
    }
    pool.dispatch(true);
  };

  let walkDone = false;
  let walkError: unknown = null;
  const walker = walkAll().then(
    () => {
      walkDone = true;
      stats.walkDone = true;
      pool.draining = !producing();
      pool.dispatch(true);
      notify();
    },
    (e) => {
      walkError = e;
      walkDone = true;
      notify();
    },
  );
  const producing = () => !walkDone || zipLoop !== null;

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
      if (!producing() && inFlight === 0) break;
      if (aborted() && (!producing() || inFlight === 0)) break;
      await new Promise<void>((r) => {
        wake = r;
      });
    }
    await walker;
    if (walkError) throw walkError;
    if (options.sort) {
      sorted.sort(compareRecords);
      yield* sorted;
    }
  } finally {
    ended = true;
    options.signal?.removeEventListener('abort', onAbort);
    Object.assign(stats.workerStages, pool.stages);
    stats.workerCpuMs = pool.workerCpuMs;
    pool.close();
    for (const fd of openZips) nodeFs.closeSync(fd);
    openZips.clear();
    freeRoom();
    changed();
  }
}

function err(code: string, message: string): ErrorRecord {
  return { code, offset: null, path: '', message };
}

/**
 * What the file system says of a file found (its size for batching and time limits, its device
 * and inode for the worker to read that file and no other), asked through the handle of the
 * folder the walk is listing; null when it cannot say (the worker reports why).
 */
function statOf(entry: FileEntry, fs: Pick<typeof nodeFs, 'statSync' | 'lstatSync'>): { size: number; mtimeMs: number; id: FileIdentity } | null {
  try {
    const at = entry.at ?? entry.path;
    const st = entry.noFollow ? fs.lstatSync(at, { bigint: true }) : fs.statSync(at, { bigint: true });
    return { size: Number(st.size), mtimeMs: Number(st.mtimeMs), id: { dev: st.dev, ino: st.ino } };
  } catch {
    return null;
  }
}

function faultFor(inject: Inject | undefined, path: Buffer, member: string | null): Fault | undefined {
  if (!inject) return undefined;
  const base = baseOf(path.toString('latin1'), member);
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
