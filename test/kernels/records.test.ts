// Record-table family (gatherRecords): known answers, edge sizes, malformed tables with their
// status, several MiB, and a seeded differential run of each kernel set against the naive oracle
// (helpers/oracles.ts).
import { describe, expect, it } from 'vitest';
import { Status } from '../../src/kernels/status.js';
import type { Kernels, RecordLayout } from '../../src/kernels/types.js';
import { KERNEL_SETS } from '../helpers/kernels.js';
import * as oracle from '../helpers/oracles.js';
import { Prng } from '../helpers/prng.js';

const WWD: RecordLayout = { fixedWords: 71, lenIndex: 1, lenCount: 4 };

/** Records of `layout` with random words and tails of the given lengths, after `lead` junk bytes. */
function table(rng: Prng, layout: RecordLayout, tailLens: number[][], lead = 0): Uint8Array {
  const parts: number[] = Array.from({ length: lead }, () => rng.next() & 0xff);
  for (const lens of tailLens) {
    const rec = new DataView(new ArrayBuffer(layout.fixedWords * 4));
    for (let w = 0; w < layout.fixedWords; w++) rec.setInt32(w * 4, rng.next() | 0, true);
    for (const [k, l] of lens.entries()) rec.setUint32((layout.lenIndex + k) * 4, l, true);
    parts.push(...new Uint8Array(rec.buffer));
    for (const l of lens) for (let i = 0; i < l; i++) parts.push(rng.next() & 0xff);
  }
  return Uint8Array.from(parts);
}

/** Runs the kernel with room for every tail; the outputs come back as plain arrays (columns word-major, strings cut to their total). */
function run(k: Pick<Kernels, 'gatherRecords'>, src: Uint8Array, offset: number, count: number, layout = WWD) {
  const columns = Array.from({ length: layout.fixedWords }, () => new Int32Array(count));
  const strings = new Uint8Array(src.length);
  const starts = new Uint32Array(count);
  const end = k.gatherRecords(src, offset, count, layout, columns, strings, starts);
  if (end < 0) return { end };
  const total = end - offset - count * layout.fixedWords * 4;
  return { end, columns: columns.flatMap((c) => [...c]), strings: [...strings.subarray(0, total)], starts: [...starts] };
}

