// Graal .nw BOARD rows: pairs of characters from the 64-letter alphabet A–Z a–z 0–9 + /, high
// six bits first, into u16 tile ids. One call decodes every row of a level (a row table built by
// the TS parser), so the per-call cost is paid once per level; SIMD takes 16 letters at a time.
// See src/formats/graal/README.md.
// Invariants: each row is checked against both buffers before it is decoded; no allocation.

import { STATUS_OVERFLOW, STATUS_TRUNCATED } from './status';

// Letter → 6-bit value for bytes < 128; 0x40 marks a byte outside the alphabet.
const TABLE = memory.data<u8>([
  64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
  64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
  64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 62, 64, 64, 64, 63,
  52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 64, 64, 64, 64, 64, 64,
  64, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
  15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 64, 64, 64, 64, 64,
  64, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
  41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 64, 64, 64, 64, 64,
]);

// @ts-ignore: decorator
@inline function letter(b: u32): u32 {
  return b < 128 ? <u32>load<u8>(TABLE + b) : 64;
}

/**
 * Decodes `rowCount` rows. Row r is three i32 at rows + 12r: text offset, tile count, index in
 * dst. Its 2·count characters at text+offset become dst[index .. index+count) (u16).
 * A character outside the alphabet counts as 0 and is counted.
 * Returns the number of such characters, STATUS_TRUNCATED when a row runs past the text,
 * STATUS_OVERFLOW when it runs past dst (dstLen tiles).
 */
export function decodeBoardRows(text: usize, textLen: u32, rows: usize, rowCount: u32, dst: usize, dstLen: u32): i32 {
  let bad: u32 = 0;
  for (let r: u32 = 0; r < rowCount; r++) {
    const row = rows + <usize>r * 12;
    const off = load<i32>(row);
    const count = load<i32>(row, 4);
    const at = load<i32>(row, 8);
    if (off < 0 || count < 0 || <u64>off + (<u64>count << 1) > <u64>textLen) return STATUS_TRUNCATED;
    if (at < 0 || <u64>at + <u64>count > <u64>dstLen) return STATUS_OVERFLOW;
    let p = text + <usize>off;
    let q = dst + (<usize>at << 1);
    const end = q + (<usize>count << 1);
    // 16 letters → 8 tiles per step while a whole vector fits in the row.
    while (q + 16 <= end) {
      const v = v128.load(p);
      const upper = v128.and(i8x16.ge_u(v, i8x16.splat(65)), i8x16.le_u(v, i8x16.splat(90)));
      const lower = v128.and(i8x16.ge_u(v, i8x16.splat(97)), i8x16.le_u(v, i8x16.splat(122)));
      const digit = v128.and(i8x16.ge_u(v, i8x16.splat(48)), i8x16.le_u(v, i8x16.splat(57)));
      const plus = i8x16.eq(v, i8x16.splat(43));
      const slash = i8x16.eq(v, i8x16.splat(47));
      // Each lane matches at most one class, so OR-ing the masked values selects one (bad letters → 0).
      let val = v128.and(upper, i8x16.sub(v, i8x16.splat(65)));
      val = v128.or(val, v128.and(lower, i8x16.sub(v, i8x16.splat(71))));
      val = v128.or(val, v128.and(digit, i8x16.add(v, i8x16.splat(4))));
      val = v128.or(val, v128.and(plus, i8x16.splat(62)));
      val = v128.or(val, v128.and(slash, i8x16.splat(63)));
      const valid = v128.or(v128.or(upper, lower), v128.or(digit, v128.or(plus, slash)));
      bad += <u32>popcnt<i32>(~i8x16.bitmask(valid) & 0xFFFF);
      // Little-endian u16 lane = first letter (high six bits) | second letter << 8.
      v128.store(q, v128.or(i16x8.shl(v128.and(val, i16x8.splat(0x3F)), 6), i16x8.shr_u(val, 8)));
      p += 16;
      q += 16;
    }
    while (q < end) {
      const hi = letter(load<u8>(p));
      const lo = letter(load<u8>(p, 1));
      // 64 (bit 6) marks a bad letter: mask it to 0 and count it.
      bad += ((hi >> 6) & 1) + ((lo >> 6) & 1);
      store<u16>(q, <u16>(((hi & 63) << 6) | (lo & 63)));
      p += 2;
      q += 2;
    }
  }
  return <i32>bad;
}
