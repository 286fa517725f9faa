// The worker pipeline of issue 20 (workers read their own files, in batches; zip members read
// from their place in the archive) gives the same records as the scan did when it read every
// file on the main thread and decoded one file per message: record for record, over fixtures/
// (zips nested and corrupt included) and the shared corpus when it is there. Also: a file that
// hangs or crashes inside a batch of small files costs that file only.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { compareRecords, type ScanOptions, type ScanRecord, scan } from '../src/scan/index.js';
import { corpus, describeWith, type Need } from './helpers/needs.js';
import { CORPUS, FIXTURES, readBytes } from './helpers/paths.js';
import { referenceScan } from './helpers/scan-reference.js';

async function scanned(paths: string[], opts: ScanOptions): Promise<ScanRecord[]> {
  const out: ScanRecord[] = [];
  for await (const r of scan(paths, { workers: 2, all: true, sort: true, ...opts })) out.push(r);
  return out;
}
const sorted = (rs: ScanRecord[]) => [...rs].sort(compareRecords);

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-scaneq-'));
const MTIME = new Date(1980, 0, 1);

/** Zips whose members take every path of the zip reader: nested 10 deep, stored and deflated, an unsupported method, an encrypted flag. */
function zipFolder(): string {
  const dir = join(tmp, 'zips');
  mkdirSync(dir);
  const map = readBytes(join(FIXTURES, 'teeworlds', 'ddrace-v2.map'));
  const nw = readBytes(join(FIXTURES, 'graal', 'crlf.nw'));
  let nested = zipSync({ 'bottom.map': map }, { level: 6, mtime: MTIME });
  for (let d = 9; d >= 1; d--) nested = zipSync({ [`level${d}.zip`]: nested, [`at${d}.nw`]: nw }, { level: d % 2 ? 0 : 6, mtime: MTIME });
  writeFileSync(join(dir, 'deep.zip'), nested);
  const odd = zipSync({ 'a.nw': nw, 'b.map': map, 'c.nw': nw }, { level: 6, mtime: MTIME });
  // Central directory entries, in order a, b, c: b gets method 99, c the encrypted flag.
  const dv = new DataView(odd.buffer, odd.byteOffset, odd.byteLength);
  let at = odd.length - 22;
  at = dv.getUint32(at + 16, true);
  for (let k = 0; k < 3; k++) {
    if (k === 1) dv.setUint16(at + 10, 99, true);
    if (k === 2) dv.setUint16(at + 8, dv.getUint16(at + 8, true) | 1, true);
    at += 46 + dv.getUint16(at + 28, true) + dv.getUint16(at + 30, true) + dv.getUint16(at + 32, true);
  }
  writeFileSync(join(dir, 'odd.zip'), odd);
  return dir;
}

describe('the worker pipeline gives the records of the in-process scan', () => {
  const zips = zipFolder();

  it.each(['cheap', 'full'] as const)(
    'fixtures/ and generated zips, %s',
    async (depth) => {
      const paths = [FIXTURES, zips];
      const got = await scanned(paths, { depth });
      const want = sorted(await referenceScan(paths, depth));
      expect(got.length).toBeGreaterThan(100);
      expect(got).toEqual(want);
      // The generated zips did reach every branch compared above.
      const code = (m: string) => got.find((r) => r.member === m)?.error?.code;
      expect(code('b.map')).toBe('CORRUPT_ARCHIVE');
      expect(code('c.nw')).toBe('CORRUPT_ARCHIVE');
      expect(code('level1.zip/level2.zip/level3.zip/level4.zip/level5.zip/level6.zip/level7.zip/level8.zip')).toBe('LIMIT_EXCEEDED');
      expect(got.find((r) => r.member === 'level1.zip/level2.zip/level3.zip/level4.zip/level5.zip/level6.zip/level7.zip/at8.nw')?.format).toBe('graal-nw');
    },
    120_000,
  );
});

function wholeCorpus(): Need<string> {
  const n = corpus('graal');
  return n.ok ? { ok: true, value: CORPUS } : n;
}

describeWith(wholeCorpus(), 'the worker pipeline over the shared corpus', (root) => {
  // Cheap only: full depth runs the same pipeline code, and fixtures/ covers it above (the
  // corpus at full depth adds ~40 s to the suite).
  it('cheap: the same records as the in-process scan', async () => {
    const got = await scanned([root], { depth: 'cheap' });
    const want = sorted(await referenceScan([root], 'cheap'));
    expect(got.length).toBe(want.length);
    for (let i = 0; i < got.length; i++) expect(got[i]).toEqual(want[i]);
  }, 300_000);
});

describe('faults inside a batch', () => {
  it('a file that hangs and one that crashes among 300 small files in one worker: those two records only; the rest of their batches is scanned', async () => {
    const dir = join(tmp, 'batch');
    mkdirSync(dir);
    const level = readBytes(join(FIXTURES, 'graal', 'gr-v103.graal'));
    for (let i = 0; i < 300; i++) writeFileSync(join(dir, `level-${String(i).padStart(3, '0')}.graal`), level);
    const normal = await scanned([dir], { workers: 1 });
    const recs = await scanned([dir], { workers: 1, timeoutMs: 1000, inject: { hang: 'level-150.', crash: 'level-220.' } });
    const code = (n: number) => recs.find((r) => r.path.endsWith(`level-${n}.graal`))!.error?.code;
    expect(code(150)).toBe('TIMEOUT');
    expect(code(220)).toBe('WORKER_CRASHED');
    const rest = (rs: ScanRecord[]) => rs.filter((r) => !/level-(150|220)\./.test(r.path));
    expect(rest(recs)).toHaveLength(298);
    expect(rest(recs)).toEqual(rest(normal));
  }, 60_000);
});
