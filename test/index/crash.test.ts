// An index scan killed at any instant and resumed equals a clean index of the same files (issue
// 38 §3): each commit is its open parts (row groups appended under a temporary name, then a
// footer, fsync and rename) and one commit file renamed into `_commits`; readers and --resume see
// committed parts only, and a file's rows travel in its files row's commit. The scans run the
// built command with small commits (LEVELKIT_TEST_FLUSH_BYTES), so a fixture scan commits several
// times, and are SIGKILLed before the writer's k-th file operation (LEVELKIT_TEST_INDEX_KILL):
// between two parts' renames, between the parts and the commit, just after a commit, and (small
// row groups, LEVELKIT_TEST_ROW_GROUP_BYTES) while the parts are open with many groups in them.
// A deterministic variant below drives the writer itself through a crashing fs.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokenPart, partsOf } from '../../src/archive-index/parts.js';
import { indexedFiles, resumeKey } from '../../src/archive-index/resume.js';
import { type IndexFs, IndexWriter } from '../../src/archive-index/writer.js';
import type { ScanRecord } from '../../src/scan/job.js';
import { binChild, completion, runBin } from '../helpers/cli.js';
import { indexContent } from '../helpers/index-rows.js';
import { ROOT } from '../helpers/paths.js';

const tmp = fs.mkdtempSync(join(tmpdir(), 'levelkit-crash-'));
const archive = join(tmp, 'archive');
const SCAN = ['--workers', '1', '--timeout', '60', '--quiet'];
const SMALL = { LEVELKIT_TEST_FLUSH_BYTES: '4096' };
let clean: Record<string, string[]>;

beforeAll(async () => {
  for (const f of ['teeworlds', 'wwd', 'graal']) fs.cpSync(join(ROOT, 'fixtures', f), join(archive, f), { recursive: true });
  const r = await runBin(['scan', archive, '--index', join(tmp, 'clean'), ...SCAN]);
  expect([0, 2], r.stderr).toContain(r.code);
  clean = await indexContent(join(tmp, 'clean'));
  expect(clean.files!.length).toBeGreaterThan(30);
  expect(clean.tiles!.length).toBeGreaterThan(100);
}, 120_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Every part file on disk in `dir`'s table folders (committed or not). */
function partFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((t) => !t.startsWith('_'))
    .flatMap((t) => fs.readdirSync(join(dir, t)).map((n) => join(dir, t, n)));
}

