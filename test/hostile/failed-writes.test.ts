// A write that fails never looks like success (issue 38, a regression of issue 28's class): every
// output of every command — standard output, --out, --report, -o, --png, --sheet, SARIF, JSON and
// CSV — onto a full device ends with one IO line naming the path (or standard output) and the
// system's reason, and exit 2; never exit 0 with a normal summary, never a stack trace. A reader
// that leaves (EPIPE) stays the quiet exit 0 it is.
//
// The full device is made here (mknod, as root: CI runs as root), one per name the commands need
// (`.png`, `.nw`), not /dev/full itself: a command that replaced its output by a rename once
// replaced /dev/full with a regular file, breaking every later test on the machine.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, readlinkSync, rmSync, symlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, binChild, completion } from '../helpers/cli.js';
import { describeWith, type Need } from '../helpers/needs.js';
import { FIXTURES, ROOT } from '../helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-failed-writes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const GRAAL = join(FIXTURES, 'graal', 'gr-v103.graal');
const GRAAL_B = join(FIXTURES, 'graal', 'gr-v101.graal');
const GRAAL_DIR = join(FIXTURES, 'graal');
const TW = join(FIXTURES, 'teeworlds', 'opaque-layers.map');

/** A character device like /dev/full (1, 7: every write fails with ENOSPC) at `path`, or why there cannot be one. */
function fullDevice(path: string): Need<string> {
  const made = spawnSync('mknod', ['-m', '666', path, 'c', '1', '7'], { encoding: 'utf8' });
  if (made.status !== 0) return { ok: false, missing: `no full device (mknod needs root on Linux): ${made.stderr.trim() || made.error}` };
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, 'x');
    return { ok: false, missing: `${path} took a write: not a full device` };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') return { ok: false, missing: `${path}: ${e}` };
  } finally {
    closeSync(fd);
  }
  return { ok: true, value: path };
}

interface Run {
  status: number | null;
  stderr: string;
}

/** Runs the built `levelkit …args` in the repo root with standard output going to `stdoutPath` (default: nowhere). */
function run(args: string[], stdoutPath?: string): Promise<Run> {
  const fd = stdoutPath === undefined ? 'ignore' : openSync(stdoutPath, 'w');
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'] });
  if (typeof fd === 'number') closeSync(fd);
  return exit(child, args);
}

/** The child's exit status and stderr; fails past 60 s. */
function exit(child: ChildProcess, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`levelkit ${args.join(' ')} took over 60 s`));
    }, 60_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}

/** Exit 2, exactly one IO line, naming `target` and the reason, and nothing of the engine's. */
function expectOneIoLine(r: Run, target: string, reason = 'no space left on device (ENOSPC)'): void {
  const io = r.stderr.split('\n').filter((l) => / IO: /.test(l));
  expect(io, r.stderr).toHaveLength(1);
  expect(io[0]).toContain(`IO: cannot write ${target}: ${reason}`);
  expect(r.stderr).not.toMatch(/\n\s+at |internal error|Error:|node:internal/);
  expect(r.status, r.stderr).toBe(2);
}

const dev = join(tmp, 'dev');
mkdirSync(dev);
const FULL = join(dev, 'full');
const need = fullDevice(FULL);

