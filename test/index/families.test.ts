// Families (src/archive-index/families.ts): a level and its edits are one family, unrelated levels
// of the same tiles are not, exact re-saves are an exact family, and LSH finds a planted pair
// among thousands without comparing every pair (the verifications are counted).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { gridDigestOf } from '../../src/core/digest.js';
import { gridSignatureOf } from '../../src/core/signature.js';
import { jsGridSignature } from '../../src/kernels/signature.js';
import { Prng } from '../helpers/prng.js';

const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/archive-index/signature.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/archive-index/signature.js')>();
  return {
    ...real,
    similarity: (...a: Parameters<typeof real.similarity>) => {
      checks.count++;
      return real.similarity(...a);
    },
  };
});

const { FAMILY_THRESHOLD, familiesOf } = await import('../../src/archive-index/families.js');
const { similarity, signatureBytes } = await import('../../src/archive-index/signature.js');

/** A level-like grid: air (0) with platforms, walls and hazards of a few tile values (1–5) painted as rectangles. */
function level(rng: Prng, width: number, height: number): Uint8Array {
  const g = new Uint8Array(width * height);
  for (let r = 0; r < (width * height) / 60; r++) {
    const w = 1 + rng.int(12),
      h = 1 + rng.int(4),
      x = rng.int(width - w),
      y = rng.int(height - h),
      v = 1 + rng.int(5);
    for (let dy = 0; dy < h; dy++) g.fill(v, (y + dy) * width + x, (y + dy) * width + x + w);
  }
  return g;
}

/** `g` with `share` of its cells changed, in `patches` rectangles (as an editor changes a level: a room redone here and there). */
function edited(g: Uint8Array, width: number, share: number, patches: number, rng: Prng): Uint8Array {
  const out = g.slice();
  const cells = Math.round(g.length * share);
  const side = Math.max(1, Math.round(Math.sqrt(cells / patches)));
  let changed = 0;
  const height = g.length / width;
  while (changed < cells) {
    const x = rng.int(width - side),
      y = rng.int(height - side);
    for (let dy = 0; dy < side && changed < cells; dy++)
      for (let dx = 0; dx < side && changed < cells; dx++) {
        const i = (y + dy) * width + x + dx;
        if (out[i] === g[i]) {
          out[i] = (g[i]! + 1 + rng.int(5)) % 6;
          changed++;
        }
      }
  }
  return out;
}

function row(id: string, g: Uint8Array, width: number) {
  const grid = { width, height: g.length / width, cells: g };
  return { id, gridDigest: gridDigestOf(grid.width, grid.height, g, 0), signature: gridSignatureOf(grid, jsGridSignature) };
}

const W = 160,
  H = 90;

beforeEach(() => {
  checks.count = 0;
});

