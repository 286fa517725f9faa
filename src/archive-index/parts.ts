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
import { COMMITS, type CommittedPart, commitRun, isCommitName, parseCommit } from './commits.js';
import { openEngine, sqlString } from './engine.js';
import { readFooter } from './parquet/footer.js';
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

/**
 * A folder that is not an archive index: no `_commits` folder (every index levelkit writes has one,
 * an index of no files included) and no part in any table folder (an index written before
 * commits). Querying it would answer every question with 0 rows, so readers refuse it. A
 * BrokenPart, so every reader that names broken index folders names this one too.
 */
export class NotAnIndex extends BrokenPart {
  constructor(dir: string, why = 'no _commits folder and no table parts') {
    super(dir, `is not an archive index (${why}; levelkit scan … --index <dir> writes one)`);
    this.name = 'NotAnIndex';
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
  return checkedParts(dir, table, committed).map((p) => p.file);
}

/** A part checked whole, and its footer's schema as a key (readFooter): parts of one key read together. */
export interface CheckedPart {
  file: string;
  schema: string;
}

/** partsOf, with each part's schema key. */
export function checkedParts(dir: string, table: TableName, committed = committedParts(dir)): CheckedPart[] {
  return listedParts(dir, table, committed).map((p) => checkPart(p.file, p.listed));
}

/** A part as the index names it, not yet opened: its file, and the commit that lists it (none in an index without commits). */
export interface ListedPart {
  file: string;
  listed?: Listed;
}

/** A table's parts as the commits list them (an index without commits: as its folder holds them), none opened yet. */
export function listedParts(dir: string, table: TableName, committed = committedParts(dir)): ListedPart[] {
  const folder = join(dir, table);
  if (committed === null) {
    const names = folderNames(folder, false);
    return names
      .filter((n) => n.startsWith('part-') && n.endsWith('.parquet'))
      .sort()
      .map((n) => ({ file: join(folder, n) }));
  }
  const listed = committed.get(table) ?? [];
  // Only that it is a real folder: its names are not needed (the commits list them), and listing a
  // folder of thousands of parts cost as much as checking a hundred of them.
  if (listed.length) realFolder(folder, true);
  return listed.map((p) => ({ file: join(folder, p.name), listed: p }));
}

/**
 * The cheap half of checkPart, for parts whose footers are read only when a query needs their
 * table: each is a regular file of the size its commit lists (a part cut short or overwritten is
 * named at once, whatever the query reads). BrokenPart otherwise.
 */
export function checkSizes(parts: readonly ListedPart[]): void {
  for (const { file, listed } of parts) {
    const { fd, size } = openRegular(file, listed);
    fs.closeSync(fd);
    if (listed && size !== listed.bytes) throw sizeMismatch(file, size, listed);
  }
}

function sizeMismatch(file: string, size: number, listed: Listed): BrokenPart {
  return new BrokenPart(file, `${size} bytes, but ${listed.commit} lists ${listed.bytes} (cut short or overwritten?)`);
}

/** A committed part and the commit that lists it (named when the part is not as listed). */
export type Listed = CommittedPart & { commit: string };

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
 * Whether no file can have rows in two runs of the index at `dir`: its commits are of one run, or
 * of one run per shard of one sharded scan (shards split the paths). Then every row is its file's
 * latest and readers need not look for the latest (a window over every file row, then a join:
 * a third of a query's time over 500,000 files). False for an index without commits, with adopted
 * legacy parts, or with two runs of one shard (a scan again, a --resume).
 */
export function disjointRuns(dir: string): boolean {
  const names = folderNames(join(dir, COMMITS), false, true);
  if (names === null) return false;
  const runOf = new Map<string, string>();
  let shards: string | null = null;
  for (const n of names.filter(isCommitName)) {
    const c = commitRun(n);
    if (!c) return false;
    if (runOf.has(c.shard) && runOf.get(c.shard) !== c.run) return false;
    runOf.set(c.shard, c.run);
    // Shards of one scan: all of one count (s0of3, s1of3 …); `all` only alone.
    const count = c.shard === 'all' ? 'all' : c.shard.slice(c.shard.indexOf('of'));
    if (shards !== null && shards !== count) return false;
    shards = count;
  }
  return true;
}

/**
 * The names in `folder`, refused when it is a link or not a folder. A missing folder: an empty list
 * (`optional` null instead), or a BrokenPart when `required` (a commit lists parts in it).
 */
function folderNames(folder: string, required: boolean, optional: true): string[] | null;
function folderNames(folder: string, required: boolean): string[];
function folderNames(folder: string, required: boolean, optional?: true): string[] | null {
  if (!realFolder(folder, required)) return optional ? null : [];
  return fs.readdirSync(folder);
}

/** Whether `folder` is there (BrokenPart when it is missing but `required`), refused when it is a link or not a folder. */
function realFolder(folder: string, required: boolean): boolean {
  const st = fs.lstatSync(folder, { throwIfNoEntry: false });
  if (!st) {
    if (required) throw new BrokenPart(folder, 'is missing, but commits list parts in it');
    return false;
  }
  if (st.isSymbolicLink()) throw new BrokenPart(folder, 'is a symbolic link; an index is read only from real folders');
  if (!st.isDirectory()) throw new BrokenPart(folder, 'is not a folder');
  return true;
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

/**
 * Bytes read from a part's end in one read: its footer (a few KiB for levelkit's parts), the
 * footer's length and the magic, and for a small part the whole file, magic at the start too.
 */
const TAIL_BYTES = 64 * 1024;

/** Checks `file` as a whole Parquet file (as `listed` by its commit); returns it with its schema key. */
function checkPart(file: string, listed?: Listed): CheckedPart {
  const { fd, size } = openRegular(file, listed);
  try {
    if (listed && size !== listed.bytes) throw sizeMismatch(file, size, listed);
    if (size < 12) throw new BrokenPart(file, `${size} bytes: too short to be a Parquet file (truncated?)`);
    // One read for the end (and the whole of a small part), a second only for what it missed.
    const tailStart = Math.max(0, size - TAIL_BYTES);
    const tail = readAt(fd, file, tailStart, size - tailStart, scratch);
    const head = tailStart === 0 ? tail.subarray(0, 4) : readAt(fd, file, 0, 4);
    if (!head.equals(MAGIC)) throw new BrokenPart(file, 'does not start as a Parquet file');
    if (!tail.subarray(tail.length - 4).equals(MAGIC)) throw new BrokenPart(file, 'does not end as a Parquet file (truncated?)');
    const length = tail.readUInt32LE(tail.length - 8);
    if (length > size - 12) throw new BrokenPart(file, `its footer (${length} bytes) does not fit in the file (truncated?)`);
    const footerStart = size - 8 - length;
    const footer = footerStart >= tailStart ? tail.subarray(footerStart - tailStart, tail.length - 8) : readAt(fd, file, footerStart, length);
    const read = readFooter(footer, size);
    if ('damage' in read) throw new BrokenPart(file, read.damage);
    return { file, schema: read.schema };
  } finally {
    fs.closeSync(fd);
  }
}

/** The buffer every part's end is read into (nothing read into it outlives its checkPart). */
const scratch = Buffer.allocUnsafeSlow(TAIL_BYTES);

/**
 * `length` bytes of the open part at `position`, in `into` when given (it is large enough): a
 * part that is shorter than its size said was cut while being read.
 */
function readAt(fd: number, file: string, position: number, length: number, into?: Buffer): Buffer {
  const b = into ? into.subarray(0, length) : Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, b, got, length - got, position + got);
    if (n === 0) throw new BrokenPart(file, `ends at byte ${position + got}, before the ${position + length} its size said (cut while being read?)`);
    got += n;
  }
  return b;
}

/**
 * Runs `read` (a DuckDB statement over `parts`); when DuckDB fails, finds the part it could not
 * read (each read whole, one at a time, in a DuckDB of its own: an internal error may have spoilt
 * the caller's; only on this path) and throws a BrokenPart naming it with DuckDB's first line, so
 * damage inside a part's pages (its footer fine) is one line naming the file, not a decompression
 * or Thrift error naming nothing. Rethrows DuckDB's error when every part reads.
 */
/** DuckDB's kinds of error that come from the query, never from reading a Parquet file. */
const QUERY_MISTAKE = /^(Parser|Binder|Catalog|Conversion|Out of Range|Not implemented|Constraint|Permission|Interrupt|INTERRUPT) Error:/;

export async function namingBrokenParts<T>(parts: readonly string[], read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    // A mistake in the query itself (a bad cast, a value out of range, a name bound late) is not
    // a damaged file: said at once, without reading every part of the index to be sure.
    if (QUERY_MISTAKE.test(String((e as Error)?.message ?? e))) throw e;
    const engine = await openEngine();
    const { db } = engine;
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
      engine.close();
    }
    throw e;
  }
}
