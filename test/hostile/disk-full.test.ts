// scan --out on a full disk (issue 28): a write the system takes only part of is continued, and
// when the disk fills the file is cut back to its last whole record, so `levelkit report` still
// reads it; the command says so in one line and exits 2. The fake fs below returns short counts
// and then fails with ENOSPC after writing part of a record, as a real full disk does.
// (/dev/full through the command: test/hostile/engine-errors.test.ts.)
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRecord } from '../../src/scan/index.js';
import { LineFile, type LineFileFs } from '../../src/scan/line-file.js';
import { OutputError } from '../../src/scan/write.js';

const root = fs.mkdtempSync(join(tmpdir(), 'levelkit-full-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A record as scan writes it, numbered. */
const record = (i: number) =>
  `${JSON.stringify({ path: `level-${i}.wwd`, member: null, bytes: 100 + i, format: 'wwd', version: '1', summary: { i }, warnings: [], contentDigest: 'ab'.repeat(32) })}\n`;

/** node:fs, except that each write takes at most `step` bytes and the disk holds `capacity` bytes: past it, ENOSPC. */
function fullDisk(capacity: number, step: number): LineFileFs {
  let used = 0;
  return {
    writeSync(fd, buffer, offset, length) {
      const room = capacity - used;
      if (room <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write', errno: -28 });
      const n = fs.writeSync(fd, buffer, offset, Math.min(length, step, room));
      used += n;
      return n;
    },
    ftruncateSync: fs.ftruncateSync,
    fstatSync: fs.fstatSync,
    fsyncSync: fs.fsyncSync,
    closeSync: fs.closeSync,
  };
}

describe('LineFile (scan --out)', () => {
  it('short writes are continued: every record lands whole', () => {
    const path = join(root, 'short.jsonl');
    const out = new LineFile(fs.openSync(path, 'wx'), Buffer.from(path), fullDisk(Number.POSITIVE_INFINITY, 7));
    for (let i = 0; i < 20; i++) out.write(record(i));
    fs.closeSync(out.fd);
    expect(fs.readFileSync(path, 'utf8')).toBe(Array.from({ length: 20 }, (_, i) => record(i)).join(''));
  });

  it('ENOSPC in the middle of a record: the file is cut back to its last whole record, and the error says so', () => {
    const path = join(root, 'full.jsonl');
    const whole = record(0).length * 3;
    const out = new LineFile(fs.openSync(path, 'wx'), Buffer.from(path), fullDisk(whole + 40, 16));
    let error: unknown;
    try {
      for (let i = 0; i < 10; i++) out.write(record(i));
    } catch (e) {
      error = e;
    }
    fs.closeSync(out.fd);
    expect(error).toBeInstanceOf(OutputError);
    expect((error as OutputError).message).toBe(`cannot write ${path}: no space left on device (ENOSPC); it ends at its last whole record (3 records)`);
    const text = fs.readFileSync(path, 'utf8');
    expect(text).toBe(record(0) + record(1) + record(2));
    // What `levelkit report` checks of each line.
    for (const line of text.split('\n').filter(Boolean)) expect(() => checkRecord(JSON.parse(line))).not.toThrow();
  });

  it('a sync that fails at the end (EIO, as a network or quota-bound disk reports it) is an IO error naming the file, and the file is closed', () => {
    const path = join(root, 'sync.jsonl');
    const closed: number[] = [];
    const eio = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO', syscall: 'fsync' });
    const io: LineFileFs = {
      ...fullDisk(Number.POSITIVE_INFINITY, 1 << 20),
      fsyncSync: () => {
        throw eio;
      },
      closeSync: (fd) => {
        closed.push(fd);
        fs.closeSync(fd);
      },
    };
    const out = new LineFile(fs.openSync(path, 'wx'), Buffer.from(path), io);
    out.write(record(0));
    expect(() => out.close()).toThrow(new OutputError('IO', `cannot write ${path}: i/o error (EIO)`));
    expect(closed).toEqual([out.fd]);
  });

  it('a write that takes no bytes is an error, not an endless loop', () => {
    const path = join(root, 'zero.jsonl');
    const out = new LineFile(fs.openSync(path, 'wx'), Buffer.from(path), { ...fs, writeSync: () => 0 });
    expect(() => out.write(record(0))).toThrow(/input\/output error|EIO/);
    fs.closeSync(out.fd);
    expect(fs.readFileSync(path, 'utf8')).toBe('');
  });
});
