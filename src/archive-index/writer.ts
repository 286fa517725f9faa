// The index as a sink of the scan: the workers' level rows arrive as columnar batches
// (level-rows.ts), the files and warnings rows are built here from each record. Each table keeps
// one open part (`….parquet.tmp`) that grows a row group at a time: once a table's held rows reach
// ROW_GROUP_BYTES they are encoded by the index's own writer (parquet/), pages compressed (Snappy,
// text GZIP on libuv's threads), appended to the open part and dropped. Every COMMIT_BYTES of rows, COMMIT_MS
// and at the end, the open parts get their footers and are committed together (commits.ts): each
// fsync'd and renamed into its table folder, then one commit file listing them renamed into
// `_commits`; the next rows open new parts. So a big archive is a few large parts per table, not
// one small part per table every few MiB.
//
// Memory is bounded whatever the archive's size or the disk's speed: the rows held for a row group
// (HELD_BYTES in all) and the groups being encoded and written (IN_FLIGHT_BYTES) have a ceiling;
// past it `addRecord` returns a promise that resolves when a group is written, the scan's feed
// waits for it, and the scan's Schedule stops its producers while records are not taken (so the
// workers' rows that still arrive are those of the files already in flight).
//
// A commit holds whole files only: a worker's rows wait for the records of their files (the files
// row is what `--resume` trusts; awaiting-records.ts), and a commit starts only between two
// messages' records, so a crash between two commits never leaves a file counted whose rows are not
// all there, nor rows of a file not counted. Row groups appended before the commit are part of it:
// nothing is visible until the commit's rename.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Finding } from '../check/types.js';
import type { ScanRecord } from '../scan/job.js';
import { AwaitingRecords } from './awaiting-records.js';
import { batchBytes, ownBuffer } from './batches.js';
import { COMMITS, type CommittedPart, commitName, commitText } from './commits.js';
import { fileRow, hasPart } from './file-rows.js';
import { findingRow } from './findings-rows.js';
import { adoptLegacy, type Folder, type IndexFs, openFolder, step, writeAll } from './index-folder.js';
import { fileId, type IndexBatch, WORKER_TABLES } from './level-rows.js';
import { snappyCodec } from './parquet/codecs.js';
import { type TableBatch, TableBuilder } from './parquet/columns.js';
import { CODEC, type Codecs, PartEncoder } from './parquet/file.js';
import { partName } from './parts.js';
import { TABLES, type TableName, tableOf } from './schema.js';

/**
 * A table's held rows (their PLAIN buffers' bytes) that make one row group: about 100,000 rows of
 * `tiles` (45 bytes a row), near DuckDB's own row group (122,880 rows), so a reader's threads and
 * min/max pruning work a group at a time, while what is held per table stays small.
 */
const ROW_GROUP_BYTES = 4 << 20;
/** Rows held in all tables before the table holding most goes out as a (smaller) group: twice a group. */
const HELD_GROUPS = 2;
/** Groups being encoded and written before addRecord makes the scan wait: two groups' rows. */
const IN_FLIGHT_GROUPS = 2;
/**
 * Rows (uncompressed) a commit carries at most: parts of tens of MB per large table once
 * compressed, so an archive of a million levels is some tens of commits, not thousands of small
 * parts whose footers every query opens; a crash loses at most this much work (COMMIT_MS also).
 */
const COMMIT_BYTES = 256 << 20;
/** A commit at least this often while rows come, so a crash of a slow scan loses at most a minute's work. */
const COMMIT_MS = 60_000;

const gzipAsync = promisify(gzip);
/**
 * Snappy (fast to write and to read, in every Parquet reader: parquet/codecs.ts) for numbers and
 * dictionary indices; GZIP level 1 (on libuv's threads) for text, a third smaller than Snappy's
 * there: the index must not grow per level (issue 39). Codecs (parquet/file.ts).
 */
