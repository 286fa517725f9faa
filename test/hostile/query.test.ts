// `levelkit query` against an attacker's SQL and an attacker's files: no statement writes anywhere
// (not even through EXPLAIN ANALYZE or a table function), nothing outside the index's parts is
// read, a result of any size streams in bounded memory, and every output escapes what came from a
// file or from the query, as every other command does.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexQuery, QueryError } from '../../src/archive-index/query.js';
import { teeworlds, textFrom } from '../../src/index.js';
import { binChild, completion, jsonLines, runBin } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

/** CSI as one C1 character, NEL, a right-to-left override, a first-strong isolate, a line separator, ESC. */
const HOSTILE = '\u009b31m\u0085\u202e\u2068\u2028\x1b[2J';
/** Any character a terminal acts on: C0 (but the line feeds and tabs output is made of), DEL, C1, separators, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding these is the test
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

let tmp: string;
let index: string;
let mapPath: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'levelkit-query-hostile-'));
  // One map, its author and its file name holding what a terminal or a spreadsheet would act on.
  const maps = join(tmp, 'maps');
  mkdirSync(maps);
  const map = teeworlds.decode(readFileSync(join(FIXTURES, 'teeworlds', 'ddnet-all-items.map')));
  map.info!.author = textFrom(`=HYPERLINK("x")${HOSTILE}`, 'utf-8');
  mapPath = join(maps, `level${HOSTILE}.map`);
  writeFileSync(mapPath, teeworlds.encode(map));
  index = join(tmp, 'index');
  const r = await runBin(['scan', maps, '--index', index, '--workers', '1', '--timeout', '60', '--quiet']);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every file under `dir` (links as links) with a digest of its bytes: what "nothing changed" compares. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    out[name] = st?.isFile() ? createHash('sha256').update(readFileSync(p)).digest('hex') : st?.isDirectory() ? 'dir' : 'other';
  }
  return out;
}

function aPart(): string {
  const folder = join(index, 'files');
  return join(folder, readdirSync(folder).find((n) => n.endsWith('.parquet'))!);
}

/** Runs a query in the command that must be refused: exit 1, one line on stderr, nothing on stdout. */
async function refused(sql: string, cwd?: string): Promise<string> {
  const r = await runBin(['query', index, sql], { cwd });
  expect(r.code, `${sql}\n${r.stdout}${r.stderr}`).toBe(1);
  expect(r.stderr.trim().split('\n'), sql).toHaveLength(1);
  expect(r.stdout, sql).toBe('');
  return r.stderr;
}

/** What the library answers each query (in this process: one engine for many statements): its error, or `ran`. */
async function outcomes(sqls: string[]): Promise<string[]> {
  const q = await IndexQuery.open(index);
  try {
    const out: string[] = [];
    for (const sql of sqls) {
      try {
        await q.run(sql);
        out.push(`ran: ${sql}`);
      } catch (e) {
        if (!(e instanceof QueryError)) throw e;
        out.push(e.message);
      }
    }
    return out;
  } finally {
    q.close();
  }
}