describe.each(KERNEL_SETS)('gatherRecords [%s]', (_name, k) => {
  it('known answer: two small records', () => {
    const layout = { fixedWords: 3, lenIndex: 1, lenCount: 2 };
    const src = Uint8Array.of(9, 9, /* r0 */ 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xa, 0xb, 0xc, /* r1 */ 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0);
    expect(run(k, src, 2, 2, layout)).toEqual({ end: src.length, columns: [1, -1, 2, 0, 1, 0], strings: [0xa, 0xb, 0xc], starts: [0, 3] });
  });
  it('outputs too small are OVERFLOW: the strings, a missing or short column, starts', () => {
    const layout = { fixedWords: 3, lenIndex: 1, lenCount: 2 };
    const src = Uint8Array.of(/* r0 */ 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0xa, 0xb, 0xc, /* r1 */ 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    const cols = (n: number, len = 2) => Array.from({ length: n }, () => new Int32Array(len));
    expect(k.gatherRecords(src, 0, 2, layout, cols(3), new Uint8Array(3), new Uint32Array(2))).toBe(src.length);
    expect(k.gatherRecords(src, 0, 2, layout, cols(3), new Uint8Array(2), new Uint32Array(2))).toBe(Status.OVERFLOW);
    expect(k.gatherRecords(src, 0, 2, layout, cols(2), new Uint8Array(3), new Uint32Array(2))).toBe(Status.OVERFLOW);
    expect(k.gatherRecords(src, 0, 2, layout, [...cols(2), new Int32Array(1)], new Uint8Array(3), new Uint32Array(2))).toBe(Status.OVERFLOW);
    expect(k.gatherRecords(src, 0, 2, layout, cols(3), new Uint8Array(3), new Uint32Array(1))).toBe(Status.OVERFLOW);
    // Longer outputs are fine; cells past count are left alone.
    const wide = cols(4, 5).map((c) => c.fill(-9));
    expect(k.gatherRecords(src, 0, 2, layout, wide, new Uint8Array(9), new Uint32Array(5))).toBe(src.length);
    expect([...wide[0]!]).toEqual([1, 7, -9, -9, -9]);
    expect([...wide[3]!]).toEqual([-9, -9, -9, -9, -9]);
  });
  it('count 0 returns the offset; offset past the end is TRUNCATED', () => {
    expect(run(k, new Uint8Array(10), 4, 0)).toEqual({ end: 4, columns: [], strings: [], starts: [] });
    expect(run(k, new Uint8Array(10), 10, 0)).toEqual({ end: 10, columns: [], strings: [], starts: [] });
    expect(run(k, new Uint8Array(10), 11, 0).end).toBe(Status.TRUNCATED);
  });
  it('one record, exactly fitting, and one byte short (fixed part and tail)', () => {
    const rng = new Prng(3);
    const src = table(rng, WWD, [[1, 2, 3, 4]]);
    expect(run(k, src, 0, 1)).toEqual(run(oracle, src, 0, 1));
    expect(run(k, src, 0, 1).end).toBe(src.length);
    expect(run(k, src.subarray(0, src.length - 1), 0, 1).end).toBe(Status.TRUNCATED);
    expect(run(k, src.subarray(0, 283), 0, 1).end).toBe(Status.TRUNCATED);
  });
  it('huge declared tail lengths are TRUNCATED, not wrapped', () => {
    const rng = new Prng(5);
    const src = table(rng, WWD, [
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    const dv = new DataView(src.buffer);
    for (let k = 0; k < 4; k++) dv.setUint32(4 + k * 4, 0xffffffff, true);
    expect(run(k, src, 0, 2).end).toBe(Status.TRUNCATED);
    expect(run(k, src, 0, 1).end).toBe(Status.TRUNCATED);
  });
  it('length words outside the fixed part are CORRUPT', () => {
    expect(run(k, new Uint8Array(64), 0, 1, { fixedWords: 2, lenIndex: 1, lenCount: 2 }).end).toBe(Status.CORRUPT);
  });
  it('unaligned offsets and subarray inputs', () => {
    const rng = new Prng(8);
    const src = table(
      rng,
      WWD,
      [
        [0, 5, 1, 0],
        [3, 0, 0, 7],
        [0, 0, 0, 0],
      ],
      3,
    );
    const view = new Uint8Array(src.length + 5);
    view.set(src, 5);
    expect(run(k, view.subarray(5), 3, 3)).toEqual(run(oracle, src, 3, 3));
    expect(run(k, view.subarray(5), 3, 3).end).toBe(src.length);
  });
  it('several MiB (20 000 WWD objects)', () => {
    const rng = new Prng(13);
    const lens = Array.from({ length: 20000 }, () => [rng.int(3), rng.int(20), rng.int(12), rng.int(30)]);
    const src = table(rng, WWD, lens, 17);
    expect(src.length).toBeGreaterThan(5 << 20);
    const got = run(k, src, 17, 20000);
    expect(got.end).toBe(src.length);
    expect(got).toEqual(run(oracle, src, 17, 20000));
  });
  it("tables crossing the binding's streaming window, tails longer than the window, cuts anywhere", () => {
    // The WASM binding streams 256 KB windows of input (32,768 two-word records, 923 WWD objects):
    // counts, tails and cut points here straddle those boundaries.
    const seed = 4242;
    const rng = new Prng(seed);
    const small: RecordLayout = { fixedWords: 2, lenIndex: 1, lenCount: 1 };
    const cases: [RecordLayout, number[][]][] = [
      [small, Array.from({ length: 70000 }, () => [rng.int(3)])],
      [small, Array.from({ length: 50 }, (_, i) => [i % 7 === 0 ? 200000 + rng.int(150000) : rng.int(4)])],
      [WWD, Array.from({ length: 2000 }, (_, i) => [0, 0, i === 300 ? 300000 : rng.int(8), rng.int(8)])],
    ];
    for (const [c, [layout, lens]] of cases.entries()) {
      const full = table(rng, layout, lens, 1);
      for (const cut of [full.length, full.length - 1, 65536, 65537, 262144, 262145, rng.int(full.length), rng.int(full.length)]) {
        const src = full.subarray(0, cut);
        expect(run(k, src, 1, lens.length, layout), `seed ${seed} case ${c} cut ${cut}`).toEqual(run(oracle, src, 1, lens.length, layout));
      }
      expect(run(k, full, 1, lens.length, layout).end).toBe(full.length);
    }
  });
  it('seeded random differential vs the naive oracle (valid and cut tables)', () => {
    const seed = 9001;
    const rng = new Prng(seed);
    for (let t = 0; t < 150; t++) {
      const layout = { fixedWords: 2 + rng.int(8), lenIndex: 0, lenCount: 1 + rng.int(2) };
      layout.lenIndex = rng.int(layout.fixedWords - layout.lenCount + 1);
      const n = rng.int(40);
      const lens = Array.from({ length: n }, () => Array.from({ length: layout.lenCount }, () => rng.int(9)));
      const lead = rng.int(5);
      let src = table(rng, layout, lens, lead);
      if (t % 3 === 0) src = src.subarray(0, rng.int(src.length + 1));
      const count = t % 5 === 0 ? n + 1 : n;
      expect(run(k, src, lead, count, layout), `seed ${seed} case ${t}`).toEqual(run(oracle, src, lead, count, layout));
      // A strings buffer of random capacity, often too small: both sets agree on status and output.
      const cap = rng.int(src.length + 2);
      const limited = (kk: Pick<Kernels, 'gatherRecords'>) => {
        const cols = Array.from({ length: layout.fixedWords }, () => new Int32Array(Math.max(count, 0)));
        const strings = new Uint8Array(cap),
          starts = new Uint32Array(Math.max(count, 0));
        const end = kk.gatherRecords(src, lead, count, layout, cols, strings, starts);
        return end < 0 ? { end } : { end, cols: cols.map((c) => [...c]), strings: [...strings], starts: [...starts] };
      };
      expect(limited(k), `seed ${seed} case ${t} strings capacity ${cap}`).toEqual(limited(oracle));
    }
  });
});