const CODECS: Codecs = { fast: snappyCodec(), dense: { id: CODEC.GZIP, compress: (page) => gzipAsync(page, { level: 1 }) } };

export type { IndexFs } from './index-folder.js';

export interface IndexWriterOptions {
  /** Names this writer's parts: `s<k>of<n>` for shard k of n, else `all`. */
  shard?: { index: number; count: number };
  /** Hex SHA-256, as the workers hash (node:crypto). */
  hash: (b: Uint8Array) => string;
  /** Written into each part's footer (`created_by`). */
  createdBy?: string;
  /** The options that shaped the rows (resume.ts rowOptions), in each files row for `--resume`; null when not given. */
  rowOptions?: string;
  /** Rows a commit carries at most (COMMIT_BYTES); tests make it small to commit often. */
  commitBytes?: number;
  /** A table's rows per row group (ROW_GROUP_BYTES), which also scales what is held and in flight; tests make it small. */
  rowGroupBytes?: number;
  /** The file operations (node:fs/promises unless a test injects failures). */
  fs?: IndexFs;
}

/** A table's part being written: its row groups appended under a temporary name until a commit gives it its footer. */
interface OpenPart {
  table: TableName;
  name: string;
  encoder: PartEncoder;
  /** The temporary file, opened with the part's first row group. */
  fh: fs.promises.FileHandle | null;
  tmp: string;
  shown: string;
  /** Rows in the groups sent to it. */
  rows: number;
}

/** A table's rows on their way: held for its next row group, then encoded and appended to its open part, one group after another. */
interface TableStream {
  held: TableBatch[];
  heldBytes: number;
  part: OpenPart | null;
  /** Its row groups' encoding and writing, in order; never rejects (a failure is the writer's). */
  chain: Promise<void>;
}

export class IndexWriter {
  private readonly startedMs = Date.now();
  private readonly shard: string;
  private readonly commitBytes: number;
  private readonly groupBytes: number;
  private readonly io: IndexFs;
  private readonly streams = new Map<TableName, TableStream>();
  private readonly files = new TableBuilder(tableOf('files'));
  private readonly warnings = new TableBuilder(tableOf('warnings'));
  private readonly findings = new TableBuilder(tableOf('findings'));
  /** Worker messages' rows waiting for their files' records (awaiting-records.ts). */
  private readonly awaiting = new AwaitingRecords();
  /** Rows held for row groups, in all tables. */
  private heldBytes = 0;
  /** Rows of the groups being encoded and written. */
  private inFlightBytes = 0;
  /** Rows taken since the last commit started, and when it started. */
  private uncommittedBytes = 0;
  private lastCommitMs = Date.now();
  /** The next commit's number (its parts carry it too). */
  private seq = 0;
  /** Commits run one after another, one more queued at most: a commit due while two are waits (the open parts just grow). */
  private committing: Promise<void> = Promise.resolve();
  private commitsQueued = 0;
  /** Parts whose file is open (closed when committed, or at close). */
  private readonly openParts = new Set<OpenPart>();
  /** Tables this run opened a part of: the last commit gives the others an empty part where their folder has none. */
  private readonly tablesWritten = new Set<TableName>();
  /** This run's files that no commit lists yet: removed when a write fails. */
  private readonly uncommitted = new Set<string>();
  /** addRecord's caller waiting for room (one promise for every waiter). */
  private room: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | null = null;
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
    this.commitBytes = options.commitBytes ?? COMMIT_BYTES;
    this.groupBytes = options.rowGroupBytes ?? ROW_GROUP_BYTES;
    this.io = options.fs ?? fs.promises;
    for (const t of TABLES) this.streams.set(t.name, { held: [], heldBytes: 0, part: null, chain: Promise.resolve() });
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

  /** Bytes of rows in memory: waiting for their records, held for a row group, or being encoded and written. */
  get bytesHeld(): number {
    return this.awaiting.bytes + this.heldBytes + this.ownBytes() + this.inFlightBytes;
  }

