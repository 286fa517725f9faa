// zlib (RFC 1950) + DEFLATE (RFC 1951) inflater, written from the two RFCs. The whole output
// buffer is the window (the caller knows the inflated size), so a match copies from earlier in
// `dst` and nothing is kept between calls but the fixed-code tables. Twin of pako on the TS side
// (src/kernels/js/inflate.ts); the contract is Kernels.inflateZlib in src/kernels/types.ts.
//
// Invariants, relied on by every load and store below:
// - Input is read only inside [src, src + srcLen): an 8-byte load happens only when
//   ip + 8 <= inEnd; past the end the bit buffer is fed virtual zero bytes (ip keeps counting),
//   and a stream that has consumed any of them fails with TRUNCATED.
// - Output is written only inside [dst, dst + dstLen): a literal checks op < outEnd, a match
//   checks len <= outEnd - op before copying, and the word-at-a-time copies (which may write up
//   to 15 bytes past the match) run only when the match plus that slack fits.
// - A match reads only [dst, op): dist <= op - dst is checked first.
// - Table builds check over-subscribed and incomplete codes, so every table slot the decoder can
//   index is written, and a subtable never passes its region (checked against its capacity).

import { adler32 } from './adler32';
import {
  STATUS_BAD_CHECKSUM,
  STATUS_BAD_DEFLATE_DATA,
  STATUS_BAD_HUFFMAN_CODE,
  STATUS_BAD_ZLIB_HEADER,
  STATUS_OVERFLOW,
  STATUS_SHORT_OUTPUT,
  STATUS_TRUNCATED,
} from './status';

// ── Table entries (u32) ─────────────────────────────────────────────────────────────────────
// bits 0..7   bits to drop for this entry: code length (at this table level) + extra bits
// bits 8..11  code length at this level (extra bits = bits 0..7 minus this), or, in a subtable
//             pointer, the subtable's index width
// bits 12..15 kind flags (none set: a length or distance base)
// bits 16..31 literal byte, length/distance base, code-length symbol, or subtable offset
// @ts-ignore: decorator
@inline const LITERAL: u32 = 0x8000;
// @ts-ignore: decorator
@inline const SUBTABLE: u32 = 0x4000;
// @ts-ignore: decorator
@inline const END_OF_BLOCK: u32 = 0x2000;
// @ts-ignore: decorator
@inline const INVALID: u32 = 0x1000;

// Primary table widths: a literal/length code of ≤ 10 bits and a distance code of ≤ 8 bits is
// found in one lookup; longer codes (rare: they are the rare symbols) take a second one.
// @ts-ignore: decorator
@inline const LITLEN_ROOT: u32 = 10;
// @ts-ignore: decorator
@inline const DIST_ROOT: u32 = 8;
// @ts-ignore: decorator
@inline const CODELEN_ROOT: u32 = 7;
// Entries per table, primary + subtables. The bound for 286 symbols of ≤ 15 bits behind a 10-bit
// root is 1332 and for 30 behind 8 bits 400-odd; build() checks anyway, so these only need to be
// at least that.
// @ts-ignore: decorator
@inline const LITLEN_ENTRIES: u32 = 2048;
// @ts-ignore: decorator
@inline const DIST_ENTRIES: u32 = 1024;
// @ts-ignore: decorator
@inline const CODELEN_ENTRIES: u32 = 128;

// Zero-initialised static memory (no data segment): the tables and the build scratch.
const litlenTable = memory.data(LITLEN_ENTRIES << 2, 16);
const distTable = memory.data(DIST_ENTRIES << 2, 16);
const fixedLitlenTable = memory.data(1 << (LITLEN_ROOT + 2), 16);
const fixedDistTable = memory.data(1 << (DIST_ROOT + 2), 16);
const codelenTable = memory.data(CODELEN_ENTRIES << 2, 16);
// Per-symbol entry templates (kind, base, extra bits) for 288 literal/length and 32 distance symbols.
const litlenInfo = memory.data(288 << 2, 16);
const distInfo = memory.data(32 << 2, 16);
const codelenInfo = memory.data(19 << 2, 16);
// Code lengths of the block being read: literal/length then distance, 286 + 30 at most (288 + 32 for the fixed code).
const lengths = memory.data(320, 16);
const lengthCount = memory.data(16 << 2, 16);
const sortedSymbols = memory.data(288 << 1, 16);
const lengthOffsets = memory.data(16 << 2, 16);
// RFC 1951 §3.2.7: the order the code-length code lengths are stored in.
const CODELEN_ORDER = memory.data<u8>([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]);

