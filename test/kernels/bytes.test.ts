// Byte-rewriting family (replaceByte): known answers, edge sizes around the vector step and the
// binding's window, several MiB, and a seeded differential run (wasm vs js).
import { describe, expect, it } from 'vitest';
import { jsKernels } from '../../src/kernels/js/index.js';
import { KERNEL_SETS } from '../helpers/kernels.js';
import { Prng } from '../helpers/prng.js';

/** Runs the kernel on a copy; returns its count and the rewritten bytes. */
function run(k: typeof jsKernels, src: Uint8Array, from: number, to: number) {
  const buf = src.slice();
  return { n: k.replaceByte(buf, from, to), bytes: [...buf] };
}

/** Bytes that are `hit` with probability 1/`rate`, else random. */
function sparse(rng: Prng, n: number, hit: number, rate: number): Uint8Array {
  const b = rng.bytes(n);
  for (let i = 0; i < n; i++) if (rng.int(rate) === 0) b[i] = hit;
  return b;
}

describe.each(KERNEL_SETS)('replaceByte [%s]', (_name, k) => {
  it('known answers', () => {
    expect(run(k, Uint8Array.of(0xa7, 0x41, 0xa7, 0xa7), 0xa7, 0x0a)).toEqual({ n: 3, bytes: [0x0a, 0x41, 0x0a, 0x0a] });
    expect(run(k, new Uint8Array(0), 1, 2)).toEqual({ n: 0, bytes: [] });
    expect(run(k, Uint8Array.of(5), 5, 5)).toEqual({ n: 1, bytes: [5] });
    expect(run(k, Uint8Array.of(0, 255), 255, 0)).toEqual({ n: 1, bytes: [0, 0] });
  });
  it('a `from` outside 0..255 matches nothing; `to` is stored as a byte', () => {
    expect(run(k, Uint8Array.of(1, 0), 256, 9)).toEqual({ n: 0, bytes: [1, 0] });
    expect(run(k, Uint8Array.of(1, 0), -1, 9)).toEqual({ n: 0, bytes: [1, 0] });
    expect(run(k, Uint8Array.of(1, 0), 1.5, 9)).toEqual({ n: 0, bytes: [1, 0] });
    expect(run(k, Uint8Array.of(1, 0), 1, 0x1ff)).toEqual({ n: 1, bytes: [0xff, 0] });
  });
  it('edge lengths around the 16-byte step and the 64 KB window, unaligned views', () => {
    const rng = new Prng(21);
    for (const n of [1, 15, 16, 17, 31, 32, 33, 65535, 65536, 65537, 131073]) {
      const b = sparse(rng, n + 3, 0xa7, 7);
      expect(run(k, b.subarray(3), 0xa7, 0x0a), `length ${n}`).toEqual(run(jsKernels, b.subarray(3), 0xa7, 0x0a));
    }
  });
  it('writes only inside the view', () => {
    const whole = new Uint8Array(40).fill(7);
    expect(k.replaceByte(whole.subarray(5, 35), 7, 1)).toBe(30);
    expect([...whole.subarray(0, 5), ...whole.subarray(35)]).toEqual(new Array(10).fill(7));
  });
  it('several MiB (5 MiB, a match every ~100 bytes)', () => {
    const b = sparse(new Prng(5), 5 << 20, 0x0d, 100);
    const got = run(k, b, 0x0d, 0x20);
    expect(got).toEqual(run(jsKernels, b, 0x0d, 0x20));
    expect(got.bytes.includes(0x0d)).toBe(false);
  });
  it('seeded random differential vs the reference', () => {
    const seed = 606;
    const rng = new Prng(seed);
    for (let t = 0; t < 200; t++) {
      const from = rng.int(256),
        to = rng.int(256);
      const b = sparse(rng, rng.int(2000), from, 1 + rng.int(20));
      expect(run(k, b, from, to), `seed ${seed} case ${t}`).toEqual(run(jsKernels, b, from, to));
    }
  });
});
