// Paths that cannot be read (issue 11): an IO record naming the path and exit 2, one line on
// stderr, never a stack trace. Tests run as root here, and chmod 000 does not stop root, so the
// failures come from a path whose parent is a file (ENOTDIR fails for root too) or from an
// injected fs function that fails the way a permission error does.
import * as fs from 'node:fs';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileSafe } from '../../src/scan/read.js';
import { type WalkFs, walk } from '../../src/scan/walk.js';
import { cli, jsonLines } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

const eacces = (syscall: string, path: unknown) =>
  Object.assign(new Error(`EACCES: permission denied, ${syscall} '${String(path)}'`), { code: 'EACCES', errno: -13, syscall });

describe('unreadable paths', () => {
  const dir = mkdtempSync(join(tmpdir(), 'levelkit-unreadable-'));
  const aFile = join(dir, 'plain.txt');
  writeFileSync(aFile, 'x');

  it('a folder or file argument under a file (ENOTDIR) is an IO record for that path; the scan goes on; exit 2', () => {
    const r = cli('info', '--json', join(aFile, 'levels'), join(aFile, 'level.wwd'), join(FIXTURES, 'wwd', 'claw-compressed.wwd'));
    expect(r.status).toBe(2);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => [l.file, l.error?.code ?? l.format])).toEqual([
      [join(aFile, 'levels'), 'IO'],
      [join(aFile, 'level.wwd'), 'IO'],
      [expect.any(String), 'wwd'],
    ]);
    expect(lines[0]!.error.message).toMatch(/ENOTDIR/);
  });

  it('a folder that cannot be listed (EACCES, injected), named or met in the walk, is an IO entry, and the walk goes on', () => {
    const root = join(dir, 'tree');
    mkdirSync(join(root, 'a-locked'), { recursive: true });
    copyFileSync(join(FIXTURES, 'wwd', 'claw-compressed.wwd'), join(root, 'b.wwd'));
    // A folder is opened, then listed through its handle: an unreadable one fails at the open.
    const locked: WalkFs = {
      ...fs,
      openSync: ((p: fs.PathLike, flags: number) => {
        if (String(p).endsWith('a-locked')) throw eacces('open', p);
        return fs.openSync(p, flags);
      }) as WalkFs['openSync'],
    };
    const rootLocked = [...walk([join(root, 'a-locked')], { fs: locked })];
    expect(rootLocked).toEqual([
      { kind: 'unreadable', path: Buffer.from(join(root, 'a-locked')), failure: { code: 'IO', message: 'cannot open: permission denied (EACCES)' } },
    ]);
    const seen = [...walk([root], { fs: locked })].map((e) => [
      e.kind,
      e.path.toString().slice(root.length + 1),
      e.kind === 'unreadable' ? e.failure.code : '',
    ]);
    expect(seen).toEqual([
      ['file', 'b.wwd', ''],
      ['unreadable', 'a-locked', 'IO'],
    ]);
  });

  it('a file that cannot be opened (EACCES, injected) is an IO failure, not a throw', () => {
    const r = readFileSafe(Buffer.from(join(FIXTURES, 'wwd', 'claw-compressed.wwd')), {
      maxBytes: 1 << 20,
      fs: {
        ...fs,
        openSync: (p: fs.PathLike) => {
          throw eacces('open', p);
        },
      } as typeof fs,
    });
    expect(r).toEqual({ failure: { code: 'IO', message: 'cannot open: permission denied (EACCES)' } });
  });

  it('extract / convert / info on a missing file: one line naming the file, exit 2, no stack trace', () => {
    for (const args of [
      ['extract', 'nonexistent.map', '-o', join(dir, 'out')],
      ['convert', 'nonexistent.graal', join(dir, 'out.nw')],
      ['info', 'nonexistent.wwd'],
    ]) {
      const r = cli(...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^levelkit ${args[0]}: nonexistent\\.\\w+: IO: cannot stat: no such file or directory \\(ENOENT\\)\n$`));
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }
  });

  it('bad usage is one line plus the usage line, exit 1', () => {
    for (const args of [
      ['extract', 'x.map'],
      ['info', '--no-such-option', 'x'],
      ['convert', 'a.graal', 'b.nw', '--to', 'png'],
    ]) {
      const r = cli(...args);
      expect(r.status).toBe(1);
      expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(new RegExp(`^levelkit ${args[0]}: `)), expect.stringMatching(/^usage: levelkit /)]);
    }
  });
});
