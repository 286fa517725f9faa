// The index's Parquet read by a second, independent reader (issue 39 §6): levelkit writes its
// parts itself (src/archive-index/parquet/), and DuckDB reading them back is one reader's word.
// hyparquet (pure JS, written apart from DuckDB and from levelkit) reads every part of every table
// of a fixture index made with --check (so findings and warnings have rows), and every value is
// compared with what DuckDB reads: each part row by row, and each table as the query path reads
// it. The footer hyparquet walks is checked against src/archive-index/schema.ts: column names,
// physical and logical types, row groups, row counts, codecs, and statistics where a part has them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { DuckDBConnection } from '@duckdb/node-api';
import { type Compressors, type FileMetaData, parquetMetadata, parquetReadObjects, type SchemaElement } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlString } from '../../src/archive-index/engine.js';
import { partsOf } from '../../src/archive-index/parts.js';
import { IndexQuery } from '../../src/archive-index/query.js';
import { type ColumnType, TABLES, type Table } from '../../src/archive-index/schema.js';
import { runBin } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

// The parts' chunks are Snappy for numbers and dictionary indices, GZIP for text (parquet/file.ts
// Codecs): hyparquet reads Snappy itself and GZIP through this.
const compressors: Compressors = { GZIP: (input) => gunzipSync(input) };

/** Codecs hyparquet reads with no plug-in, and those given to it above. */
const READABLE = new Set(['UNCOMPRESSED', 'SNAPPY', ...Object.keys(compressors)]);

/** The Parquet column each index type is written as: physical type, and the annotation a reader types it by. */
const PARQUET: Record<ColumnType, { type: string; annotation: (e: SchemaElement) => boolean }> = {
  VARCHAR: { type: 'BYTE_ARRAY', annotation: (e) => e.converted_type === 'UTF8' || e.logical_type?.type === 'STRING' },
  BIGINT: { type: 'INT64', annotation: (e) => e.converted_type === undefined && e.logical_type === undefined },
  INTEGER: { type: 'INT32', annotation: (e) => e.converted_type === undefined && e.logical_type === undefined },
  DOUBLE: { type: 'DOUBLE', annotation: (e) => e.converted_type === undefined && e.logical_type === undefined },
  BOOLEAN: { type: 'BOOLEAN', annotation: (e) => e.converted_type === undefined && e.logical_type === undefined },
  TIMESTAMP: { type: 'INT64', annotation: (e) => e.converted_type === 'TIMESTAMP_MILLIS' || e.logical_type?.type === 'TIMESTAMP' },
};

/** What a value of each index type is in JavaScript, read by either reader. */
const JS_TYPE: Record<ColumnType, (v: unknown) => boolean> = {
  VARCHAR: (v) => typeof v === 'string',
  BIGINT: (v) => typeof v === 'bigint',
  INTEGER: (v) => Number.isInteger(v) && Math.abs(v as number) < 2 ** 31,
  DOUBLE: (v) => typeof v === 'number',
  BOOLEAN: (v) => typeof v === 'boolean',
  TIMESTAMP: (v) => v instanceof Date,
};

/** A value as toEqual compares it exactly: a bigint or a Date tagged, so 5n, 5 and a Date at 5 ms differ. */
function exact(v: unknown): unknown {
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Date) return `@${v.getTime()}`;
  return v;
}

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-second-reader-'));
const INDEX = join(tmp, 'index');
let duck: DuckDBConnection;
let closeDuck: () => void;

/** A part as hyparquet reads it: its footer and its rows (columns in schema order). */
async function hyparquetRead(part: string): Promise<{ meta: FileMetaData; rows: Record<string, unknown>[] }> {
  const b = readFileSync(part);
  const file = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  return { meta: parquetMetadata(file), rows: await parquetReadObjects({ file, compressors }) };
}

