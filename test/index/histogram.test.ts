// The tile histogram of the index (formats/rows.ts) against a plain count, on the shapes its fast
// paths special-case: unaligned views, lengths that are not whole words, zero words, runs.
import { describe, expect, it } from 'vitest';
import { byteCounts, tileHistogram } from '../../src/formats/rows.js';
import { countTileRecords } from '../../src/formats/teeworlds/grid-counts.js';
import { jsKernels } from '../../src/index.js';

function naive(cells: ArrayLike<number>): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i < cells.length; i++) m.set(cells[i]!, (m.get(cells[i]!) ?? 0) + 1);
  return m;
}

function random(n: number, seed: number, zeroShare: number): number[] {
  let s = seed;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out.push((s >>> 8) % 100 < zeroShare ? 0 : (s >>> 16) & 0xff);
  }
  return out;
}

describe('tile histogram', () => {
  it('counts bytes as a plain loop does, at every alignment and length', () => {
    const backing = new Uint8Array(random(4099, 7, 70));
    for (const offset of [0, 1, 2, 3, 5])
      for (const length of [0, 1, 3, 4, 7, 64, 1001, 4094 - offset]) {
        const view = backing.subarray(offset, offset + length);
        const want = naive(view);
        const got = byteCounts(view);
        for (let t = 0; t < 256; t++) expect(got[t], `offset ${offset} length ${length} tile ${t}`).toBe(want.get(t) ?? 0);
      }
  });

  it('gives one row per distinct value, ascending, for byte and word grids', () => {
    const bytes = new Uint8Array(random(10_000, 3, 90));
    const words = Uint32Array.from(bytes, (b, i) => (i % 97 < 60 ? 0xffffffff : b * 65537));
    const halves = Uint16Array.from(bytes, (b, i) => (i % 13 < 4 ? 0xffff : b * 257 + (i % 3)));
    // Twice each: the 16-bit table must be left clear for the next grid.
    for (const cells of [bytes, words, halves, halves, new Uint16Array(0)]) {
      const rows = tileHistogram(cells, 2, 'plane');
      const want = [...naive(cells)].sort((a, b) => a[0] - b[0]);
      expect(rows.map((r) => [r.tile, r.count])).toEqual(want);
      expect(rows.every((r) => r.layer === 2 && r.kind === 'plane')).toBe(true);
    }
  });

  it('counts tile records in place as splitting them into columns and counting the index column does', () => {
    const bytes = random(4 * 3001 + 3, 11, 80);
    // Some records with a skip or reserved byte set (each one dirty), some with only flags.
    for (let r = 0; r < 3001; r += 37) bytes[r * 4 + 2 + (r % 2)] = 1 + (r % 200);
    for (const offset of [0, 1, 2, 3]) {
      const block = new Uint8Array(bytes).subarray(offset, offset + 4 * 3000);
      const counts = new Uint32Array(256);
      const dirty = countTileRecords(block, 3000, counts);
      const split = block.slice();
      const wantDirty = jsKernels.splitTilesInPlace(split, 3000);
      expect(dirty, `offset ${offset}`).toBe(wantDirty);
      expect([...counts]).toEqual([...byteCounts(split.subarray(0, 3000))]);
      expect(dirty).toBeGreaterThan(50);
    }
  });
});