describe('familiesOf', () => {
  it('a level and the same level with 2 % of its cells edited are one family; an unrelated level of the same tiles is not', () => {
    const rng = new Prng(7);
    const a = level(rng, W, H);
    const b = edited(a, W, 0.02, 6, rng);
    const c = level(rng, W, H);
    const rows = [row('a', a, W), row('b', b, W), row('c', c, W)];
    const sim = (x: number, y: number) => similarity(signatureBytes(rows[x]!.signature!)!, signatureBytes(rows[y]!.signature!)!);
    expect(sim(0, 1)).toBeGreaterThanOrEqual(FAMILY_THRESHOLD);
    expect(sim(0, 2)).toBeLessThan(0.3);
    expect(familiesOf(rows)).toEqual([{ key: [rows[0]!.gridDigest, rows[1]!.gridDigest].sort()[0], ids: expect.arrayContaining(['a', 'b']), exact: false }]);
    expect(familiesOf(rows)[0]!.ids).toHaveLength(2);
  });

  it('exact re-saves (one grid digest) are one exact family, whatever their signatures say', () => {
    const rng = new Prng(8);
    const a = level(rng, W, H);
    const r = row('a', a, W);
    const rows = [r, { ...r, id: 'a-copy' }, { ...r, id: 'a-no-signature', signature: null }, row('other', level(rng, W, H), W)];
    expect(familiesOf(rows)).toEqual([{ key: r.gridDigest, ids: ['a', 'a-copy', 'a-no-signature'], exact: true }]);
  });

  it('an exact family that takes in an edit is no longer exact; a lone level and a level without a grid are in none', () => {
    const rng = new Prng(9);
    const a = level(rng, W, H);
    const r = row('a', a, W);
    const rows = [
      r,
      { ...r, id: 'a2' },
      row('edit', edited(a, W, 0.01, 3, rng), W),
      row('alone', level(rng, W, H), W),
      { id: 'blank', gridDigest: null, signature: null },
    ];
    const families = familiesOf(rows);
    expect(families).toHaveLength(1);
    expect(families[0]!.exact).toBe(false);
    expect([...families[0]!.ids].sort()).toEqual(['a', 'a2', 'edit']);
  });

  it('keys are the smallest member digest: the same families, keyed alike, in any row order', () => {
    const rng = new Prng(10);
    const rows = [];
    for (let i = 0; i < 30; i++) {
      const a = level(rng, 60, 40);
      rows.push(row(`${i}`, a, 60));
      if (i % 3 === 0) rows.push(row(`${i}e`, edited(a, 60, 0.02, 2, rng), 60));
    }
    const norm = (fs: ReturnType<typeof familiesOf>) => fs.map((f) => ({ ...f, ids: [...f.ids].sort() }));
    const once = norm(familiesOf(rows));
    expect(once.length).toBe(10);
    for (const f of once)
      expect(f.key).toBe(
        rows
          .filter((r) => f.ids.includes(r.id))
          .map((r) => r.gridDigest!)
          .sort()[0],
      );
    const shuffled = [...rows].reverse();
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    expect(norm(familiesOf(shuffled))).toEqual(once);
  });

  it('finds one planted pair among 3,000 unrelated levels of one tile set, verifying 1–2 % of the 4.5 million pairs', () => {
    const rng = new Prng(11);
    const rows = [];
    for (let i = 0; i < 3000; i++) rows.push(row(`l${i}`, level(rng, 40, 24), 40));
    const planted = level(rng, 40, 24);
    rows.splice(1234, 0, row('planted', planted, 40));
    rows.push(row('planted-edit', edited(planted, 40, 0.02, 1, rng), 40));
    checks.count = 0;
    const families = familiesOf(rows);
    expect(families.map((f) => [...f.ids].sort())).toEqual([['planted', 'planted-edit']]);
    // Levels of one tile set share shingles (J 0.1–0.3), so some of their bands collide and are
    // verified; all pairs would be 4.5 million checks.
    expect(checks.count).toBeLessThan(0.02 * ((rows.length * (rows.length - 1)) / 2));
  });

  it('a bucket of thousands of near-copies costs at most 8 verifications per member and band, and they are one family', () => {
    const rng = new Prng(12);
    const base = row('base', level(rng, 40, 24), 40);
    // 4,000 grids of distinct digests and one signature: every band puts them all in one bucket.
    const rows = Array.from({ length: 4000 }, (_, i) => ({ id: `c${i}`, gridDigest: `${i}`.padStart(64, '0'), signature: base.signature }));
    const families = familiesOf(rows);
    expect(families).toHaveLength(1);
    expect(families[0]!.ids).toHaveLength(4000);
    expect(families[0]!.key).toBe('0'.repeat(64));
    expect(checks.count).toBeLessThanOrEqual(4000 * 8 * 32);
  });

  it('a bucket of thousands that are not alike (one band shared, the rest not) is verified at most 8 times per member, not pairwise', () => {
    const rng = new Prng(15);
    const text = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
    const rows = Array.from({ length: 3000 }, (_, i) => {
      const sig = rng.bytes(128);
      sig.set([1, 2, 3, 4], 0);
      return { id: `u${i}`, gridDigest: `${i}`.padStart(64, '0'), signature: text(sig) };
    });
    expect(familiesOf(rows)).toEqual([]);
    // Pairwise, band 0's bucket alone would be 4.5 million checks.
    expect(checks.count).toBeLessThanOrEqual(3000 * 8 + 1000);
  });

  it('the threshold decides; one outside 0..1 is a RangeError', () => {
    const rng = new Prng(13);
    const a = level(rng, W, H);
    const rows = [row('a', a, W), row('b', edited(a, W, 0.02, 6, rng), W)];
    expect(familiesOf(rows, { threshold: 1 })).toEqual([]);
    expect(familiesOf(rows, { threshold: 0.5 })).toHaveLength(1);
    expect(() => familiesOf(rows, { threshold: 1.5 })).toThrow(RangeError);
    expect(() => familiesOf(rows, { threshold: Number.NaN })).toThrow(RangeError);
  });

  it('a signature that is not one (damaged text) is ignored: the level joins by its digest only', () => {
    const rng = new Prng(14);
    const a = level(rng, W, H);
    const rows = [
      row('a', a, W),
      { ...row('b', edited(a, W, 0.01, 2, rng), W), signature: 'not base64!' },
      { ...row('c', edited(a, W, 0.01, 2, rng), W), signature: 'QUJD' },
    ];
    expect(familiesOf(rows)).toEqual([]);
  });
});