  /** A worker message's level rows (WORKER_TABLES order), held until their files' records come. */
  addRows = (batch: IndexBatch): void => {
    if (this.failure) return;
    const ready = this.awaiting.add(batch);
    if (ready) this.ready(ready);
  };

  /**
   * A record's files row and its warnings rows. `mtimeMs`: what the walk saw (scan's recordMtimeMs).
   * Returns a promise while the rows in flight are over the bound: the caller waits for it before
   * the next record (it rejects with the first write's failure). Throws the first write's failure,
   * so the scan stops there.
   */
  addRecord(r: ScanRecord, mtimeMs: number | null): undefined | Promise<void> {
    if (this.failure) throw this.failure;
    const id = fileId(this.run, r.path, r.member, this.options.hash);
    const ready = this.awaiting.recorded(id);
    if (ready) this.ready(ready);
    this.files.row(fileRow(id, r, mtimeMs, { run: this.run, startedMs: this.startedMs, rowOptions: this.options.rowOptions ?? null }));
    for (const w of r.warnings ?? []) this.warnings.row([id, w.code, w.message, w.offset]);
    for (const f of r.findings ?? []) this.findings.row(findingRow(id, f));
    // The main thread's own rows join the held batches now and then (an eighth of a group), not per record.
    if (this.files.rows >= 4096 || this.ownBytes() >= this.groupBytes / 8) this.takeOwnRows();
    this.commitIfDue();
    return this.inFlightBytes > IN_FLIGHT_GROUPS * this.groupBytes ? this.waitForRoom() : undefined;
  }

  /** A finding of the rules that judge files together (scan --check), for the file at `path` and `member`. */
  addFinding(path: string, member: string | null, f: Finding): void {
    this.findings.row(findingRow(fileId(this.run, path, member, this.options.hash), f));
  }

  /** A message whose files all had their records: its rows join their tables' held rows. */
  private ready(batch: IndexBatch): void {
    batch.forEach((b, i) => {
      if (b) this.hold(WORKER_TABLES[i]!, b);
    });
  }

