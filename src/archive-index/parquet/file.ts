// One Parquet file from a table's batches (columns.ts): row groups, each column a chunk
// of data pages (v1: definition levels as one bit-packed run, values PLAIN) compressed by the
// given codec, and the Thrift footer. Only what the index needs: flat optional columns of the
// six types in schema.ts. Host-independent: the caller compresses and writes.
import type { ColumnType, Table } from '../schema.js';
import type { ColumnBatch, TableBatch } from './columns.js';
import { CompactWriter, type Fields, i64, list, varint } from './thrift.js';

/** Values per page before a new one starts (uncompressed), so readers never hold a whole chunk. */
const PAGE_BYTES = 1 << 20;
const MAGIC = new TextEncoder().encode('PAR1');

/** Parquet's codec ids for the codecs a writer may be given. */
export const CODEC = { UNCOMPRESSED: 0, GZIP: 2 } as const;
export interface Codec {
  id: (typeof CODEC)[keyof typeof CODEC];
  compress(page: Uint8Array): Promise<Uint8Array>;
}

const PLAIN = 0;
const RLE = 3;
const DATA_PAGE = 0;
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
 * with the magic), then `finish()`'s footer. A file of no row group is not a Parquet file the
 * writer makes (`finish()` throws).
 */
export class PartEncoder {
  private readonly groups: Fields[] = [];
  /** Bytes of the file so far (where the next piece starts). */
  private offset = 0;
  /** Rows in the groups so far. */
  rows = 0;

  constructor(
    readonly table: Table,
    private readonly codec: Codec,
    private readonly createdBy: string,
  ) {}

  /** Bytes written so far. */
  get bytes(): number {
    return this.offset;
  }

  /** One row group of `batches`' rows, as pieces to append in order; none when they hold no row. */
  async rowGroup(batches: readonly TableBatch[]): Promise<Uint8Array[]> {
    const { table, codec } = this;
    const rows = batches.reduce((n, b) => n + b.rows, 0);
    if (rows === 0) return [];
    const pieces: Uint8Array[] = [];
    if (this.offset === 0) {
      pieces.push(MAGIC);
      this.offset = MAGIC.length;
    }
    const chunks: Fields[] = [];
    let groupBytes = 0;
    for (let c = 0; c < table.columns.length; c++) {
      const column = table.columns[c]!;
      const start = this.offset;
      let uncompressed = 0;
      let compressed = 0;
      for (const page of pagesOf(batches, c)) {
        const body = pageBody(page, column.type);
        const stored = await codec.compress(body);
        const header = new CompactWriter()
          .struct([
            [1, DATA_PAGE],
            [2, body.length],
            [3, stored.length],
            [
              5,
              [
                [1, page.rows],
                [2, PLAIN],
                [3, RLE],
                [4, RLE],
              ],
            ],
          ])
          .bytes();
        pieces.push(header, stored);
        this.offset += header.length + stored.length;
        uncompressed += header.length + body.length;
        compressed += header.length + stored.length;
      }
      groupBytes += uncompressed;
      const physical = PHYSICAL[column.type];
      chunks.push([
        [2, i64(start)],
        [
          3,
          [
            [1, physical.type],
            [2, list([PLAIN, RLE])],
            [3, list([column.name])],
            [4, codec.id],
            [5, i64(rows)],
            [6, i64(uncompressed)],
            [7, i64(compressed)],
            [9, i64(start)],
          ],
        ],
      ]);
    }
    this.groups.push([
      [1, list(chunks)],
      [2, i64(groupBytes)],
      [3, i64(rows)],
    ]);
    this.rows += rows;
    return pieces;
  }

  /** The footer and the closing magic: the last pieces of the file. */
  finish(): Uint8Array[] {
    if (this.groups.length === 0) throw new Error('levelkit: a Parquet part needs at least one row group');
    const { table } = this;
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
        [4, list(this.groups)],
        [6, this.createdBy],
      ])
      .bytes();
    const tail = new Uint8Array(8);
    new DataView(tail.buffer).setUint32(0, footer.length, true);
    tail.set(MAGIC, 4);
    this.offset += footer.length + tail.length;
    return [footer, tail];
  }
}

/** The file's bytes as pieces, in order, all `batches` in one row group; null when they hold no row. */
export async function encodeParquet(table: Table, batches: readonly TableBatch[], codec: Codec, createdBy: string): Promise<Uint8Array[] | null> {
  const part = new PartEncoder(table, codec, createdBy);
  const pieces = await part.rowGroup(batches);
  if (pieces.length === 0) return null;
  return [...pieces, ...part.finish()];
}

/** A page's worth of one column: consecutive batches' parts, together up to PAGE_BYTES of values (one batch may be more). */
interface Page {
  rows: number;
  parts: ColumnBatch[];
}

function* pagesOf(batches: readonly TableBatch[], column: number): Generator<Page> {
  let page: Page = { rows: 0, parts: [] };
  let bytes = 0;
  for (const b of batches) {
    const part = b.columns[column]!;
    if (page.parts.length > 0 && bytes + part.values.length > PAGE_BYTES) {
      yield page;
      page = { rows: 0, parts: [] };
      bytes = 0;
    }
    page.parts.push(part);
    page.rows += b.rows;
    bytes += part.values.length;
  }
  if (page.rows > 0) yield page;
}

/**
 * A v1 data page before compression: the definition levels' length (4 bytes), the levels as one
 * bit-packed run of 1-bit values (header (groups << 1) | 1, then the bits LSB first), the values.
 */
function pageBody(page: Page, type: ColumnType): Uint8Array {
  const groups = Math.ceil(page.rows / 8);
  const header = varint(groups * 2 + 1);
  let valueBytes = 0;
  let present = 0;
  for (const p of page.parts) {
    valueBytes += p.values.length;
    present += p.present;
  }
  if (type === 'BOOLEAN') valueBytes = Math.ceil(present / 8);
  const levels = header.length + groups;
  const out = new Uint8Array(4 + levels + valueBytes);
  new DataView(out.buffer).setUint32(0, levels, true);
  out.set(header, 4);
  let bit = (4 + header.length) * 8;
  for (const p of page.parts) bit = packBits(p.defs, out, bit);
  let at = 4 + levels;
  if (type === 'BOOLEAN') {
    let vbit = at * 8;
    for (const p of page.parts) vbit = packBits(p.values, out, vbit);
  } else
    for (const p of page.parts) {
      out.set(p.values, at);
      at += p.values.length;
    }
  return out;
}

/** Sets bit `bit + i` of `out` (LSB first) for each non-zero byte i of `bytes`; returns the next bit. */
function packBits(bytes: Uint8Array, out: Uint8Array, bit: number): number {
  for (let i = 0; i < bytes.length; i++, bit++) if (bytes[i]) out[bit >>> 3]! |= 1 << (bit & 7);
  return bit;
}
