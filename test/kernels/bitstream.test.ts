// Bitstream family (Graal tile streams): known answers, boundaries, malformed input, multi-MiB
// input, and a seeded differential run of each kernel set against the naive oracle (helpers/oracles.ts).
import { describe, expect, it } from 'vitest';
import { encodeTileStream, packCodes } from '../../src/formats/graal/binary-encode.js';
import { Status } from '../../src/kernels/status.js';
import { KERNEL_SETS } from '../helpers/kernels.js';
import * as oracle from '../helpers/oracles.js';
import { Prng } from '../helpers/prng.js';

const pack = packCodes;

describe.each(KERNEL_SETS)('graalTileStream [%s]', (_name, k) => {
  it('literals, single runs and double runs (13-bit)', () => {
    const codes = [5, 0x1000 | 3, 7, 0x1000 | 0x100 | 2, 8, 9, 4095];
    const dst = new Uint16Array(9);
    const src = pack(codes, 13);
    expect(k.graalTileStream(src, 0, 13, dst)).toBe(src.length);
    expect(Array.from(dst)).toEqual([5, 7, 7, 7, 8, 9, 8, 9, 4095]);
    expect(k.graalTileStream(src, 0, 13, new Uint16Array(10))).toBe(Status.TRUNCATED);
  });
  it('12-bit codes: 0x800 is the run flag', () => {
    const dst = new Uint16Array(6);
    const src = pack([0x800 | 4, 2047, 1, 2], 12);
    expect(k.graalTileStream(src, 0, 12, dst)).toBe(src.length);
    expect(Array.from(dst)).toEqual([2047, 2047, 2047, 2047, 1, 2]);
  });
  it('stops at capacity, cuts runs, and reports the next byte', () => {
    const src = new Uint8Array([...pack([0x1000 | 64, 3, 0x1000 | 0x100 | 5, 1, 2, 4, 5], 13), 0xee]);
    const dst = new Uint16Array(67);
    // 64 × 3, then pairs while two slots remain (one pair); the last slot takes the next literal.
    const used = k.graalTileStream(src, 0, 13, dst);
    expect(used).toBe(Math.ceil((6 * 13) / 8));
    expect(dst[63]).toBe(3);
    expect(Array.from(dst.subarray(64))).toEqual([1, 2, 4]);
  });
  it('starts at an offset and returns an absolute offset', () => {
    const body = pack([1, 2, 3], 13);
    const src = new Uint8Array([9, 9, 9, ...body, 7]);
    expect(k.graalTileStream(src, 3, 13, new Uint16Array(3))).toBe(3 + body.length);
  });
  it('capacity 0 consumes nothing; empty input is TRUNCATED', () => {
    expect(k.graalTileStream(new Uint8Array(4), 2, 13, new Uint16Array(0))).toBe(2);
    expect(k.graalTileStream(new Uint8Array(0), 0, 13, new Uint16Array(1))).toBe(Status.TRUNCATED);
  });
  it('truncated streams and bad widths', () => {
    const src = pack([0x1000 | 10, 1], 13);
    expect(k.graalTileStream(src, 0, 13, new Uint16Array(11))).toBe(Status.TRUNCATED);
    expect(k.graalTileStream(src.subarray(0, 1), 0, 13, new Uint16Array(1))).toBe(Status.TRUNCATED);
    expect(k.graalTileStream(src, 0, 9, new Uint16Array(1))).toBe(Status.CORRUPT);
    expect(k.graalTileStream(src, 0, 17, new Uint16Array(1))).toBe(Status.CORRUPT);
  });
  it('a 4,096-tile level round-trips through the run-length encoder', () => {
    const rng = new Prng(31);
    const tiles = new Uint16Array(4096);
    for (let i = 0; i < tiles.length; i++) tiles[i] = rng.int(4) === 0 ? rng.int(4096) : i > 1 ? tiles[i - 2]! : 7;
    for (const bits of [12, 13] as const) {
      const t = bits === 12 ? tiles.map((v) => v & 0x7ff) : tiles;
      const src = encodeTileStream(t, bits, false);
      const dst = new Uint16Array(4096);
      expect(k.graalTileStream(src, 0, bits, dst)).toBe(src.length);
      expect(dst).toEqual(t);
    }
  });
  it('multi-MiB stream (1 Mi tiles, 2 MiB of literals) decodes in one call', () => {
    const n = 1 << 20;
    const codes = Array.from({ length: n }, (_, i) => i & 0xfff);
    const src = pack(codes, 13);
    const dst = new Uint16Array(n);
    expect(k.graalTileStream(src, 0, 13, dst)).toBe(src.length);
    expect(dst[n - 1]).toBe((n - 1) & 0xfff);
  });
  it('seeded random differential vs the naive oracle (random bytes, widths 10..16)', () => {
    const seed = 4242;
    const rng = new Prng(seed);
    for (let t = 0; t < 300; t++) {
      const src = rng.bytes(rng.int(3000));
      const bits = 10 + rng.int(7);
      const cap = rng.int(5000);
      const off = rng.int(src.length + 1);
      const a = new Uint16Array(cap),
        b = new Uint16Array(cap);
      const ra = k.graalTileStream(src, off, bits, a),
        rb = oracle.graalTileStream(src, off, bits, b);
      expect(ra, `seed ${seed} case ${t}`).toBe(rb);
      if (ra >= 0) expect(a, `seed ${seed} case ${t}`).toEqual(b);
    }
  });
});
