// The size is checked before reading (issue 11): a file over --max-bytes (default 256 MiB, the
// library's inflate cap) is a LIMIT_EXCEEDED record and is never read. The old CLI called
// readFileSync on it, which either failed with a bare IO error or allocated the whole file.
// The big file is sparse (truncate), so it costs no disk and no time.
import * as fs from 'node:fs';
import { closeSync, copyFileSync, mkdtempSync, openSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileSafe } from '../../src/scan/read.js';
import { cli, jsonLines } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

const GB = 1024 ** 3;

function sparse(path: string, size: number): string {
  closeSync(openSync(path, 'w'));
  truncateSync(path, size);
  return path;
}

describe('file size limit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'levelkit-size-'));
  const huge = sparse(join(dir, 'huge.map'), 10 * GB);
  sparse(join(dir, 'huge-video.bin'), 10 * GB);
  copyFileSync(join(FIXTURES, 'wwd', 'claw-compressed.wwd'), join(dir, 'level.wwd'));

  it('a 10 GB file named on the command line is LIMIT_EXCEEDED, not read', () => {
    const r = cli('info', '--json', huge);
    expect(r.status).toBe(2);
    expect(jsonLines(r.stdout)[0]!.error).toMatchObject({ code: 'LIMIT_EXCEEDED', message: expect.stringMatching(/10737418240 bytes.*--max-bytes/) });
  });

  it('in a walk: a level-named huge file is LIMIT_EXCEEDED; a huge unrelated file is only counted', () => {
    const r = cli('info', '--json', dir);
    expect(r.status).toBe(2);
    expect(jsonLines(r.stdout).map((l) => l.error?.code ?? l.format)).toEqual(['LIMIT_EXCEEDED', 'wwd']);
    expect(r.stderr).toMatch(/1 other files not recognised/);
  });

  it('--max-bytes sets the limit (with k/M/G) on every command; a bad value is usage', () => {
    const level = join(dir, 'level.wwd');
    expect(jsonLines(cli('info', '--json', '--max-bytes', '100', level).stdout)[0]!.error.code).toBe('LIMIT_EXCEEDED');
    expect(cli('info', '--max-bytes', '1M', level).status).toBe(0);
    expect(cli('extract', '--max-bytes', '100', join(FIXTURES, 'teeworlds', 'ddrace-v2.map'), '-o', join(dir, 'x')).stderr).toMatch(/LIMIT_EXCEEDED/);
    expect(cli('convert', '--max-bytes', '100', join(FIXTURES, 'graal', 'gr-v103.graal'), join(dir, 'x.nw')).stderr).toMatch(/LIMIT_EXCEEDED/);
    const bad = cli('info', '--max-bytes', 'lots', level);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--max-bytes/);
  });

  it('a limit raised past what memory allows fails that file, not the scan', () => {
    // A faked size no engine can allocate, so the case does not depend on this machine's memory.
    const vast = { ...fs, fstatSync: (fd: number) => Object.assign(fs.fstatSync(fd), { size: Number.MAX_SAFE_INTEGER }) } as typeof fs;
    const r = readFileSafe(Buffer.from(join(dir, 'level.wwd')), { maxBytes: Number.MAX_SAFE_INTEGER, fs: vast });
    expect(r).toEqual({ failure: { code: 'LIMIT_EXCEEDED', message: expect.stringMatching(/more than this process can hold/) } });
  });

  it('a file that grows after fstat is read only to the size it had', () => {
    const path = join(dir, 'growing.bin');
    writeFileSync(path, 'abcd');
    // The file grows between fstat and read: the read must stop at the fstat size.
    const growing = {
      ...fs,
      fstatSync: (fd: number) => {
        const st = fs.fstatSync(fd);
        fs.appendFileSync(path, 'efgh');
        return st;
      },
    } as typeof fs;
    const r = readFileSafe(Buffer.from(path), { maxBytes: 1000, fs: growing });
    expect('bytes' in r && Buffer.from(r.bytes).toString()).toBe('abcd');
  });
});
