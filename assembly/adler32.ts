// Adler-32 (RFC 1950 §8.2), the check value after a zlib stream: a = 1 + Σ bytes, b = Σ of the
// running a after each byte, both mod 65521. Used by assembly/inflate.ts over the whole output.

// @ts-ignore: decorator
@inline const ADLER_MOD: u64 = 65521;
// Bytes per vector run before the sums are folded into 64 bits: 5536 = 346 steps of 16, and the
// largest lane sum (the running total of the per-lane byte sums, ≤ 346² / 2 × 1020) stays < 2^31.
// @ts-ignore: decorator
@inline const RUN_BYTES: usize = 5536;

/** Adler-32 of `len` bytes at `ptr`. */
export function adler32(ptr: usize, len: usize): u32 {
  let a: u64 = 1;
  let b: u64 = 0;
  let p = ptr;
  // Weight of byte i of a 16-byte step in b: it is added to the running a for itself and the
  // 15 − i bytes after it in the step, i.e. 16 − i times.
  const weightsLow = i16x8(16, 15, 14, 13, 12, 11, 10, 9);
  const weightsHigh = i16x8(8, 7, 6, 5, 4, 3, 2, 1);
  let left = len;
  while (left >= 16) {
    const run = left < RUN_BYTES ? left & ~(<usize>15) : RUN_BYTES;
    const end = p + run;
    // Per lane: byteSums = bytes so far in this run, prefixSums = Σ of byteSums before each
    // step, weighted = Σ of the in-step weights. Over a run of n steps starting from (a, b):
    // b' = b + 16·n·a + 16·Σprefix + Σweighted, a' = a + Σbytes.
    let byteSums = i32x4.splat(0);
    let prefixSums = i32x4.splat(0);
    let weighted = i32x4.splat(0);
    while (p < end) {
      const v = v128.load(p);
      prefixSums = i32x4.add(prefixSums, byteSums);
      byteSums = i32x4.add(byteSums, i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(v)));
      const lo = i16x8.extend_low_i8x16_u(v);
      const hi = i16x8.extend_high_i8x16_u(v);
      weighted = i32x4.add(weighted, i32x4.add(i32x4.dot_i16x8_s(lo, weightsLow), i32x4.dot_i16x8_s(hi, weightsHigh)));
      p += 16;
    }
    const steps = <u64>(run >> 4);
    b += 16 * steps * a + 16 * laneSum(prefixSums) + laneSum(weighted);
    a += laneSum(byteSums);
    a %= ADLER_MOD;
    b %= ADLER_MOD;
    left -= run;
  }
  const end = p + left;
  while (p < end) {
    a += <u64>load<u8>(p++);
    b += a;
  }
  a %= ADLER_MOD;
  b %= ADLER_MOD;
  return <u32>((b << 16) | a);
}

// @ts-ignore: decorator
@inline function laneSum(v: v128): u64 {
  return <u64>i32x4.extract_lane(v, 0) + <u64>i32x4.extract_lane(v, 1) + <u64>i32x4.extract_lane(v, 2) + <u64>i32x4.extract_lane(v, 3);
}
