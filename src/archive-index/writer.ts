// The index as a sink of the scan: the workers' level rows arrive as columnar batches
// (level-rows.ts), the files and warnings rows are built here from each record; batches are held
// per table and, every FLUSH_BYTES and at the end, written as one Parquet part per table by the
// index's own writer (parquet/), pages compressed on libuv's threads, and committed together
// (commits.ts): each part fsync'd and renamed into its table folder, then one commit file listing
// them renamed into `_commits`. No database runs while a scan writes: memory stays near
// FLUSH_BYTES whatever the archive's size.
//
// A flush commits whole files only: a worker's rows wait for the records of their files (the
// files row is what `--resume` trusts), so a crash between two commits never leaves a file
// counted whose rows are not all there, nor rows of a file not counted.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Finding } from '../check/types.js';
import type { ScanRecord } from '../scan/job.js';
import { pathBytes } from '../scan/names.js';
import { ioError, OutputError } from '../scan/write.js';
import { COMMITS, type CommittedPart, commitName, commitText, legacyCommitName } from './commits.js';
import { findingRow } from './findings-rows.js';
import { fileId, type IndexBatch, WORKER_TABLES } from './level-rows.js';
import { type TableBatch, TableBuilder } from './parquet/columns.js';
import { CODEC, type Codec, encodeParquet } from './parquet/file.js';
import { BrokenPart, partName, partsOf } from './parts.js';
import { TABLES, type TableName, tableOf } from './schema.js';

/** Rows held (their buffers' bytes) before they are written out as parts. */
const FLUSH_BYTES = 8 << 20;

const gzipAsync = promisify(gzip);
/** Level 1: the index is written once per scan and read many times, but a scan must not wait on it. */
const GZIP: Codec = { id: CODEC.GZIP, compress: (page) => gzipAsync(page, { level: 1 }) };

/** The file operations the writer makes (node:fs/promises); a test injects a disk that fills or a crash that never returns. */
export type IndexFs = Pick<typeof fs.promises, 'open' | 'rename' | 'unlink' | 'mkdir' | 'rm'>;

export interface IndexWriterOptions {
  /** Names this writer's parts: `s<k>of<n>` for shard k of n, else `all`. */
  shard?: { index: number; count: number };
  /** Hex SHA-256, as the workers hash (node:crypto). */
  hash: (b: Uint8Array) => string;
  /** Written into each part's footer (`created_by`). */
  createdBy?: string;
  /** The options that shaped the rows (resume.ts rowOptions), in each files row for `--resume`; null when not given. */
  rowOptions?: string;
  /** Rows held before a flush commits them (FLUSH_BYTES); tests make it small to commit often. */
  flushBytes?: number;
  /** The file operations (node:fs/promises unless a test injects failures). */
  fs?: IndexFs;
}

/** A folder the writer writes into: opened once (never through a link), named through its handle where /proc allows. */
interface Folder {
  /** The path the user would know it by, for messages. */
  shown: string;
  /** The prefix names in it are reached through: /proc/self/fd/<fd> on Linux, else `shown`. */
  at: string;
  handle: fs.promises.FileHandle;
}

/** A worker message's rows, held until every file they belong to has had its record (its files row). */
interface Waiting {
  batch: IndexBatch;
  /** Files whose record has not come yet, of `of`. */
  files: number;
  of: number;
  bytes: number;
}

export class IndexWriter {
  private readonly startedMs = Date.now();
  private readonly shard: string;
  private readonly flushBytes: number;
  private readonly io: IndexFs;
  private readonly held = new Map<TableName, TableBatch[]>();
  private readonly files = new TableBuilder(tableOf('files'));
  private readonly warnings = new TableBuilder(tableOf('warnings'));
  private readonly findings = new TableBuilder(tableOf('findings'));
  /** Worker messages whose files' records have not all come, in arrival order. */
  private readonly waiting: Waiting[] = [];
  /** The messages waiting for each file id's record. */
  private readonly awaited = new Map<string, Waiting[]>();
  /** Bytes of the rows the next flush commits (held batches and messages whose files all have their records). */
  private heldBytes = 0;
  private seq = 0;
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  /** Rows committed per table, for the closing line. */
  readonly rows = new Map<TableName, number>();

  private constructor(
    readonly dir: string,
    readonly run: string,
    private readonly options: IndexWriterOptions,
    private readonly folders: ReadonlyMap<TableName | typeof COMMITS, Folder>,
  ) {
    this.shard = options.shard ? `s${options.shard.index}of${options.shard.count}` : 'all';
    this.flushBytes = options.flushBytes ?? FLUSH_BYTES;
    this.io = options.fs ?? fs.promises;
    for (const t of TABLES) this.held.set(t.name, []);
  }