describeWith(need, 'every output onto a full device: one IO line, exit 2', (full) => {
  const FULL_PNG = join(dev, 'full.png');
  const FULL_NW = join(dev, 'full.nw');
  const index = (name: string) => join(tmp, name);
  const records = join(tmp, 'records.jsonl');

  beforeAll(async () => {
    for (const p of [FULL_PNG, FULL_NW]) expect(fullDevice(p).ok).toBe(true);
    // What query, report and an index diff read (exit 2: the fixtures' bad files).
    const made = await Promise.all([
      run(['scan', GRAAL_DIR, '--index', index('idx-a'), '--out', records, '--quiet']),
      run(['scan', join(FIXTURES, 'wwd'), '--index', index('idx-b'), '--quiet']),
    ]);
    for (const r of made) expect(r.stderr).toBe('');
  }, 120_000);

  // Every command's standard output, in each shape it has (text, --json, --csv, SARIF, PNG, help).
  const STDOUT_CASES: [string, string[]][] = [
    ['scan (records)', ['scan', GRAAL_DIR, '--quiet']],
    ['scan --out -', ['scan', GRAAL_DIR, '--out', '-', '--quiet']],
    ['scan --report -', ['scan', GRAAL_DIR, '--report', '-', '--out', join(tmp, 'scan-report-out.jsonl'), '--force', '--quiet']],
    ['info', ['info', GRAAL]],
    ['info --json', ['info', '--json', GRAAL_DIR]],
    ['check (text)', ['check', join(FIXTURES, 'wwd'), '--fail-on', 'never']],
    ['check --json', ['check', '--json', join(FIXTURES, 'wwd'), '--fail-on', 'never']],
    ['check --sarif', ['check', '--sarif', GRAAL]],
    ['check --list-rules', ['check', '--list-rules']],
    ['report (table)', ['report', records]],
    ['report --csv', ['report', '--csv', records]],
    ['report --list', ['report', '--list', 'errors', records]],
    ['report --report -', ['report', '--report', '-', records]],
    ['query (table)', ['query', index('idx-a'), 'SELECT * FROM files']],
    ['query --json', ['query', '--json', index('idx-a'), 'SELECT * FROM files']],
    ['query --csv', ['query', '--csv', index('idx-a'), 'SELECT * FROM files']],
    ['schema', ['schema']],
    ['schema --json', ['schema', '--json']],
    ['extract --json', ['extract', '--json', GRAAL, '-o', join(tmp, 'extract-json'), '--force']],
    ['convert to -', ['convert', GRAAL, '-', '--to', 'nw']],
    ['render -o -', ['render', GRAAL, '-o', '-']],
    ['render --sheet -', ['render', GRAAL, TW, '-o', join(tmp, 'sheet-dir'), '--sheet', '-', '--force']],
    ['diff (text)', ['diff', GRAAL, GRAAL_B]],
    ['diff --json', ['diff', '--json', GRAAL, GRAAL_B]],
    ['diff of two indexes', ['diff', index('idx-a'), index('idx-b')]],
    ['completion', ['completion', 'bash']],
    ['help', ['help', 'scan']],
    ['--help', ['--help']],
    ['scan --help', ['scan', '--help']],
    ['--version', ['--version']],
  ];

  it.concurrent.each(STDOUT_CASES)('%s > full: IO naming standard output', async (_, args) => {
    expectOneIoLine(await run(args, full), 'standard output');
  });

  // Every output a command is told to write to a path.
  const PATH_CASES: [string, string[], string][] = [
    ['scan --out', ['scan', GRAAL_DIR, '--out', FULL, '--force', '--quiet'], FULL],
    ['scan --report', ['scan', GRAAL_DIR, '--report', FULL, '--force', '--out', join(tmp, 'scan-out.jsonl'), '--quiet'], FULL],
    ['report --report', ['report', '--report', FULL, '--force', records], FULL],
    ['render -o x.png', ['render', GRAAL, '-o', FULL_PNG, '--force'], FULL_PNG],
    ['render --sheet', ['render', GRAAL, TW, '-o', join(tmp, 'sheet-dir2'), '--sheet', FULL_PNG, '--force'], FULL_PNG],
    ['convert <in> <out>', ['convert', GRAAL, FULL_NW, '--force'], FULL_NW],
    ['diff --png', ['diff', GRAAL, GRAAL_B, '--png', FULL_PNG, '--force'], FULL_PNG],
  ];

  it.concurrent.each(PATH_CASES)('%s onto a full device: IO naming it, and the device is still a device', async (_, args, target) => {
    expectOneIoLine(await run(args), target);
    expect(lstatSync(target).isCharacterDevice()).toBe(true);
  });

  it('extract: a full device where one of its files goes (--force): IO naming it', async () => {
    const out = join(tmp, 'extract-out');
    mkdirSync(out);
    const target = join(out, 'level.json');
    expect(fullDevice(target).ok).toBe(true);
    expectOneIoLine(await run(['extract', GRAAL, '-o', out, '--force']), target);
    expect(lstatSync(target).isCharacterDevice()).toBe(true);
  });

  it('a link to the device (as /dev/stdout links to /proc/self/fd/1): written into, IO naming it, the link kept', async () => {
    const link = join(tmp, 'report-link.json');
    symlinkSync(full, link);
    expectOneIoLine(await run(['scan', GRAAL_DIR, '--report', link, '--force', '--out', join(tmp, 'scan-out-link.jsonl'), '--quiet']), link);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(full);
  });
});

