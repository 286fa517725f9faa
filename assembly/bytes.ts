// Byte-wise rewriting of plain byte strings (e.g. the 0xA7 line breaks of binary Graal NPC
// scripts becoming LF before the text is decoded). Knows nothing of what the bytes mean.

/**
 * Replaces every byte `from` in [ptr, ptr+len) by `to`, in place. Returns how many were replaced.
 * Sixteen bytes per step (compare, select, count the mask's bits); the tail is scalar.
 * Reads and writes stay inside [ptr, ptr+len): the vector loop stops at len & ~15.
 */
export function replaceByte(ptr: usize, len: usize, from: u32, to: u32): u32 {
  const f = i8x16.splat(<i8>from);
  const t = i8x16.splat(<i8>to);
  const end16 = ptr + (len & ~(<usize>15));
  const end = ptr + len;
  let p = ptr;
  let n: u32 = 0;
  while (p < end16) {
    const v = v128.load(p);
    const hit = i8x16.eq(v, f);
    const bits = i8x16.bitmask(hit);
    // Most windows have no match: skip the store.
    if (bits) {
      v128.store(p, v128.bitselect(t, v, hit));
      n += <u32>popcnt(bits);
    }
    p += 16;
  }
  while (p < end) {
    if (<u32>load<u8>(p) == (from & 0xFF)) { store<u8>(p, <u8>to); n++; }
    p++;
  }
  return n;
}
