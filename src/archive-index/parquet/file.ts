// One Parquet file from a table's batches (columns.ts): row groups, each column a chunk with
// min/max and null-count statistics (statistics.ts): a dictionary page where one pays, then data
// pages (v1: definition levels in the RLE / bit-packed hybrid, values as dictionary indices or
// PLAIN; encodings.ts), each compressed by the given codec (or by its kind's: Codecs); the Thrift footer. The rows go in the
// order they came: a row group is what the writer held, and sorting it would cost CPU and, groups
// being streamed, prune nothing across them. Only what the index needs: flat optional columns of the
// six types in schema.ts. Host-independent: the caller compresses and writes.
import { type ColumnType, SCHEMA_VERSION, type Table } from '../schema.js';
import type { ColumnBatch, TableBatch } from './columns.js';
import { ByteSink, bitWidthOf, definitionLevels, dictionaryOf, hybrid, packBits } from './encodings.js';
import { boundsOf } from './statistics.js';
import { CompactWriter, type Fields, i64, list, structList } from './thrift.js';

/** Values per page before a new one starts (uncompressed), so readers never hold a whole chunk. */
const PAGE_BYTES = 1 << 20;
const MAGIC = new TextEncoder().encode('PAR1');

/** Parquet's codec ids for the codecs a writer may be given. */
export const CODEC = { UNCOMPRESSED: 0, SNAPPY: 1, GZIP: 2 } as const;
export interface Codec {
  id: (typeof CODEC)[keyof typeof CODEC];
  compress(page: Uint8Array): Promise<Uint8Array>;
}
/**
 * Two codecs, chosen per column chunk: `fast` (Snappy: decodes fastest, but has no entropy
 * coding) for numbers and dictionary indices, which the common queries scan (tile, count, x, y,
 * id), and `dense` (GZIP) for chunks whose bytes are mostly text (PLAIN text, or a dictionary of
 * texts larger than its indices: JSON, paths, hashes, sign texts), a third smaller than Snappy's.
 * Numbers went GZIP where Snappy left them large until issue 39's third round: all-Snappy numbers
 * cost 3.6 % more index per level (1.43 KB vs 1.38 on the scale bench's 5,000-file mix, Graal 0.78
 * vs 0.74 KB) and save the writer's GZIP CPU; `tiles WHERE tile = X` over 500,000 files reads its
 * column twice as fast (DuckDB: 0.20 s vs 0.43 s on the same rows).
 */
export interface Codecs {
  fast: Codec;
  dense: Codec;
}

const PLAIN = 0;
const RLE = 3;
const RLE_DICTIONARY = 8;
const DATA_PAGE = 0;
const DICTIONARY_PAGE = 2;
const OPTIONAL = 1;

/** Physical type, converted type (UTF8 0, TIMESTAMP_MILLIS 9) of each column type. */
const PHYSICAL: Record<ColumnType, { type: number; converted?: number }> = {
  BOOLEAN: { type: 0 },
  INTEGER: { type: 1 },
  BIGINT: { type: 2 },
  TIMESTAMP: { type: 2, converted: 9 },
  DOUBLE: { type: 5 },
  VARCHAR: { type: 6, converted: 0 },
};

/**
 * One Parquet file written a row group at a time, so a writer can append groups to an open file
 * as rows come and hold only the next group: the pieces of each `rowGroup()` (the first begins
 * with the magic), then `finish()`'s footer. A file of no row group is a valid Parquet file of no
 * rows: the magic and a footer with the schema (a table with no rows in a run still has a part, so
 * `read_parquet('<dir>/findings/*.parquet')` reads).
 */
export class PartEncoder {
  private readonly groups: Fields[] = [];
  /** Bytes of the file so far (where the next piece starts). */
  private offset = 0;
  /** Rows in the groups so far. */
  rows = 0;

  constructor(
    readonly table: Table,
    private readonly codecs: Codec | Codecs,
    private readonly createdBy: string,
  ) {}

  /** Bytes written so far. */
  get bytes(): number {
    return this.offset;
  }

