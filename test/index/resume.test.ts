// `scan --index --resume` compares what made each file's rows, not only the file: rows made with
// other options (a mistaken --max-bytes, no --check) are decoded again, rows of a machine's
// failure (a crashed worker) are tried again, and one file is one file however its folder is
// typed. An index older than the options column resumes too. Fixtures only.

import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { indexedFiles, resumeKey, rowOptions } from '../../src/archive-index/resume.js';
import { IndexWriter } from '../../src/archive-index/writer.js';
import { errorFields, lostRecord, type ScanRecord } from '../../src/scan/job.js';
import { type BinOptions, runBin } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';

const MAPS = readdirSync(join(ROOT, 'fixtures/teeworlds')).filter((n) => n.endsWith('.map'));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'levelkit-resume-')));
let work: string;
let archive: string;
let dir: string;

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

beforeEach(() => {
  work = mkdtempSync(join(tmp, 'case-'));
  archive = join(work, 'maps');
  mkdirSync(archive);
  for (const n of MAPS) cpSync(join(ROOT, 'fixtures/teeworlds', n), join(archive, n));
  dir = join(work, 'idx');
});

/** `levelkit scan …args --index <dir>` with one worker and a generous time limit; exit 0 or 2 (a failure row is still a scan). */
async function scanInto(args: string[], opts: BinOptions = {}): Promise<string> {
  const r = await runBin(['scan', ...args, '--index', dir, '--workers', '1', '--timeout', '60'], opts);
  expect([0, 2], r.stderr).toContain(r.code);
  return r.stderr;
}

