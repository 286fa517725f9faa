// Teeworlds int-packed strings (group, layer and envelope names): 4 bytes per int, big-endian,
// each byte stored as char + 128; the last byte of the last int is a forced terminator.
// See README.md §Strings.

/** Bytes of an int-packed name up to the first NUL (the forced last byte is never read). */
export function unpackName(ints: ArrayLike<number>, start: number, count: number): Uint8Array {
  const out = new Uint8Array(count * 4);
  let n = 0;
  outer: for (let i = 0; i < count; i++) {
    const v = ints[start + i] ?? 0;
    for (let shift = 24; shift >= 0; shift -= 8) {
      if (i === count - 1 && shift === 0) break outer; // the terminator slot
      const c = ((v >>> shift) - 128) & 0xff;
      if (c === 0) break outer;
      out[n++] = c;
    }
  }
  return out.slice(0, n);
}

/** Packs `bytes` (at most 4·count−1 are kept) into `count` ints at `dst[start…]`, exactly as the game writes them. */
export function packName(bytes: Uint8Array, dst: Int32Array, start: number, count: number): void {
  for (let i = 0; i < count; i++) {
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const at = i * 4 + k;
      const c = at < bytes.length && at < count * 4 - 1 ? bytes[at]! : 0;
      v = (v << 8) | ((c + 128) & 0xff);
    }
    dst[start + i] = v;
  }
  // The terminator byte is stored raw (0), not biased.
  dst[start + count - 1] = dst[start + count - 1]! & ~0xff;
}