  /** One row group of `batches`' rows, as pieces to append in order; none when they hold no row. */
  async rowGroup(batches: readonly TableBatch[]): Promise<Uint8Array[]> {
    const { table } = this;
    const rows = batches.reduce((n, b) => n + b.rows, 0);
    if (rows === 0) return [];
    const pieces: Uint8Array[] = [];
    if (this.offset === 0) {
      pieces.push(MAGIC);
      this.offset = MAGIC.length;
    }
    const groupStart = this.offset;
    const chunks: Fields[] = [];
    let groupBytes = 0;
    let groupCompressed = 0;
    for (let c = 0; c < table.columns.length; c++) {
      const chunk = await this.chunk(batches, c, rows, pieces);
      chunks.push(chunk.meta);
      groupBytes += chunk.uncompressed;
      groupCompressed += chunk.compressed;
    }
    this.groups.push([
      [1, list(chunks)],
      [2, i64(groupBytes)],
      [3, i64(rows)],
      [5, i64(groupStart)],
      [6, i64(groupCompressed)],
    ]);
    this.rows += rows;
    return pieces;
  }

  /**
   * Column `c` of the group: a dictionary page where one pays (always for `id`), then data pages
   * (its indices, or PLAIN values), and its metadata with min/max and null-count statistics.
   */
  private async chunk(
    batches: readonly TableBatch[],
    c: number,
    rows: number,
    pieces: Uint8Array[],
  ): Promise<{ meta: Fields; uncompressed: number; compressed: number }> {
    const column = this.table.columns[c]!;
    const parts = batches.map((b) => b.columns[c]!);
    let present = 0;
    let plainBytes = 0;
    for (const p of parts) {
      present += p.present;
      plainBytes += p.values.length;
    }
    const dictionary = dictionaryOf(column.type, parts, present, plainBytes, column.name === 'id');
    const width = dictionary ? bitWidthOf(dictionary.size) : 0;
    // The chunk's pages before compression: the dictionary's, then the data pages.
    const pages: { type: number; kind: readonly [number, Fields]; body: Uint8Array }[] = [];
    if (dictionary)
      pages.push({
        type: DICTIONARY_PAGE,
        kind: [
          7,
          [
            [1, dictionary.size],
            [2, PLAIN],
          ],
        ],
        body: dictionary.page,
      });
    let index = 0;
    for (const p of pagesOf(parts, batches)) {
      const body = new ByteSink(64 + (dictionary ? Math.ceil((p.present * width) / 8) + 16 : p.bytes));
      definitionLevels(p.parts, p.rows, p.present, body);
      if (dictionary) {
        body.push(width);
        hybrid(dictionary.indices.subarray(index, index + p.present), width, body);
        index += p.present;
      } else if (column.type === 'BOOLEAN') {
        const bytes = Math.ceil(p.present / 8);
        if (body.len + bytes > body.buf.length) body.grow(bytes);
        let bit = body.len * 8;
        for (const part of p.parts) bit = packBits(part.values, body.buf, bit);
        body.len += bytes;
      } else for (const part of p.parts) body.append(part.values);
      pages.push({
        type: DATA_PAGE,
        kind: [
          5,
          [
            [1, p.rows],
            [2, dictionary ? RLE_DICTIONARY : PLAIN],
            [3, RLE],
            [4, RLE],
          ],
        ],
        body: body.bytes(),
      });
    }
    const text = column.type === 'VARCHAR' && (!dictionary || dictionary.page.length * 8 > present * width);
    const codec = 'id' in this.codecs ? this.codecs : text ? this.codecs.dense : this.codecs.fast;
    const start = this.offset;
    let dataStart = start;
    let uncompressed = 0;
    let compressed = 0;
    for (const { type, kind, body } of pages) {
      if (type === DATA_PAGE && dataStart === start && dictionary) dataStart = this.offset;
      const stored = await codec.compress(body);
      const head = new CompactWriter().struct([[1, type], [2, body.length], [3, stored.length], kind]).bytes();
      pieces.push(head, stored);
      this.offset += head.length + stored.length;
      uncompressed += head.length + body.length;
      compressed += head.length + stored.length;
    }
    const bounds = boundsOf(column.type, parts, dictionary);
    const meta: Fields = [
      [2, i64(start)],
      [
        3,
        [
          [1, PHYSICAL[column.type].type],
          [2, list(dictionary ? [PLAIN, RLE, RLE_DICTIONARY] : [PLAIN, RLE])],
          [3, list([column.name])],
          [4, codec.id],
          [5, i64(rows)],
          [6, i64(uncompressed)],
          [7, i64(compressed)],
          [9, i64(dataStart)],
          [11, dictionary ? i64(start) : undefined],
          [
            12,
            [
              [3, i64(rows - present)],
              [4, dictionary ? i64(dictionary.size) : undefined],
              [5, bounds.max],
              [6, bounds.min],
            ],
          ],
        ],
      ],
    ];
    return { meta, uncompressed, compressed };
  }