async function query(index: string, sql: string): Promise<Record<string, unknown>[]> {
  const r = await runBin(['query', index, sql, '--json']);
  expect(r.stderr, sql).toBe('');
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Each run of the index with the paths it wrote, oldest first. */
function runs(): Promise<Record<string, unknown>[]> {
  return query(dir, 'SELECT run, count(*) AS n, list(path ORDER BY path) AS paths FROM files_all GROUP BY run ORDER BY min(scanned_at), run');
}

describe('rowOptions: what --resume compares', () => {
  const base = rowOptions({ depth: 'full', decode: { backend: 'wasm', inflate: 'wasm', strict: false } }, ['a', 'b']);

  it('changes with every option that shapes rows', () => {
    for (const other of [
      { depth: 'cheap' as const },
      { depth: 'full' as const, maxBytes: 2048 },
      { depth: 'full' as const, maxZipRatio: 5 },
      { depth: 'full' as const, decode: { limits: { maxGridCells: 100 } } },
      { depth: 'full' as const, decode: { limits: { maxZipRatio: 5 } } },
      { depth: 'full' as const, decode: { strict: true } },
      { depth: 'full' as const, decode: { encoding: 'windows-1250' } },
      { depth: 'full' as const, check: {} },
    ])
      expect(rowOptions(other, ['a', 'b']), JSON.stringify(other)).not.toBe(base);
    // A rule added to the set --check runs is a findings table to fill.
    expect(rowOptions({ depth: 'full', check: {} }, ['a'])).not.toBe(rowOptions({ depth: 'full', check: {} }, ['a', 'b']));
  });

  it('is the same for the kernels, for defaults spelt out, and for aliases of one code page', () => {
    expect(rowOptions({ depth: 'full', decode: { backend: 'js', inflate: 'pako' } }, [])).toBe(base);
    expect(rowOptions({ depth: 'full', maxBytes: 256 * 2 ** 20, maxZipRatio: 100, decode: { limits: { maxRecords: 1 << 24 } } }, [])).toBe(base);
    expect(rowOptions({ depth: 'full', decode: { encoding: 'cp1250' } }, [])).toBe(rowOptions({ depth: 'full', decode: { encoding: 'windows-1250' } }, []));
    expect(rowOptions({ depth: 'full', check: { rules: ['b', 'a'] } }, [])).toBe(rowOptions({ depth: 'full', check: {} }, ['a', 'b']));
  });
});

describe('indexedFiles: what a resume may skip', () => {
  it('leaves out the files the machine failed (time, a lost worker, reading, memory), keeps what the file itself gave', async () => {
    const asked = rowOptions({ depth: 'full', decode: {} }, []);
    const writer = await IndexWriter.open(dir, { hash: (b) => createHash('sha256').update(b).digest('hex'), rowOptions: asked });
    const base = (name: string) => ({ path: join(archive, name), member: null });
    const failedWith = (name: string, code: string, message: string): ScanRecord => ({
      ...base(name),
      bytes: 10,
      format: null,
      error: errorFields(code, message),
    });
    const records: ScanRecord[] = [
      { ...base('decoded.map'), bytes: 10, format: 'teeworlds' },
      failedWith('truncated.map', 'TRUNCATED', 'cut short'),
      failedWith('too-big.map', 'LIMIT_EXCEEDED', '10 bytes, over the 2-byte limit (--max-bytes)'),
      failedWith('unreadable.map', 'IO', 'cannot read: EIO'),
      failedWith('huge.map', 'LIMIT_EXCEEDED', '10 bytes: more than this process can hold in memory (lower --max-bytes)'),
      lostRecord(base('slow.map'), 10, { timeout: 5000 }),
      lostRecord(base('crashed.map'), 10, { crashed: 'exit 1' }),
      lostRecord(base('greedy.map'), 10, { crashed: 'out of memory', outOfMemory: true }, 256),
    ];
    for (const r of records) writer.addRecord(r, 1_000);
    await writer.close();
    const kept = await indexedFiles(dir, asked);
    const key = (name: string) => resumeKey({ path: join(archive, name), member: null, bytes: 10, mtimeMs: 1_000 });
    expect(kept.size).toBe(3);
    for (const name of ['decoded.map', 'too-big.map', 'truncated.map']) expect(kept.get(key(name))).toBe(true);
    for (const name of ['unreadable.map', 'huge.map', 'slow.map', 'crashed.map', 'greedy.map']) expect(kept.get(key(name))).toBeUndefined();
    expect(kept.get(resumeKey({ path: join(archive, 'decoded.map'), member: null, bytes: 11, mtimeMs: 1_000 }))).toBeUndefined();
    expect((await indexedFiles(dir, rowOptions({ depth: 'full', maxBytes: 2 }, []))).counts()).toEqual({ same: 0, other: 3 });
  });
});

describe('levelkit scan --index --resume with other options', () => {
  it('decodes again the files a mistaken --max-bytes refused, then nothing', async () => {
    await scanInto([archive, '--max-bytes', '2k']);
    const refused = await query(dir, "SELECT path FROM files WHERE error_code = 'LIMIT_EXCEEDED' ORDER BY path");
    expect(refused.length).toBeGreaterThan(2);
    const again = await scanInto([archive, '--resume']);
    expect(again).toMatch(new RegExp(`; ${MAPS.length} unchanged files decoded again: indexed with other options \\(--resume\\)`));
    // None of the latest rows is refused; the refused rows stay in files_all.
    const counts = await query(
      dir,
      "SELECT (SELECT count(*) FROM files) AS n, (SELECT count(*) FROM files WHERE error_code = 'LIMIT_EXCEEDED') AS latest, (SELECT count(*) FROM files_all WHERE error_code = 'LIMIT_EXCEEDED') AS kept",
    );
    expect(counts).toEqual([{ n: MAPS.length, latest: 0, kept: refused.length }]);
    const same = await scanInto([archive, '--resume']);
    expect(same).toMatch(new RegExp(`; ${MAPS.length} unchanged files skipped \\(--resume\\)\\n`));
    expect(await runs()).toHaveLength(2);
    // Back to the mistaken cap: its rows are not the latest any more, so the files are decoded again.
    await scanInto([archive, '--resume', '--max-bytes', '2k']);
    expect(await runs()).toHaveLength(3);
    expect(await query(dir, "SELECT path FROM files WHERE error_code = 'LIMIT_EXCEEDED' ORDER BY path")).toEqual(refused);
  }, 180_000);

  it('--resume --check after a plain index fills findings as a fresh --check index does', async () => {
    await scanInto([archive]);
    expect((await query(dir, 'SELECT count(*) AS n FROM findings'))[0]!.n).toBe(0);
    await scanInto([archive, '--resume', '--check']);
    const fresh = dir;
    const findings = 'SELECT f.path, x.rule, x.severity, x.message, x.layer, x.x, x.y, x.object FROM findings x JOIN files f USING (id) ORDER BY ALL';
    const resumed = await query(fresh, findings);
    expect(resumed.length).toBeGreaterThan(10);
    dir = join(work, 'fresh');
    await scanInto([archive, '--check']);
    expect(resumed).toEqual(await query(dir, findings));
  }, 120_000);

  it('tries again a file whose worker was lost, and only it', async () => {
    await scanInto([archive], { env: { LEVELKIT_TEST_INJECT: 'crash=ddrace-v2' } });
    expect(await query(dir, 'SELECT error_code FROM files WHERE error_code IS NOT NULL')).toEqual([{ error_code: 'WORKER_CRASHED' }]);
    await scanInto([archive, '--resume']);
    const [, second] = await runs();
    expect(second!.paths).toEqual([join(archive, 'ddrace-v2.map')]);
    expect(await query(dir, 'SELECT error_code FROM files WHERE error_code IS NOT NULL')).toEqual([]);
  }, 120_000);
});

describe('one file is one file however its folder is typed', () => {
  it('./maps, maps, an absolute path, another current folder and a link index each file once; the later runs decode nothing', async () => {
    const link = join(tmp, `link-${readdirSync(tmp).length}`);
    symlinkSync(archive, link);
    const spellings: [string, string][] = [
      ['./maps', work],
      ['maps', work],
      [`${archive}/`, tmp],
      [join('..', 'maps'), join(work, 'idx')],
      [link, ROOT],
    ];
    for (const [i, [given, cwd]] of spellings.entries()) {
      mkdirSync(join(work, 'idx'), { recursive: true });
      const stderr = await scanInto([given, ...(i ? ['--resume'] : [])], { cwd });
      if (i) expect(stderr, given).toMatch(new RegExp(`; ${MAPS.length} unchanged files skipped \\(--resume\\)\\n`));
    }
    const [only, ...more] = await runs();
    expect(more).toEqual([]);
    expect(only!.paths).toEqual(MAPS.map((n) => join(archive, n)).sort());
    expect((await query(dir, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(MAPS.length);
  }, 120_000);
});

describe('an index older than files.options (schema 2)', () => {
  it('resumes: its files are decoded once more (options unknown), then skipped', async () => {
    await scanInto([archive]);
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    // The part as the writer made it before the column: the same rows without `options`.
    for (const name of readdirSync(join(dir, 'files'))) {
      const part = join(dir, 'files', name);
      const old = join(work, 'old.parquet');
      await db.run(`COPY (SELECT * EXCLUDE (options) FROM read_parquet('${part}')) TO '${old}' (FORMAT parquet)`);
      renameSync(old, part);
    }
    db.closeSync();
    // Schema 2 came before commits (commits.ts): such an index has no `_commits`, and every part is read.
    rmSync(join(dir, '_commits'), { recursive: true });
    // Queried, the column reads as null in the old parts.
    expect(await query(dir, 'SELECT count(*) AS n, count(options) AS known FROM files')).toEqual([{ n: MAPS.length, known: 0 }]);
    // Every file is there, its options unknown: not the ones asked.
    const indexed = await indexedFiles(dir, rowOptions({ depth: 'full', decode: {} }, []));
    expect(indexed.counts()).toEqual({ same: 0, other: MAPS.length });
    const first = await scanInto([archive, '--resume']);
    expect(first).toMatch(new RegExp(`; ${MAPS.length} unchanged files decoded again: indexed with other options \\(--resume\\)`));
    expect((await query(dir, 'SELECT count(*) AS n FROM files WHERE options IS NOT NULL'))[0]!.n).toBe(MAPS.length);
    // What the CLI stored is what rowOptions gives for its options.
    expect((await indexedFiles(dir, rowOptions({ depth: 'full', decode: {} }, []))).counts()).toEqual({ same: MAPS.length, other: 0 });
    const second = await scanInto([archive, '--resume']);
    expect(second).toMatch(new RegExp(`; ${MAPS.length} unchanged files skipped \\(--resume\\)\\n`));
    expect(await runs()).toHaveLength(2);
  }, 120_000);
});