let tablesReady = false;

/** Fills the per-symbol templates and the fixed-code tables, once per instance. */
function prepare(): void {
  // Literals 0..255, end-of-block 256, lengths 257..285 (RFC 1951 §3.2.5), 286/287 invalid.
  for (let s: u32 = 0; s < 256; s++) store<u32>(litlenInfo + (s << 2), LITERAL | (s << 16));
  store<u32>(litlenInfo + (256 << 2), END_OF_BLOCK);
  let base: u32 = 3;
  for (let i: u32 = 0; i < 29; i++) {
    // Codes 257..264 have no extra bits, then each group of four one more, up to 5.
    const extra: u32 = i < 8 ? 0 : (i - 4) >> 2;
    // Code 285 is 258 with no extra bits, not the 259 the progression would give.
    const entry = i == 28 ? 258 << 16 : (base << 16) | extra;
    store<u32>(litlenInfo + ((257 + i) << 2), entry);
    base += 1 << extra;
  }
  store<u32>(litlenInfo + (286 << 2), INVALID);
  store<u32>(litlenInfo + (287 << 2), INVALID);
  // Distances 0..29: two per extra-bit count from 4 on (1, 2, 3, 4, 5–6, 7–8, …), 30/31 invalid.
  base = 1;
  for (let i: u32 = 0; i < 30; i++) {
    const extra: u32 = i < 4 ? 0 : (i - 2) >> 1;
    store<u32>(distInfo + (i << 2), (base << 16) | extra);
    base += 1 << extra;
  }
  store<u32>(distInfo + (30 << 2), INVALID);
  store<u32>(distInfo + (31 << 2), INVALID);
  for (let s: u32 = 0; s < 19; s++) store<u32>(codelenInfo + (s << 2), s << 16);
  // The fixed code (§3.2.6): 8, 9, 7, 8 bits for 0–143, 144–255, 256–279, 280–287; distances 5 bits.
  for (let s: u32 = 0; s < 288; s++) store<u8>(lengths + s, s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8);
  build(lengths, 288, litlenInfo, fixedLitlenTable, LITLEN_ROOT, 1 << LITLEN_ROOT, false);
  memory.fill(lengths, 5, 32);
  build(lengths, 32, distInfo, fixedDistTable, DIST_ROOT, 1 << DIST_ROOT, false);
  tablesReady = true;
}

/** `code` (the low `len` bits, first bit most significant) reversed: DEFLATE sends Huffman codes MSB first into an LSB-first stream. */
// @ts-ignore: decorator
@inline function reverseBits(code: u32, len: u32): u32 {
  let v = code;
  v = ((v & 0x5555) << 1) | ((v >> 1) & 0x5555);
  v = ((v & 0x3333) << 2) | ((v >> 2) & 0x3333);
  v = ((v & 0x0F0F) << 4) | ((v >> 4) & 0x0F0F);
  v = ((v & 0x00FF) << 8) | ((v >> 8) & 0x00FF);
  return v >> (16 - len);
}

/**
 * Builds the decoding table for the canonical Huffman code whose `n` code lengths (0..15, 0 = the
 * symbol is absent) are the bytes at `lens` (RFC 1951 §3.2.2). `info` holds each symbol's entry
 * template; `root` is the primary index width; `capacity` bounds primary + subtables, in entries.
 * An incomplete code is refused unless `lenient` and it is a single 1-bit code (one distance
 * code), or empty (no distance codes at all); the unused slots then decode as INVALID, as zlib
 * does. Returns 0 or STATUS_BAD_HUFFMAN_CODE.
 */
