// The index as a sink of the scan: the workers' level rows arrive as columnar batches
// (level-rows.ts), the files and warnings rows are built here from each record; batches are held
// per table and, every FLUSH_BYTES and at the end, written as one Parquet part per table by the
// index's own writer (parquet/), pages compressed on libuv's threads. No database runs while a
// scan writes: memory stays near FLUSH_BYTES whatever the archive's size.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Finding } from '../check/types.js';
import type { ScanRecord } from '../scan/job.js';
import { findingRow } from './findings-rows.js';
import { fileId, type IndexBatch, WORKER_TABLES } from './level-rows.js';
import { type TableBatch, TableBuilder } from './parquet/columns.js';
import { CODEC, type Codec, encodeParquet } from './parquet/file.js';
import { partName } from './parts.js';
import { TABLES, type TableName, tableOf } from './schema.js';

/** Rows held (their buffers' bytes) before they are written out as parts. */
const FLUSH_BYTES = 8 << 20;

const gzipAsync = promisify(gzip);
/** Level 1: the index is written once per scan and read many times, but a scan must not wait on it. */
const GZIP: Codec = { id: CODEC.GZIP, compress: (page) => gzipAsync(page, { level: 1 }) };

export interface IndexWriterOptions {
  /** Names this writer's parts: `s<k>of<n>` for shard k of n, else `all`. */
  shard?: { index: number; count: number };
  /** Hex SHA-256, as the workers hash (node:crypto). */
  hash: (b: Uint8Array) => string;
  /** Written into each part's footer (`created_by`). */
  createdBy?: string;
  /** The options that shaped the rows (resume.ts rowOptions), in each files row for `--resume`; null when not given. */
  rowOptions?: string;
}

export class IndexWriter {
  readonly run: string;
  private readonly startedMs = Date.now();
  private readonly shard: string;
  private readonly held = new Map<TableName, TableBatch[]>();
  private readonly files = new TableBuilder(tableOf('files'));
  private readonly warnings = new TableBuilder(tableOf('warnings'));
  private readonly findings = new TableBuilder(tableOf('findings'));
  private heldBytes = 0;
  private seq = 0;
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  /** Rows written per table, for the closing line. */
  readonly rows = new Map<TableName, number>();

  private constructor(
    readonly dir: string,
    private readonly options: IndexWriterOptions,
  ) {
    const t = new Date(this.startedMs)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    this.run = `${t}-${Math.random().toString(16).slice(2, 8)}`;
    this.shard = options.shard ? `s${options.shard.index}of${options.shard.count}` : 'all';
    for (const t of TABLES) this.held.set(t.name, []);
  }

  /** Opens (creating) the index folder `dir`. The folder may hold parts of other runs: they stay. */
  static async open(dir: string, options: IndexWriterOptions): Promise<IndexWriter> {
    fs.mkdirSync(dir, { recursive: true });
    for (const t of TABLES) fs.mkdirSync(join(dir, t.name), { recursive: true });
    return new IndexWriter(dir, options);
  }

  /** A worker message's level rows (WORKER_TABLES order). */
  addRows = (batch: IndexBatch): void => {
    for (let i = 0; i < WORKER_TABLES.length; i++) {
      const b = batch[i];
      if (b) this.hold(WORKER_TABLES[i]!, b);
    }
    this.flushIfFull();
  };

  /** A record's files row and its warnings rows. `mtimeMs`: what the walk saw (scan's recordMtimeMs). */
  addRecord(r: ScanRecord, mtimeMs: number | null): void {
    const id = fileId(this.run, r.path, r.member, this.options.hash);
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
    for (const c of b.columns) this.heldBytes += c.defs.length + c.values.length;
  }

  private flushIfFull(): void {
    if (this.heldBytes >= FLUSH_BYTES) this.flush();
  }

  /** Starts writing what is held as parts; the writes run one after another, behind the scan. */
  private flush(): void {
    this.takeOwnRows();
    const taken = [...this.held].filter(([, b]) => b.length > 0).map(([t, b]) => [t, [...b]] as const);
    for (const b of this.held.values()) b.length = 0;
    this.heldBytes = 0;
    if (taken.length === 0) return;
    const seq = this.seq++;
    this.writing = this.writing.then(async () => {
      if (this.failure) return;
      try {
        for (const [table, batches] of taken) await this.writePart(table, batches, seq);
      } catch (e) {
        this.failure = e;
      }
    });
  }

  private async writePart(table: TableName, batches: readonly TableBatch[], seq: number): Promise<void> {
    const pieces = await encodeParquet(tableOf(table), batches, GZIP, this.options.createdBy ?? 'levelkit');
    if (!pieces) return;
    const part = join(this.dir, table, partName(this.shard, this.run, seq));
    // Whole or not at all: a reader (or a crash) never meets a part half-written.
    const tmp = `${part}.tmp`;
    const fh = await fs.promises.open(tmp, 'wx');
    try {
      await fh.writev(pieces);
    } finally {
      await fh.close();
    }
    await fs.promises.rename(tmp, part);
    this.rows.set(table, (this.rows.get(table) ?? 0) + batches.reduce((n, b) => n + b.rows, 0));
  }

  /** Writes the rest and waits for every part. Throws the first write's failure. */
  async close(): Promise<void> {
    this.flush();
    await this.writing;
    if (this.failure) throw this.failure;
  }
}
