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
  // Whole groups of 4 words: four records at a time, moved by a 4 × 4 SIMD transpose.
  const quadWords = fixedWords & ~3;
  let pos: u64 = 0;
  let blobPos: u32 = 0;
  let r: u32 = 0;
  while (r < maxRecs) {
    const e0 = recordEnd(src, srcLen, pos, fixedBytes, lenIndex, lenCount);
    if (e0 == NO_FIT) break;
    if (r + 4 <= maxRecs && quadWords != 0) {
      const e1 = recordEnd(src, srcLen, e0, fixedBytes, lenIndex, lenCount);
      const e2 = e1 == NO_FIT ? NO_FIT : recordEnd(src, srcLen, e1, fixedBytes, lenIndex, lenCount);
      const e3 = e2 == NO_FIT ? NO_FIT : recordEnd(src, srcLen, e2, fixedBytes, lenIndex, lenCount);
      if (e3 != NO_FIT) {
        const a = src + <usize>pos, b = src + <usize>e0, c = src + <usize>e1, d = src + <usize>e2;
        // Column w, rows r..r+3 are 16 contiguous bytes: one store per column per 4 records.
        let dst = cols + (<usize>r << 2);
        for (let w: u32 = 0; w < quadWords; w += 4) {
          const at = <usize>w << 2;
          const va = v128.load(a + at), vb = v128.load(b + at), vc = v128.load(c + at), vd = v128.load(d + at);
          const ab01 = i32x4.shuffle(va, vb, 0, 4, 1, 5), ab23 = i32x4.shuffle(va, vb, 2, 6, 3, 7);
          const cd01 = i32x4.shuffle(vc, vd, 0, 4, 1, 5), cd23 = i32x4.shuffle(vc, vd, 2, 6, 3, 7);
          v128.store(dst, i32x4.shuffle(ab01, cd01, 0, 1, 4, 5));
          v128.store(dst + stride, i32x4.shuffle(ab01, cd01, 2, 3, 6, 7));
          v128.store(dst + 2 * stride, i32x4.shuffle(ab23, cd23, 0, 1, 4, 5));
          v128.store(dst + 3 * stride, i32x4.shuffle(ab23, cd23, 2, 3, 6, 7));
          dst += stride << 2;
        }
        for (let w: u32 = quadWords; w < fixedWords; w++) {
          const at = <usize>w << 2;
          store<u32>(dst, load<u32>(a + at));
          store<u32>(dst + 4, load<u32>(b + at));
          store<u32>(dst + 8, load<u32>(c + at));
          store<u32>(dst + 12, load<u32>(d + at));
          dst += stride;
        }
        blobPos = packTail(src, pos, e0, fixedBytes, blob, blobPos, starts, r, blobBase);
        blobPos = packTail(src, e0, e1, fixedBytes, blob, blobPos, starts, r + 1, blobBase);
        blobPos = packTail(src, e1, e2, fixedBytes, blob, blobPos, starts, r + 2, blobBase);
        blobPos = packTail(src, e2, e3, fixedBytes, blob, blobPos, starts, r + 3, blobBase);
        r += 4;
        pos = e3;
        continue;
      }
    }
    // One record alone (the window's last few, or fewer than 4 words).
    const rec = src + <usize>pos;
    let dst = cols + (<usize>r << 2);
    for (let w: u32 = 0; w < fixedWords; w++) {
      store<u32>(dst, load<u32>(rec + (<usize>w << 2)));
      dst += stride;
    }
    blobPos = packTail(src, pos, e0, fixedBytes, blob, blobPos, starts, r, blobBase);
    r++;
    pos = e0;
  }
  store<u32>(out, <u32>pos);
  store<u32>(out, blobPos, 4);
  return <i32>r;
}

/** recordEnd's answer for a record that does not end inside the window. */
const NO_FIT: u64 = U64.MAX_VALUE;

/**
 * Where the record at `pos` ends (fixed part plus tail), or NO_FIT when it does not end inside
 * the window; its length words are read only after its fixed part was checked to fit (in u64).
 */
// @ts-ignore: decorator
@inline function recordEnd(src: usize, srcLen: u32, pos: u64, fixedBytes: u64, lenIndex: u32, lenCount: u32): u64 {
  if (pos + fixedBytes > <u64>srcLen) return NO_FIT;
  const rec = src + <usize>pos;
  let tail: u64 = 0;
  for (let k: u32 = 0; k < lenCount; k++) tail += <u64>load<u32>(rec + (<usize>(lenIndex + k) << 2));
  const end = pos + fixedBytes + tail;
  return end > <u64>srcLen ? NO_FIT : end;
}

/** Copies the tail of the record [pos, end) to the blob and notes where it starts; returns the blob's new length. */
// @ts-ignore: decorator
@inline function packTail(src: usize, pos: u64, end: u64, fixedBytes: u64, blob: usize, blobPos: u32, starts: usize, r: u32, blobBase: u32): u32 {
  const tail = <u32>(end - pos - fixedBytes);
  memory.copy(blob + blobPos, src + <usize>(pos + fixedBytes), <usize>tail);
  store<u32>(starts + (<usize>r << 2), blobBase + blobPos);
  return blobPos + tail;
}