describe('scan --index killed at any instant, then --resume', () => {
  // Operations counted: the folders' creation (21: before any part), then each part's open (with
  // its first row group) and rename, and each commit's open and rename (18 for a commit of eight
  // tables). Kill points: before any part,
  // before the first part, between two parts' renames, before the commit is written, before it is
  // renamed, just after it, and a few commits on.
  for (const kill of [12, 22, 30, 38, 39, 40, 60]) {
    it(`killed before file operation ${kill}: the resumed index equals a clean one`, async () => {
      const dir = join(tmp, `killed-${kill}`);
      const killed = await completion(
        binChild(['scan', archive, '--index', dir, ...SCAN], { env: { ...SMALL, LEVELKIT_TEST_INDEX_KILL: String(kill) } }),
        'killed scan',
        60_000,
      );
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      // What the crash left is readable: parts no commit lists are ignored, not errors.
      await expect(indexContent(dir)).resolves.toBeDefined();
      const resumed = await runBin(['scan', archive, '--index', dir, '--resume', ...SCAN], { env: SMALL });
      expect([0, 2], resumed.stderr).toContain(resumed.code);
      expect(await indexContent(dir)).toEqual(clean);
    }, 60_000);
  }

  it('killed while its parts are open, many row groups in them and no commit yet: nothing counts, and --resume redoes every file', async () => {
    const dir = join(tmp, 'killed-open');
    // One commit at the end (the default size), row groups of 512 bytes: each table's part grows a
    // group at a time until then. Killed before the 29th operation: after 21 for the folders and
    // seven parts' opens, so every part is open, none has its footer, and no commit exists.
    const env = { LEVELKIT_TEST_ROW_GROUP_BYTES: '512', LEVELKIT_TEST_INDEX_KILL: '29' };
    const killed = await completion(binChild(['scan', archive, '--index', dir, ...SCAN], { env }), 'killed scan', 60_000);
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(fs.readdirSync(join(dir, '_commits'))).toEqual([]);
    const open = partFiles(dir).filter((f) => f.endsWith('.parquet.tmp'));
    expect(open.length).toBeGreaterThanOrEqual(7);
    // Mid-part: row groups were appended (each part starts with the magic, then its groups).
    expect(Math.max(...open.map((f) => fs.statSync(f).size))).toBeGreaterThan(4 * 512);
    expect(Object.values(await indexContent(dir)).flat()).toEqual([]);
    const resumed = await runBin(['scan', archive, '--index', dir, '--resume', ...SCAN]);
    expect([0, 2], resumed.stderr).toContain(resumed.code);
    expect(await indexContent(dir)).toEqual(clean);
  }, 60_000);

  it('killed at a random instant from outside: the resumed index equals a clean one', async () => {
    const dir = join(tmp, 'killed-outside');
    const child = binChild(['scan', archive, '--index', dir, ...SCAN], { env: SMALL });
    const done = completion(child, 'scan', 60_000);
    // Killed once a few commits have written their files part (a commit every few files), wherever the writer is then.
    const files = join(dir, 'files');
    for (let i = 0; i < 6000 && child.exitCode === null; i++) {
      if ((fs.existsSync(files) ? fs.readdirSync(files).filter((n) => n.endsWith('.parquet')).length : 0) >= 3) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(child.exitCode, 'the scan ended before it was killed').toBeNull();
    child.kill('SIGKILL');
    await done;
    const resumed = await runBin(['scan', archive, '--index', dir, '--resume', ...SCAN], { env: SMALL });
    expect([0, 2], resumed.stderr).toContain(resumed.code);
    expect(await indexContent(dir)).toEqual(clean);
  }, 60_000);
});

const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A files record as scan() yields it. */
function record(i: number): ScanRecord {
  return { path: `/archive/level-${i}.wwd`, member: null, bytes: 100 + i, format: 'wwd', version: '1', warnings: [] } as unknown as ScanRecord;
}

/** node:fs/promises that stops for good (every call rejects, as a crashed process does nothing more) once `crashes(op, path)` says so. */
function crashingFs(crashes: (op: string, path: string) => boolean): IndexFs {
  let crashed = false;
  const p = fs.promises;
  const guard =
    <A extends unknown[], R>(op: string, f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      if (crashed || crashes(op, String(a[0]))) {
        crashed = true;
        throw Object.assign(new Error(`crashed before ${op}`), { code: 'EIO', syscall: op });
      }
      return f(...a);
    };
  return {
    open: guard('open', p.open),
    rename: guard('rename', p.rename),
    unlink: guard('unlink', p.unlink),
    mkdir: guard('mkdir', p.mkdir) as IndexFs['mkdir'],
    rm: guard('rm', p.rm),
  };
}

describe("a crash between a flush's parts and its commit (injected)", () => {
  it('leaves parts no reader sees: partsOf, --resume and query read the committed flushes only', async () => {
    const dir = join(tmp, 'injected');
    let commits = 0;
    // The second commit's rename never happens: its parts are all renamed into place, whole.
    const io = crashingFs((op, path) => op === 'rename' && path.endsWith('.json.tmp') && ++commits === 2);
    const writer = await IndexWriter.open(dir, { hash, commitBytes: 1, fs: io });
    writer.addRecord(record(1), 1_000);
    writer.addRecord(record(2), 2_000);
    await expect(writer.close()).rejects.toThrow(/crashed before rename/);
    const onDisk = partFiles(dir).filter((f) => f.endsWith('.parquet'));
    expect(onDisk.filter((f) => f.includes('/files/'))).toHaveLength(2);
    expect(partsOf(dir, 'files')).toHaveLength(1);
    const indexed = await indexedFiles(dir, '');
    expect(indexed.size).toBe(1);
    expect(indexed.get(resumeKey({ path: '/archive/level-1.wwd', member: null, bytes: 101, mtimeMs: 1_000 }))).toBeDefined();
    const q = await runBin(['query', dir, 'SELECT path FROM files_all', '--json']);
    expect(
      q.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).path),
    ).toEqual(['/archive/level-1.wwd']);
  });

  it('a part a commit lists that is missing or cut short is an error naming it, not dropped', async () => {
    const dir = join(tmp, 'listed');
    const writer = await IndexWriter.open(dir, { hash });
    writer.addRecord(record(1), 1_000);
    await writer.close();
    const [part] = partsOf(dir, 'files');
    fs.truncateSync(part!, fs.statSync(part!).size - 1);
    expect(() => partsOf(dir, 'files')).toThrow(BrokenPart);
    expect(() => partsOf(dir, 'files')).toThrow(new RegExp(`${part}: \\d+ bytes, but .*_commits/.*\\.json lists \\d+`));
    fs.rmSync(part!);
    expect(() => partsOf(dir, 'files')).toThrow(`${part}: is missing, but `);
  });

  it('an index written before commits (no _commits) reads as before, and a new run keeps its parts', async () => {
    const dir = join(tmp, 'legacy');
    const writer = await IndexWriter.open(dir, { hash });
    writer.addRecord(record(1), 1_000);
    await writer.close();
    fs.rmSync(join(dir, '_commits'), { recursive: true });
    expect(partsOf(dir, 'files')).toHaveLength(1);
    const next = await IndexWriter.open(dir, { hash });
    next.addRecord(record(2), 2_000);
    await next.close();
    expect(fs.readdirSync(join(dir, '_commits')).filter((n) => n.startsWith('legacy-'))).toHaveLength(1);
    expect(partsOf(dir, 'files')).toHaveLength(2);
    expect((await indexedFiles(dir, '')).size).toBe(2);
  });
});
