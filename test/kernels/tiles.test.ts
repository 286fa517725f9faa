// Tile-grid family (scanTileGrid): known answers, edge sizes, several MiB, and a seeded differential
// run of each kernel set against the naive oracle (helpers/oracles.ts) over random grids.
import { describe, expect, it } from 'vitest';
import type { Kernels } from '../../src/kernels/types.js';
import { KERNEL_SETS } from '../helpers/kernels.js';
import * as oracle from '../helpers/oracles.js';
import { Prng } from '../helpers/prng.js';

const INV = 0xffffffff,
  FILL = 0xeeeeeeee;

function run(k: Pick<Kernels, 'scanTileGrid'>, cells: Uint32Array, sets: number) {
  const counts = new Uint32Array(4);
  const maxIds = new Int32Array(sets).fill(-1);
  const status = k.scanTileGrid(cells, counts, maxIds);
  return { status, counts: [...counts], maxIds: [...maxIds] };
}

function randomGrid(rng: Prng, n: number): Uint32Array {
  const g = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const k = rng.int(8);
    g[i] = k === 0 ? INV : k === 1 ? FILL : k === 2 ? rng.next() : ((rng.int(6) << 16) | rng.int(0x10000)) >>> 0;
  }
  return g;
}

describe.each(KERNEL_SETS)('scanTileGrid [%s]', (_name, k) => {
  it('known answers', () => {
    const g = Uint32Array.of(INV, FILL, 5, 0x0001_0007, 0x0001_0003, INV, 0x0005_0001, 0);
    expect(run(k, g, 2)).toEqual({ status: 0, counts: [2, 1, 5, 1], maxIds: [5, 7] });
  });
  it('empty grid and zero sets', () => {
    expect(run(k, new Uint32Array(0), 3)).toEqual({ status: 0, counts: [0, 0, 0, 0], maxIds: [-1, -1, -1] });
    expect(run(k, Uint32Array.of(3, INV), 0)).toEqual({ status: 0, counts: [1, 0, 1, 1], maxIds: [] });
  });
  it('one cell of each kind, and ids at the 16-bit edge', () => {
    expect(run(k, Uint32Array.of(INV), 1).counts).toEqual([1, 0, 0, 0]);
    expect(run(k, Uint32Array.of(FILL), 1).counts).toEqual([0, 1, 0, 0]);
    expect(run(k, Uint32Array.of(0xffff), 1)).toEqual({ status: 0, counts: [0, 0, 1, 0], maxIds: [0xffff] });
    // Values next to the sentinels are ordinary cells.
    expect(run(k, Uint32Array.of(0xfffffffe, 0xeeeeeeef), 1).counts).toEqual([0, 0, 2, 2]);
  });
  it('keeps the caller’s initial maxIds (running maximum)', () => {
    const counts = new Uint32Array(4);
    const maxIds = Int32Array.of(100, -1);
    k.scanTileGrid(Uint32Array.of(5, 0x0001_0002), counts, maxIds);
    expect([...maxIds]).toEqual([100, 2]);
  });
  it('odd lengths and subarray views', () => {
    const rng = new Prng(11);
    const g = randomGrid(rng, 1000);
    for (const [a, b] of [
      [0, 1],
      [1, 2],
      [3, 20],
      [7, 999],
      [1, 1000],
    ] as const) {
      expect(run(k, g.subarray(a, b), 4), `cells ${a}..${b}`).toEqual(run(oracle, g.subarray(a, b), 4));
    }
  });
  it('several MiB (5 Mi cells)', () => {
    const g = new Uint32Array(5 << 20).fill(INV);
    g[123] = 0x0002_0009;
    g[g.length - 1] = FILL;
    expect(run(k, g, 3)).toEqual({ status: 0, counts: [(5 << 20) - 2, 1, 1, 0], maxIds: [-1, -1, 9] });
  });
  it("grids around the WASM binding's 16 Ki-cell window, a maximum in each window", () => {
    const rng = new Prng(77);
    for (const n of [16383, 16384, 16385, 32768, 50001]) {
      const g = randomGrid(rng, n);
      expect(run(k, g, 6), `${n} cells`).toEqual(run(oracle, g, 6));
      expect(run(k, g.subarray(1), 3), `${n - 1} cells, unaligned view`).toEqual(run(oracle, g.subarray(1), 3));
    }
  });
  it('seeded random differential vs the naive oracle', () => {
    const seed = 4242;
    const rng = new Prng(seed);
    for (let t = 0; t < 100; t++) {
      const g = randomGrid(rng, rng.int(5000));
      const sets = rng.int(8);
      expect(run(k, g, sets), `seed ${seed} case ${t}`).toEqual(run(oracle, g, sets));
    }
  });
});
