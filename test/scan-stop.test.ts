// Issue 18.3, 18.4, 18.7 through the built command (dist/cli.mjs) in a temp folder: SIGTERM and
// SIGHUP stop a scan as Ctrl-C does; Node's own flags and --worker-memory reach the workers the
// way worker_threads allows; the scan never lists the files it is writing.
import * as nodeFs from 'node:fs';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ScanRecord, type ScanStats, scan } from '../src/scan/index.js';
import { binChild, jsonLines, runBin } from './helpers/cli.js';
import { FIXTURES, readBytes } from './helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-stop-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const LEVEL = readBytes(join(FIXTURES, 'teeworlds', 'tw07-skip.map'));

describe('SIGTERM and SIGHUP stop a scan like Ctrl-C', () => {
  const many = join(tmp, 'many');
  mkdirSync(many);
  const FILES = 4000;
  for (let i = 0; i < FILES; i++) writeFileSync(join(many, `${i}.map`), LEVEL);

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s: exit %i, the partial summary, only whole JSON lines in --out, and --report written for what was done', async (signal, exit) => {
    const out = join(tmp, `${signal}.jsonl`);
    const report = join(tmp, `${signal}.json`);
    const child = binChild(['scan', many, '--workers', '1', '--out', out, '--report', report]);
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (code, sig) => resolve([code, sig])));
    // Signalled once the scan has written some records, so it is stopped in the middle.
    await new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if ((statSync(out, { throwIfNoEntry: false })?.size ?? 0) > 0) {
          clearInterval(poll);
          child.kill(signal);
          resolve();
        } else if (Date.now() - started > 60_000) {
          clearInterval(poll);
          child.kill('SIGKILL');
          reject(new Error('the scan wrote nothing in 60 s'));
        }
      }, 20);
    });
    const [code, killedBy] = await closed;
    expect(killedBy).toBeNull();
    expect(code).toBe(exit);
    const text = readFileSync(out, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const records = jsonLines(text);
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThan(FILES);
    for (const r of records) expect(r.format).toBe('teeworlds');
    // The report is the summary of exactly the records written.
    const summary = JSON.parse(readFileSync(report, 'utf8'));
    expect(summary.files).toBe(records.length);
    expect(summary.formats.teeworlds.files).toBe(records.length);
    expect(stderr).toMatch(new RegExp(`interrupted: partial results; ${signal}`));
  });
});

describe("Node's flags and worker memory", () => {
  it('node --max-old-space-size=4096 --max-semi-space-size=16 levelkit scan: every file decodes in the workers', async () => {
    const r = await runBin(['scan', join(FIXTURES, 'teeworlds'), '--workers', '2'], {
      nodeFlags: ['--max-old-space-size=4096', '--max-semi-space-size=16', '--no-warnings'],
    });
    expect(r.stderr).not.toMatch(/internal error|execArgv/);
    const records = jsonLines(r.stdout);
    expect(records.length).toBeGreaterThan(5);
    expect(records.filter((x) => x.error?.code === 'WORKER_CRASHED')).toEqual([]);
    expect(records.filter((x) => x.format === 'teeworlds' && !x.error).length).toBeGreaterThan(5);
  });

  it('--worker-memory is checked and named in the error; --help lists it', async () => {
    for (const bad of ['0', '15', 'abc', '1.5', '-64', '99999999']) {
      const r = await runBin(['scan', FIXTURES, `--worker-memory=${bad}`]);
      expect(r.code, bad).toBe(1);
      expect(r.stderr.split('\n')[0], bad).toMatch(/--worker-memory must be a whole number from 16 to 1048576/);
    }
    const help = await runBin(['scan', '--help']);
    expect(help.stdout).toMatch(/--worker-memory <MB>\s+heap limit of each worker/);
  });

  it('a file whose decode needs more than --worker-memory is LIMIT_EXCEEDED; its worker is replaced and the scan goes on', async () => {
    // A text level of 800,000 chests: each is an object on the worker's heap, far past 16 MiB.
    const dir = join(tmp, 'memory');
    mkdirSync(dir);
    const chests = Array.from({ length: 800_000 }, (_, i) => `CHEST ${i % 64} ${(i >> 6) % 64} greenrupee -1`);
    writeFileSync(join(dir, 'chests.nw'), `GLEVNW01\n${chests.join('\n')}\n`);
    writeFileSync(join(dir, 'small.map'), LEVEL);
    // A generous --timeout: on a loaded machine the decode must run out of memory, not of time.
    const r = await runBin(['scan', dir, '--workers', '1', '--depth', 'full', '--timeout', '300', '--worker-memory', '16', '--sort']);
    expect(r.code).toBe(2);
    const [big, small] = jsonLines(r.stdout);
    expect(big!.path).toMatch(/chests\.nw$/);
    expect(big!.error.code).toBe('LIMIT_EXCEEDED');
    expect(big!.error.message).toMatch(/more memory than a worker may use \(16 MiB, --worker-memory\)/);
    expect(small!.format).toBe('teeworlds');
    expect(small!.error).toBeUndefined();
    expect(r.stderr).toMatch(/1 worker replaced/);
  });
});

