// Every table exists even when empty, and every part says what it is (issue 40): a run that writes
// no row to a table commits a part of no rows for it (where its folder has none), which DuckDB and
// hyparquet both read, so `read_parquet('idx/findings/*.parquet')` works; each part's key-value
// metadata carries the schema version and its columns' docs (DuckDB's parquet_kv_metadata()).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMITS } from '../../src/archive-index/commits.js';
import { type Engine, openEngine, sqlString } from '../../src/archive-index/engine.js';
import { KV_COLUMNS, KV_SCHEMA_VERSION, KV_TABLE } from '../../src/archive-index/parquet/file.js';
import { partsOf } from '../../src/archive-index/parts.js';
import { IndexQuery } from '../../src/archive-index/query.js';
import { SCHEMA_VERSION, TABLES, tableOf } from '../../src/archive-index/schema.js';
import { IndexWriter } from '../../src/archive-index/writer.js';
import type { ScanRecord } from '../../src/scan/job.js';

const tmp = fs.mkdtempSync(join(tmpdir(), 'levelkit-empty-tables-'));
const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
let engine: Engine;
let duck: DuckDBConnection;

beforeAll(async () => {
  engine = await openEngine();
  duck = engine.db;
});
afterAll(() => {
  engine?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A files record with one warning: rows in files and warnings, none in any other table. */
const record = (i: number) =>
  ({
    path: `/archive/level-${i}.wwd`,
    member: null,
    bytes: 100 + i,
    format: 'wwd',
    version: '1',
    warnings: [{ code: 'W', message: 'w', offset: i }],
  }) as unknown as ScanRecord;

/** A run of the writer into `dir` with `records`. */
async function run(dir: string, records: readonly ScanRecord[]): Promise<void> {
  const w = await IndexWriter.open(dir, { hash });
  for (const r of records) await w.addRecord(r, 0);
  await w.close();
}

const rowsOf = async (sql: string) => (await duck.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];

describe('a table with no rows', () => {
  const dir = join(tmp, 'index');

  it('has a part of no rows that DuckDB reads by glob, with every column typed as schema.ts says', async () => {
    await run(dir, [record(1), record(2)]);
    for (const t of TABLES) {
      const parts = partsOf(dir, t.name);
      expect(parts.length, t.name).toBe(1);
      const glob = sqlString(join(dir, t.name, '*.parquet'));
      const [count] = await rowsOf(`SELECT count(*) AS n FROM read_parquet(${glob})`);
      expect(Number(count!.n), t.name).toBe(t.name === 'files' || t.name === 'warnings' ? 2 : 0);
      const columns = await rowsOf(`DESCRIBE SELECT * FROM read_parquet(${glob})`);
      expect(
        columns.map((c) => [c.column_name, c.column_type]),
        t.name,
      ).toEqual(t.columns.map((c) => [c.name, c.type === 'TIMESTAMP' ? 'TIMESTAMP' : c.type]));
    }
  });

  it('is read by hyparquet too: a footer of no row groups, the schema, no rows', async () => {
    const [part] = partsOf(dir, 'findings');
    const b = fs.readFileSync(part!);
    const file = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    const meta = parquetMetadata(file);
    expect(Number(meta.num_rows)).toBe(0);
    expect(meta.row_groups).toEqual([]);
    expect(meta.schema.slice(1).map((e) => e.name)).toEqual(tableOf('findings').columns.map((c) => c.name));
    expect(await parquetReadObjects({ file })).toEqual([]);
  });

  it('queries, resume and a run that adds nothing still work: no empty part where the folder has one, no commit for nothing', async () => {
    const q = await IndexQuery.open(dir);
    try {
      expect((await q.run('SELECT count(*) AS n FROM findings')).rows).toEqual([[0n]]);
      expect((await q.run('SELECT count(*) AS n FROM files')).rows).toEqual([[2n]]);
    } finally {
      q.close();
    }
    const commits = () => fs.readdirSync(join(dir, COMMITS)).filter((n) => n.endsWith('.json')).length;
    const before = commits();
    // A run with files rows only: its files and warnings parts, no new empty ones.
    await run(dir, [record(3)]);
    expect(commits()).toBe(before + 1);
    expect(partsOf(dir, 'findings').length).toBe(1);
    expect(partsOf(dir, 'files').length).toBe(2);
    // A run that wrote nothing (a resume of an unchanged archive): no commit at all.
    await run(dir, []);
    expect(commits()).toBe(before + 1);
  });
});

describe("each part's key-value metadata", () => {
  it('carries the schema version, its table and every column doc (parquet_kv_metadata), in parts with rows and without', async () => {
    const dir = join(tmp, 'kv');
    await run(dir, [record(1)]);
    for (const table of ['files', 'objects'] as const) {
      const [part] = partsOf(dir, table);
      const kv = await rowsOf(`SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata(${sqlString(part!)})`);
      const by = Object.fromEntries(kv.map((r) => [r.key, r.value]));
      expect(by[KV_SCHEMA_VERSION]).toBe(String(SCHEMA_VERSION));
      expect(by[KV_TABLE]).toBe(table);
      expect(JSON.parse(String(by[KV_COLUMNS]))).toEqual(Object.fromEntries(tableOf(table).columns.map((c) => [c.name, c.doc])));
    }
    expect(KV_SCHEMA_VERSION).toBe('levelkit.schema_version');
  });
});
