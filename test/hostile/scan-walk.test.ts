// A folder walked by `levelkit scan` holding a FIFO, a dangling link, an unreadable file and an
// unreadable folder (issue 13): each is a record, none blocks the walk, the level beside them decodes.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ScanRecord, scan } from '../../src/scan/index.js';
import { cli, jsonLines } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

describe('scan: hostile entries in a walked folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'levelkit-scanwalk-'));
  execFileSync('mkfifo', [join(dir, 'a-fifo.map')]);
  symlinkSync(join(dir, 'nowhere.wwd'), join(dir, 'b-dangling.wwd'));
  copyFileSync(join(FIXTURES, 'wwd', 'claw-compressed.wwd'), join(dir, 'c-locked.wwd'));
  copyFileSync(join(FIXTURES, 'wwd', 'claw-compressed.wwd'), join(dir, 'd-level.wwd'));
  mkdirSync(join(dir, 'e-locked-folder'));
  const expected = [
    ['a-fifo.map', 'NOT_A_FILE'],
    ['b-dangling.wwd', 'IO'],
    ['c-locked.wwd', 'IO'],
    ['d-level.wwd', 'wwd'],
    ['e-locked-folder', 'IO'],
  ];

  it('CLI: the FIFO and the dangling link are records, the walk ends, exit 2', () => {
    const r = cli('scan', dir, '--sort', '--workers', '1', '--quiet');
    expect(r.error).toBeUndefined(); // no timeout
    expect(r.status).toBe(2);
    const got = jsonLines(r.stdout).map((l) => [l.path.slice(dir.length + 1), l.error?.code ?? l.format]);
    expect(got).toContainEqual(['a-fifo.map', 'NOT_A_FILE']);
    expect(got).toContainEqual(['b-dangling.wwd', 'IO']);
    expect(got).toContainEqual(['d-level.wwd', 'wwd']);
  });

  it('library: permission errors (injected: tests run as root) on a file and a folder are IO records; nothing hangs', async () => {
    const eacces = (syscall: string) => Object.assign(new Error(`EACCES: permission denied, ${syscall}`), { code: 'EACCES', errno: -13, syscall });
    const failing = {
      ...fs,
      openSync: ((p: fs.PathLike, ...rest: never[]) => {
        if (String(p).endsWith('c-locked.wwd') || String(p).endsWith('e-locked-folder')) throw eacces('open');
        return (fs.openSync as (...a: unknown[]) => number)(p, ...rest);
      }) as typeof fs.openSync,
    };
    const recs: ScanRecord[] = [];
    for await (const r of scan([dir], { workers: 1, sort: true, fs: failing })) recs.push(r);
    expect(recs.map((r) => [r.path.slice(dir.length + 1), r.error?.code ?? r.format])).toEqual(expected);
    expect(recs[2]!.error!.message).toMatch(/permission denied \(EACCES\)/);
  });
});
