// Checksum family: known answers, edge sizes, and a seeded differential run of each kernel set
// against the naive oracle (helpers/oracles.ts).
import { describe, expect, it } from 'vitest';
import { KERNEL_SETS } from '../helpers/kernels.js';
import * as oracle from '../helpers/oracles.js';
import { Prng } from '../helpers/prng.js';

describe.each(KERNEL_SETS)('sumBytes [%s]', (_name, k) => {
  it('known answers', () => {
    expect(k.sumBytes(new Uint8Array(0))).toBe(0);
    expect(k.sumBytes(Uint8Array.of(7))).toBe(7);
    expect(k.sumBytes(new Uint8Array(1000).fill(255))).toBe(255000);
  });
  it('wraps mod 2^32 (17 MiB of 0xFF)', () => {
    const n = 17 << 20;
    expect(k.sumBytes(new Uint8Array(n).fill(255))).toBe((n * 255) % 2 ** 32);
  });
  it('edge lengths around the 64-byte vector block', () => {
    const rng = new Prng(7);
    for (const n of [1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 1023, 4097]) {
      const b = rng.bytes(n);
      let s = 0;
      for (const v of b) s += v;
      expect(k.sumBytes(b), `length ${n}`).toBe(s);
    }
  });
  it('unaligned subarrays', () => {
    const b = new Prng(9).bytes(5000);
    for (const start of [1, 3, 7, 13]) expect(k.sumBytes(b.subarray(start, start + 1000))).toBe(oracle.sumBytes(b.subarray(start, start + 1000)));
  });
  it('seeded random differential vs the naive oracle', () => {
    const seed = 1234;
    const rng = new Prng(seed);
    for (let t = 0; t < 200; t++) {
      const b = rng.bytes(rng.int(3000));
      expect(k.sumBytes(b), `seed ${seed} case ${t}`).toBe(oracle.sumBytes(b));
    }
  });
});
