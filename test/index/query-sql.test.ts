// `levelkit query` takes its SQL from the argument, standard input (`-`) or a file (`--file`), as
// sqlite3 and duckdb allow: the same answer whichever way it comes, and one clear line for SQL
// given twice, none, empty, too long, not UTF-8, or a --file that is not a readable regular file.
// A mistake in the query is said at once, without reading every part to look for a damaged one.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokenPart, namingBrokenParts } from '../../src/archive-index/parts.js';
import { parseCommandArgs, UsageError } from '../../src/cli/options.js';
import { MAX_SQL_BYTES, sqlOf } from '../../src/cli/query-sql.js';
import { binChild, completion, runBin } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

const SQL = 'SELECT format, count(*) AS n FROM files GROUP BY format ORDER BY format';

let tmp: string;
let index: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'levelkit-query-sql-'));
  index = join(tmp, 'index');
  const r = await runBin(['scan', join(FIXTURES, 'graal'), '--index', index, '--workers', '1', '--quiet']);
  expect(r.code === 0 || r.code === 2, r.stderr).toBe(true);
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function withStdin(args: string[], input: string | Buffer) {
  const child = binChild(args);
  child.stdin.end(input);
  return completion(child, `levelkit ${args.join(' ')}`, 60_000);
}

describe('levelkit query: where the SQL comes from', () => {
  it('standard input (-) and --file give what the argument gives', async () => {
    const direct = await runBin(['query', index, SQL, '--json']);
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.stdout).toContain('"format":"graal"');
    const piped = await withStdin(['query', index, '-', '--json'], `${SQL};\n`);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(direct.stdout);
    const file = join(tmp, 'q.sql');
    writeFileSync(file, `-- graal levels by format\n${SQL}\n`);
    const read = await runBin(['query', index, '--file', file, '--json']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toBe(direct.stdout);
  }, 60_000);

  it.each([
    ['SQL given twice', (dir: string) => ['query', index, SQL, '--file', join(dir, 'q.sql')], /^levelkit query: the SQL is given twice/],
    ['a --file that is missing', (dir: string) => ['query', index, '--file', join(dir, 'nope.sql')], /^levelkit query: --file .*nope\.sql: /],
    ['a --file that is a folder', (dir: string) => ['query', index, '--file', dir], /--file .*: .*not a regular file|--file .*folder/i],
    ['an empty --file', (dir: string) => ['query', index, '--file', join(dir, 'empty.sql')], /is empty/],
  ])(
    '%s: a usage error (its line, then the usage), exit 1, nothing on stdout',
    async (_, args, message) => {
      writeFileSync(join(tmp, 'empty.sql'), '  \n');
      writeFileSync(join(tmp, 'q.sql'), SQL);
      const r = await runBin(args(tmp));
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      const [line, usage, ...rest] = r.stderr.trim().split('\n');
      expect(line).toMatch(message);
      expect(usage).toMatch(/^usage: levelkit query /);
      expect(rest).toEqual([]);
    },
    60_000,
  );

  it('SQL that opens with a `-- comment` line (as the README recipes do) is the SQL, not an unknown option', async () => {
    const direct = await runBin(['query', index, SQL, '--json']);
    const commented = await runBin(['query', index, `-- graal levels by format\n${SQL}`, '--json']);
    expect(commented.code, commented.stderr).toBe(0);
    expect(commented.stdout).toBe(direct.stdout);
  }, 60_000);

  it('an argument that starts with a dash but is not shaped like an option is a positional; options still parse', () => {
    const sql = '-- which levels\nSELECT 1';
    const parsed = parseCommandArgs(['idx', sql, '--json', '--file=- draft.sql'], ['json', 'file']);
    expect(parsed.positionals).toEqual(['idx', sql]);
    expect(parsed.options.json).toBe(true);
    expect(parsed.raw.file).toBe('- draft.sql');
    expect(parseCommandArgs(['idx', '-', '--', '--json'], ['json']).positionals).toEqual(['idx', '-', '--json']);
    expect(() => parseCommandArgs(['idx', '--jsn'], ['json'])).toThrow(/unknown option --jsn \(did you mean --json\?\)/);
  });

  it('SQL on standard input that is not UTF-8 is refused as a usage error', async () => {
    const r = await withStdin(['query', index, '-'], Buffer.from([0x53, 0x45, 0x4c, 0xff, 0x20, 0x31]));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^levelkit query: the SQL in standard input is not UTF-8 text\nusage: /);
  }, 60_000);
});

describe('sqlOf', () => {
  async function* chunks(...parts: Buffer[]) {
    yield* parts;
  }

  it('reads standard input to its end, across chunks', async () => {
    expect(await sqlOf('-', undefined, chunks(Buffer.from('SELECT '), Buffer.from('1')))).toBe('SELECT 1');
  });

  it('stops reading standard input past the limit', async () => {
    let read = 0;
    async function* endless() {
      for (;;) {
        read++;
        yield Buffer.alloc(64 * 1024, 0x20);
      }
    }
    await expect(sqlOf('-', undefined, endless())).rejects.toThrow(UsageError);
    expect(read * 64 * 1024).toBeLessThanOrEqual(MAX_SQL_BYTES + 64 * 1024);
  });

  it('refuses a --file larger than the limit before reading it', async () => {
    const big = join(tmp, 'big.sql');
    writeFileSync(big, Buffer.alloc(MAX_SQL_BYTES + 1, 0x20));
    await expect(sqlOf(undefined, big)).rejects.toThrow(/over the 1048576-byte limit/);
  });

  it('no SQL at all is a usage error that says how to give it', async () => {
    await expect(sqlOf(undefined, undefined)).rejects.toThrow(/standard input|--file/);
  });
});

describe('a query mistake does not probe the parts', () => {
  it("DuckDB's binder, conversion or range errors are thrown as they are, never read as a damaged part", async () => {
    // A part that does not exist: probing it would fail as BrokenPart.
    const parts = [join(tmp, 'no-such-part.parquet')];
    for (const message of ['Binder Error: Referenced column "x" not found', 'Conversion Error: Could not convert string', 'Out of Range Error: overflow']) {
      await expect(namingBrokenParts(parts, () => Promise.reject(new Error(message)))).rejects.toThrow(message);
    }
  });

  it('a read error is still traced to the part that cannot be read', async () => {
    const folder = join(tmp, 'broken');
    mkdirSync(folder, { recursive: true });
    const part = join(folder, 'part.parquet');
    writeFileSync(part, Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(64, 0xff), Buffer.from('PAR1')]));
    await expect(namingBrokenParts([part], () => Promise.reject(new Error("Invalid Error: don't know what type: ")))).rejects.toThrow(BrokenPart);
  });
});
