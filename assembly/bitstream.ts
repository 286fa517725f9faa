// Graal binary tile stream: LSB-first 12- or 13-bit codes with single and double run codes,
// expanded into exactly `cap` u16 tiles. See src/formats/graal/README.md § "Tile stream".
// Invariants: reads stay inside [src, src+srcLen), writes inside [dst, dst+2·cap+16) (the binding
// pads the destination: run fills store whole vectors and may run up to 7 tiles past their end,
// into cells a later code overwrites or into the padding); no allocation.

import { STATUS_CORRUPT, STATUS_TRUNCATED } from './status';

/**
 * Decodes one tile stream at `src` (srcLen bytes) into `cap` u16 tiles at `dst`.
 * Returns the number of bytes the stream used (the next section starts there), or
 * STATUS_TRUNCATED when the input ends first, STATUS_CORRUPT for a code width outside 10..16.
 */
export function graalTileStream(src: usize, srcLen: usize, codeBits: u32, dst: usize, cap: u32): i32 {
  if (codeBits < 10 || codeBits > 16) return STATUS_CORRUPT;
  const mask: u64 = (<u64>1 << codeBits) - 1;
  const flag: u32 = <u32>1 << (codeBits - 1);
  const end = src + srcLen;
  let p = src;
  // Bit accumulator: `have` valid bits at the bottom of `acc` (at most 63); bits above `have`
  // may hold look-ahead bytes that the next refill ORs over with the same values.
  let acc: u64 = 0;
  let have: u32 = 0;
  let n: u32 = 0; // tiles written so far
  let count: u32 = 1; // run length of the next tile (or pair)
  let dbl = false;
  let first: i32 = -1; // first tile of a pending double run
  let plain = true; // count == 1 and not double: the next code is one literal tile
  while (n < cap) {
    if (have < codeBits) {
      if (p + 8 <= end) {
        // Branch-free refill to 56..63 bits: take whole bytes while they fit in the 64-bit word.
        acc |= load<u64>(p) << have;
        p += (63 - have) >> 3;
        have |= 56;
      } else {
        while (have < codeBits) {
          if (p >= end) return STATUS_TRUNCATED;
          acc |= <u64>load<u8>(p) << have;
          p++;
          have += 8;
        }
      }
    }
    const code = <u32>(acc & mask);
    acc >>= codeBits;
    have -= codeBits;
    if (code & flag) {
      count = code & 0xFF;
      dbl = (code & 0x100) != 0;
      plain = false;
      continue;
    }
    if (plain) { // the common case: one literal tile
      store<u16>(dst + (<usize>n << 1), <u16>code);
      n++;
      continue;
    }
    if (dbl) {
      if (first < 0) { first = <i32>code; continue; }
      // A pair needs two free slots; a run that would pass the end is cut short.
      let pairs = (cap - n) >> 1;
      if (count < pairs) pairs = count;
      const pair = i32x4.splat(<i32>(<u32>first | (code << 16)));
      // Eight tiles per store; cells past the run's end are rewritten by later codes (or padding).
      for (let i: u32 = 0; i < pairs; i += 4) v128.store(dst + (<usize>(n + (i << 1)) << 1), pair);
      n += pairs << 1;
      first = -1;
      dbl = false;
    } else {
      let k = cap - n;
      if (count < k) k = count;
      const eight = i16x8.splat(<i16>code);
      for (let i: u32 = 0; i < k; i += 8) v128.store(dst + (<usize>(n + i) << 1), eight);
      n += k;
    }
    count = 1;
    plain = true;
  }
  // Whole bytes fetched minus whole bytes still unread in the accumulator.
  return <i32>(p - src) - <i32>(have >> 3);
}