  /**
   * Opens (creating) the index folder `dir`. The folder may hold parts of other runs: they stay.
   * A table folder or `_commits` that is a link or not a folder is refused (OutputError
   * UNSAFE_PATH). An index written before commits has its parts committed as they are first
   * (`_commits/legacy-<run>.json`), so they stay visible beside this run's.
   */
  static async open(dir: string, options: IndexWriterOptions): Promise<IndexWriter> {
    const io = options.fs ?? fs.promises;
    const run = newRun();
    await step(dir, () => io.mkdir(dir, { recursive: true }));
    if (!fs.lstatSync(join(dir, COMMITS), { throwIfNoEntry: false })) await adoptLegacy(dir, run, io);
    const folders = new Map<TableName | typeof COMMITS, Folder>();
    try {
      for (const name of [...TABLES.map((t) => t.name), COMMITS] as const) folders.set(name, await openFolder(dir, name, io));
    } catch (e) {
      for (const f of folders.values()) await f.handle.close();
      throw e;
    }
    return new IndexWriter(dir, run, options, folders);
  }

  /** A worker message's level rows (WORKER_TABLES order), held until their files' records come. */
  addRows = (batch: IndexBatch): void => {
    if (this.failure) return;
    const ids = new Set<string>();
    for (const t of ['levels', 'warnings'] as const) {
      const b = batch[WORKER_TABLES.indexOf(t)];
      if (b) for (const id of idsOf(b)) ids.add(id);
    }
    const w: Waiting = { batch, files: ids.size, of: ids.size, bytes: batch.reduce((n, b) => n + (b ? batchBytes(b) : 0), 0) };
    for (const id of ids) {
      const list = this.awaited.get(id);
      if (list) list.push(w);
      else this.awaited.set(id, [w]);
    }
    this.waiting.push(w);
    if (w.files === 0) this.heldBytes += w.bytes;
    this.flushIfFull();
  };

  /** A record's files row and its warnings rows. `mtimeMs`: what the walk saw (scan's recordMtimeMs). Throws the first write's failure, so the scan stops there. */
  addRecord(r: ScanRecord, mtimeMs: number | null): void {
    if (this.failure) throw this.failure;
    const id = fileId(this.run, r.path, r.member, this.options.hash);
    const list = this.awaited.get(id);
    if (list) {
      const w = list.shift()!;
      if (--w.files === 0) this.heldBytes += w.bytes;
      if (list.length === 0) this.awaited.delete(id);
    }
    const summary = r.summary as { gridDigest?: unknown } | undefined;
    const grid = typeof summary?.gridDigest === 'string' ? summary.gridDigest : null;
    const warnings = r.warnings ?? [];
    this.files.row([
      id,
      r.path,
      r.member,
      r.bytes,
      mtimeMs === null ? null : Math.round(mtimeMs),
      r.contentDigest ?? null,
      r.format,
      r.version === undefined ? null : String(r.version),
      r.error?.code ?? null,
      r.error?.message ?? null,
      grid,
      warnings.length,
      this.run,
      this.startedMs,
      this.options.rowOptions ?? null,
    ]);
    for (const w of warnings) this.warnings.row([id, w.code, w.message, w.offset]);
    for (const f of r.findings ?? []) this.findings.row(findingRow(id, f));
    // The main thread's own rows join the held batches now and then, not per record.
    if (this.files.rows >= 4096) this.takeOwnRows();
    this.flushIfFull();
  }

  /** A finding of the rules that judge files together (scan --check), for the file at `path` and `member`. */
  addFinding(path: string, member: string | null, f: Finding): void {
    this.findings.row(findingRow(fileId(this.run, path, member, this.options.hash), f));
  }

  private takeOwnRows(): void {
    for (const [table, builder] of [
      ['files', this.files],
      ['warnings', this.warnings],
      ['findings', this.findings],
    ] as const) {
      const b = builder.take();
      if (b) this.hold(table, b);
    }
  }

  private hold(table: TableName, b: TableBatch): void {
    this.held.get(table)!.push(b);
    this.heldBytes += batchBytes(b);
  }

  /**
   * Flushes once enough is held, and only between two messages' records: while some of a message's
   * files have their records (their files rows held) and others not, a flush would commit those
   * files rows without their level rows. A message's records come one after another, so this waits
   * a few records at most.
   */
  private flushIfFull(): void {
    if (this.heldBytes + this.files.pending < this.flushBytes) return;
    if (this.waiting.some((w) => w.files > 0 && w.files < w.of)) return;
    this.flush();
  }

