// What the site reads of an index: its files (with their levels' columns) in path order, then
// every detail table (layers, tiles, objects …) streamed in the same order beside it, one DuckDB
// connection each (DuckDB streams one result per connection), so a level's rows are at hand when
// its page is written and memory holds one level's rows per table, never a whole table.
import type { IndexQuery } from '../archive-index/query.js';
import type { IndexedFile } from './level-files.js';

/** One row of `files` with its level's columns (null when the file did not decode). */
export interface FileEntry extends IndexedFile {
  id: string;
  format: string | null;
  version: string | null;
  errorCode: string | null;
  gridDigest: string | null;
  /** The similarity signature of the main grid, where the index has one (a later schema's column), else null. */
  signature: string | null;
  warnings: number;
  name: string | null;
  author: string | null;
  width: number;
  height: number;
  layers: number;
  objects: number;
}

/** Every table's rows in the files' order: the files by path, member (a plain file before its zip's members), id. */
const ORDER = 'f.path, f.member NULLS FIRST, f.id';

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** levels.grid_signature (schema 5), or NULL for an index whose levels view lacks it. */
async function signatureColumn(index: IndexQuery): Promise<string> {
  const answer = await index.stream('SELECT * FROM levels LIMIT 0');
  for await (const _ of answer);
  return answer.columns.includes('grid_signature') ? 'l.grid_signature' : 'NULL';
}

/** Every file of the index in path order, a DuckDB chunk at a time. */
export async function* fileEntries(index: IndexQuery): AsyncGenerator<FileEntry> {
  const signature = await signatureColumn(index);
  const answer = await index.stream(
    `SELECT f.id, f.path, f.member, CAST(f.bytes AS DOUBLE), CAST(epoch_ms(f.mtime) AS DOUBLE), f.sha256, f.format, f.version, f.error_code, f.grid_digest,
       f.warnings, l.name, l.author, l.width, l.height, l.layers, l.objects, CAST(${signature} AS VARCHAR)
     FROM files f LEFT JOIN levels l USING (id) ORDER BY ${ORDER}`,
  );
  for await (const batch of answer)
    for (const r of batch)
      yield {
        id: String(r[0]),
        path: String(r[1]),
        member: str(r[2]),
        bytes: num(r[3]),
        mtime: r[4] === null ? null : Number(r[4]),
        sha256: str(r[5]),
        format: str(r[6]),
        version: str(r[7]),
        errorCode: str(r[8]),
        gridDigest: str(r[9]),
        warnings: num(r[10]),
        name: str(r[11]),
        author: str(r[12]),
        width: num(r[13]),
        height: num(r[14]),
        layers: num(r[15]),
        objects: num(r[16]),
        signature: str(r[17]),
      };
}

/** The common folder of every path in the index (shown paths are below it). */
export async function commonFolder(index: IndexQuery): Promise<string> {
  const { rows } = await index.run('SELECT min(path), max(path) FROM files');
  const [lo, hi] = (rows[0] ?? [null, null]).map((v) => (v === null ? '' : String(v)));
  let n = 0;
  while (n < lo!.length && lo![n] === hi![n]) n++;
  const prefix = lo!.slice(0, n);
  // A single file: its folder; else the common prefix cut back to a whole folder name.
  return lo === hi ? lo!.slice(0, lo!.lastIndexOf('/') + 1) : prefix.slice(0, prefix.lastIndexOf('/') + 1);
}

/** Each detail table's columns as a level's page reads them (after the id), and the order within a level. */
const DETAILS = {
  levels: { columns: 't.summary', order: '' },
  layers: { columns: 't.layer, t."group", t.kind, t.name, t.width, t.height, t.image', order: 't.layer' },
  tiles: { columns: 't.layer, t.kind, CAST(t.tile AS DOUBLE), CAST(t.count AS DOUBLE)', order: 't.layer, t.count DESC, t.tile' },
  objects: { columns: 't.object, t.kind, t.name, t.logic, t.image, t.x, t.y, t.target', order: 't.object' },
  texts: { columns: 't.object, t.source, t.text', order: 't.object NULLS FIRST, t.source' },
  images: { columns: 't.image, t.name, t.width, t.height, t.external', order: 't.image' },
  warnings: { columns: 't.code, t.message', order: 't.offset NULLS FIRST' },
  findings: { columns: 't.rule, t.severity, t.message', order: 't.rule' },
} as const;

export type DetailTable = keyof typeof DETAILS;
export const DETAIL_TABLES = Object.keys(DETAILS) as DetailTable[];

/** One table's rows in the files' order: `take(id)` gives the rows of that file (each row without its id). */
class DetailStream {
  private batch: unknown[][] = [];
  private at = 0;
  private done = false;

  constructor(private readonly chunks: AsyncIterator<unknown[][]>) {}

  /**
   * The rows of file `id`. The files come in the same order as this table's rows and every row's
   * file is among them, so a row of another id belongs to a later file: it waits.
   */
  async take(id: string): Promise<unknown[][]> {
    const rows: unknown[][] = [];
    for (;;) {
      if (this.at >= this.batch.length) {
        if (this.done) return rows;
        const next = await this.chunks.next();
        if (next.done) {
          this.done = true;
          return rows;
        }
        this.batch = next.value;
        this.at = 0;
        continue;
      }
      const row = this.batch[this.at]!;
      if (row[0] !== id) return rows;
      rows.push(row.slice(1));
      this.at++;
    }
  }
}

/** A level's rows of every detail table. */
export type LevelDetails = Record<DetailTable, unknown[][]>;

/** The detail tables streamed beside the files, each on its own connection (closed by close()). */
export class Details {
  private constructor(
    private readonly streams: Map<DetailTable, DetailStream>,
    private readonly forks: IndexQuery[],
  ) {}

  static async open(index: IndexQuery): Promise<Details> {
    const forks: IndexQuery[] = [];
    const streams = new Map<DetailTable, DetailStream>();
    try {
      for (const table of DETAIL_TABLES) {
        const fork = await index.fork();
        forks.push(fork);
        const d = DETAILS[table];
        const answer = await fork.stream(`SELECT t.id, ${d.columns} FROM ${table} t JOIN files f USING (id) ORDER BY ${ORDER}${d.order ? `, ${d.order}` : ''}`);
        streams.set(table, new DetailStream(answer[Symbol.asyncIterator]()));
      }
    } catch (e) {
      for (const f of forks) f.close();
      throw e;
    }
    return new Details(streams, forks);
  }

  async of(id: string): Promise<LevelDetails> {
    const out = {} as LevelDetails;
    for (const [table, stream] of this.streams) out[table] = await stream.take(id);
    return out;
  }

  close(): void {
    for (const f of this.forks) f.close();
  }
}
