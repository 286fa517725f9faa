// The index as a sink of the scan: rows arrive as CSV text (workers' level rows, rows-text.ts;
// the files and warnings rows made here from each record), are buffered per table and, every
// FLUSH_BYTES and at the end, written as one Parquet part per table by DuckDB's CSV reader and
// Parquet writer. Memory stays at about FLUSH_BYTES whatever the archive's size.
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ScanRecord } from '../scan/job.js';
import { loadEngine, sqlString } from './engine.js';
import { partName } from './parts.js';
import { field, fileId, type IndexText, line, WORKER_TABLES } from './rows-text.js';
import { TABLES, type TableName, tableOf } from './schema.js';

/** Rows buffered (as text) before they are written out as parts. */
const FLUSH_BYTES = 32 << 20;
/** DuckDB's CSV reader refuses longer lines by default (2 MB); texts are cut at 1 Mi UTF-16 units (≤ 3 MB of UTF-8). */
const MAX_LINE_BYTES = 16 << 20;

export interface IndexWriterOptions {
  /** Names this writer's parts: `s<k>of<n>` for shard k of n, else `all`. */
  shard?: { index: number; count: number };
  /** Hex SHA-256, as the workers hash (node:crypto). */
  hash: (b: Uint8Array) => string;
}

export class IndexWriter {
  readonly run: string;
  private readonly startedMs = Date.now();
  private readonly shard: string;
  private readonly buffers = new Map<TableName, string[]>();
  private buffered = 0;
  private seq = 0;
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private readonly tmp: string;
  /** Rows written per table, for the closing line. */
  readonly rows = new Map<TableName, number>();

  private constructor(
    readonly dir: string,
    private readonly db: DuckDBConnection,
    private readonly options: IndexWriterOptions,
  ) {
    const t = new Date(this.startedMs)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    this.run = `${t}-${Math.random().toString(16).slice(2, 8)}`;
    this.shard = options.shard ? `s${options.shard.index}of${options.shard.count}` : 'all';
    this.tmp = join(dir, `.tmp-${this.shard}-${this.run}`);
    for (const t of TABLES) this.buffers.set(t.name, []);
  }

  /** Opens (creating) the index folder `dir` and DuckDB. The folder may hold parts of other runs: they stay. */
  static async open(dir: string, options: IndexWriterOptions): Promise<IndexWriter> {
    const { DuckDBInstance } = await loadEngine();
    fs.mkdirSync(dir, { recursive: true });
    for (const t of TABLES) fs.mkdirSync(join(dir, t.name), { recursive: true });
    const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
    const w = new IndexWriter(dir, await instance.connect(), options);
    fs.mkdirSync(w.tmp);
    return w;
  }

  /** A worker message's level rows (WORKER_TABLES order). */
  addRows = (text: IndexText): void => {
    for (let i = 0; i < WORKER_TABLES.length; i++) if (text[i]) this.push(WORKER_TABLES[i]!, text[i]!);
  };

  /** A record's files row and its warnings rows. `mtimeMs`: what the walk saw (scan's recordMtimeMs). */
  addRecord(r: ScanRecord, mtimeMs: number | null): void {
    const id = fileId(this.run, r.path, r.member, this.options.hash);
    const summary = r.summary as { gridDigest?: unknown } | undefined;
    const grid = typeof summary?.gridDigest === 'string' ? summary.gridDigest : null;
    const warnings = r.warnings ?? [];
    this.push(
      'files',
      line([
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
      ]),
    );
    if (warnings.length) {
      let s = '';
      for (const w of warnings) s += `${field(id)},${field(w.code)},${field(w.message)},${field(w.offset)}\n`;
      this.push('warnings', s);
    }
  }

  private push(table: TableName, text: string): void {
    this.buffers.get(table)!.push(text);
    this.buffered += text.length;
    if (this.buffered >= FLUSH_BYTES) this.flush();
  }

  /** Starts writing what is buffered as parts; the writes run one after another, behind the scan. */
  private flush(): void {
    const taken = [...this.buffers].filter(([, b]) => b.length > 0).map(([t, b]) => [t, b.join('')] as const);
    for (const b of this.buffers.values()) b.length = 0;
    this.buffered = 0;
    if (taken.length === 0) return;
    const seq = this.seq++;
    this.writing = this.writing.then(async () => {
      if (this.failure) return;
      try {
        for (const [table, text] of taken) await this.writePart(table, text, seq);
      } catch (e) {
        this.failure = e;
      }
    });
  }

  private async writePart(table: TableName, text: string, seq: number): Promise<void> {
    const csv = join(this.tmp, `${table}-${seq}.csv`);
    // Asynchronously: the main thread feeds the workers, and a 32 MiB write would stall them.
    await fs.promises.writeFile(csv, text);
    const cols = tableOf(table).columns;
    const types = cols.map((c) => `${sqlString(c.name)}: ${sqlString(c.type === 'TIMESTAMP' ? 'BIGINT' : c.type)}`).join(', ');
    // Timestamps travel as epoch milliseconds.
    const select = cols.map((c) => (c.type === 'TIMESTAMP' ? `epoch_ms("${c.name}") AS "${c.name}"` : `"${c.name}"`)).join(', ');
    const part = join(this.dir, table, partName(this.shard, this.run, seq));
    const result = await this.db.run(
      `COPY (SELECT ${select} FROM read_csv(${sqlString(csv)}, header = false, delim = ',', quote = '"', escape = '"', new_line = '\\n', ` +
        `allow_quoted_nulls = false, max_line_size = ${MAX_LINE_BYTES}, parallel = false, columns = {${types}})) ` +
        `TO ${sqlString(`${part}.tmp`)} (FORMAT parquet, COMPRESSION zstd)`,
    );
    await fs.promises.rename(`${part}.tmp`, part);
    await fs.promises.rm(csv);
    this.rows.set(table, (this.rows.get(table) ?? 0) + Number(result.rowsChanged));
  }

  /** Writes the rest and waits for every part. Throws the first write's failure. */
  async close(): Promise<void> {
    this.flush();
    await this.writing;
    fs.rmSync(this.tmp, { recursive: true, force: true });
    this.db.closeSync();
    if (this.failure) throw this.failure;
  }
}