  /**
   * Starts committing what is held whole (rows waiting for records stay); the commits run one after
   * another, behind the scan. `last`: the scan is over, so a message some of whose records came
   * goes too (a stop in its middle: the rest of its files never come, and their rows are orphans
   * no files row names), and one none of whose records came is dropped.
   */
  private flush(last = false): void {
    let kept = 0;
    for (const w of this.waiting) {
      if (w.files > 0 && !(last && w.files < w.of)) {
        this.waiting[kept++] = w;
        continue;
      }
      w.batch.forEach((b, i) => {
        if (b) this.held.get(WORKER_TABLES[i]!)!.push(b);
      });
    }
    this.waiting.length = kept;
    this.takeOwnRows();
    const taken = [...this.held].filter(([, b]) => b.length > 0).map(([t, b]) => [t, [...b]] as const);
    for (const b of this.held.values()) b.length = 0;
    this.heldBytes = 0;
    if (taken.length === 0) return;
    const seq = this.seq++;
    this.writing = this.writing.then(async () => {
      if (this.failure) return;
      try {
        await this.commit(taken, seq);
      } catch (e) {
        this.failure = e;
      }
    });
  }

  /**
   * One flush as one commit: each table's part written under a temporary name, fsync'd and renamed
   * into its folder, the folders fsync'd (the renames are durable), then the commit file naming
   * them, fsync'd, renamed into `_commits`, and that folder fsync'd. What a failure leaves of this
   * flush (all of it this run's own files, listed by no commit) is removed.
   */
  private async commit(taken: readonly (readonly [TableName, readonly TableBatch[]])[], seq: number): Promise<void> {
    const made: string[] = [];
    const parts: (CommittedPart & { rows: number })[] = [];
    try {
      for (const [table, batches] of taken) {
        const pieces = await encodeParquet(tableOf(table), batches, GZIP, this.options.createdBy ?? 'levelkit');
        if (!pieces) continue;
        const name = partName(this.shard, this.run, seq);
        const bytes = await this.writeDurably(this.folders.get(table)!, name, pieces, made);
        parts.push({ table, name, bytes, rows: batches.reduce((n, b) => n + b.rows, 0) });
      }
      if (parts.length === 0) return;
      await Promise.all(
        parts.map((p) => {
          const f = this.folders.get(p.table)!;
          return step(f.shown, () => f.handle.sync());
        }),
      );
      const listed = parts.map(({ table, name, bytes }) => ({ table, name, bytes }));
      const commits = this.folders.get(COMMITS)!;
      await this.writeDurably(commits, commitName(this.shard, this.run, seq), [Buffer.from(commitText(listed))], made);
      await step(commits.shown, () => commits.handle.sync());
    } catch (e) {
      for (const file of made) await this.io.unlink(file).catch(() => {});
      throw e;
    }
    for (const p of parts) this.rows.set(p.table, (this.rows.get(p.table) ?? 0) + p.rows);
  }

  /** Writes `pieces` as `name` in `folder`: under a temporary name, fsync'd, then renamed (adds both names to `made`). Returns its size. */
  private async writeDurably(folder: Folder, name: string, pieces: readonly Uint8Array[], made: string[]): Promise<number> {
    const tmp = join(folder.at, `${name}.tmp`);
    const shown = join(folder.shown, name);
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
    const fh = await step(shown, () => this.io.open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666));
    made.push(tmp);
    let bytes = 0;
    try {
      bytes = await step(shown, () => writeAll(fh, pieces));
      await step(shown, () => fh.sync());
    } finally {
      await fh.close();
    }
    const final = join(folder.at, name);
    made.push(final);
    await step(shown, () => this.io.rename(tmp, final));
    return bytes;
  }

  /** Commits the rest and waits for every commit. Throws the first write's failure. Rows still waiting for records that never came (a stopped scan) are dropped: their files are not indexed. */
  async close(): Promise<void> {
    this.flush(true);
    this.waiting.length = 0;
    this.awaited.clear();
    await this.writing;
    for (const f of this.folders.values()) await f.handle.close().catch(() => {});
    if (this.failure) throw this.failure;
  }
}