  /** The footer and the closing magic: the last pieces of the file (the whole file, magic first, when no group came). */
  finish(): Uint8Array[] {
    const { table } = this;
    const head: Uint8Array[] = [];
    if (this.offset === 0) {
      head.push(MAGIC);
      this.offset = MAGIC.length;
    }
    const schema: Fields[] = [
      [
        [4, 'schema'],
        [5, table.columns.length],
      ],
      ...table.columns.map(
        (col): Fields => [
          [1, PHYSICAL[col.type].type],
          [3, OPTIONAL],
          [4, col.name],
          [6, PHYSICAL[col.type].converted],
        ],
      ),
    ];
    const footer = new CompactWriter()
      .struct([
        [1, 1],
        [2, list(schema)],
        [3, i64(this.rows)],
        [4, structList(this.groups)],
        [5, structList(keyValues(table))],
        [6, this.createdBy],
        // TYPE_ORDER for every column: readers then trust min_value/max_value (text as unsigned bytes, numbers signed).
        [7, list(table.columns.map((): Fields => [[1, []]]))],
      ])
      .bytes();
    const tail = new Uint8Array(8);
    new DataView(tail.buffer).setUint32(0, footer.length, true);
    tail.set(MAGIC, 4);
    this.offset += footer.length + tail.length;
    return [...head, footer, tail];
  }
}

/**
 * The footer's key-value metadata: what a part is without levelkit at hand (DuckDB's
 * parquet_kv_metadata()): the schema version its columns follow, its table, and every column's
 * meaning as one JSON object by column name.
 */
export const KV_SCHEMA_VERSION = 'levelkit.schema_version';
export const KV_TABLE = 'levelkit.table';
export const KV_COLUMNS = 'levelkit.columns';

function keyValues(table: Table): Fields[] {
  const docs = Object.fromEntries(table.columns.map((c) => [c.name, c.doc]));
  return [
    [KV_SCHEMA_VERSION, String(SCHEMA_VERSION)],
    [KV_TABLE, table.name],
    [KV_COLUMNS, JSON.stringify(docs)],
  ].map(
    ([key, value]): Fields => [
      [1, key],
      [2, value],
    ],
  );
}

/** The file's bytes as pieces, in order, all `batches` in one row group; null when they hold no row. */
export async function encodeParquet(table: Table, batches: readonly TableBatch[], codec: Codec | Codecs, createdBy: string): Promise<Uint8Array[] | null> {
  const part = new PartEncoder(table, codec, createdBy);
  const pieces = await part.rowGroup(batches);
  if (pieces.length === 0) return null;
  return [...pieces, ...part.finish()];
}

/** A page's worth of one column: consecutive batches' parts, together up to PAGE_BYTES of values (one batch may be more). */
interface Page {
  rows: number;
  present: number;
  bytes: number;
  parts: ColumnBatch[];
}

function* pagesOf(parts: readonly ColumnBatch[], batches: readonly TableBatch[]): Generator<Page> {
  let page: Page = { rows: 0, present: 0, bytes: 0, parts: [] };
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (page.parts.length > 0 && page.bytes + part.values.length > PAGE_BYTES) {
      yield page;
      page = { rows: 0, present: 0, bytes: 0, parts: [] };
    }
    page.parts.push(part);
    page.rows += batches[i]!.rows;
    page.present += part.present;
    page.bytes += part.values.length;
  }
  if (page.rows > 0) yield page;
}