describe('EFBIG (a file past `ulimit -f`, SIGXFSZ ignored): IO line, exit 2', () => {
  /** `levelkit …args` under a 512-byte file size limit, stdout to `stdoutPath` (or nowhere). */
  const limited = (args: string[], stdoutPath = '/dev/null') =>
    exit(
      spawn('/bin/sh', ['-c', `trap '' XFSZ; ulimit -f 1; exec "$0" "$@" > "${stdoutPath}"`, process.execPath, BIN, ...args], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      }),
      args,
    );

  it.concurrent('scan > file: IO naming standard output', async () => {
    expectOneIoLine(await limited(['scan', GRAAL_DIR, '--quiet'], join(tmp, 'big-stdout.jsonl')), 'standard output', 'file too large (EFBIG)');
  });

  it.concurrent('scan --out file: IO naming it, cut back to its last whole record', async () => {
    const out = join(tmp, 'big-out.jsonl');
    const r = await limited(['scan', GRAAL_DIR, '--out', out, '--quiet']);
    expectOneIoLine(r, out, 'file too large (EFBIG); it ends at its last whole record');
  });

  it.concurrent('scan --report file: IO naming it, nothing left under its name', async () => {
    const report = join(tmp, 'big-report.json');
    expectOneIoLine(await limited(['scan', GRAAL_DIR, '--report', report, '--out', '/dev/null', '--force', '--quiet']), report, 'file too large (EFBIG)');
    expect(lstatSync(report, { throwIfNoEntry: false })).toBeUndefined();
  });
});

describe('what fails only at the end (a network or quota-bound file system reports at fsync or close)', () => {
  it('standard output to a file whose final sync fails: that failure, naming standard output', async () => {
    // stdout.ts as main.ts uses it, in a child whose standard output is a file, with an fsync that fails as such a disk's does.
    const script = [
      `import { stdoutFailure, writeStdout } from ${JSON.stringify(join(ROOT, 'src/cli/stdout.ts'))};`,
      "writeStdout('a record\\n');",
      "const eio = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO', syscall: 'fsync' });",
      'const failed = await stdoutFailure({ fstatSync: () => ({ isFile: () => true }), fsyncSync: () => { throw eio; } });',
      "process.stderr.write(String(failed?.message) + '\\n');",
    ].join('\n');
    const out = join(tmp, 'synced.txt');
    const fd = openSync(out, 'w');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'] });
    closeSync(fd);
    const r = await exit(child, ['(stdout.ts)']);
    expect(r.stderr).toBe('cannot write standard output: i/o error (EIO)\n');
    expect(r.status).toBe(0);
  });
});

describe('a reader that leaves (EPIPE) stays quiet, exit 0', () => {
  /** `levelkit …args` with standard output a pipe whose reader is gone before the first write. */
  async function readerGone(args: string[]) {
    const child = binChild(args);
    child.stdout.destroy();
    return completion(child, `levelkit ${args.join(' ')}`, 60_000);
  }

  it.concurrent.each([
    ['info --json', ['info', '--json', GRAAL]],
    ['check --sarif', ['check', '--sarif', GRAAL]],
    ['schema', ['schema']],
    ['render -o -', ['render', GRAAL, '-o', '-']],
    ['completion', ['completion', 'bash']],
    ['--help', ['--help']],
  ])('%s', async (_, args) => {
    const r = await readerGone(args);
    expect(r.stderr).not.toMatch(/IO:|EPIPE|Error|internal error/);
    expect(r.code).toBe(0);
  });
});