/** A run's name: its start time and a random suffix, so runs and machines never share a part name. */
function newRun(): string {
  const t = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${t}-${Math.random().toString(16).slice(2, 8)}`;
}

/** Runs an fs step; its failure becomes an OutputError IO naming `shown` (the system's reason: ENOSPC, EIO …). */
async function step<T>(shown: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof OutputError || e instanceof BrokenPart) throw e;
    throw ioError(pathBytes(shown), e);
  }
}

/** Writes every piece, continuing short writes. Returns the bytes written. */
async function writeAll(fh: fs.promises.FileHandle, pieces: readonly Uint8Array[]): Promise<number> {
  let rest = pieces.filter((p) => p.length > 0);
  let total = 0;
  while (rest.length) {
    const { bytesWritten } = await fh.writev(rest as Uint8Array[]);
    if (bytesWritten === 0) throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO', syscall: 'write', errno: -5 });
    total += bytesWritten;
    let n = bytesWritten;
    while (rest.length && n >= rest[0]!.length) n -= rest.shift()!.length;
    if (n > 0) rest = [rest[0]!.subarray(n), ...rest.slice(1)];
  }
  return total;
}

/** The folder `name` in `dir`, created when missing and opened without following a link: OutputError UNSAFE_PATH when it is one, or not a folder. */
async function openFolder(dir: string, name: string, io: IndexFs): Promise<Folder> {
  const shown = join(dir, name);
  await step(shown, () => io.mkdir(shown).catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e))));
  let handle: fs.promises.FileHandle;
  try {
    handle = await io.open(shown, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ELOOP' && code !== 'ENOTDIR') throw ioError(pathBytes(shown), e);
    // O_DIRECTORY refuses a link to a folder with ENOTDIR before O_NOFOLLOW's ELOOP: lstat tells them apart.
    if (fs.lstatSync(shown, { throwIfNoEntry: false })?.isSymbolicLink())
      throw new OutputError('UNSAFE_PATH', `${shown} is a symbolic link; levelkit writes an index only into real folders`);
    throw new OutputError('UNSAFE_PATH', `${shown} is not a folder`);
  }
  // Through the handle where /proc allows (Linux's openat()): a folder swapped for a link meanwhile is not followed.
  const proc = `/proc/self/fd/${handle.fd}`;
  let at = shown;
  try {
    if (fs.statSync(`${proc}/.`).isDirectory()) at = proc;
  } catch {
    // no /proc (macOS): by path, checked above
  }
  return { shown, at, handle };
}

/**
 * Commits the parts of an index written before commits, as they are, in the same rename that
 * creates `_commits` (built as `_commits.<run>.tmp` first), so no reader ever sees `_commits`
 * without them. Another writer adopting them at the same instant wins the rename; ours is removed.
 */
async function adoptLegacy(dir: string, run: string, io: IndexFs): Promise<void> {
  const listed: CommittedPart[] = [];
  for (const t of TABLES)
    for (const file of partsOf(dir, t.name)) listed.push({ table: t.name, name: file.slice(file.lastIndexOf('/') + 1), bytes: fs.statSync(file).size });
  const target = join(dir, COMMITS);
  if (listed.length === 0) return;
  const tmp = join(dir, `${COMMITS}.${run}.tmp`);
  await step(tmp, () => io.mkdir(tmp));
  try {
    const folder = await openFolder(dir, `${COMMITS}.${run}.tmp`, io);
    try {
      const name = legacyCommitName(run);
      const fh = await step(join(tmp, name), () => io.open(join(tmp, name), 'wx'));
      try {
        await step(join(tmp, name), () => writeAll(fh, [Buffer.from(commitText(listed))]));
        await step(join(tmp, name), () => fh.sync());
      } finally {
        await fh.close();
      }
      await step(tmp, () => folder.handle.sync());
    } finally {
      await folder.handle.close();
    }
    await step(target, () => io.rename(tmp, target));
  } catch (e) {
    await io.rm(tmp, { recursive: true, force: true });
    // Another writer created `_commits` first (with these parts in it): theirs stands.
    if (!fs.lstatSync(target, { throwIfNoEntry: false })) throw e;
    return;
  }
  const handle = await step(dir, () => io.open(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY));
  try {
    await step(dir, () => handle.sync());
  } finally {
    await handle.close();
  }
}

/** The values of a batch's first column, `id` (VARCHAR, always present: a 4-byte length, then the text). */
function idsOf(b: TableBatch): string[] {
  const v = b.columns[0]!.values;
  const view = new DataView(v.buffer, v.byteOffset, v.byteLength);
  const out: string[] = [];
  let last = '';
  for (let at = 0; at + 4 <= v.length; ) {
    const n = view.getUint32(at, true);
    const id = latin1(v, at + 4, n);
    if (id !== last) out.push(id);
    last = id;
    at += 4 + n;
  }
  return out;
}

function latin1(b: Uint8Array, at: number, n: number): string {
  return Buffer.from(b.buffer, b.byteOffset + at, n).toString('latin1');
}

function batchBytes(b: TableBatch): number {
  let n = 0;
  for (const c of b.columns) n += c.defs.length + c.values.length;
  return n;
}
