// Reference kernels: Snappy compression (the raw block format Parquet's SNAPPY codec stores). See
// src/kernels/types.ts for the contract; assembly/snappy.ts is the same algorithm, byte for byte.
//
// The format: the uncompressed length as a varint, then elements. A literal is a tag byte
// (low bits 00, length − 1 in the upper six bits when below 60, else 60–63 for 1–4 bytes of
// length − 1 after it) and its bytes; a copy repeats earlier output: tag 01 for lengths 4–11 at
// offsets below 2048 (3 bits of length − 4, 3 high bits of the offset, then its low byte), tag 10
// for lengths 1–64 (length − 1 in the upper six bits) with a 2-byte little-endian offset.
//
// The search: the input is cut into 64 KiB blocks (so every offset fits two bytes); within one, a
// table of 2^14 slots keeps the last position of each hash of 4 bytes, a hit that matches is
// extended as far as the bytes agree, and after 32 misses in a row the probe steps over 2 bytes,
// then 3 … so incompressible input costs little (its literals are copied as they are).
import { Status } from '../status.js';

const BLOCK = 1 << 16;
const HASH_BITS = 14;
const HASH_MUL = 0x1e35a7bd;

/** The most bytes a Snappy block of `n` input bytes can take (the preamble and literal tags included). */
export function snappyBound(n: number): number {
  return 32 + n + Math.floor(n / 6);
}

export function snappyCompress(src: Uint8Array, dst: Uint8Array): number {
  const n = src.length;
  if (n > 0xffffffff || dst.length < snappyBound(n)) return Status.OVERFLOW;
  let o = 0;
  for (let v = n; ; v = Math.floor(v / 128)) {
    if (v < 128) {
      dst[o++] = v;
      break;
    }
    dst[o++] = (v & 0x7f) | 0x80;
  }
  // Slots hold position + 1 (0: empty); a slot from an earlier block is before `start`: a miss.
  const table = new Uint32Array(1 << HASH_BITS);
  const load32 = (p: number) => (src[p]! | (src[p + 1]! << 8) | (src[p + 2]! << 16) | (src[p + 3]! << 24)) >>> 0;
  for (let start = 0; start < n; start += BLOCK) {
    const end = Math.min(n, start + BLOCK);
    let literal = start;
    let i = start;
    let skip = 32;
    while (i + 4 <= end) {
      const v = load32(i);
      const h = Math.imul(v, HASH_MUL) >>> (32 - HASH_BITS);
      const slot = table[h]!;
      table[h] = i + 1;
      const cand = slot - 1;
      if (slot === 0 || cand < start || load32(cand) !== v) {
        i += skip >>> 5;
        skip++;
        continue;
      }
      let len = 4;
      while (i + len < end && src[cand + len] === src[i + len]) len++;
      o = emitLiteral(src, literal, i, dst, o);
      o = emitCopy(i - cand, len, dst, o);
      i += len;
      literal = i;
      skip = 32;
    }
    o = emitLiteral(src, literal, end, dst, o);
  }
  return o;
}

function emitLiteral(src: Uint8Array, from: number, to: number, dst: Uint8Array, o: number): number {
  const len = to - from;
  if (len === 0) return o;
  const m = len - 1;
  if (m < 60) dst[o++] = m << 2;
  else if (m < 0x100) {
    dst[o++] = 60 << 2;
    dst[o++] = m;
  } else {
    // A block is 64 KiB: two bytes of length always suffice.
    dst[o++] = 61 << 2;
    dst[o++] = m & 0xff;
    dst[o++] = m >>> 8;
  }
  dst.set(src.subarray(from, to), o);
  return o + len;
}

function emitCopy(offset: number, len: number, dst: Uint8Array, o: number): number {
  // Copies longer than 64 go as 64s; one of 60 first when 65–67 would otherwise be left (a copy is ≥ 4).
  while (len >= 68) {
    o = copy2(offset, 64, dst, o);
    len -= 64;
  }
  if (len > 64) {
    o = copy2(offset, 60, dst, o);
    len -= 60;
  }
  if (len <= 11 && offset < 2048) {
    dst[o++] = 1 | ((len - 4) << 2) | ((offset >>> 8) << 5);
    dst[o++] = offset & 0xff;
    return o;
  }
  return copy2(offset, len, dst, o);
}

function copy2(offset: number, len: number, dst: Uint8Array, o: number): number {
  dst[o++] = 2 | ((len - 1) << 2);
  dst[o++] = offset & 0xff;
  dst[o++] = offset >>> 8;
  return o;
}
