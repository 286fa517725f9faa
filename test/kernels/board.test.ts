// Board family (Graal .nw BOARD rows): known answers, boundaries, malformed input, multi-MiB
// input, and a seeded differential run of each kernel set against the naive oracle (helpers/oracles.ts).
import { describe, expect, it } from 'vitest';
import { Status } from '../../src/kernels/status.js';
import { KERNEL_SETS } from '../helpers/kernels.js';
import * as oracle from '../helpers/oracles.js';
import { Prng } from '../helpers/prng.js';

const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const enc = (s: string) => new TextEncoder().encode(s);

describe.each(KERNEL_SETS)('decodeBoardRows [%s]', (_name, k) => {
  it('known answers: AA = 0, // = 4095, high six bits first', () => {
    const text = enc('xxAA//BAAB');
    const dst = new Uint16Array(8).fill(9);
    expect(k.decodeBoardRows(text, Int32Array.of(2, 4, 1), 1, dst)).toBe(0);
    expect(Array.from(dst)).toEqual([9, 0, 4095, 64, 1, 9, 9, 9]);
  });
  it('every tile id 0..4095 once', () => {
    let s = '';
    for (let t = 0; t < 4096; t++) s += ALPHA[t >> 6]! + ALPHA[t & 63]!;
    const dst = new Uint16Array(4096);
    const rows = new Int32Array(64 * 3);
    for (let y = 0; y < 64; y++) rows.set([y * 128, 64, y * 64], y * 3);
    expect(k.decodeBoardRows(enc(s), rows, 64, dst)).toBe(0);
    expect(dst.every((v, i) => v === i)).toBe(true);
  });
  it('zero rows and zero-length rows do nothing', () => {
    const dst = new Uint16Array(2).fill(5);
    expect(k.decodeBoardRows(new Uint8Array(0), new Int32Array(0), 0, dst)).toBe(0);
    expect(k.decodeBoardRows(new Uint8Array(0), Int32Array.of(0, 0, 2), 1, dst)).toBe(0);
    expect(Array.from(dst)).toEqual([5, 5]);
  });
  it('characters outside the alphabet read as 0 and are counted', () => {
    const dst = new Uint16Array(3);
    // UTF-8 'ÿ' is two bytes outside the alphabet; 'B=' keeps its valid high half.
    expect(k.decodeBoardRows(enc('A=\u00ffB=='), Int32Array.of(0, 3, 0), 1, dst)).toBe(4);
    expect(Array.from(dst)).toEqual([0, 0, 64]);
  });
  it('rows past the text or the destination', () => {
    const text = enc('AAAA');
    expect(k.decodeBoardRows(text, Int32Array.of(2, 2, 0), 1, new Uint16Array(4))).toBe(Status.TRUNCATED);
    expect(k.decodeBoardRows(text, Int32Array.of(-1, 1, 0), 1, new Uint16Array(4))).toBe(Status.TRUNCATED);
    expect(k.decodeBoardRows(text, Int32Array.of(0, 2, 3), 1, new Uint16Array(4))).toBe(Status.OVERFLOW);
    expect(k.decodeBoardRows(text, Int32Array.of(0, 1, -1), 1, new Uint16Array(4))).toBe(Status.OVERFLOW);
  });
  it('rowCount larger than the table reads only whole rows', () => {
    const dst = new Uint16Array(2);
    expect(k.decodeBoardRows(enc('BA'), Int32Array.of(0, 1, 1, 7), 5, dst)).toBe(0);
    expect(dst[1]).toBe(64);
  });
  it('multi-MiB text (4 MiB, 2 Mi tiles) in one call', () => {
    const n = 1 << 21;
    const text = new Uint8Array(2 * n).fill(0x2f); // '/'
    const dst = new Uint16Array(n);
    expect(k.decodeBoardRows(text, Int32Array.of(0, n, 0), 1, dst)).toBe(0);
    expect(dst[n - 1]).toBe(4095);
  });
  it('seeded random differential vs the naive oracle', () => {
    const seed = 777;
    const rng = new Prng(seed);
    for (let t = 0; t < 200; t++) {
      const text = Uint8Array.from(rng.bytes(rng.int(2000)), (b) => (rng.int(20) === 0 ? b : ALPHA.charCodeAt(b & 63)));
      const dstLen = rng.int(3000);
      const n = rng.int(20);
      const rows = new Int32Array(n * 3);
      for (let r = 0; r < n; r++) rows.set([rng.int(text.length + 10), rng.int(80), rng.int(dstLen + 10)], r * 3);
      const a = new Uint16Array(dstLen),
        b = new Uint16Array(dstLen);
      const ra = k.decodeBoardRows(text, rows, n, a),
        rb = oracle.decodeBoardRows(text, rows, n, b);
      expect(ra, `seed ${seed} case ${t}`).toBe(rb);
      if (ra >= 0) expect(a, `seed ${seed} case ${t}`).toEqual(b);
    }
  });
});