/** A part as DuckDB reads it: its column names and types, and its rows in file order. */
async function duckRead(part: string): Promise<{ columns: { name: string; type: string }[]; rows: Record<string, unknown>[] }> {
  const d = await duck.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(part)})`);
  const columns = d.getRowObjectsJS().map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
  const r = await duck.runAndReadAll(`SELECT * FROM read_parquet(${sqlString(part)})`);
  return { columns, rows: r.getRowObjectsJS() as Record<string, unknown>[] };
}

/** Rows as exact, comparable arrays in `table`'s column order. */
const exactRows = (table: Table, rows: Record<string, unknown>[]) => rows.map((r) => table.columns.map((c) => exact(r[c.name])));

/** Rows as a multiset: each as JSON, sorted. */
const multiset = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();

beforeAll(async () => {
  // Small flushes, so a table has several parts; the fixtures hold malformed files on purpose (exit 2).
  const r = await runBin(['scan', FIXTURES, '--index', INDEX, '--check', '--workers', '1', '--timeout', '60', '--quiet'], {
    env: { LEVELKIT_TEST_FLUSH_BYTES: '32768' },
  });
  expect(r.code, r.stderr).toBe(2);
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  duck = await instance.connect();
  closeDuck = () => {
    duck.closeSync();
    instance.closeSync();
  };
}, 120_000);

afterAll(() => {
  closeDuck?.();
  rmSync(tmp, { recursive: true, force: true });
});

describe('every part of every table, read by hyparquet', () => {
  for (const table of TABLES)
    it(`${table.name}: the footer as schema.ts says, every value as DuckDB reads it`, async () => {
      const parts = partsOf(INDEX, table.name);
      expect(parts.length, 'a table with no rows would test nothing').toBeGreaterThan(0);
      const names = table.columns.map((c) => c.name);
      for (const part of parts) {
        const { meta, rows } = await hyparquetRead(part);
        // The schema: a root, then every column of schema.ts in order, optional, typed and annotated.
        const [root, ...elements] = meta.schema;
        expect(root!.num_children, part).toBe(table.columns.length);
        expect(elements.map((e) => e.name)).toEqual(names);
        for (const [i, c] of table.columns.entries()) {
          const e = elements[i]!;
          expect(e.repetition_type, c.name).toBe('OPTIONAL');
          expect(e.type, c.name).toBe(PARQUET[c.type].type);
          expect(PARQUET[c.type].annotation(e), `${c.name}: ${e.converted_type} ${JSON.stringify(e.logical_type)}`).toBe(true);
        }
        // Row groups: their rows add up to the file's; each holds every column, compressed by a codec readers have.
        expect(meta.row_groups.length).toBeGreaterThan(0);
        expect(meta.row_groups.reduce((n, g) => n + g.num_rows, 0n)).toBe(meta.num_rows);
        expect(BigInt(rows.length)).toBe(meta.num_rows);
        let start = 0;
        for (const group of meta.row_groups) {
          const end = start + Number(group.num_rows);
          expect(group.columns.map((c) => c.meta_data!.path_in_schema)).toEqual(names.map((n) => [n]));
          for (const [i, chunk] of group.columns.entries()) {
            const m = chunk.meta_data!;
            expect(READABLE.has(m.codec), `${names[i]}: ${m.codec}`).toBe(true);
            expect(m.num_values).toBe(group.num_rows);
            if (m.statistics)
              expectStatistics(
                table.columns[i]!.type,
                m.statistics,
                rows.slice(start, end).map((r) => r[names[i]!]),
                `${part} ${names[i]}`,
              );
          }
          start = end;
        }
        // Every value of every type as a JS value of that type, or null.
        for (const row of rows) {
          expect(Object.keys(row)).toEqual(names);
          for (const c of table.columns) if (row[c.name] !== null) expect(JS_TYPE[c.type](row[c.name]), `${c.name}: ${String(row[c.name])}`).toBe(true);
        }
        // DuckDB: the same column names and types, and the same rows in the same order, value for value.
        const d = await duckRead(part);
        expect(d.columns).toEqual(table.columns.map((c) => ({ name: c.name, type: c.type })));
        expect(exactRows(table, rows)).toEqual(exactRows(table, d.rows));
      }
    });
});

describe('the index as the query path reads it', () => {
  it('every table (its _all view) is the rows hyparquet reads from its parts, and they hold every type, nulls and non-ASCII text', async () => {
    const q = await IndexQuery.open(INDEX);
    const seen = new Set<string>();
    let nulls = 0;
    let nonAscii = 0;
    let parts = 0;
    try {
      for (const table of TABLES) {
        const fromParts: unknown[][] = [];
        for (const part of partsOf(INDEX, table.name)) {
          parts++;
          const { rows } = await hyparquetRead(part);
          fromParts.push(...exactRows(table, rows));
          for (const row of rows)
            for (const c of table.columns) {
              const v = row[c.name];
              if (v === null) nulls++;
              else seen.add(c.type);
              if (typeof v === 'string' && /\P{ASCII}/u.test(v)) nonAscii++;
            }
        }
        const viaQuery = await q.run(`SELECT * FROM "${table.name}_all"`);
        expect(viaQuery.columns).toEqual(table.columns.map((c) => c.name));
        const queried = viaQuery.rows.map((r) => r.map(exact));
        expect(queried.length, table.name).toBe(fromParts.length);
        expect(multiset(queried), table.name).toEqual(multiset(fromParts));
      }
    } finally {
      q.close();
    }
    expect([...seen].sort()).toEqual(Object.keys(JS_TYPE).sort());
    expect(parts, 'small flushes: tables of several parts').toBeGreaterThan(TABLES.length);
    expect(nulls).toBeGreaterThan(0);
    expect(nonAscii).toBeGreaterThan(0);
  });
});

/** A column chunk's statistics agree with its values: the null count, and min and max where given. */
function expectStatistics(
  type: ColumnType,
  s: NonNullable<FileMetaData['row_groups'][number]['columns'][number]['meta_data']>['statistics'],
  values: unknown[],
  what: string,
): void {
  const present = values.filter((v) => v !== null);
  if (s!.null_count !== undefined) expect(s!.null_count, what).toBe(BigInt(values.length - present.length));
  if (present.length === 0) return;
  // Parquet orders text by its UTF-8 bytes, numbers and times by value, false before true.
  const key = (v: unknown) =>
    type === 'VARCHAR' ? Buffer.from(v as string, 'utf8').toString('latin1') : v instanceof Date ? v.getTime() : (v as number | bigint | boolean);
  const sorted = [...present].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const min = s!.min_value ?? s!.min;
  const max = s!.max_value ?? s!.max;
  // The format's rule for a double's zero: a min of ±0 is written -0, a max of ±0 as +0.
  const zero = (v: unknown, sign: number) => (type === 'DOUBLE' && v === 0 ? sign * 0 : v);
  if (min !== undefined) expect(exact(min), `${what} min`).toEqual(exact(zero(sorted[0], -1)));
  if (max !== undefined) expect(exact(max), `${what} max`).toEqual(exact(zero(sorted.at(-1), 1)));
}
