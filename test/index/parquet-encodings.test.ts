// What the index's parts hold beyond PLAIN values (src/archive-index/parquet/encodings.ts,
// statistics.ts): Snappy pages, dictionaries where values repeat (always for `id`), PLAIN where a
// dictionary would not pay, and min/max + null-count statistics per row group in the order each
// type defines. Read back by DuckDB and by hyparquet (written apart from both), value for value.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { type Compressors, parquetMetadata, parquetReadObjects } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { sqlString } from '../../src/archive-index/engine.js';
import { snappyCodec } from '../../src/archive-index/parquet/codecs.js';
import { type Cell, TableBuilder } from '../../src/archive-index/parquet/columns.js';
import { ByteSink, hybrid } from '../../src/archive-index/parquet/encodings.js';
import { CODEC, type Codec, type Codecs, PartEncoder } from '../../src/archive-index/parquet/file.js';
import { readFooter } from '../../src/archive-index/parquet/footer.js';
import { type Table, tableOf } from '../../src/archive-index/schema.js';
import { Prng } from '../helpers/prng.js';

const dir = mkdtempSync(join(tmpdir(), 'levelkit-parquet-encodings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const snappy = snappyCodec();

/** A part of `groups` row groups (each written by one rowGroup() call of batches of up to 500 rows); its path. */
async function write(name: string, table: Table, groups: Cell[][][], codecs: Codec | Codecs = snappy): Promise<string> {
  const part = new PartEncoder(table, codecs, 'levelkit test');
  const pieces: Uint8Array[] = [];
  for (const rows of groups) {
    const batches = [];
    for (let i = 0; i < rows.length; i += 500) {
      const b = new TableBuilder(table);
      for (const r of rows.slice(i, i + 500)) b.row(r);
      batches.push(b.take()!);
    }
    pieces.push(...(await part.rowGroup(batches)));
  }
  pieces.push(...part.finish());
  const path = join(dir, `${name}.parquet`);
  writeFileSync(path, Buffer.concat(pieces));
  return path;
}

async function sql(query: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  try {
    const r = await db.runAndReadAll(query);
    return r.getRowsJS().map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

/** A part's rows as hyparquet reads them (no codec plug-in), in `table`'s column order, numbers plain. */
async function hyparquetRows(path: string, table: Table, compressors?: Compressors): Promise<unknown[][]> {
  const b = readFileSync(path);
  const file = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  const rows = await parquetReadObjects({ file, compressors });
  return rows.map((r) => table.columns.map((c) => plain(r[c.name])));
}

const plain = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v instanceof Date ? v.getTime() : v);
const asRead = (rows: Cell[][]) => rows.map((r) => r.map((v) => (v === undefined ? null : v)));

/** Column name → the encodings of its chunks (all row groups), from DuckDB's parquet_metadata(). */
async function encodingsOf(path: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const [column, encodings] of await sql(`SELECT path_in_schema, encodings FROM parquet_metadata(${sqlString(path)})`))
    out.set(String(column), [...(out.get(String(column)) ?? []), String(encodings)]);
  return out;
}

/** `levels` levels of tiles rows (id, layer, kind, tile, count): the id repeated on each of a level's rows, kinds with nulls. */
function tileRows(levels: number, seed: number): Cell[][] {
  const rng = new Prng(seed);
  const rows: Cell[][] = [];
  for (let l = 0; l < levels; l++) {
    const id = `${rng.next().toString(16).padStart(8, '0')}${rng.next().toString(16).padStart(8, '0')}`;
    for (let t = 0; t < 30; t++) rows.push([id, t % 3, t % 7 === 0 ? null : ['board', 'game', 'front'][t % 3]!, rng.int(4096), 1 + rng.int(100_000)]);
  }
  return rows;
}

describe('Parquet parts: encodings', () => {
  it('Snappy pages, dictionaries where values repeat, read back value for value by DuckDB and hyparquet', async () => {
    const tiles = tableOf('tiles');
    const groups = [tileRows(400, 1), tileRows(300, 2)];
    const path = await write('tiles', tiles, groups);
    const want = asRead(groups.flat());
    const cols = tiles.columns.map((c) => `"${c.name}"`).join(', ');
    expect(await sql(`SELECT ${cols} FROM read_parquet(${sqlString(path)})`)).toEqual(want);
    expect(await hyparquetRows(path, tiles)).toEqual(want);
    const codecs = await sql(`SELECT DISTINCT compression FROM parquet_metadata(${sqlString(path)})`);
    expect(codecs).toEqual([['SNAPPY']]);
    const encodings = await encodingsOf(path);
    // A level's id on each of its rows, three kinds, three layers, 4,096 tile values: each a dictionary in every group.
    for (const column of ['id', 'layer', 'kind', 'tile']) for (const e of encodings.get(column)!) expect(e, column).toContain('RLE_DICTIONARY');
    // Counts nearly all differ: a dictionary would not pay, PLAIN.
    for (const e of encodings.get('count')!) expect(e).not.toContain('RLE_DICTIONARY');
  });

  it('with two codecs, Snappy for numbers and dictionary indices, GZIP for text', async () => {
    const twoCodecs: Codecs = { fast: snappy, dense: { id: CODEC.GZIP, compress: async (b) => gzipSync(b, { level: 1 }) } };
    const codecsOf = async (path: string) => Object.fromEntries(await sql(`SELECT path_in_schema, compression FROM parquet_metadata(${sqlString(path)})`));
    const tiles = tableOf('tiles');
    const rows = tileRows(400, 3);
    const path = await write('two-codecs', tiles, [rows], twoCodecs);
    // Numbers and dictionary indices, however well Snappy shrinks them (tile: random 12-bit indices, bit-packed): what queries scan.
    expect(await codecsOf(path)).toEqual({ id: 'SNAPPY', layer: 'SNAPPY', kind: 'SNAPPY', tile: 'SNAPPY', count: 'SNAPPY' });
    expect(await hyparquetRows(path, tiles, { GZIP: (input) => gunzipSync(input) })).toEqual(asRead(rows));
    // Text: sentences of their own each (PLAIN), and ids each on one row only (a dictionary of texts larger than its indices).
    const texts = tableOf('texts');
    const rng = new Prng(5);
    const textRows: Cell[][] = Array.from({ length: 300 }, (_, i) => [
      `${i.toString(16).padStart(16, '0')}`,
      'sign',
      `sign ${rng.next()} of ${rng.next()}: keep out`,
      i % 3 ? i : null,
    ]);
    const textPath = await write('two-codecs-text', texts, [textRows], twoCodecs);
    expect(await codecsOf(textPath)).toEqual({ id: 'GZIP', source: 'SNAPPY', text: 'GZIP', object: 'SNAPPY' });
    expect(await hyparquetRows(textPath, texts, { GZIP: (input) => gunzipSync(input) })).toEqual(asRead(textRows));
  });

  it('the footer check reads a chunk from its dictionary page on, the last chunk of the file too', async () => {
    const t: Table = {
      name: 'texts',
      row: 'test',
      columns: [
        { name: 'n', type: 'INTEGER', doc: '' },
        { name: 'id', type: 'VARCHAR', doc: '' },
      ],
    };
    const path = await write('footer', t, [Array.from({ length: 2000 }, (_, i) => [i, `level-${i >> 4}`])]);
    expect((await encodingsOf(path)).get('id')!.join()).toContain('RLE_DICTIONARY');
    const bytes = readFileSync(path);
    const footerLength = bytes.readUInt32LE(bytes.length - 8);
    expect(readFooter(bytes.subarray(bytes.length - 8 - footerLength, bytes.length - 8), bytes.length)).toHaveProperty('schema');
  });

  it('id is dictionary-encoded even where every row has its own; unique long texts go PLAIN', async () => {
    const files = tableOf('files');
    const rng = new Prng(9);
    const rows: Cell[][] = [];
    for (let i = 0; i < 3000; i++) {
      const cells: Cell[] = files.columns.map(() => null);
      cells[0] = i.toString(16).padStart(16, '0');
      cells[1] = `/archive/${rng.next().toString(36)}/${'deep/'.repeat(10)}level-${i}.nw`;
      cells[3] = 1000 + i;
      cells[6] = 'graal';
      rows.push(cells);
    }
    const path = await write('files', files, [rows]);
    const encodings = await encodingsOf(path);
    expect(encodings.get('id')!.join()).toContain('RLE_DICTIONARY');
    expect(encodings.get('path')!.join()).not.toContain('RLE_DICTIONARY');
    expect(encodings.get('format')!.join()).toContain('RLE_DICTIONARY');
    expect(await hyparquetRows(path, files)).toEqual(asRead(rows));
    const back = await sql(`SELECT id, path, bytes, format FROM read_parquet(${sqlString(path)})`);
    expect(back).toEqual(rows.map((r) => [r[0], r[1], r[3], r[6]]));
  });
});

describe('Parquet parts: statistics', () => {
  const table: Table = {
    name: 'objects',
    row: 'test',
    columns: [
      { name: 's', type: 'VARCHAR', doc: '' },
      { name: 'i', type: 'INTEGER', doc: '' },
      { name: 'b', type: 'BIGINT', doc: '' },
      { name: 'd', type: 'DOUBLE', doc: '' },
      { name: 'f', type: 'BOOLEAN', doc: '' },
      { name: 't', type: 'TIMESTAMP', doc: '' },
      { name: 'n', type: 'INTEGER', doc: '' },
    ],
  };
  // Text ordered by UTF-8 bytes ('Z' < 'a' < 'é' < '🦀'), signed numbers, doubles with both zeros.
  const texts = ['a', 'Z', 'é', '🦀', 'ab'];
  const row = (i: number, shift: number): Cell[] => [
    i % 4 === 3 ? null : texts[(i + shift) % texts.length],
    i % 5 === 0 ? null : ((i * 7919 + shift * 31) % 2000) - 1000,
    -(2 ** 40) + i * 2 ** 33 * (shift + 1),
    i % 6 === 0 ? -0 : i % 6 === 1 ? 0 : (i - 50) / 3,
    i % 3 === 0 ? null : i % 2 === 0,
    1_700_000_000_000 - i * 1000,
    null,
  ];
  const groups = [Array.from({ length: 100 }, (_, i) => row(i, 0)), Array.from({ length: 40 }, (_, i) => row(i + 7, 2))];

  /** The bounds the format asks of a column's values: text by UTF-8 bytes, a zero min -0 and a zero max +0. */
  function expected(values: Cell[], text: boolean): { min: unknown; max: unknown; nulls: number } {
    const present = values.filter((v) => v !== null && v !== undefined) as (string | number | boolean)[];
    const key = (v: string | number | boolean) => (text ? Buffer.from(v as string).toString('latin1') : Number(v));
    const sorted = [...present].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    const zero = (v: unknown, sign: number) => (v === 0 ? sign * 0 : v);
    return { min: zero(sorted[0], -1), max: zero(sorted.at(-1), 1), nulls: values.length - present.length };
  }

  it('each row group carries min, max and null count in its type’s order, as hyparquet decodes them and DuckDB reads them', async () => {
    const path = await write('stats', table, groups);
    const b = readFileSync(path);
    const meta = parquetMetadata(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    expect(meta.row_groups.length).toBe(2);
    for (const [g, group] of meta.row_groups.entries())
      for (const [c, chunk] of group.columns.entries()) {
        const column = table.columns[c]!;
        const s = chunk.meta_data!.statistics!;
        const want = expected(
          groups[g]!.map((r) => r[c]!),
          column.type === 'VARCHAR',
        );
        expect(s.null_count, `${column.name} ${g}`).toBe(BigInt(want.nulls));
        const got = (v: unknown) => (v instanceof Date ? v.getTime() : typeof v === 'bigint' ? Number(v) : v);
        if (column.name === 'n') {
          // No value at all: no bounds, only the null count.
          expect(s.min_value).toBeUndefined();
          expect(s.max_value).toBeUndefined();
          continue;
        }
        const asBool = column.type === 'BOOLEAN' ? (v: unknown) => Boolean(v) : (v: unknown) => v;
        expect(got(s.min_value), `${column.name} ${g} min`).toEqual(asBool(want.min));
        expect(got(s.max_value), `${column.name} ${g} max`).toEqual(asBool(want.max));
      }
    // DuckDB reads the same bounds (as text), and prunes by them: a value outside both groups' ranges reads no group.
    const duck = await sql(`SELECT row_group_id, stats_min_value, stats_max_value FROM parquet_metadata(${sqlString(path)}) WHERE path_in_schema = 'i'`);
    expect(duck.map((r) => [r[0], Number(r[1]), Number(r[2])])).toEqual(
      groups.map((rows, g) => {
        const w = expected(
          rows.map((r) => r[1]!),
          false,
        );
        return [g, w.min, w.max];
      }),
    );
    const s = await sql(`SELECT stats_min_value, stats_max_value FROM parquet_metadata(${sqlString(path)}) WHERE path_in_schema = 's' AND row_group_id = 0`);
    expect(s).toEqual([['Z', '🦀']]);
  });

  it('a text longer than the bound leaves that bound out (exact or none), the other kept', async () => {
    const t: Table = { name: 'texts', row: 'test', columns: [{ name: 'x', type: 'VARCHAR', doc: '' }] };
    const path = await write('long', t, [[['b'], ['z'.repeat(100)], ['c']]]);
    const stats = await sql(`SELECT stats_min_value, stats_max_value FROM parquet_metadata(${sqlString(path)})`);
    expect(stats).toEqual([['b', null]]);
  });
});

/** A reader of the RLE / bit-packed hybrid written from the format's description, apart from encodings.ts. */
function readHybrid(bytes: Uint8Array, bitWidth: number, count: number): number[] {
  const out: number[] = [];
  let at = 0;
  const varint = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[at++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return v;
    }
  };
  while (out.length < count) {
    const header = varint();
    if (header % 2 === 0) {
      let v = 0;
      for (let k = 0; k < Math.ceil(bitWidth / 8); k++) v += bytes[at++]! * 256 ** k;
      for (let k = 0; k < header / 2; k++) out.push(v);
    } else {
      const n = ((header - 1) / 2) * 8;
      let bit = at * 8;
      for (let k = 0; k < n; k++) {
        let v = 0;
        for (let j = 0; j < bitWidth; j++, bit++) v |= ((bytes[bit >>> 3]! >> (bit & 7)) & 1) << j;
        out.push(v);
      }
      at += (n * bitWidth) / 8;
    }
  }
  expect(at).toBe(bytes.length);
  return out.slice(0, count);
}

describe('RLE / bit-packed hybrid', () => {
  it('runs of 7, 8 and 9 after literals of every length, every bit width up to 20, read back', () => {
    const rng = new Prng(5);
    for (let width = 1; width <= 20; width++)
      for (let trial = 0; trial < 20; trial++) {
        const values: number[] = [];
        while (values.length < 300) {
          const literals = rng.int(12);
          for (let k = 0; k < literals; k++) values.push(rng.int(2 ** width));
          const run = 7 + rng.int(3) + (rng.int(4) === 0 ? rng.int(200) : 0);
          const v = rng.int(2 ** width);
          for (let k = 0; k < run; k++) values.push(v);
        }
        const out = new ByteSink(16);
        hybrid(Uint32Array.from(values), width, out);
        expect(readHybrid(out.bytes(), width, values.length), `width ${width}`).toEqual(values);
      }
  });

  it('a long run is one RLE run, not bit-packed', () => {
    const out = new ByteSink();
    hybrid(new Uint32Array(100_000).fill(3), 2, out);
    expect(out.len).toBeLessThan(6);
  });
});