describe('query writes nothing', () => {
  it('refuses every writing statement, however it is wrapped, and leaves every file as it was', async () => {
    const part = aPart();
    const outside = join(tmp, 'outside');
    mkdirSync(outside);
    const before = snapshot(tmp);
    const statements = [
      // EXPLAIN ANALYZE runs what it explains: overwriting a part this way destroyed the index.
      `EXPLAIN ANALYZE COPY (SELECT 1 AS x) TO '${part}' (FORMAT parquet)`,
      `EXPLAIN ANALYZE COPY (SELECT 1 AS x) TO '${join(outside, 'a.csv')}'`,
      `explain   analyze copy files TO '${join(index, 'b.csv')}'`,
      `/* a comment first */ EXPLAIN ANALYZE COPY (SELECT 1) TO '${join(index, 'c.csv')}'`,
      'EXPLAIN ANALYZE CREATE TABLE t AS SELECT 1',
      'EXPLAIN ANALYZE INSERT INTO files_all SELECT * FROM files_all',
      `EXPLAIN COPY (SELECT 1) TO '${join(index, 'd.csv')}'`,
      // Preparing EXPORT DATABASE alone creates its folder.
      `EXPORT DATABASE '${join(index, 'export')}'`,
      `EXPORT DATABASE '${join(outside, 'export')}'`,
      `COPY (SELECT 1) TO '${join(index, 'e.csv')}'`,
      `SELECT 1; COPY (SELECT 1) TO '${join(index, 'f.csv')}'`,
      `SELECT 1; EXPLAIN ANALYZE COPY (SELECT 1) TO '${join(index, 'g.csv')}'`,
      'CREATE TABLE t AS SELECT 1',
      `ATTACH '${join(outside, 'z.db')}' AS z`,
      'PRAGMA enable_profiling',
      'CALL enable_logging()',
      'SET enable_external_access = true',
      // Table functions that change the session or run other SQL, with the configuration locked.
      `SELECT * FROM enable_logging(storage := 'file', storage_path := '${join(index, 'logs')}')`,
      `SELECT * FROM range(1), LATERAL (SELECT * FROM system.main.ENABLE_PROFILING(save_location := '${join(index, 'p.json')}'))`,
      `SELECT * FROM query('COPY (SELECT 1) TO ''${join(index, 'h.csv')}''')`,
      'SELECT * FROM checkpoint()',
    ];
    const got = await outcomes(statements);
    expect(got.filter((m) => !/^the index is read-only|^\d+ statements given/.test(m))).toEqual([]);
    // The command: one line, exit 1.
    expect(await refused(statements[0]!)).toMatch(/^levelkit query: the index is read-only/);
    expect(snapshot(tmp)).toEqual(before);
    // The index still answers as before.
    const r = await runBin(['query', index, 'SELECT count(*) AS n FROM files', '--json']);
    expect(jsonLines(r.stdout)).toEqual([{ n: 1 }]);
  }, 60_000);

  it('still runs SELECT, EXPLAIN, EXPLAIN ANALYZE and DESCRIBE', async () => {
    const sqls = ['SELECT count(*) FROM levels', 'EXPLAIN SELECT * FROM files', 'EXPLAIN ANALYZE SELECT count(*) FROM tiles', 'DESCRIBE files'];
    expect(await outcomes(sqls)).toEqual(sqls.map((s) => `ran: ${s}`));
  });
});

describe('query reads only the index', () => {
  it('refuses a file outside the index however it is named: the current folder, .., a link in the index, a glob', async () => {
    const cwd = join(tmp, 'cwd');
    mkdirSync(join(cwd, '.tmp'), { recursive: true });
    // DuckDB may always read its temp_directory, `.tmp` in the current folder unless told otherwise.
    const secret = join(cwd, '.tmp', 'secret.csv');
    writeFileSync(secret, 'secret\nSECRET-VALUE\n');
    expect(await refused("SELECT * FROM read_csv('.tmp/secret.csv')", cwd)).not.toContain('SECRET-VALUE');
    const link = join(index, 'files', 'link.csv');
    symlinkSync(secret, link);
    try {
      const got = await outcomes([
        `SELECT * FROM read_csv('${secret}')`,
        `SELECT * FROM read_csv('${index}/files/../../cwd/.tmp/secret.csv')`,
        `SELECT * FROM read_csv('${link}')`,
        `SELECT * FROM read_text('${join(index, 'files', '*')}')`,
        `SELECT * FROM glob('${join(index, '*', '*')}')`,
        "SELECT * FROM read_text('/etc/passwd')",
      ]);
      expect(got.filter((m) => !m.startsWith('Permission Error: Cannot access file'))).toEqual([]);
    } finally {
      rmSync(link);
    }
  }, 60_000);
});

