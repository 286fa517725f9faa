// The index's own Parquet writer (src/archive-index/parquet/) read back by DuckDB: every column
// type, nulls at any position, strings of any Unicode, several batches and pages, every codec (GZIP as parts written before Snappy were).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { sqlString } from '../../src/archive-index/engine.js';
import { snappyCodec } from '../../src/archive-index/parquet/codecs.js';
import { type Cell, type TableBatch, TableBuilder } from '../../src/archive-index/parquet/columns.js';
import { CODEC, type Codec, encodeParquet } from '../../src/archive-index/parquet/file.js';
import type { Table } from '../../src/archive-index/schema.js';

const dir = mkdtempSync(join(tmpdir(), 'levelkit-parquet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
  ],
};

const codecs: Record<string, Codec> = {
  uncompressed: { id: CODEC.UNCOMPRESSED, compress: async (b) => b },
  gzip: { id: CODEC.GZIP, compress: async (b) => gzipSync(b) },
  snappy: snappyCodec(),
};

function rowAt(i: number): Cell[] {
  const texts = ['', 'plain', 'ünïcödé ✓', 'emoji 🦀', 'quote " and, comma\nnewline', 'x'.repeat(3000)];
  return [
    // Runs of one text (a column such as id repeats row after row: copied, not encoded again), broken by nulls.
    i % 7 === 0 ? null : `${texts[Math.floor(i / 3) % texts.length]}#${Math.floor(i / 3)}`,
    i % 5 === 0 ? null : ((i * 7919) % 100_000) - 50_000,
    i % 3 === 0 ? null : i * 2 ** 33 - 2 ** 40,
    i % 4 === 0 ? null : i / 7,
    i % 6 === 0 ? null : i % 2 === 0,
    i % 9 === 0 ? null : 1_700_000_000_000 + i,
  ];
}

async function readBack(path: string): Promise<unknown[][]> {
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  const r = await db.runAndReadAll(`SELECT s, i, b, d, f, epoch_ms(t) FROM read_parquet(${sqlString(path)})`);
  const rows = r.getRowsJS().map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
  db.closeSync();
  return rows;
}

describe('Parquet writer', () => {
  for (const [name, codec] of Object.entries(codecs))
    it(`writes what DuckDB reads back (${name}, many batches and pages)`, async () => {
      const builder = new TableBuilder(table);
      const batches: TableBatch[] = [];
      const want: Cell[][] = [];
      // Batches of odd sizes so definition bits of one page cross byte boundaries between batches.
      for (let n = 0, size = 1; n < 5000; size = (size * 3 + 1) % 97) {
        for (let k = 0; k <= size && n < 5000; k++, n++) {
          const row = rowAt(n);
          builder.row(row);
          want.push(row);
        }
        batches.push(builder.take()!);
      }
      const pieces = await encodeParquet(table, batches, codec, 'levelkit test');
      const path = join(dir, `${name}.parquet`);
      writeFileSync(path, Buffer.concat(pieces!));
      const got = await readBack(path);
      expect(got.length).toBe(want.length);
      for (let i = 0; i < want.length; i++) expect(got[i], `row ${i}`).toEqual(want[i]!.map((v) => (v === undefined ? null : v)));
    });

  it('writes no file for no rows, and takes no batch from an empty builder', async () => {
    expect(new TableBuilder(table).take()).toBeNull();
    expect(await encodeParquet(table, [], codecs.gzip!, 'x')).toBeNull();
  });

  it('stores a value outside its column type as null, never a wrong number', async () => {
    const builder = new TableBuilder(table);
    builder.row(['a', 2 ** 31, 2 ** 60, Number.NaN, 'yes', 1.5]);
    builder.row(['b', -(2 ** 31), -(2 ** 53) + 1, Number.POSITIVE_INFINITY, true, -1]);
    const path = join(dir, 'range.parquet');
    writeFileSync(path, Buffer.concat((await encodeParquet(table, [builder.take()!], codecs.gzip!, 'x'))!));
    expect(await readBack(path)).toEqual([
      ['a', null, null, null, null, null],
      ['b', -(2 ** 31), -(2 ** 53) + 1, null, true, -1],
    ]);
  });
});
