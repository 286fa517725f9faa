// The index schema is a contract with users' queries: any change to a table or column (name or
// type) must come with a new SCHEMA_VERSION. This test pins the columns of each version.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FAMILIES_VIEW } from '../../src/archive-index/family-view.js';
import { SCHEMA_VERSION, TABLES } from '../../src/archive-index/schema.js';
import { runBin } from '../helpers/cli.js';

/** SHA-256 of every table's columns (name and type, in order), per schema version. */
const PINNED: Record<number, string> = {
  1: '4f36fb0096bfe0d6a773519efcab2daf3dffe35a7e4abc79236444a64a10edda',
  // 2 adds the findings table (levelkit check).
  2: 'd31f40aa4e321d0a5a0856f12312a8179d57f5401bbd926414437fb42713f877',
  // 3 adds files.options (what --resume compares), and files.path is absolute.
  3: 'ac51663c7352aa6c01daa45101a6f04927df8de0384a79a8df04fc9fff2b9ed9',
  // 4: grid_digest covers the grid's size and is null for a blank grid, author and title null when
  // empty, every table has a part, parts carry the version and column docs, and texts.object joins
  // a text to the object it belongs to (issue 40).
  4: 'efdc9962ebeccd6cd2faa8d44673e1050898f3936cb315b311eed24b18bfc008',
  // 5 adds levels.grid_signature, the similarity signature the families view is found by (issue 41).
  5: '8e4e271ae6d24ae3bead6b1625691a34dbaab43aa68e9a252106e5df7c6b338f',
};

function columnsDigest(): string {
  const shape = TABLES.map((t) => `${t.name}(${t.columns.map((c) => `${c.name} ${c.type}`).join(', ')})`).join('\n');
  return createHash('sha256').update(shape).digest('hex');
}

describe('index schema', () => {
  it('the columns are the ones pinned for this schema version (change a column: bump SCHEMA_VERSION and pin the new digest)', () => {
    expect(PINNED[SCHEMA_VERSION], `no digest pinned for schema version ${SCHEMA_VERSION}`).toBeDefined();
    expect(columnsDigest()).toBe(PINNED[SCHEMA_VERSION]);
  });

  it('keeps the column names the issue fixed', () => {
    const has = (table: string, cols: string[]) =>
      expect(TABLES.find((t) => t.name === table)?.columns.map((c) => c.name)).toEqual(expect.arrayContaining(cols));
    has('files', ['id', 'path', 'member', 'bytes', 'sha256', 'format', 'version', 'error_code', 'error_message', 'grid_digest', 'mtime', 'options']);
    has('levels', ['id', 'name', 'title', 'author', 'flavour', 'game', 'width', 'height', 'grid_signature']);
    has('layers', ['id', 'layer', 'kind', 'name', 'width', 'height', 'image']);
    has('tiles', ['id', 'layer', 'kind', 'tile', 'count']);
    has('objects', ['id', 'kind', 'name', 'logic', 'x', 'y']);
    has('texts', ['id', 'source', 'text', 'object']);
    has('images', ['id', 'name', 'width', 'height', 'external', 'pixels_sha256']);
    has('warnings', ['id', 'code', 'message', 'offset']);
    has('findings', ['id', 'rule', 'severity', 'message', 'layer', 'x', 'y', 'object', 'offset']);
  });

  it('is version 5 (issue 41 added levels.grid_signature): a part says so in its metadata', () => {
    expect(SCHEMA_VERSION).toBe(5);
  });

  it('levelkit schema --json prints it', async () => {
    const r = await runBin(['schema', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ version: SCHEMA_VERSION, tables: TABLES, views: [FAMILIES_VIEW] });
  });
});
