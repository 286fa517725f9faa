// Struct-of-arrays extraction for tables of variable-size records: each record is `fixedWords`
// little-endian 32-bit words followed by a tail whose byte length is the sum of the words
// [lenIndex, lenIndex + lenCount). Words go to columns (column w at cols + w*count*4) and the
// offset of each record's tail to `tails`, so the façade can slice strings without re-walking.

import { STATUS_CORRUPT, STATUS_TRUNCATED } from './status';

/**
 * `src` points at the first record; `srcLen` bytes are readable from there. Tail offsets and the
 * result are reported as `base` + offset from `src` (the binding copies only the table's part of
 * the input and passes where it started). Returns base + the offset just past the last record,
 * STATUS_TRUNCATED when a record or its tail does not fit in srcLen, or STATUS_CORRUPT when the
 * length words are not inside the fixed part.
 *
 * Invariants: a record's fixed part is read only after `pos + fixedBytes <= srcLen` was checked
 * (u64 arithmetic: tail lengths are file values up to 4 × 2^32); a column store stays inside
 * cols[0 .. fixedWords*count) and a tail store inside tails[0 .. count), both sized by the binding.
 */
export function gatherRecords(
  src: usize, srcLen: u32, count: u32,
  fixedWords: u32, lenIndex: u32, lenCount: u32,
  cols: usize, tails: usize, base: u32,
): i32 {
  if (<u64>lenIndex + <u64>lenCount > <u64>fixedWords) return STATUS_CORRUPT;
  let pos: u64 = 0;
  const fixedBytes = <u64>fixedWords << 2;
  const stride = <usize>count << 2;
  for (let r: u32 = 0; r < count; r++) {
    if (pos + fixedBytes > <u64>srcLen) return STATUS_TRUNCATED;
    const rec = src + <usize>pos;
    // Column w of record r lives at cols + (w * count + r) * 4: one store per column, stride apart.
    let out = cols + (<usize>r << 2);
    for (let w: u32 = 0; w < fixedWords; w++) {
      store<u32>(out, load<u32>(rec + (<usize>w << 2)));
      out += stride;
    }
    let tail: u64 = 0;
    for (let k: u32 = 0; k < lenCount; k++) tail += <u64>load<u32>(rec + (<usize>(lenIndex + k) << 2));
    pos += fixedBytes;
    store<u32>(tails + (<usize>r << 2), <u32>(pos + <u64>base));
    pos += tail;
  }
  if (pos > <u64>srcLen) return STATUS_TRUNCATED;
  return <i32>(pos + <u64>base);
}