  private ownBytes(): number {
    return this.files.pending + this.warnings.pending + this.findings.pending;
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

  /** Holds a table's rows for its next row group; a full group goes out, and so does the largest table's rows when all tables hold too much. */
  private hold(table: TableName, b: TableBatch): void {
    const s = this.streams.get(table)!;
    const bytes = batchBytes(b);
    // A worker message's batches share one buffer (LevelRowsBuilder.take): a small table's rows,
    // held until its group fills, would keep every other table's rows of that message alive.
    if (b.columns[0]!.values.buffer.byteLength > 2 * bytes) b = ownBuffer(b, bytes);
    s.held.push(b);
    s.heldBytes += bytes;
    this.heldBytes += bytes;
    this.uncommittedBytes += bytes;
    if (s.heldBytes >= this.groupBytes) this.sendGroup(table);
    else if (this.heldBytes >= HELD_GROUPS * this.groupBytes) {
      let largest = table;
      for (const [t, other] of this.streams) if (other.heldBytes > this.streams.get(largest)!.heldBytes) largest = t;
      this.sendGroup(largest);
    }
  }

  /** The table's held rows as one row group, encoded and appended to its open part (opened with its first group) behind the groups before. */
  private sendGroup(table: TableName): void {
    const s = this.streams.get(table)!;
    if (s.held.length === 0) return;
    let batches: TableBatch[] | null = s.held;
    const bytes = s.heldBytes;
    s.held = [];
    s.heldBytes = 0;
    this.heldBytes -= bytes;
    this.inFlightBytes += bytes;
    if (!s.part) s.part = this.openPart(table);
    const part = s.part;
    part.rows += batches.reduce((n, b) => n + b.rows, 0);
    s.chain = s.chain.then(async () => {
      try {
        if (this.failure) return;
        const pieces = await part.encoder.rowGroup(batches!);
        batches = null;
        if (!part.fh) {
          const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
          part.fh = await step(part.shown, () => this.io.open(part.tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666));
          this.uncommitted.add(part.tmp);
        }
        const fh = part.fh;
        await step(part.shown, () => writeAll(fh, pieces));
      } catch (e) {
        this.fail(e);
      } finally {
        batches = null;
        this.inFlightBytes -= bytes;
        if (this.room && this.inFlightBytes <= IN_FLIGHT_GROUPS * this.groupBytes) {
          this.room.resolve();
          this.room = null;
        }
      }
    });
  }

  private openPart(table: TableName): OpenPart {
    const folder = this.folders.get(table)!;
    const name = partName(this.shard, this.run, this.seq);
    const part: OpenPart = {
      table,
      name,
      encoder: new PartEncoder(tableOf(table), CODECS, this.options.createdBy ?? 'levelkit'),
      fh: null,
      tmp: join(folder.at, `${name}.tmp`),
      shown: join(folder.shown, name),
      rows: 0,
    };
    this.openParts.add(part);
    this.tablesWritten.add(table);
    return part;
  }

  /** Resolves once the groups in flight are under the bound; rejects with the first write's failure. */
  private waitForRoom(): Promise<void> {
    if (!this.room) {
      let resolve!: () => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      // Its rejection is the awaiting caller's to hear; none unheard if the caller has gone.
      promise.catch(() => {});
      this.room = { promise, resolve, reject };
    }
    return this.room.promise;
  }

  private fail(e: unknown): void {
    this.failure ??= e;
    this.room?.reject(this.failure);
    this.room = null;
  }

  /**
   * Commits once COMMIT_BYTES of rows came or COMMIT_MS passed since the last, and only between two
   * messages' records: while some of a message's files have their records (their files rows held)
   * and others not, a commit would carry those files rows without their level rows. A message's
   * records come one after another, so this waits a few records at most.
   */
  private commitIfDue(): void {
    if (this.awaiting.partial > 0 || this.commitsQueued >= 2) return;
    if (this.uncommittedBytes + this.ownBytes() < this.commitBytes && Date.now() - this.lastCommitMs < COMMIT_MS) return;
    this.startCommit(false);
  }

  /**
   * Sends every table's held rows as a last group to its open part, and queues the commit of the
   * open parts; the next rows open new parts. `last`: the scan is over, so a message some of whose
   * records came goes too (a stop in its middle: the rest of its files never come, and their rows
   * are orphans no files row names), and one none of whose records came is dropped.
   */
  private startCommit(last: boolean): void {
    if (last) for (const batch of this.awaiting.partlyRecorded()) this.ready(batch);
    this.takeOwnRows();
    const parts: { part: OpenPart; written: Promise<void> }[] = [];
    for (const [table, s] of this.streams) {
      this.sendGroup(table);
      if (s.part) parts.push({ part: s.part, written: s.chain });
      s.part = null;
    }
    this.uncommittedBytes = 0;
    this.lastCommitMs = Date.now();
    const empty = last ? TABLES.map((t) => t.name).filter((t) => !this.tablesWritten.has(t)) : [];
    if (parts.length === 0 && empty.length === 0) return;
    const seq = this.seq++;
    this.commitsQueued++;
    this.committing = this.committing.then(async () => {
      try {
        await Promise.all(parts.map((p) => p.written));
        const open = parts.map((p) => p.part);
        if (!this.failure) await this.commit(open, seq, empty);
      } catch (e) {
        this.fail(e);
      } finally {
        this.commitsQueued--;
      }
    });
    // The next parts' groups are written once this commit is done: its footers and fsyncs do not
    // race them for the disk, so on a disk that fills the commit that fits is the one made.
    const committed = this.committing;
    for (const { part } of parts) {
      const s = this.streams.get(part.table)!;
      s.chain = s.chain.then(() => committed);
    }
  }

  /**
   * One commit: each open part's footer appended, the part fsync'd and renamed into its folder, the
   * folders fsync'd (the renames are durable), then the commit file naming them, fsync'd, renamed
   * into `_commits`, and that folder fsync'd. What a failure leaves (this run's own files, listed by
   * no commit) is removed at close. `empty`: tables this run wrote no row to; each whose folder
   * holds no part gets a part of no rows, so every table's folder reads as a table (issue 40).
   */
  private async commit(parts: readonly OpenPart[], seq: number, empty: readonly TableName[] = []): Promise<void> {
    const listed: CommittedPart[] = [];
    const renamed: string[] = [];
    for (const p of parts) {
      const fh = p.fh;
      if (!fh) continue;
      await step(p.shown, () => writeAll(fh, p.encoder.finish()));
      await step(p.shown, () => fh.sync());
      p.fh = null;
      this.openParts.delete(p);
      await fh.close();
      const final = join(this.folders.get(p.table)!.at, p.name);
      this.uncommitted.add(final);
      renamed.push(final);
      await step(p.shown, () => this.io.rename(p.tmp, final));
      this.uncommitted.delete(p.tmp);
      listed.push({ table: p.table, name: p.name, bytes: p.encoder.bytes });
    }
    for (const table of empty) {
      const folder = this.folders.get(table)!;
      if (hasPart(folder.at)) continue;
      const name = partName(this.shard, this.run, seq);
      const encoder = new PartEncoder(tableOf(table), CODECS, this.options.createdBy ?? 'levelkit');
      await this.writeDurably(folder, name, encoder.finish());
      renamed.push(join(folder.at, name));
      listed.push({ table, name, bytes: encoder.bytes });
    }
    if (listed.length === 0) return;
    await Promise.all(
      listed.map((p) => {
        const f = this.folders.get(p.table)!;
        return step(f.shown, () => f.handle.sync());
      }),
    );
    const commits = this.folders.get(COMMITS)!;
    const name = commitName(this.shard, this.run, seq);
    await this.writeDurably(commits, name, [Buffer.from(commitText(listed))]);
    await step(commits.shown, () => commits.handle.sync());
    for (const f of renamed) this.uncommitted.delete(f);
    this.uncommitted.delete(join(commits.at, name));
    for (const p of parts) this.rows.set(p.table, (this.rows.get(p.table) ?? 0) + p.rows);
  }

  /** Writes `pieces` as `name` in `folder`: under a temporary name, fsync'd, then renamed (both names counted uncommitted). */
  private async writeDurably(folder: Folder, name: string, pieces: readonly Uint8Array[]): Promise<void> {
    const tmp = join(folder.at, `${name}.tmp`);
    const shown = join(folder.shown, name);
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
    const fh = await step(shown, () => this.io.open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666));
    this.uncommitted.add(tmp);
    try {
      await step(shown, () => writeAll(fh, pieces));
      await step(shown, () => fh.sync());
    } finally {
      await fh.close();
    }
    const final = join(folder.at, name);
    this.uncommitted.add(final);
    await step(shown, () => this.io.rename(tmp, final));
    this.uncommitted.delete(tmp);
  }

  /**
   * Commits the rest and waits for every commit. Throws the first write's failure, after removing
   * this run's files no commit lists. Rows still waiting for records that never came (a stopped
   * scan) are dropped: their files are not indexed.
   */
  async close(): Promise<void> {
    if (!this.failure) this.startCommit(true);
    this.awaiting.clear();
    await Promise.all([...this.streams.values()].map((s) => s.chain));
    await this.committing;
    for (const p of this.openParts) await p.fh?.close().catch(() => {});
    this.openParts.clear();
    if (this.failure) for (const file of this.uncommitted) await this.io.unlink(file).catch(() => {});
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
