// Struct-of-arrays extraction for tables of variable-size records: each record is `fixedWords`
// little-endian 32-bit words followed by a tail whose byte length is the sum of the words
// [lenIndex, lenIndex + lenCount). Words go to columns, tails are packed back to back into one
// blob, so the façade gets a table's columns and string bytes from one pass over the input.
import { STATUS_CORRUPT } from './status';

/**
 * Gathers the whole records that lie in `src` (srcLen bytes, one window of the table), at most
 * `maxRecs` of them: word w of record r goes to cols + (w * colStride + r) * 4, its tail to
 * blob + (bytes of the tails before it), and (blobBase + that offset) to starts + r * 4.
 * Stops at the first record (fixed part plus tail) that does not end inside the window.
 * Returns how many records were gathered and stores the window bytes they used at out[0] and
 * their tail bytes at out[1]; STATUS_CORRUPT when the length words are not inside the fixed part.
 *
 * Invariants: a record is read only after `pos + fixedBytes + tail <= srcLen` was checked in u64
 * (tail lengths are file values up to 4 × 2^32); its tail goes to blob + blobPos with
 * blobPos + tail <= pos + fixedBytes + tail <= srcLen, so a blob region of srcLen bytes holds every
 * tail; column stores stay inside cols[0 .. fixedWords * colStride) with maxRecs <= colStride.
 */
export function gatherRecords(
  src: usize, srcLen: u32, maxRecs: u32,
  fixedWords: u32, lenIndex: u32, lenCount: u32,
  cols: usize, colStride: u32, blob: usize, starts: usize, blobBase: u32, out: usize,
): i32 {
  if (<u64>lenIndex + <u64>lenCount > <u64>fixedWords) return STATUS_CORRUPT;
  const fixedBytes = <u64>fixedWords << 2;
  const stride = <usize>colStride << 2;
  let pos: u64 = 0;
  let blobPos: u32 = 0;
  let r: u32 = 0;
  for (; r < maxRecs; r++) {
    if (pos + fixedBytes > <u64>srcLen) break;
    const rec = src + <usize>pos;
    let tail: u64 = 0;
    for (let k: u32 = 0; k < lenCount; k++) tail += <u64>load<u32>(rec + (<usize>(lenIndex + k) << 2));
    if (pos + fixedBytes + tail > <u64>srcLen) break;
    // Column w of record r lives at cols + (w * colStride + r) * 4: one store per column, stride apart.
    let dst = cols + (<usize>r << 2);
    for (let w: u32 = 0; w < fixedWords; w++) {
      store<u32>(dst, load<u32>(rec + (<usize>w << 2)));
      dst += stride;
    }
    memory.copy(blob + blobPos, rec + <usize>fixedBytes, <usize>tail);
    store<u32>(starts + (<usize>r << 2), blobBase + blobPos);
    blobPos += <u32>tail;
    pos += fixedBytes + tail;
  }
  store<u32>(out, <u32>pos);
  store<u32>(out, blobPos, 4);
  return <i32>r;
}
