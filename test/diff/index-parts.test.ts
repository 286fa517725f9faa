// `levelkit diff <old index> <new index>` over a files part that is not levelkit's (a null path, a
// column missing, written here with DuckDB's COPY … TO): one line naming the part, exit 2, never
// "Cannot read properties of null".
import { cpSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMITS, commitText } from '../../src/archive-index/commits.js';
import { sqlString } from '../../src/archive-index/engine.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

let tmp: string;
let good: string;

/** A copy of the good index with one more files part, written by DuckDB from `select`. */
async function withPart(name: string, select: string): Promise<{ index: string; part: string }> {
  const index = join(tmp, name);
  cpSync(good, index, { recursive: true });
  const part = join(index, 'files', 'part-zz-foreign-0001.parquet');
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  await db.run(`COPY (${select}) TO ${sqlString(part)} (FORMAT parquet)`);
  db.closeSync();
  // Committed as the index's own writer commits a part (commits.ts): readers see only committed parts.
  const name0 = 'part-zz-foreign-0001.parquet';
  writeFileSync(join(index, COMMITS, 'zz-foreign-0001.json'), commitText([{ table: 'files', name: name0, bytes: statSync(part).size }]));
  return { index, part };
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'levelkit-diff-parts-'));
  const archive = join(tmp, 'archive');
  mkdirSync(archive);
  cpSync(join(FIXTURES, 'teeworlds/ddnet-all-items.map'), join(archive, 'one.map'));
  good = join(tmp, 'good');
  const r = cli('scan', archive, '--index', good, '--workers', '1', '--timeout', '60', '--quiet');
  expect(r.status, r.stderr).toBe(0);
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('levelkit diff of an index with a foreign files part', () => {
  it('a row with a null path: the part named in one line, exit 2', async () => {
    const { index, part } = await withPart(
      'null-path',
      "SELECT 'x' AS id, NULL::VARCHAR AS path, NULL::VARCHAR AS member, 1::BIGINT AS bytes, TIMESTAMP '2026-01-01' AS mtime, 'ab' AS sha256, 'wwd' AS format",
    );
    const r = cli('diff', good, index);
    expect(r.stderr).not.toMatch(/Cannot read|internal error/);
    expect(r.stderr).toBe(`levelkit diff: ${part}: a file row with no path (null): not a part levelkit wrote\n`);
    expect(r.status).toBe(2);
  }, 60_000);

  it('a part without the path column: named in one line, exit 2', async () => {
    const { index, part } = await withPart('no-path', "SELECT 'x' AS id, 'ab' AS sha256");
    const r = cli('diff', '--json', index, good);
    expect(r.stderr).not.toMatch(/Cannot read|internal error/);
    expect(r.stderr).toMatch(new RegExp(`^levelkit diff: ${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .+\n$`));
    expect(r.status).toBe(2);
  }, 60_000);
});
