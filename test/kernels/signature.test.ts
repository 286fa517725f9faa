// Similarity signature (gridSignature): both kernel sets against the window-by-window oracle
// (helpers/oracles.ts) over random grids of every cell width and awkward sizes, the edge cases of
// the contract, and what the signature is for: near-identical grids agree in most bins.
import { describe, expect, it } from 'vitest';
import { type GridSignatureKernel, jsGridSignature, wasmGridSignature } from '../../src/kernels/signature.js';
import { Status } from '../../src/kernels/status.js';
import * as oracle from '../helpers/oracles.js';
import { Prng } from '../helpers/prng.js';

type Cells = Uint8Array | Uint16Array | Uint32Array;
type K = { gridSignature: GridSignatureKernel };

/** The two implementations (apart from the Kernels sets: kernels/signature.ts says why). */
const SETS: [string, K][] = [
  ['js', { gridSignature: jsGridSignature }],
  ['wasm', { gridSignature: wasmGridSignature }],
];

function run(k: K, cells: Cells, width: number, height: number) {
  const out = new Uint8Array(128).fill(0xaa);
  const status = k.gridSignature(cells, width, height, out);
  return { status, out: [...out] };
}

/** A grid of few tile values in blocks (as levels are), some cells of any value. */
function randomGrid(rng: Prng, bytes: 1 | 2 | 4, width: number, height: number): Cells {
  const g = bytes === 1 ? new Uint8Array(width * height) : bytes === 2 ? new Uint16Array(width * height) : new Uint32Array(width * height);
  const top = bytes === 1 ? 0x100 : bytes === 2 ? 0x10000 : 0x1_0000_0000;
  for (let i = 0; i < g.length; i++) g[i] = rng.int(5) === 0 ? rng.next() % top : rng.int(3) === 0 ? (g[i - 1] ?? 0) : rng.int(4);
  return g;
}

const same = (a: number[], b: number[]) => a.filter((v, i) => v === b[i]).length;

describe.each(SETS)('gridSignature [%s]', (_name, k) => {
  it('no window, or only uniform ones: 0 and zeros', () => {
    for (const [w, h] of [
      [0, 0],
      [3, 100],
      [100, 3],
    ] as const)
      expect(run(k, new Uint8Array(w * h).fill(7), w, h), `${w}×${h}`).toEqual({ status: 0, out: new Array(128).fill(0) });
    expect(run(k, new Uint32Array(64 * 64).fill(0xffffffff), 64, 64).status).toBe(0);
  });

  it('one differing cell makes the windows over it (and only those) shingles', () => {
    const g = new Uint16Array(10 * 8);
    g[3 * 10 + 5] = 9;
    // The windows covering (5, 3): x in 2..5, y in 0..3 → 16 windows.
    expect(run(k, g, 10, 8).status).toBe(16);
  });

  it('bad sizes and a short output are statuses, not throws', () => {
    const out = new Uint8Array(128);
    expect(k.gridSignature(new Uint8Array(15), 4, 4, out)).toBe(Status.TRUNCATED);
    expect(k.gridSignature(new Uint8Array(16), 4.5, 4, out)).toBe(Status.TRUNCATED);
    expect(k.gridSignature(new Uint8Array(16), -4, -4, out)).toBe(Status.TRUNCATED);
    expect(k.gridSignature(new Uint8Array(16), 4, 4, new Uint8Array(127))).toBe(Status.OVERFLOW);
  });

  it('reads only width × height cells of a longer array or view', () => {
    const rng = new Prng(5);
    const g = randomGrid(rng, 2, 13, 9) as Uint16Array;
    const longer = new Uint16Array(13 * 9 + 40);
    longer.set(g, 3);
    for (let i = 0; i < 3; i++) longer[i] = 999;
    for (let i = 3 + g.length; i < longer.length; i++) longer[i] = rng.next() & 0xffff;
    expect(run(k, longer.subarray(3), 13, 9)).toEqual(run(oracle, g, 13, 9));
  });

  it('seeded random differential vs the window-by-window oracle, u8/u16/u32, widths around the 4-column steps', () => {
    const seed = 4141;
    const rng = new Prng(seed);
    for (let t = 0; t < 60; t++) {
      const bytes = ([1, 2, 4] as const)[t % 3]!;
      const width = 4 + rng.int(29);
      const height = 4 + rng.int(20);
      const g = randomGrid(rng, bytes, width, height);
      expect(run(k, g, width, height), `seed ${seed} case ${t} (${bytes}-byte ${width}×${height})`).toEqual(run(oracle, g, width, height));
    }
  });

  it('the value of a cell, not its width, is what is hashed: one grid as u8, u16 and u32 gives one signature', () => {
    const g = randomGrid(new Prng(9), 1, 40, 30) as Uint8Array;
    const a = run(k, g, 40, 30);
    expect(run(k, Uint16Array.from(g), 40, 30)).toEqual(a);
    expect(run(k, Uint32Array.from(g), 40, 30)).toEqual(a);
  });

  it('translation-invariant (a level moved or widened keeps its windows) and sensitive to content', () => {
    const rng = new Prng(21);
    const g = randomGrid(rng, 2, 60, 40) as Uint16Array;
    // The same grid inside a wider, taller one of blank cells (an extended level).
    const wide = new Uint16Array(90 * 50);
    for (let y = 0; y < 40; y++) wide.set(g.subarray(y * 60, y * 60 + 60), (y + 5) * 90 + 20);
    const a = run(k, g, 60, 40).out;
    const b = run(k, wide, 90, 50).out;
    // The windows across the new border (about 600 beside 2,100) are new shingles: J ≈ 0.78, so
    // about 100 of 128 bins agree; unrelated grids agree in about 1 of 256 per bin.
    expect(same(a, b)).toBeGreaterThan(85);
    const other = run(k, randomGrid(rng, 2, 60, 40), 60, 40).out;
    expect(same(a, other)).toBeLessThan(10);
  });

  it('a grid of several MB (a 2000 × 1500 u32 plane)', () => {
    const rng = new Prng(33);
    const g = new Uint32Array(2000 * 1500).fill(0xffffffff);
    for (let i = 0; i < 5000; i++) g[rng.int(g.length)] = rng.int(50);
    const r = run(k, g, 2000, 1500);
    expect(r.status).toBeGreaterThan(5000);
    expect(r).toEqual(run(SETS[0]![1], g, 2000, 1500));
  });
});
