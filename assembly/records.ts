// Struct-of-arrays extraction for tables of variable-size records: each record is `fixedWords`
// little-endian 32-bit words followed by a tail whose byte length is the sum of the words
// [lenIndex, lenIndex + lenCount). Words go to columns (column w at cols + w*count*4) and the
// offset of each record's tail to `tails`, so the façade can slice strings without re-walking.

import { STATUS_TRUNCATED } from './status';

/**
 * Returns the offset just past the last record, or STATUS_TRUNCATED when a record or its tail
 * does not fit in [0, srcLen). Offsets are relative to src.
 */
export function gatherRecords(
  src: usize, srcLen: u32, offset: u32, count: u32,
  fixedWords: u32, lenIndex: u32, lenCount: u32,
  cols: usize, tails: usize,
): i32 {
  let pos = <u64>offset;
  const fixedBytes = <u64>fixedWords << 2;
  const stride = <usize>count << 2;
  for (let r: u32 = 0; r < count; r++) {
    if (pos + fixedBytes > <u64>srcLen) return STATUS_TRUNCATED;
    const rec = src + <usize>pos;
    let out = cols + (<usize>r << 2);
    for (let w: u32 = 0; w < fixedWords; w++) {
      store<u32>(out, load<u32>(rec + (<usize>w << 2)));
      out += stride;
    }
    let tail: u64 = 0;
    for (let k: u32 = 0; k < lenCount; k++) tail += <u64>load<u32>(rec + (<usize>(lenIndex + k) << 2));
    pos += fixedBytes;
    store<u32>(tails + (<usize>r << 2), <u32>pos);
    pos += tail;
  }
  if (pos > <u64>srcLen) return STATUS_TRUNCATED;
  return <i32>pos;
}
