// The scan's walk stage: each file the walk (walk.ts) yields is filtered by shard, `stat`ed
// through the folder handle the walk holds, passed over when it is one of the scan's own outputs
// or unchanged since an earlier scan (`skip`), and becomes a task for the workers. Only with
// replaced fs functions is a file read here. See src/scan/README.md ("How a scan runs").
import * as nodeFs from 'node:fs';
import { baseOf, readFileItem } from './item-node.js';
import type { ScanConfig } from './job.js';
import { pathBytes } from './names.js';
import type { FileIdentity } from './read.js';
import type { ScanOptions, ScanStats } from './scan-options.js';
import type { Schedule } from './schedule.js';
import { failed, faultFor, type Unchanged } from './task.js';
import { type WalkEntry, walk } from './walk.js';

type FileEntry = Extract<WalkEntry, { kind: 'file' }>;

/** What the walk stage works with. */
export interface Visit {
  options: ScanOptions;
  config: ScanConfig;
  schedule: Schedule;
  stats: ScanStats;
  /** Whether a file is unchanged since an earlier scan (`skip`); undefined when nothing is skipped. */
  unchanged: Unchanged | undefined;
}

/** Walks `paths` and hands every file found to the schedule, waiting for room before each. */
export async function walkFiles(paths: readonly (string | Buffer)[], v: Visit): Promise<void> {
  const { options, schedule, stats } = v;
  const named = namedFiles(paths, options.fs ?? nodeFs);
  let t0 = performance.now();
  for (const entry of walk(paths, { follow: options.follow ?? false, ...(options.fs ? { fs: options.fs } : {}) })) {
    if (schedule.aborted()) return;
    if (entry.kind === 'not-followed') continue;
    if (entry.kind === 'unreadable') {
      schedule.emit(failed(baseOf(entry.path.toString('latin1'), null), null, entry.failure.code, entry.failure.message));
      continue;
    }
    if (options.shard && shardOf(entry.path, options.shard.count) !== options.shard.index) continue;
    stats.found++;
    const t1 = performance.now();
    stats.walkMs! += t1 - t0;
    await schedule.waitForRoom();
    t0 = performance.now();
    visitFile(entry, v, named);
  }
  stats.walkMs! += performance.now() - t0;
}

/** A file found by the walk or named: from here on it is a worker's to read (or, with replaced fs functions, read here). */
function visitFile(entry: FileEntry, { options, config, schedule, stats, unchanged }: Visit, namedIds: NamedFiles): void {
  const { path, named } = entry;
  const latin1 = path.toString('latin1');
  const fault = faultFor(options.inject, path, null);
  // The file as listed (through the folder's handle while the walk holds it): the worker reads
  // that file or none, so a folder above it swapped for a link meanwhile leads nowhere.
  const st = statOf(entry, options.fs ?? nodeFs);
  if (st && !namedIds.first(st.id, named)) {
    stats.found--;
    return;
  }
  const listed = st ? { id: st.id, ...(entry.noFollow ? { noFollow: true } : {}) } : {};
  if (options.fs) {
    // Replaced fs functions cannot travel to a worker: read here, send the bytes.
    const r = readFileItem(latin1, named, config, baseOf(latin1, null), options.fs, listed);
    if ('excluded' in r) stats.found--;
    else if ('record' in r) schedule.emit(r.record);
    else if ('bytes' in r) {
      const item = { kind: 'bytes' as const, path: latin1, member: null, bytes: r.bytes, levelName: r.levelName, ...(fault ? { fault } : {}) };
      schedule.submit({ item, size: r.bytes.length, declared: r.bytes.length, archive: null, mtimeMs: null });
    } else if ('zip' in r) {
      // Answered here as a worker would answer it: the lister opens it, and its task ends then.
      schedule.hold();
      schedule.answer({ item: { kind: 'file', path: latin1, named, ...listed }, size: 0, declared: null, archive: null, mtimeMs: null }, { zip: true });
    }
    return;
  }
  // The scan's own outputs (--out, --report) are never read: a walk over their folder would
  // meet them half-written. The worker checks again on the handle it opens.
  const id = st?.id;
  if (id && config.exclude?.some((x) => x.dev === id.dev && x.ino === id.ino)) {
    stats.found--;
    return;
  }
  const size = st ? st.size : null;
  const mtimeMs = st ? st.mtimeMs : null;
  if (st && unchanged?.({ path: baseOf(latin1, null).path, member: null, bytes: st.size, mtimeMs: st.mtimeMs })) {
    stats.found--;
    return;
  }
  schedule.submit({
    item: { kind: 'file', path: latin1, named, ...listed, ...(fault ? { fault } : {}) },
    size: size ?? 0,
    declared: size,
    archive: null,
    mtimeMs,
  });
}

/**
 * The files the user named, by device and inode. Each is read once, as named: not again when a
 * named folder holds it too, nor when it is named twice, so one run never indexes one file twice
 * (two rows of one id, every table's rows doubled).
 */
interface NamedFiles {
  /** Whether the file `id` is to be read here: false for a named file met in a folder, or named again. */
  first(id: FileIdentity, named: boolean): boolean;
}

function namedFiles(paths: readonly (string | Buffer)[], fs: Pick<typeof nodeFs, 'statSync'>): NamedFiles {
  const ids = new Set<string>();
  for (const p of paths) {
    try {
      const st = fs.statSync(p, { bigint: true });
      if (st.isFile()) ids.add(`${st.dev}:${st.ino}`);
    } catch {
      // Reading it reports why.
    }
  }
  const read = new Set<string>();
  return {
    first(id, named) {
      if (ids.size === 0) return true;
      const key = `${id.dev}:${id.ino}`;
      if (!ids.has(key)) return true;
      if (!named || read.has(key)) return false;
      read.add(key);
      return true;
    },
  };
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

/** Shard of a path: FNV-1a over its bytes, modulo `count`. Members follow their archive, which is hashed as a whole. */
export function shardOf(path: Buffer | string, count: number): number {
  const b = pathBytes(path);
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i]!, 0x01000193) >>> 0;
  return h % count;
}