/** Starts `levelkit query <index> sql …flags` (under a small heap), reads its first line, closes the pipe; resolves with how it ended. */
async function firstLineThenClose(sql: string, flags: string[]) {
  const child = binChild(['query', index, sql, ...flags], { nodeFlags: ['--max-old-space-size=64'] });
  let first = '';
  child.stdout.setEncoding('utf8');
  const got = new Promise<void>((resolve) => {
    child.stdout.on('data', (d: string) => {
      first += d;
      if (first.includes('\n')) {
        child.stdout.destroy();
        resolve();
      }
    });
    child.on('close', () => resolve());
  });
  const done = completion(child, `query ${sql}`, 60_000);
  await got;
  const r = await done;
  return { ...r, first: first.split('\n')[0]! };
}

describe('query streams', () => {
  // Fifty million rows: held at once they need gigabytes; streamed, one chunk. The small heap makes holding them fail.
  const HUGE = 'SELECT range AS n FROM range(50000000)';

  it('--json | head -1 answers and stops at once, in bounded memory', async () => {
    const r = await firstLineThenClose(HUGE, ['--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.first)).toEqual({ n: 0 });
  }, 90_000);

  it('--csv | head -1 and the table | head -1 too', async () => {
    const csv = await firstLineThenClose(HUGE, ['--csv']);
    expect([csv.code, csv.stderr, csv.first]).toEqual([0, '', 'n\r']);
    const table = await firstLineThenClose(HUGE, []);
    expect([table.code, table.stderr, table.first.trim()]).toEqual([0, '', 'n']);
  }, 120_000);

  it('the table prints any number of rows (150,000 once overflowed the call stack)', async () => {
    const r = await runBin(['query', index, "SELECT range AS n, 'x' || range AS s FROM range(150000)"], { nodeFlags: ['--max-old-space-size=64'] });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^\s*n {2}s$/);
    expect(lines.at(-2)).toBe('(150000 rows)');
    expect(lines.at(-3)).toBe('149999  x149999');
    expect(lines).toHaveLength(150000 + 4);
  }, 90_000);
});

describe('query escapes what it prints', () => {
  // Cells and column names from a file (a map's path and author) and from the query itself, each
  // holding every kind of character a terminal acts on, cells that would start a spreadsheet
  // formula, and two columns of one name.
  const name = `col${HOSTILE}`;
  const cell = `cell${HOSTILE}`;
  const chars = "chr(155) || '31m' || chr(133) || chr(8238) || chr(8296) || chr(8232) || chr(27) || '[2J'";
  const sql = `SELECT f.path, l.author, 'cell' || ${chars} AS "${name}", '=1+1' AS "=f", '-y' AS m, -5 AS n, 1 AS a, 2 AS a FROM files f JOIN levels l USING (id)`;
  const escaped = '\\u009b31m\\u0085\\u202e\\u2068\\u2028\\x1b[2J';

  it('the table: cells and column names as printable text', async () => {
    const r = await runBin(['query', index, sql]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    const [head, , row] = r.stdout.split('\n');
    expect(head).toContain(`col${escaped}`);
    expect(row).toContain(`cell${escaped}`);
    // The path, cut in its middle to the table's widest cell: its start and the end of its file name.
    expect(row).toMatch(/^\/\S+…\S*\\x1b\[2J\.map {2}/);
  }, 60_000);

  it('--json: JSON escapes, which read back as the text itself; a repeated name keeps its column', async () => {
    const r = await runBin(['query', index, sql, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(jsonLines(r.stdout)).toEqual([{ path: mapPath, author: `=HYPERLINK("x")${HOSTILE}`, [name]: cell, '=f': '=1+1', m: '-y', n: -5, a: 1, 'a:1': 2 }]);
  }, 60_000);

  it('--csv: printable text, and a cell or name that would start a formula neutralised as report --csv does', async () => {
    const r = await runBin(['query', index, sql, '--csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.replaceAll('\r\n', '\n')).not.toMatch(RAW);
    expect(r.stdout.split('\r\n')).toEqual([
      `path,author,col${escaped},'=f,m,n,a,a`,
      `${mapPath.replace(HOSTILE, escaped)},"'=HYPERLINK(""x"")${escaped}",cell${escaped},'=1+1,'-y,-5,1,2`,
      '',
    ]);
  }, 60_000);
});
