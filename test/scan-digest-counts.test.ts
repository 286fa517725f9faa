// The summary's duplicate groups over typed arrays (src/scan/digest-counts.ts): exact whatever the
// digests share, and the report's shape unchanged.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DigestCounts } from '../src/scan/digest-counts.js';
import { ReportBuilder, reportOf, type ScanRecord } from '../src/scan/index.js';
import { retainedHeap } from './helpers/heap.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** The groups as the Map of strings counted them before. */
function expected(digests: readonly string[]): { groups: number; files: number } {
  const m = new Map<string, number>();
  for (const d of digests) m.set(d, (m.get(d) ?? 0) + 1);
  let groups = 0;
  let files = 0;
  for (const n of m.values())
    if (n > 1) {
      groups++;
      files += n;
    }
  return { groups, files };
}

function counted(digests: readonly string[]): { groups: number; files: number } {
  const c = new DigestCounts();
  for (const d of digests) c.add(d);
  return c.groups();
}

describe('DigestCounts', () => {
  it('never merges digests that differ in one digit, wherever it is (first, middle or last word)', () => {
    const base = sha('level');
    const digests: string[] = [];
    for (let at = 0; at < 64; at++) {
      const digit = base[at] === '0' ? '1' : '0';
      digests.push(base.slice(0, at) + digit + base.slice(at + 1));
    }
    digests.push(base);
    expect(counted(digests)).toEqual({ groups: 0, files: 0 });
    // Each of them twice: 65 groups of 2, none of 4.
    expect(counted([...digests, ...digests])).toEqual({ groups: 65, files: 130 });
  });

  it('counts as a Map of strings does across growth (thousands of digests, repeats far apart)', () => {
    const digests: string[] = [];
    for (let i = 0; i < 5000; i++) digests.push(sha(`f${i}`));
    // Repeats: every 7th once more, every 50th twice more, in another order.
    for (let i = 4999; i >= 0; i--) {
      if (i % 7 === 0) digests.push(sha(`f${i}`));
      if (i % 50 === 0) digests.push(sha(`f${i}`), sha(`f${i}`));
    }
    const want = expected(digests);
    expect(want.groups).toBeGreaterThan(700);
    expect(counted(digests)).toEqual(want);
  });

  it('counts text that is not a SHA-256 digest by its text (upper case, short, other characters)', () => {
    const d = sha('x');
    const digests = [d, d.toUpperCase(), d.toUpperCase(), `${d}0`, 'abc', 'abc', `${d.slice(0, 63)}g`, d];
    expect(counted(digests)).toEqual(expected(digests));
    expect(counted(digests)).toEqual({ groups: 3, files: 6 });
  });
});

describe('reportOf duplicates', () => {
  it('gives the groups of content and grid digests exactly, in the same shape', () => {
    const a = sha('a');
    const nearA = `${a.slice(0, 56)}${a.slice(56) === '00000000' ? '00000001' : '00000000'}`;
    const rec = (contentDigest: string, gridDigest: string | null): ScanRecord =>
      ({
        path: `${contentDigest}.graal`,
        member: null,
        bytes: 1,
        format: 'graal',
        version: 'GR-V1.03',
        contentDigest,
        summary: { gridDigest },
        warnings: [],
      }) as unknown as ScanRecord;
    const r = reportOf([rec(a, a), rec(a, nearA), rec(nearA, nearA), rec(sha('b'), null), rec(sha('b'), null)]);
    expect(r.duplicates).toEqual({ contentDigest: { groups: 2, files: 4 }, gridDigest: { groups: 1, files: 2 } });
  });
});

describe('ReportBuilder memory', () => {
  it("keeps no string per file for the duplicate groups: 50,000 distinct digests leave V8's heap under 2 MB larger", () => {
    const b = new ReportBuilder();
    const digest = createHash('sha256');
    const retained = retainedHeap(() => {
      for (let i = 0; i < 50_000; i++) {
        const d = digest.copy().update(String(i)).digest('hex');
        b.add({
          path: 'a.graal',
          member: null,
          bytes: 1,
          format: 'graal',
          version: 'GR-V1.03',
          contentDigest: d,
          summary: { gridDigest: d },
          warnings: [],
        } as unknown as ScanRecord);
      }
    });
    // A Map of the hex strings held ~7.7 MB here.
    expect(retained).toBeLessThan(2 * 2 ** 20);
    expect(b.build().duplicates).toEqual({ contentDigest: { groups: 0, files: 0 }, gridDigest: { groups: 0, files: 0 } });
  });
});
