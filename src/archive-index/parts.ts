// The files of an index folder: `<dir>/<table>/part-<shard>-<run>-<seq>.parquet`, one per table per
// commit of a run or shard, so many machines can write into one shared folder and every part is
// read together; and `<dir>/_commits/`, one file per commit naming its parts (commits.ts). A part
// counts once a commit lists it, and only then: readers never meet a commit half-made.
//
// Everything read here may have been planted: a table folder or `_commits` that is a symbolic
// link is refused (never read through), a FIFO, socket or device named like a part or a commit is
// refused without being opened (lstat first; then opened O_NONBLOCK | O_NOFOLLOW and checked to
// be the file lstat saw), and a part's footer is walked before DuckDB is asked to read it.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { COMMITS, type CommittedPart, isCommitName, parseCommit } from './commits.js';
import { loadEngine, sqlString } from './engine.js';
import { footerDamage } from './parquet/footer.js';
import type { TableName } from './schema.js';

/** Parquet files start and end with these four bytes; the footer's length sits just before the end. */
const MAGIC = Buffer.from('PAR1');

/** A commit file larger than this is not one of levelkit's (a flush lists a few parts). */
const MAX_COMMIT_BYTES = 1 << 20;

/** A part file or an index folder that cannot be trusted (cut short, not Parquet, not a regular file or folder, a link). */
export class BrokenPart extends Error {
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(`${file}: ${why}`);
    this.name = 'BrokenPart';
  }
}

export function partName(shard: string, run: string, seq: number): string {
  return `part-${shard}-${run}-${String(seq).padStart(4, '0')}.parquet`;
}

/**
 * The committed, whole parts of `table` in `dir`, sorted by name. With a `_commits` folder, the
 * parts its commits list (and no other: a part no commit lists is of a flush a crash or a full
 * disk cut short); an index written before commits (no `_commits`) is read as it was, every
 * `part-*.parquet` of the table's folder. BrokenPart for a part listed but missing, of another
 * size, not a regular file or not a whole Parquet file, and for a folder that is a link.
 * `committed`: committedParts(dir), read once by a caller that asks for every table.
 */
export function partsOf(dir: string, table: TableName, committed = committedParts(dir)): string[] {
  const folder = join(dir, table);
  if (committed === null) {
    const names = folderNames(folder, false);
    const parts = names.filter((n) => n.startsWith('part-') && n.endsWith('.parquet')).sort();
    for (const n of parts) checkPart(join(folder, n));
    return parts.map((n) => join(folder, n));
  }
  const listed = committed.get(table) ?? [];
  if (listed.length) folderNames(folder, true);
  for (const p of listed) checkPart(join(folder, p.name), p);
  return listed.map((p) => join(folder, p.name));
}

/** A committed part and the commit that lists it (named when the part is not as listed). */
type Listed = CommittedPart & { commit: string };