function build(lens: usize, n: u32, info: usize, table: usize, root: u32, capacity: u32, lenient: bool): i32 {
  memory.fill(lengthCount, 0, 16 << 2);
  for (let s: u32 = 0; s < n; s++) {
    const at = lengthCount + (<usize>load<u8>(lens + s) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  // Kraft: `left` is the code space still free at each length; below zero is over-subscribed.
  let left: i32 = 1;
  let maxLen: u32 = 0;
  for (let len: u32 = 1; len <= 15; len++) {
    const count = load<u32>(lengthCount + (len << 2));
    left = (left << 1) - <i32>count;
    if (left < 0) return STATUS_BAD_HUFFMAN_CODE;
    if (count != 0) maxLen = len;
  }
  const rootSize: u32 = 1 << root;
  if (left > 0) {
    if (!lenient || maxLen > 1) return STATUS_BAD_HUFFMAN_CODE;
    for (let i: u32 = 0; i < rootSize; i++) store<u32>(table + (i << 2), INVALID);
    if (maxLen == 0) return 0;
  }
  // Symbols sorted by (length, value), a counting sort: canonical codes are assigned in that order.
  const offsets = lengthOffsets;
  let sum: u32 = 0;
  for (let len: u32 = 1; len <= 15; len++) {
    store<u32>(offsets + (len << 2), sum);
    sum += load<u32>(lengthCount + (len << 2));
  }
  for (let s: u32 = 0; s < n; s++) {
    const len = <u32>load<u8>(lens + s);
    if (len == 0) continue;
    const at = offsets + (len << 2);
    const k = load<u32>(at);
    store<u16>(sortedSymbols + (k << 1), <u16>s);
    store<u32>(at, k + 1);
  }
  // Walk the codes in canonical order. lengthCount[len] becomes "codes of this length not yet
  // placed", which sizes each subtable: it holds every code sharing its root-bit prefix, and
  // those are consecutive in canonical order.
  let code: u32 = 0;
  let next: u32 = rootSize; // first free entry after the primary table
  let prefix: u32 = 0xFFFFFFFF;
  let subBase: u32 = 0;
  let subBits: u32 = 0;
  for (let k: u32 = 0; k < sum; k++) {
    const sym = <u32>load<u16>(sortedSymbols + (k << 1));
    const len = <u32>load<u8>(lens + sym);
    const rev = reverseBits(code, len);
    const template = load<u32>(info + (sym << 2));
    if (len <= root) {
      const entry = template + (len << 8) + len;
      for (let i = rev; i < rootSize; i += 1 << len) store<u32>(table + (i << 2), entry);
    } else {
      if ((rev & (rootSize - 1)) != prefix) {
        prefix = rev & (rootSize - 1);
        // Smallest width whose slots the remaining codes of length ≥ len fill from here.
        subBits = len - root;
        let free: i32 = 1 << subBits;
        for (;;) {
          free -= <i32>load<u32>(lengthCount + ((root + subBits) << 2));
          if (free <= 0 || root + subBits >= maxLen) break;
          subBits++;
          free <<= 1;
        }
        if (next + (1 << subBits) > capacity) return STATUS_BAD_HUFFMAN_CODE;
        subBase = next;
        next += 1 << subBits;
        store<u32>(table + (prefix << 2), SUBTABLE | (subBase << 16) | (subBits << 8) | root);
      }
      const subLen = len - root;
      const entry = template + (subLen << 8) + subLen;
      for (let i = rev >> root; i < <u32>(1 << subBits); i += 1 << subLen) store<u32>(table + ((subBase + i) << 2), entry);
    }
    const at = lengthCount + (len << 2);
    store<u32>(at, load<u32>(at) - 1);
    // Next canonical code: one more, shifted left by the step to the next length.
    code++;
    if (k + 1 < sum) code <<= <u32>load<u8>(lens + <u32>load<u16>(sortedSymbols + ((k + 1) << 1))) - len;
  }
  return 0;
}

/**
 * Inflates the zlib stream at `src` (`srcLen` bytes available) into `dst`, which it must fill
 * exactly (`dstLen` bytes). Returns the bytes of `src` the stream occupies (header, blocks and
 * Adler-32; anything after is the caller's), or a negative status: TRUNCATED (input ends first),
 * OVERFLOW (more than dstLen bytes), SHORT_OUTPUT (fewer), BAD_ZLIB_HEADER, BAD_HUFFMAN_CODE,
 * BAD_DEFLATE_DATA, BAD_CHECKSUM. `dst` holds unspecified bytes after a failure.
 */
export function inflateZlib(src: usize, srcLen: usize, dst: usize, dstLen: usize): i32 {
  if (!tablesReady) prepare();
  if (srcLen < 2) return STATUS_TRUNCATED;
  const cmf = <u32>load<u8>(src);
  const flg = <u32>load<u8>(src, 1);
  // RFC 1950 §2.2: method 8 (deflate), window ≤ 2^15, (CMF·256 + FLG) divisible by 31, and no
  // preset dictionary (no zlib writer of level files uses one, and we would not have it).
  if ((cmf & 15) != 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 != 0 || (flg & 0x20) != 0) return STATUS_BAD_ZLIB_HEADER;

  const inEnd = src + srcLen;
  const outEnd = dst + dstLen;
  let ip = src + 2; // next byte to load into the bit buffer; may pass inEnd by virtual zero bytes
  let op = dst;
  // The bit buffer: the low `bits` bits of `buf` are the next bits of the stream, first bit in
  // bit 0. Bits above `bits` are either zero or copies of the bytes at ip (an 8-byte refill
  // loads more than it counts), so OR-ing those bytes in again is harmless.
  let buf: u64 = 0;
  let bits: u32 = 0;
  let final: bool = false;

  while (!final) {
    // ── refill (see below; written out at each use so `buf` and `bits` stay in locals)
    if (bits < 32) {
      if (ip + 8 <= inEnd) {
        buf |= load<u64>(ip) << bits;
        ip += (63 - bits) >> 3;
        bits |= 56;
      } else {
        while (bits <= 56) {
          if (ip < inEnd) buf |= <u64>load<u8>(ip) << bits;
          ip++;
          bits += 8;
        }
        if (ip > inEnd + 16) return STATUS_TRUNCATED;
      }
    }
    final = (buf & 1) != 0;
    const type = <u32>(buf >> 1) & 3;
    buf >>= 3;
    bits -= 3;

    if (type == 0) {
      // Stored (§3.2.4): skip to the byte boundary, give back the whole bytes still buffered,
      // then LEN, NLEN (its one's complement) and LEN raw bytes.
      buf >>= bits & 7;
      bits &= ~(<u32>7);
      ip -= bits >> 3;
      buf = 0;
      bits = 0;
      if (ip + 4 > inEnd) return STATUS_TRUNCATED;
      const len = <u32>load<u16>(ip);
      if ((len ^ <u32>load<u16>(ip, 2)) != 0xFFFF) return STATUS_BAD_DEFLATE_DATA;
      ip += 4;
      if (<usize>len > inEnd - ip) return STATUS_TRUNCATED;
      if (<usize>len > outEnd - op) return STATUS_OVERFLOW;
      memory.copy(op, ip, len);
      ip += len;
      op += len;
      continue;
    }
    if (type == 3) return STATUS_BAD_DEFLATE_DATA;

    let litlen = fixedLitlenTable;
    let dist = fixedDistTable;
    if (type == 2) {
      // Dynamic (§3.2.7): HLIT, HDIST, HCLEN, the code-length code, then the two codes' lengths.
      // The buffer holds ≥ 29 bits here (≥ 32 before the 3-bit header).
      const nLitlen = (<u32>buf & 31) + 257;
      const nDist = (<u32>(buf >> 5) & 31) + 1;
      const nCodelen = (<u32>(buf >> 10) & 15) + 4;
      buf >>= 14;
      bits -= 14;
      // 286/287 and 30/31 exist only to complete the fixed code; a dynamic header may not count them.
      if (nLitlen > 286 || nDist > 30) return STATUS_BAD_HUFFMAN_CODE;
      memory.fill(lengths, 0, 19);
      for (let i: u32 = 0; i < nCodelen; i++) {
        if (bits < 3) {
          if (ip + 8 <= inEnd) {
            buf |= load<u64>(ip) << bits;
            ip += (63 - bits) >> 3;
            bits |= 56;
          } else {
            while (bits <= 56) {
              if (ip < inEnd) buf |= <u64>load<u8>(ip) << bits;
              ip++;
              bits += 8;
            }
            if (ip > inEnd + 16) return STATUS_TRUNCATED;
          }
        }
        store<u8>(lengths + <usize>load<u8>(CODELEN_ORDER + i), <u8>(buf & 7));
        buf >>= 3;
        bits -= 3;
      }
      if (build(lengths, 19, codelenInfo, codelenTable, CODELEN_ROOT, CODELEN_ENTRIES, false) != 0) return STATUS_BAD_HUFFMAN_CODE;
      // Code lengths 0..15, 16 = repeat the previous 3–6 times, 17 = 3–10 zeros, 18 = 11–138
      // zeros; a run may cross from the literal/length lengths into the distance lengths.
      const total = nLitlen + nDist;
      let i: u32 = 0;
      while (i < total) {
        if (bits < 14) {
          if (ip + 8 <= inEnd) {
            buf |= load<u64>(ip) << bits;
            ip += (63 - bits) >> 3;
            bits |= 56;
          } else {
            while (bits <= 56) {
              if (ip < inEnd) buf |= <u64>load<u8>(ip) << bits;
              ip++;
              bits += 8;
            }
            if (ip > inEnd + 16) return STATUS_TRUNCATED;
          }
        }
        const e = load<u32>(codelenTable + ((<u32>buf & 127) << 2));
        const sym = e >> 16;
        buf >>= e & 0xFF;
        bits -= e & 0xFF;
        if (sym < 16) {
          store<u8>(lengths + i, <u8>sym);
          i++;
          continue;
        }
        let repeat: u32;
        let value: u8 = 0;
        if (sym == 16) {
          if (i == 0) return STATUS_BAD_HUFFMAN_CODE;
          value = load<u8>(lengths + i - 1);
          repeat = 3 + (<u32>buf & 3);
          buf >>= 2;
          bits -= 2;
        } else if (sym == 17) {
          repeat = 3 + (<u32>buf & 7);
          buf >>= 3;
          bits -= 3;
        } else {
          repeat = 11 + (<u32>buf & 127);
          buf >>= 7;
          bits -= 7;
        }
        if (repeat > total - i) return STATUS_BAD_HUFFMAN_CODE;
        memory.fill(lengths + i, value, repeat);
        i += repeat;
      }
      // Without an end-of-block code no block could end.
      if (load<u8>(lengths + 256) == 0) return STATUS_BAD_HUFFMAN_CODE;
      litlen = litlenTable;
      dist = distTable;
      if (build(lengths, nLitlen, litlenInfo, litlen, LITLEN_ROOT, LITLEN_ENTRIES, true) != 0) return STATUS_BAD_HUFFMAN_CODE;
      if (build(lengths + nLitlen, nDist, distInfo, dist, DIST_ROOT, DIST_ENTRIES, true) != 0) return STATUS_BAD_HUFFMAN_CODE;
    }

    // ── Huffman-coded data: symbols until end-of-block. The refill before a literal/length
    // symbol guarantees ≥ 20 bits (15-bit code + 5 extra), the one before a distance ≥ 28
    // (15 + 13); an 8-byte refill leaves 56..63.
    for (;;) {
      if (bits < 20) {
        if (ip + 8 <= inEnd) {
          buf |= load<u64>(ip) << bits;
          ip += (63 - bits) >> 3;
          bits |= 56;
        } else {
          while (bits <= 56) {
            if (ip < inEnd) buf |= <u64>load<u8>(ip) << bits;
            ip++;
            bits += 8;
          }
          if (ip > inEnd + 16) return STATUS_TRUNCATED;
        }
      }
      let e = load<u32>(litlen + ((<u32>buf & ((1 << LITLEN_ROOT) - 1)) << 2));
      if (e & SUBTABLE) {
        buf >>= LITLEN_ROOT;
        bits -= LITLEN_ROOT;
        e = load<u32>(litlen + (((e >> 16) + (<u32>buf & ((1 << ((e >> 8) & 15)) - 1))) << 2));
      }
      if (e & LITERAL) {
        if (op >= outEnd) return STATUS_OVERFLOW;
        store<u8>(op, <u8>(e >> 16));
        op++;
        buf >>= e & 0xFF;
        bits -= e & 0xFF;
        continue;
      }
      if (e & (END_OF_BLOCK | INVALID)) {
        if (e & INVALID) return STATUS_BAD_DEFLATE_DATA;
        buf >>= e & 0xFF;
        bits -= e & 0xFF;
        break;
      }
      // Length: base + the extra bits that follow the code.
      let take = e & 0xFF;
      const len: u32 = (e >> 16) + ((<u32>buf & ((1 << take) - 1)) >> ((e >> 8) & 15));
      buf >>= take;
      bits -= take;
      if (bits < 28) {
        if (ip + 8 <= inEnd) {
          buf |= load<u64>(ip) << bits;
          ip += (63 - bits) >> 3;
          bits |= 56;
        } else {
          while (bits <= 56) {
            if (ip < inEnd) buf |= <u64>load<u8>(ip) << bits;
            ip++;
            bits += 8;
          }
          if (ip > inEnd + 16) return STATUS_TRUNCATED;
        }
      }
      e = load<u32>(dist + ((<u32>buf & ((1 << DIST_ROOT) - 1)) << 2));
      if (e & SUBTABLE) {
        buf >>= DIST_ROOT;
        bits -= DIST_ROOT;
        e = load<u32>(dist + (((e >> 16) + (<u32>buf & ((1 << ((e >> 8) & 15)) - 1))) << 2));
      }
      if (e & INVALID) return STATUS_BAD_DEFLATE_DATA;
      take = e & 0xFF;
      const distance: usize = (e >> 16) + ((<u32>buf & ((1 << take) - 1)) >> ((e >> 8) & 15));
      buf >>= take;
      bits -= take;
      if (distance > op - dst) return STATUS_BAD_DEFLATE_DATA;
      if (<usize>len > outEnd - op) return STATUS_OVERFLOW;
      copyMatch(op, distance, len, outEnd);
      op += len;
    }
  }

  // After the last block: to the byte boundary, give back whole buffered bytes, then the
  // Adler-32 of the output, big-endian (RFC 1950 §2.2).
  bits &= ~(<u32>7);
  const end = ip - (bits >> 3);
  if (end > inEnd || inEnd - end < 4) return STATUS_TRUNCATED;
  if (op != outEnd) return STATUS_SHORT_OUTPUT;
  if (bswap<u32>(load<u32>(end)) != adler32(dst, dstLen)) return STATUS_BAD_CHECKSUM;
  return <i32>(end + 4 - src);
}

/**
 * Copies a match of `len` bytes from `distance` bytes back to `op` (the caller checked both
 * against the buffer). Copies may overlap: a distance shorter than the length repeats the last
 * `distance` bytes. Word copies write up to 15 bytes past the match, so they run only when
 * those fit before `outEnd`; those bytes are rewritten by whatever comes next.
 */
// @ts-ignore: decorator
@inline function copyMatch(op: usize, distance: usize, len: u32, outEnd: usize): void {
  let from = op - distance;
  const end = op + <usize>len;
  if (outEnd - end < 16) {
    // Near the end of the output: byte by byte (correct for any overlap).
    for (let p = op; p < end; p++) store<u8>(p, load<u8>(from++));
    return;
  }
  let to = op;
  if (distance >= 16) {
    // Each 16-byte load lies wholly before the store it feeds: no word sees its own writes.
    do {
      v128.store(to, v128.load(from));
      to += 16;
      from += 16;
    } while (to < end);
    return;
  }
  if (distance == 1) {
    memory.fill(to, load<u8>(from), len);
    return;
  }
  if (distance < 8) {
    // Bytes up to op + 8 one at a time; from then on the output from op − distance is periodic
    // with period `distance`, so reading from a whole number of periods back (≥ 8 bytes) gives
    // the same bytes and lets the copy go a word at a time.
    const head = op + 8;
    while (to < head) store<u8>(to++, load<u8>(from++));
    if (to >= end) return;
    from = to - distance * ((8 + distance - 1) / distance);
  }
  do {
    store<u64>(to, load<u64>(from));
    to += 8;
    from += 8;
  } while (to < end);
}
