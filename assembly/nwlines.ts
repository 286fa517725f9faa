// Graal .nw line table: the offsets of every line, and the headers of BOARD rows read on the way
// (one trip into memory per level instead of a JS loop over lines). Mirrors
// src/kernels/js/nwlines.ts exactly; see src/kernels/types.ts (splitNwLines) for the contract.
// Invariants: every read stays inside [src, src+len) (the vector LF search stops at the last
// whole 16 bytes); every write is checked against the capacity the caller gave; no allocation.

import { STATUS_OVERFLOW } from './status';

const LF: u32 = 0x0a;
const CR: u32 = 0x0d;
const SPACE: u32 = 0x20;
const LEVEL_SIZE: u32 = 64;
const MAX_LAYER: u32 = 255;

/** The first LF in [p, end), or -1. Sixteen bytes per step while they fit. */
function findLf(p: usize, end: usize): isize {
  const lf = i8x16.splat(<i8>LF);
  while (p + 16 <= end) {
    const bits = i8x16.bitmask(i8x16.eq(v128.load(p), lf));
    if (bits) return <isize>(p + <usize>ctz<i32>(bits));
    p += 16;
  }
  while (p < end) {
    if (<u32>load<u8>(p) == LF) return <isize>p;
    p++;
  }
  return -1;
}

// The header just read: data offset, x, y, w, layer (module globals, not an allocation).
let hData: u32 = 0;
let hX: u32 = 0;
let hY: u32 = 0;
let hW: u32 = 0;
let hLayer: u32 = 0;

/** `BOARD x y w layer ` at src+start (numbers of 1–6 digits, each before a space), as the servers accept it. */
function boardHeader(src: usize, start: u32, limit: u32): bool {
  if (limit - start < 6) return false;
  const q = src + start;
  // "BOARD " as a little-endian u32 + u16.
  if (load<u32>(q) != 0x52414f42 || load<u16>(q, 4) != 0x2044) return false;
  let p = start + 6;
  for (let k = 1; k <= 4; k++) {
    let n: u32 = 0;
    let digits: u32 = 0;
    while (p < limit && digits < 6) {
      const d = <u32>load<u8>(src + p) - 0x30;
      if (d > 9) break;
      n = n * 10 + d;
      p++;
      digits++;
    }
    if (digits == 0 || p >= limit || <u32>load<u8>(src + p) != SPACE) return false;
    if (k == 1) hX = n;
    else if (k == 2) hY = n;
    else if (k == 3) hW = n;
    else hLayer = n;
    p++;
  }
  hData = p;
  return hX < LEVEL_SIZE && hY < LEVEL_SIZE && hW >= 1 && hX + hW <= LEVEL_SIZE && hLayer <= MAX_LAYER;
}

/**
 * Splits src[0, len) at LF into lines (starts/ends: `cap` i32 each); with `trust`, a line that is
 * a well-formed BOARD header followed by exactly 2w data bytes and LF (or CR LF) is taken whole
 * without searching its data, and recorded in `boards` (5 i32 each: line index, data offset, w,
 * layer, y·64 + x; `boardCap` rows). When the first line ends in CR, lines ending in CR lose it.
 * Writes the board row count to out[0] and 1/0 (CRLF) to out[1].
 * Returns the line count, or STATUS_OVERFLOW when a table is full.
 */
export function splitNwLines(src: usize, len: u32, trust: u32, starts: usize, ends: usize, cap: u32, boards: usize, boardCap: u32, out: usize): i32 {
  let count: u32 = 0;
  let boardCount: u32 = 0;
  let p: u32 = 0;
  while (p < len) {
    let lf: i64 = -1;
    if (trust && <u32>load<u8>(src + p) == 0x42 && boardHeader(src, p, len)) {
      const q = <u64>hData + (<u64>hW << 1);
      if (q < <u64>len && <u32>load<u8>(src + <usize>q) == LF) lf = <i64>q;
      else if (q + 1 < <u64>len && <u32>load<u8>(src + <usize>q) == CR && <u32>load<u8>(src + <usize>q + 1) == LF) lf = <i64>q + 1;
      if (lf != -1) {
        if (boardCount == boardCap) return STATUS_OVERFLOW;
        const b = boards + <usize>boardCount * 20;
        store<u32>(b, count);
        store<u32>(b, hData, 4);
        store<u32>(b, hW, 8);
        store<u32>(b, hLayer, 12);
        store<u32>(b, hY * LEVEL_SIZE + hX, 16);
        boardCount++;
      }
    }
    if (lf == -1) {
      const found = findLf(src + p, src + len);
      lf = found < 0 ? -1 : <i64>(<usize>found - src);
    }
    if (count == cap) return STATUS_OVERFLOW;
    store<u32>(starts + (<usize>count << 2), p);
    if (lf == -1) {
      store<u32>(ends + (<usize>count << 2), len); // a last line without LF
      count++;
      break;
    }
    store<u32>(ends + (<usize>count << 2), <u32>lf);
    count++;
    p = <u32>lf + 1;
  }
  let crlf: u32 = 0;
  if (count > 0) {
    const e0 = load<u32>(ends);
    crlf = e0 > load<u32>(starts) && <u32>load<u8>(src + e0 - 1) == CR ? 1 : 0;
  }
  if (crlf) {
    for (let k: u32 = 0; k < count; k++) {
      const e = load<u32>(ends + (<usize>k << 2));
      if (e > load<u32>(starts + (<usize>k << 2)) && <u32>load<u8>(src + e - 1) == CR) store<u32>(ends + (<usize>k << 2), e - 1);
    }
  }
  store<u32>(out, boardCount);
  store<u32>(out, crlf, 4);
  return <i32>count;
}
