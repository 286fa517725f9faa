// Snappy compression: the raw block format Parquet's SNAPPY codec stores. The same algorithm as
// src/kernels/js/snappy.ts (its comment describes the format and the search), byte for byte: the
// two sets' outputs are compared in the tests, not only decompressed.

const BLOCK: u32 = 1 << 16;
const HASH_BITS: u32 = 14;
const HASH_MUL: u32 = 0x1e35a7bd;

/**
 * Compresses [src, src+n) into dst, which holds at least 32 + n + n/6 bytes (the caller checks);
 * `table` is 4 << HASH_BITS bytes of scratch, zeroed here. Returns the bytes written.
 */
export function snappyCompress(src: usize, n: u32, dst: usize, table: usize): u32 {
  let o = dst;
  let v = n;
  while (v >= 128) {
    store<u8>(o++, <u8>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  store<u8>(o++, <u8>v);
  memory.fill(table, 0, 4 << HASH_BITS);
  for (let start: u32 = 0; start < n; start += BLOCK) {
    const end: u32 = min(n, start + BLOCK);
    let literal = start;
    let i = start;
    let skip: u32 = 32;
    while (i + 4 <= end) {
      const x = load<u32>(src + i);
      const slotAt = table + (((x * HASH_MUL) >> (32 - HASH_BITS)) << 2);
      const slot = load<u32>(slotAt);
      store<u32>(slotAt, i + 1);
      const cand = slot - 1;
      if (slot == 0 || cand < start || load<u32>(src + cand) != x) {
        i += skip >> 5;
        skip++;
        continue;
      }
      let len: u32 = 4;
      while (i + len < end && load<u8>(src + cand + len) == load<u8>(src + i + len)) len++;
      o = emitLiteral(src + literal, i - literal, o);
      o = emitCopy(i - cand, len, o);
      i += len;
      literal = i;
      skip = 32;
    }
    o = emitLiteral(src + literal, end - literal, o);
  }
  return <u32>(o - dst);
}

function emitLiteral(from: usize, len: u32, o: usize): usize {
  if (len == 0) return o;
  const m = len - 1;
  if (m < 60) store<u8>(o++, <u8>(m << 2));
  else if (m < 0x100) {
    store<u8>(o++, 60 << 2);
    store<u8>(o++, <u8>m);
  } else {
    store<u8>(o++, 61 << 2);
    store<u8>(o++, <u8>(m & 0xff));
    store<u8>(o++, <u8>(m >> 8));
  }
  memory.copy(o, from, len);
  return o + len;
}

function emitCopy(offset: u32, len: u32, o: usize): usize {
  while (len >= 68) {
    o = copy2(offset, 64, o);
    len -= 64;
  }
  if (len > 64) {
    o = copy2(offset, 60, o);
    len -= 60;
  }
  if (len <= 11 && offset < 2048) {
    store<u8>(o++, <u8>(1 | ((len - 4) << 2) | ((offset >> 8) << 5)));
    store<u8>(o++, <u8>(offset & 0xff));
    return o;
  }
  return copy2(offset, len, o);
}

function copy2(offset: u32, len: u32, o: usize): usize {
  store<u8>(o++, <u8>(2 | ((len - 1) << 2)));
  store<u8>(o++, <u8>(offset & 0xff));
  store<u8>(o++, <u8>(offset >> 8));
  return o;
}