describe("the scan's own outputs", () => {
  it('scan dir --out dir/out.jsonl --all has no record for out.jsonl, nor for the report it replaces', async () => {
    const dir = join(tmp, 'own');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.map'), LEVEL);
    writeFileSync(join(dir, 'notes.txt'), 'not a level\n');
    writeFileSync(join(dir, 'report.json'), '{}\n');
    const r = await runBin(['scan', dir, '--out', join(dir, 'out.jsonl'), '--report', join(dir, 'report.json'), '--force', '--all']);
    expect(r.code).toBe(0);
    const paths = jsonLines(readFileSync(join(dir, 'out.jsonl'), 'utf8')).map((x) => x.path);
    expect(paths.sort()).toEqual([join(dir, 'a.map'), join(dir, 'notes.txt')]);
  });

  it('also when --out names it through a symbolic link, another spelling of the path, or when a hard link to it is in the folder', async () => {
    const dir = join(tmp, 'spellings');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'a.map'), LEVEL);
    writeFileSync(join(dir, 'out.jsonl'), '');
    symlinkSync(join(dir, 'out.jsonl'), join(tmp, 'out-link.jsonl'));
    linkSync(join(dir, 'out.jsonl'), join(dir, 'same-file.jsonl'));
    for (const out of [join(tmp, 'out-link.jsonl'), join(dir, 'sub', '..', '.', 'out.jsonl')]) {
      const r = await runBin(['scan', dir, '--out', out, '--force', '--all']);
      expect(r.code, out).toBe(0);
      const paths = jsonLines(readFileSync(join(dir, 'out.jsonl'), 'utf8')).map((x) => x.path);
      expect(paths, out).toEqual([join(dir, 'a.map')]);
    }
  });

  // The walk's stat on the main thread skips them before any worker is asked; the reading code
  // (item-node.ts, which the workers run) checks the open handle again. With replaced fs
  // functions that code runs on the main thread, where no stat comes first.
  it.each(['worker pipeline', 'replaced fs functions'] as const)('scan() with exclude, %s: no record, not counted as found', async (how) => {
    const dir = join(tmp, `exclude-${how.replace(/ /g, '-')}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.map'), LEVEL);
    writeFileSync(join(dir, 'out.jsonl'), '{}\n');
    linkSync(join(dir, 'out.jsonl'), join(dir, 'b.map'));
    const st = statSync(join(dir, 'out.jsonl'), { bigint: true });
    const stats: ScanStats = { found: 0, walkDone: false, replacedWorkers: 0 };
    const fs = how === 'replaced fs functions' ? { fs: { ...nodeFs } } : {};
    const records: ScanRecord[] = [];
    for await (const r of scan([dir], { workers: 1, all: true, stats, exclude: [{ dev: st.dev, ino: st.ino }], ...fs })) records.push(r);
    expect(records.map((r) => r.path)).toEqual([join(dir, 'a.map')]);
    expect(stats.found).toBe(1);
  });
});

describe('stopped while a zip is found', () => {
  // The zip's listing starts while the scan is already stopped: its loop ends at once, and the
  // scan must still end (it waited for ever when the loop's end came before it was recorded).
  it('scan() ends when its signal fires as the walk meets a zip', async () => {
    const dir = join(tmp, 'abort-zip');
    mkdirSync(dir);
    writeFileSync(join(dir, 'levels.zip'), readBytes(join(FIXTURES, 'zip', 'levels.zip')));
    const abort = new AbortController();
    // Reading on the main thread (replaced fs functions), the stop comes as the zip's head is read.
    const fs = {
      ...nodeFs,
      readSync: ((...args: Parameters<typeof nodeFs.readSync>) => {
        abort.abort();
        return nodeFs.readSync(...args);
      }) as typeof nodeFs.readSync,
    };
    const records: ScanRecord[] = [];
    const done = (async () => {
      for await (const r of scan([dir], { workers: 1, all: true, fs, signal: abort.signal })) records.push(r);
      return 'ended';
    })();
    const late = new Promise((r) => setTimeout(() => r('still running after 10 s'), 10_000));
    expect(await Promise.race([done, late])).toBe('ended');
    expect(abort.signal.aborted).toBe(true);
  });
});
