// Checksum summation: the byte sum behind the WAP32 (WWD) checksums. Addition mod 2^32 is
// associative, so the SIMD lanes may wrap freely; the final horizontal sum is the same value
// the scalar loop would produce.

/** Σ bytes[ptr .. ptr+len) mod 2^32. */
export function sumBytes(ptr: usize, len: usize): u32 {
  let acc = i32x4.splat(0);
  let p = ptr;
  const end = ptr + len;
  // 64 bytes per iteration: four widening pairwise adds (u8 → u16 → u32), one lane-wise add.
  const end64 = ptr + (len & ~(<usize>63));
  while (p < end64) {
    const a = i16x8.extadd_pairwise_i8x16_u(v128.load(p));
    const b = i16x8.extadd_pairwise_i8x16_u(v128.load(p, 16));
    const c = i16x8.extadd_pairwise_i8x16_u(v128.load(p, 32));
    const d = i16x8.extadd_pairwise_i8x16_u(v128.load(p, 48));
    // Each u16 lane of a+b+c+d is at most 4 × 510 = 2040: no overflow before widening.
    const s = i16x8.add(i16x8.add(a, b), i16x8.add(c, d));
    acc = i32x4.add(acc, i32x4.extadd_pairwise_i16x8_u(s));
    p += 64;
  }
  let sum: u32 = <u32>(i32x4.extract_lane(acc, 0) + i32x4.extract_lane(acc, 1) + i32x4.extract_lane(acc, 2) + i32x4.extract_lane(acc, 3));
  while (p < end) {
    sum += <u32>load<u8>(p);
    p++;
  }
  return sum;
}
