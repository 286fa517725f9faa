// Only regular files are read (issue 11). Devices, FIFOs and sockets, named or met in a walk,
// are NOT_A_FILE records and the scan goes on. The old CLI read /dev/zero until memory ran out
// and blocked for ever opening a FIFO with no writer.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { copyFileSync, mkdtempSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSafe } from '../../src/scan/read.js';
import { cli, jsonLines } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

const LEVEL = join(FIXTURES, 'wwd', 'claw-compressed.wwd');

describe('files that are not regular files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'levelkit-notfile-'));
  const fifo = join(dir, 'a-fifo.wwd');
  const socket = join(dir, 'b-socket.map');
  let server: Server;

  beforeAll(async () => {
    execFileSync('mkfifo', [fifo]);
    server = createServer();
    await new Promise<void>((done) => server.listen(socket, done));
    symlinkSync('/dev/zero', join(dir, 'c-zero.wwd'));
    copyFileSync(LEVEL, join(dir, 'd-level.wwd'));
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('named: /dev/zero, /dev/urandom, a FIFO and a socket are NOT_A_FILE; the next file is still read; exit 2', () => {
    const r = cli('info', '--json', '/dev/zero', '/dev/urandom', fifo, socket, LEVEL);
    expect(r.error).toBeUndefined(); // no timeout
    expect(r.status).toBe(2);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.error?.code ?? l.format)).toEqual(['NOT_A_FILE', 'NOT_A_FILE', 'NOT_A_FILE', 'NOT_A_FILE', 'wwd']);
    expect(lines[2]!.file).toBe(fifo);
    expect(r.stderr).toMatch(/a FIFO; only regular files are read/);
  });

  // info reads on the main thread; scan's workers read (the walk's stat is not trusted there).
  it.each([
    ['info', ['info', '--json'], 'file'],
    ['scan', ['scan', '--all', '--quiet', '--sort'], 'path'],
  ] as const)('met in a walk by %s: each is a NOT_A_FILE record, the level beside them decodes', (_, args, field) => {
    const r = cli(...args, dir);
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(2);
    expect(jsonLines(r.stdout).map((l) => [l[field].slice(dir.length + 1), l.error?.code ?? l.format])).toEqual([
      ['a-fifo.wwd', 'NOT_A_FILE'],
      ['b-socket.map', 'NOT_A_FILE'],
      ['c-zero.wwd', 'NOT_A_FILE'],
      ['d-level.wwd', 'wwd'],
    ]);
  });

  it("the reader stat's the path itself, just before it opens it (an earlier stat could be seconds old)", () => {
    const calls: string[] = [];
    const logging = {
      ...fs,
      statSync: ((p: fs.PathLike) => {
        calls.push('stat');
        return fs.statSync(p);
      }) as typeof fs.statSync,
      openSync: ((p: fs.PathLike, flags: number) => {
        calls.push('open');
        return fs.openSync(p, flags);
      }) as typeof fs.openSync,
    };
    expect(readFileSafe(Buffer.from(socket), { maxBytes: 1 << 20, fs: logging })).toEqual({
      failure: { code: 'NOT_A_FILE', message: 'a socket; only regular files are read' },
    });
    expect(calls).toEqual(['stat']);
    readFileSafe(Buffer.from(LEVEL), { maxBytes: 1 << 20, fs: logging });
    expect(calls).toEqual(['stat', 'stat', 'open']);
  });

  it('extract and convert refuse them the same way, in one line', () => {
    for (const r of [cli('extract', '/dev/zero', '-o', join(dir, 'out')), cli('convert', fifo, join(dir, 'x.nw'))]) {
      expect(r.error).toBeUndefined();
      expect(r.status).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(/: NOT_A_FILE: /);
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }
  });
});