/** Every table's committed parts, sorted by name, or null for an index without `_commits`. */
export function committedParts(dir: string): Map<string, Listed[]> | null {
  const folder = join(dir, COMMITS);
  const names = folderNames(folder, false, true);
  if (names === null) return null;
  const byTable = new Map<string, Listed[]>();
  const seen = new Set<string>();
  for (const n of names.filter(isCommitName).sort()) {
    const file = join(folder, n);
    const commit = parseCommit(readRegular(file, MAX_COMMIT_BYTES).toString('utf8'));
    if (typeof commit === 'string') throw new BrokenPart(file, commit);
    for (const p of commit.parts) {
      // A folder adopted by two writers at once lists its older parts twice: once is enough.
      const key = `${p.table}/${p.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const list = byTable.get(p.table) ?? [];
      if (list.length === 0) byTable.set(p.table, list);
      list.push({ ...p, commit: file });
    }
  }
  for (const list of byTable.values()) list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return byTable;
}

/**
 * The names in `folder`, refused when it is a link or not a folder. A missing folder: an empty list
 * (`optional` null instead), or a BrokenPart when `required` (a commit lists parts in it).
 */
function folderNames(folder: string, required: boolean, optional: true): string[] | null;
function folderNames(folder: string, required: boolean): string[];
function folderNames(folder: string, required: boolean, optional?: true): string[] | null {
  const st = fs.lstatSync(folder, { throwIfNoEntry: false });
  if (!st) {
    if (required) throw new BrokenPart(folder, 'is missing, but commits list parts in it');
    return optional ? null : [];
  }
  if (st.isSymbolicLink()) throw new BrokenPart(folder, 'is a symbolic link; an index is read only from real folders');
  if (!st.isDirectory()) throw new BrokenPart(folder, 'is not a folder');
  return fs.readdirSync(folder);
}

/** What a non-regular file is, for the line refusing it. */
function kindOf(st: fs.Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/**
 * Opens `file` for reading only when it is a regular file: lstat first (a FIFO is never opened,
 * so nothing waits on a writer that never comes), then O_NONBLOCK | O_NOFOLLOW, and the opened file
 * must be the one lstat saw. Returns the descriptor and its size; BrokenPart otherwise.
 */
function openRegular(file: string, listed?: Listed): { fd: number; size: number } {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) throw new BrokenPart(file, listed ? `is missing, but ${listed.commit} lists it` : 'is missing');
  if (!st.isFile()) throw new BrokenPart(file, `is ${kindOf(st)}, not a regular file; levelkit reads only regular files in an index`);
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
  const fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  const now = fs.fstatSync(fd);
  if (!now.isFile() || now.ino !== st.ino || now.dev !== st.dev) {
    fs.closeSync(fd);
    throw new BrokenPart(file, 'was replaced while it was being opened');
  }
  return { fd, size: now.size };
}

/** The bytes of the regular file `file` (at most `max`: a larger one is refused). */
function readRegular(file: string, max: number): Buffer {
  const { fd, size } = openRegular(file);
  try {
    if (size > max) throw new BrokenPart(file, `${size} bytes: too large to be a commit of levelkit's`);
    const b = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const n = fs.readSync(fd, b, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return b.subarray(0, got);
  } finally {
    fs.closeSync(fd);
  }
}

function checkPart(file: string, listed?: Listed): void {
  const { fd, size } = openRegular(file, listed);
  try {
    if (listed && size !== listed.bytes) throw new BrokenPart(file, `${size} bytes, but ${listed.commit} lists ${listed.bytes} (cut short or overwritten?)`);
    if (size < 12) throw new BrokenPart(file, `${size} bytes: too short to be a Parquet file (truncated?)`);
    const head = Buffer.alloc(4);
    const tail = Buffer.alloc(8);
    fs.readSync(fd, head, 0, 4, 0);
    fs.readSync(fd, tail, 0, 8, size - 8);
    if (!head.equals(MAGIC)) throw new BrokenPart(file, 'does not start as a Parquet file');
    if (!tail.subarray(4).equals(MAGIC)) throw new BrokenPart(file, 'does not end as a Parquet file (truncated?)');
    const length = tail.readUInt32LE(0);
    if (length > size - 12) throw new BrokenPart(file, `its footer (${length} bytes) does not fit in the file (truncated?)`);
    const footer = Buffer.alloc(length);
    fs.readSync(fd, footer, 0, length, size - 8 - length);
    const damage = footerDamage(footer, size);
    if (damage) throw new BrokenPart(file, damage);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Runs `read` (a DuckDB statement over `parts`); when DuckDB fails, finds the part it could not
 * read (each read whole, one at a time, in a DuckDB of its own: an internal error may have spoilt
 * the caller's; only on this path) and throws a BrokenPart naming it with DuckDB's first line, so
 * damage inside a part's pages (its footer fine) is one line naming the file, not a decompression
 * or Thrift error naming nothing. Rethrows DuckDB's error when every part reads.
 */
export async function namingBrokenParts<T>(parts: readonly string[], read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    const { DuckDBInstance } = await loadEngine();
    const db = await (await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' })).connect();
    try {
      for (const p of parts) {
        try {
          // Every value of every column decoded: a page no reader can read fails here.
          await db.run(`SELECT max(hash(COLUMNS(*))) FROM read_parquet(${sqlString(p)})`);
        } catch (bad) {
          throw new BrokenPart(p, `cannot be read: ${String((bad as Error)?.message ?? bad).split('\n')[0]}`);
        }
      }
    } finally {
      db.closeSync();
    }
    throw e;
  }
}
