// Reference kernels: bitstream family (Graal binary tile streams). See src/kernels/types.ts.
import { isOffsetIn, Status } from '../status.js';

export function graalTileStream(src: Uint8Array, offset: number, codeBits: number, dst: Uint16Array): number {
  if (!isOffsetIn(src, offset)) return Status.TRUNCATED;
  if (codeBits < 10 || codeBits > 16) return Status.CORRUPT;
  const mask = (1 << codeBits) - 1;
  const flag = 1 << (codeBits - 1);
  const cap = dst.length;
  const end = src.length;
  let p = offset;
  // `have` valid bits at the bottom of `acc`; at most codeBits - 1 + 8 ≤ 23, so 32-bit ops are exact.
  let acc = 0,
    have = 0;
  let n = 0,
    count = 1,
    dbl = false,
    first = -1;
  let plain = true; // count === 1 and not double: the next code is one literal tile
  while (n < cap) {
    while (have < codeBits) {
      if (p >= end) return Status.TRUNCATED;
      acc |= src[p++]! << have;
      have += 8;
    }
    const code = acc & mask;
    acc >>>= codeBits;
    have -= codeBits;
    if (code & flag) {
      count = code & 0xff;
      dbl = (code & 0x100) !== 0;
      plain = false;
      continue;
    }
    if (plain) {
      dst[n++] = code;
      continue;
    } // the common case: one literal tile
    if (dbl) {
      if (first < 0) {
        first = code;
        continue;
      }
      // A pair needs two free slots; a run that would pass the end is cut short.
      for (let i = 0; i < count && n + 1 < cap; i++) {
        dst[n++] = first;
        dst[n++] = code;
      }
      first = -1;
      dbl = false;
    } else {
      const stop = Math.min(cap, n + count);
      if (stop - n > 8) {
        dst.fill(code, n, stop);
        n = stop;
      } else while (n < stop) dst[n++] = code;
    }
    count = 1;
    plain = true;
  }
  return p - (have >> 3);
}
