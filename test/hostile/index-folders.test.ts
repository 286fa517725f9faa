// An index folder someone else can write into (issue 38 §3): a FIFO, socket or device named like a
// part or a commit is refused without being opened (opening a FIFO waits for a writer for ever),
// a table folder or `_commits` that is a symbolic link is neither read nor written through, a part
// whose middle is damaged is named in one line, and `--index ""` is a usage error. Every refusal:
// one line, no stack, no hang (each command runs under a timeout).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { itWith } from '../helpers/needs.js';
import { ROOT } from '../helpers/paths.js';

const tmp = fs.mkdtempSync(join(tmpdir(), 'levelkit-index-hostile-'));
const archive = join(tmp, 'archive');
const good = join(tmp, 'good');
const SCAN = ['--workers', '1', '--timeout', '60', '--quiet'];

beforeAll(async () => {
  fs.cpSync(join(ROOT, 'fixtures', 'wwd'), archive, { recursive: true });
  const r = await runBin(['scan', archive, '--index', good, ...SCAN]);
  expect([0, 2], r.stderr).toContain(r.code);
}, 60_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A copy of the good index to spoil. */
function copy(): string {
  const dir = join(tmp, `copy-${n++}`);
  fs.cpSync(good, dir, { recursive: true });
  return dir;
}

/** The first committed part of `table`. */
function firstPart(dir: string, table: string): string {
  return join(dir, table, fs.readdirSync(join(dir, table)).find((p) => p.endsWith('.parquet'))!);
}

type Reader = 'query' | 'resume' | 'diff';

/**
 * `readers` over `dir` (query, scan --resume, index diff: --resume reads the `files` table only)
 * each refuse in one line naming `named`, with its exit code, no stack, in time.
 */
async function refused(dir: string, named: string | RegExp, readers: Reader[] = ['query', 'resume', 'diff']): Promise<void> {
  const commands: Record<Reader, [string[], number]> = {
    query: [['query', dir, 'SELECT * FROM files_all, (SELECT count(*) FROM objects_all), (SELECT count(*) FROM levels_all)'], 1],
    resume: [['scan', archive, '--index', dir, '--resume', ...SCAN], 2],
    diff: [['diff', good, dir], 2],
  };
  for (const what of readers) {
    const [args, code] = commands[what];
    const r = await runBin(args);
    expect(r.stderr.trim().split('\n'), `${what}: ${r.stderr}`).toHaveLength(1);
    if (typeof named === 'string') expect(r.stderr, what).toContain(named);
    else expect(r.stderr, what).toMatch(named);
    expect(r.stderr, what).not.toMatch(/internal error|\n\s+at /);
    expect(r.code, `${what}: ${r.stderr}`).toBe(code);
  }
}

/** A socket file at `path`, listening until the returned close() (Node removes the file when its server closes). */
async function socketAt(path: string): Promise<() => Promise<void>> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('special files named like index files', () => {
  it('a FIFO in place of a committed part is refused, never opened', async () => {
    const dir = copy();
    const part = firstPart(dir, 'files');
    fs.rmSync(part);
    expect(spawnSync('mkfifo', [part]).status).toBe(0);
    await refused(dir, `${part}: is a FIFO`);
    const objects = firstPart(dir, 'objects');
    fs.rmSync(objects);
    expect(spawnSync('mkfifo', [objects]).status).toBe(0);
    fs.rmSync(part);
    fs.writeFileSync(part, fs.readFileSync(firstPart(good, 'files')));
    await refused(dir, `${objects}: is a FIFO`, ['query', 'diff']);
  }, 60_000);

  // Where the FIFO goes, in a fresh copy of the index.
  const fifoPlaces: [string, (dir: string) => string][] = [
    [
      'a FIFO named like a part in an index written before commits',
      (dir) => {
        fs.rmSync(join(dir, '_commits'), { recursive: true });
        return join(dir, 'files', 'part-all-x-0000.parquet');
      },
    ],
    ['a FIFO named like a commit', (dir) => join(dir, '_commits', 'all-x-0001.json')],
  ];
  it.each(fifoPlaces)(
    '%s is refused, never opened',
    async (_, place) => {
      const dir = copy();
      const fifo = place(dir);
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      await refused(dir, `${fifo}: is a FIFO`);
    },
    60_000,
  );

  it('a socket in place of a committed part is refused', async () => {
    const dir = copy();
    const part = firstPart(dir, 'files');
    fs.rmSync(part);
    const close = await socketAt(part);
    try {
      await refused(dir, `${part}: is a socket`);
    } finally {
      await close();
    }
  }, 60_000);

  const root = process.getuid?.() === 0 ? { ok: true as const, value: true } : { ok: false as const, missing: 'mknod needs root' };
  itWith(
    root,
    'a device in place of a committed part is refused, never opened',
    async () => {
      const dir = copy();
      const part = firstPart(dir, 'levels');
      fs.rmSync(part);
      // /dev/zero's numbers: opened and read, it would never end.
      expect(spawnSync('mknod', [part, 'c', '1', '5']).status).toBe(0);
      await refused(dir, `${part}: is a device`, ['query', 'diff']);
    },
    60_000,
  );
});

describe('folders that are symbolic links', () => {
  it('a table folder that is a link is not read through', async () => {
    const dir = copy();
    const elsewhere = join(tmp, 'elsewhere-read');
    fs.renameSync(join(dir, 'files'), elsewhere);
    fs.symlinkSync(elsewhere, join(dir, 'files'));
    await refused(dir, new RegExp(`${join(dir, 'files')}:? is a symbolic link`));
  }, 60_000);

  it('a table folder that is a link is not written through: scan --index refuses it and writes nothing there', async () => {
    const dir = join(tmp, 'linked-write');
    const elsewhere = join(tmp, 'elsewhere-write');
    fs.mkdirSync(dir);
    fs.mkdirSync(elsewhere);
    fs.symlinkSync(elsewhere, join(dir, 'objects'));
    const r = await runBin(['scan', archive, '--index', dir, ...SCAN]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`^levelkit scan: .*${join(dir, 'objects')}:? is a symbolic link`));
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  }, 60_000);

  it('_commits as a link is neither read nor written through', async () => {
    const dir = copy();
    const elsewhere = join(tmp, 'elsewhere-commits');
    fs.renameSync(join(dir, '_commits'), elsewhere);
    fs.symlinkSync(elsewhere, join(dir, '_commits'));
    await refused(dir, `${join(dir, '_commits')}: is a symbolic link`);
    const before = fs.readdirSync(elsewhere);
    const r = await runBin(['scan', archive, '--index', dir, ...SCAN]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('_commits is a symbolic link');
    expect(fs.readdirSync(elsewhere)).toEqual(before);
  }, 60_000);
});

describe('a part whose middle is damaged (magic fine at both ends)', () => {
  it('its footer: named in one line by query, --resume and index diff', async () => {
    const dir = copy();
    const part = firstPart(dir, 'files');
    const bytes = fs.readFileSync(part);
    const footer = bytes.readUInt32LE(bytes.length - 8);
    // The footer's first half overwritten: Thrift whose field types make no sense.
    bytes.fill(0xff, bytes.length - 8 - footer, bytes.length - 8 - (footer >> 1));
    fs.writeFileSync(part, bytes);
    await refused(dir, `${part}: its footer is damaged`);
  }, 60_000);

  it('its pages (footer whole): named in one line by query, --resume and index diff', async () => {
    const dir = copy();
    const part = firstPart(dir, 'files');
    const bytes = fs.readFileSync(part);
    const footer = bytes.readUInt32LE(bytes.length - 8);
    // Every page header and page between the leading magic and the footer.
    bytes.fill(0xff, 4, bytes.length - 8 - footer);
    fs.writeFileSync(part, bytes);
    await refused(dir, `${part}: cannot be read: `);
  }, 60_000);
});

describe('--index ""', () => {
  it('is a usage error naming --index', async () => {
    const r = await runBin(['scan', archive, '--index', '']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('levelkit scan: --index needs a folder: --index "" names none');
  });
});
