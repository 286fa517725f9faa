// What `levelkit query` prints (issue 40): `--json` gives a JSON column (levels.summary,
// objects.fields, files.options read unchanged, or anything of DuckDB's JSON type) as the JSON it
// holds, as `duckdb -json` does, not as a string of JSON; the table cuts a long cell in its middle
// so a path keeps its file name; and a folder that is not an index is one line and exit 1, not
// "0 rows", while an index of no files still answers.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_JSON_COLUMNS, jsonColumns } from '../../src/archive-index/json-columns.js';
import { TABLES } from '../../src/archive-index/schema.js';
import { clip, jsonLinesOutput } from '../../src/cli/query-output.js';
import { jsonLines, runBin } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-query-output-'));
/** A folder name long enough that a path through it is cut in the table. */
const DEEP = join(tmp, 'an archive folder with a name long enough to be cut', 'and another one below it');
const index = join(tmp, 'index');
const SCAN = ['--workers', '1', '--timeout', '60', '--quiet'];

beforeAll(async () => {
  mkdirSync(DEEP, { recursive: true });
  cpSync(join(ROOT, 'fixtures', 'wwd', 'claw-compressed.wwd'), join(DEEP, 'claw-compressed.wwd'));
  cpSync(join(ROOT, 'fixtures', 'graal', 'gr-v103.graal'), join(DEEP, 'gr-v103.graal'));
  const r = await runBin(['scan', DEEP, '--index', index, ...SCAN]);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function queryJson(sql: string): Promise<Record<string, unknown>[]> {
  const r = await runBin(['query', index, sql, '--json']);
  expect(r.stderr, sql).toBe('');
  expect(r.code, sql).toBe(0);
  return jsonLines(r.stdout);
}

describe('levelkit query --json: JSON columns are JSON', () => {
  it('levels.summary, objects.fields and files.options read unchanged are objects in the row, by any name or through *', async () => {
    const [level] = await queryJson("SELECT l.summary AS s, summary, * FROM levels l WHERE format = 'wwd'");
    expect(level!.s).toMatchObject({ game: 'claw', planes: expect.any(Number) });
    expect(level!.summary).toEqual(level!.s);
    // The star's own summary, under the repeated name.
    expect(level!['summary:1']).toEqual(level!.s);
    const objects = await queryJson("SELECT fields FROM objects WHERE fields IS NOT NULL AND fields <> '{}'");
    expect(objects.length).toBeGreaterThan(0);
    for (const o of objects) expect(typeof o.fields).toBe('object');
    const [file] = await queryJson('SELECT FILES.OPTIONS FROM files LIMIT 1');
    expect(file!.options).toMatchObject({ depth: 'full' });
  }, 60_000);

  it("DuckDB's JSON type is JSON at any depth; what a query computes from a JSON column is its own type", async () => {
    const [row] = await queryJson(
      "SELECT summary::JSON AS j, summary->'planes' AS planes, summary->>'game' AS game, upper(summary) AS u, [summary::JSON] AS l, {'s': summary::JSON} AS st, '[1]' AS fields FROM levels WHERE format = 'wwd'",
    );
    expect(row!.j).toMatchObject({ game: 'claw' });
    expect(typeof row!.planes).toBe('number');
    expect(row!.game).toBe('claw');
    expect(typeof row!.u).toBe('string');
    expect(row!.l).toEqual([row!.j]);
    expect(row!.st).toEqual({ s: row!.j });
    // A column the query made and named like an index JSON column is what it made: text.
    expect(row!.fields).toBe('[1]');
  }, 60_000);

  it('the table and --csv keep the JSON text as it is', async () => {
    const r = await runBin(['query', index, "SELECT summary FROM levels WHERE format = 'graal'", '--csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\r\n')[1]).toMatch(/^"\{""/);
  }, 60_000);
});

describe('jsonColumns', () => {
  const VARCHAR = { typeId: 17 };
  const tree = (selectList: unknown[]) => ({ node: { type: 'SELECT_NODE', select_list: selectList } });
  const ref = (...names: string[]) => ({ type: 'COLUMN_REF', column_names: names });
  const star = (...replaced: string[]) => ({ type: 'STAR', replace_list: replaced.map((key) => ({ key })) });

  it('knows the index columns that hold JSON from the schema', () => {
    for (const [column, table] of Object.entries(INDEX_JSON_COLUMNS))
      expect(TABLES.find((t) => t.name === table)?.columns.find((c) => c.name === column)?.doc).toMatch(/as JSON/);
  });

  it('places a star between the other entries of the select list, and leaves what it replaces alone', () => {
    const names = ['summary', 'id', 'summary', 'fields', 'x'];
    const types = names.map(() => VARCHAR);
    expect(jsonColumns(tree([ref('summary'), star('fields'), ref('x')]), names, types)).toEqual(['index', null, 'index', null, null]);
    expect(jsonColumns(tree([{ type: 'FUNCTION' }, star()]), names, types)).toEqual([null, null, 'index', 'index', null]);
    // A star inside an expression (COLUMNS(*) in a function): the entries do not line up, so no guess.
    expect(jsonColumns(tree([ref('summary'), ref('id')]), names, types)).toEqual([null, null, null, null, null]);
    // EXPLAIN (no tree), and a column that is not text, are never an index JSON column.
    expect(jsonColumns(null, ['summary'], [VARCHAR])).toEqual([null]);
    expect(jsonColumns(tree([ref('summary')]), ['summary'], [{ typeId: 5 }])).toEqual([null]);
  });

  it('writes index JSON text that is not an object as text, and text that does not parse as it is', () => {
    const out = jsonLinesOutput(['a', 'b', 'c'], ['index', 'index', 'json']);
    expect(JSON.parse(out.rows([['42', '{"k":1}', '{broken']]))).toEqual({ a: '42', b: { k: 1 }, c: '{broken' });
  });
});

describe('levelkit query: the table never hides what identifies a row', () => {
  it('a long path is cut in its middle and keeps its file name', async () => {
    const r = await runBin(['query', index, 'SELECT path, format FROM files ORDER BY path']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.split('\n').slice(2, 4);
    expect(rows[0]).toMatch(/^\/\S.*…\/claw-compressed\.wwd +wwd$/);
    expect(rows[1]).toMatch(/…\/gr-v103\.graal +graal$/);
  }, 60_000);

  it('cuts to 60 characters, keeps the start and the end, and never splits a character in two', () => {
    const path = `/srv/${'deep/'.repeat(20)}the level.map`;
    expect(clip(path)).toHaveLength(60);
    expect(clip(path)).toMatch(/^\/srv\/deep\/.*…\/the level\.map$/);
    const text = `${'a'.repeat(40)}${'b'.repeat(40)}`;
    expect(clip(text)).toBe(`${'a'.repeat(29)}…${'b'.repeat(30)}`);
    expect(clip('short')).toBe('short');
    for (let shift = 0; shift < 7; shift++) {
      const emoji = `${'x'.repeat(shift)}${'😀'.repeat(50)}`;
      expect(clip(emoji)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      // Nor inside an escape printable() made for a character a terminal would act on.
      const escaped = `${'x'.repeat(shift)}${'\\u009b\\x1b'.repeat(12)}`;
      expect(clip(escaped)).toMatch(/^x*(\\u009b|\\x1b)*…(\\u009b|\\x1b)*$/);
    }
  });
});

describe('levelkit query: a folder that is not an index', () => {
  it.each([
    ['an empty folder', () => mkdtempSync(join(tmp, 'empty-'))],
    ['a folder of levels', () => DEEP],
    [
      'a folder with empty table folders but no commits',
      () => {
        const dir = mkdtempSync(join(tmp, 'tables-'));
        for (const t of TABLES) mkdirSync(join(dir, t.name));
        return dir;
      },
    ],
    ['a missing folder', () => join(tmp, 'missing')],
    ['a file', () => join(DEEP, 'gr-v103.graal')],
  ])(
    '%s is one line and exit 1, not 0 rows',
    async (_, dir) => {
      const r = await runBin(['query', dir(), 'SELECT * FROM files']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^levelkit query: .*: is not an archive index \(.*\)\n$/);
    },
    60_000,
  );

  it('an index of no files answers 0 rows; an index written before commits answers too', async () => {
    const none = join(tmp, 'none');
    mkdirSync(join(tmp, 'nothing'));
    expect((await runBin(['scan', join(tmp, 'nothing'), '--index', none, ...SCAN])).code).toBe(0);
    const empty = await runBin(['query', none, 'SELECT count(*) AS n FROM files', '--json']);
    expect(empty.stderr).toBe('');
    expect(jsonLines(empty.stdout)).toEqual([{ n: 0 }]);
    const legacy = join(tmp, 'legacy');
    cpSync(index, legacy, { recursive: true });
    rmSync(join(legacy, '_commits'), { recursive: true });
    const old = await runBin(['query', legacy, 'SELECT count(*) AS n FROM files', '--json']);
    expect(old.stderr).toBe('');
    expect(jsonLines(old.stdout)).toEqual([{ n: 2 }]);
  }, 60_000);
});
