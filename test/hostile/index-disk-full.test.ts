// scan --index on a full disk (issue 38 §3): no part is left cut short under its final name, the
// scan stops with one IO line naming the file and the system's reason (exit 2), and a later
// --resume with room completes the index exactly. First the writer on an injected fs that fills
// up; then the command on a real tmpfs of 100 KiB (root only: mount), remounted larger to resume.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMITS } from '../../src/archive-index/commits.js';
import { partsOf } from '../../src/archive-index/parts.js';
import { TABLES } from '../../src/archive-index/schema.js';
import { type IndexFs, IndexWriter } from '../../src/archive-index/writer.js';
import type { ScanRecord } from '../../src/scan/job.js';
import { OutputError } from '../../src/scan/write.js';
import { runBin } from '../helpers/cli.js';
import { writesThrough } from '../helpers/index-fs.js';
import { indexContent } from '../helpers/index-rows.js';
import { describeWith, type Need } from '../helpers/needs.js';
import { ROOT } from '../helpers/paths.js';

const tmp = fs.mkdtempSync(join(tmpdir(), 'levelkit-index-full-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const record = (i: number) =>
  ({ path: `/archive/level-${i}.wwd`, member: null, bytes: 100 + i, format: 'wwd', version: '1', warnings: [] }) as unknown as ScanRecord;

/** node:fs/promises on a disk that holds `capacity` bytes of file writes: past it, a write takes what fits and then fails with ENOSPC. */
function fillingFs(capacity: number): IndexFs {
  let used = 0;
  return writesThrough(async (buffers, writev) => {
    const room = capacity - used;
    if (room <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write', errno: -28 });
    const fit: Uint8Array[] = [];
    let n = 0;
    for (const b of buffers) {
      if (n >= room) break;
      fit.push(b.subarray(0, room - n));
      n += Math.min(b.length, room - n);
    }
    used += n;
    return writev(fit);
  });
}

/** Every `part-*` file in a table folder or commit in `_commits`, temporary or not. */
function filesIn(dir: string): string[] {
  return [...TABLES.map((t) => t.name), COMMITS].flatMap((t) => (fs.existsSync(join(dir, t)) ? fs.readdirSync(join(dir, t)).map((n) => join(dir, t, n)) : []));
}

describe('the index writer on a disk that fills', () => {
  it('stops with an IO error naming the part and ENOSPC; what it leaves is committed and whole, nothing else', async () => {
    const dir = join(tmp, 'injected');
    const writer = await IndexWriter.open(dir, { hash, commitBytes: 1, fs: fillingFs(6000) });
    let error: unknown;
    try {
      for (let i = 0; i < 200; i++) writer.addRecord(record(i), i);
      await writer.close();
    } catch (e) {
      error = e;
    }
    if (!error) await writer.close().catch((e) => (error = e));
    expect(error).toBeInstanceOf(OutputError);
    expect((error as OutputError).code).toBe('IO');
    expect((error as OutputError).message).toMatch(new RegExp(`^cannot write ${dir}/(files|${COMMITS})/[^ ]+: no space left on device \\(ENOSPC\\)$`));
    const committed = new Set(TABLES.flatMap((t) => partsOf(dir, t.name)));
    expect(committed.size).toBeGreaterThan(0);
    // No temporary file, no part a commit does not list: the failed flush's files are gone.
    expect(filesIn(dir).filter((f) => !f.includes(`/${COMMITS}/`) && !committed.has(f))).toEqual([]);
    expect(filesIn(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

/** Root, and a tmpfs that mounts: what the real full-disk run needs. */
function tmpfsNeed(): Need<string> {
  if (process.getuid?.() !== 0) return { ok: false, missing: 'mounting a small tmpfs needs root (.ci/run runs as root)' };
  const mnt = join(tmp, 'small');
  fs.mkdirSync(mnt);
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=100k', 'tmpfs', mnt], { encoding: 'utf8' });
  if (r.status !== 0) return { ok: false, missing: `mount -t tmpfs failed: ${r.stderr.trim()}` };
  return { ok: true, value: mnt };
}

const need = tmpfsNeed();
afterAll(() => {
  if (need.ok) spawnSync('umount', [need.value]);
});

describeWith(need, 'scan --index on a real full disk (tmpfs)', (mnt) => {
  it('one IO line and exit 2, no part cut short; --resume with room completes the index exactly', async () => {
    const archive = join(tmp, 'archive');
    for (const f of ['teeworlds', 'wwd', 'graal']) fs.cpSync(join(ROOT, 'fixtures', f), join(archive, f), { recursive: true });
    const SCAN = ['--workers', '2', '--timeout', '60', '--quiet'];
    const clean = join(tmp, 'clean');
    const c = await runBin(['scan', archive, '--index', clean, ...SCAN]);
    expect([0, 2], c.stderr).toContain(c.code);

    const dir = join(mnt, 'index');
    const env = { LEVELKIT_TEST_FLUSH_BYTES: '4096' };
    const full = await runBin(['scan', archive, '--index', dir, ...SCAN], { env });
    expect(full.code).toBe(2);
    expect(full.stderr.trim().split('\n')).toHaveLength(1);
    expect(full.stderr).toMatch(new RegExp(`^levelkit scan: IO: cannot write ${mnt}/index/\\S+: no space left on device \\(ENOSPC\\)\\n$`));
    // Some flushes committed before the disk filled; every part file there is whole and listed.
    const committed = new Set(TABLES.flatMap((t) => partsOf(dir, t.name)));
    expect(committed.size).toBeGreaterThan(0);
    expect(filesIn(dir).filter((f) => !f.includes(`/${COMMITS}/`) && !committed.has(f))).toEqual([]);

    expect(spawnSync('mount', ['-o', 'remount,size=64m', mnt]).status).toBe(0);
    const resumed = await runBin(['scan', archive, '--index', dir, '--resume', ...SCAN], { env });
    expect([0, 2], resumed.stderr).toContain(resumed.code);
    expect(resumed.stderr).not.toContain('IO');
    expect(await indexContent(dir)).toEqual(await indexContent(clean));
  }, 120_000);
});
