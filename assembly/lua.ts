// Lua 5.1 chunks: the walk of the function prototypes into flat tables, twin of
// src/kernels/js/lua.ts (walkLuaChunk; the contract is in src/kernels/types.ts). The walk's state
// lives in globals (AssemblyScript has no closures); every call sets them before reading.
//
// Invariants: every load from `src` happens after `pos + width <= len` was checked (pos and the
// sums are u64, so a count times its item size cannot wrap); every store into a table after its
// capacity (caps, in elements) was checked; the stack holds maxDepth frames and depth < maxDepth
// before a push; info holds INFO_PATH + maxDepth slots (the binding sizes it).

import { STATUS_CORRUPT, STATUS_OVERFLOW, STATUS_TRUNCATED } from './status';

// @ts-ignore: decorator
@inline const INFO_FIELD: i32 = 0;
// @ts-ignore: decorator
@inline const INFO_AT: i32 = 1;
// @ts-ignore: decorator
@inline const INFO_ITEM: i32 = 2;
// @ts-ignore: decorator
@inline const INFO_VALUE: i32 = 3;
// @ts-ignore: decorator
@inline const INFO_DEPTH: i32 = 4;
// @ts-ignore: decorator
@inline const INFO_COUNTS: i32 = 5;
// @ts-ignore: decorator
@inline const INFO_PATH: i32 = 13;

// Fields (LuaField in the TS twin).
// @ts-ignore: decorator
@inline const F_SOURCE: i32 = 1;
// @ts-ignore: decorator
@inline const F_HEAD: i32 = 2;
// @ts-ignore: decorator
@inline const F_CODE_COUNT: i32 = 4;
// @ts-ignore: decorator
@inline const F_CODE: i32 = 5;
// @ts-ignore: decorator
@inline const F_K_COUNT: i32 = 6;
// @ts-ignore: decorator
@inline const F_K_TYPE: i32 = 7;
// @ts-ignore: decorator
@inline const F_K_VALUE: i32 = 8;
// @ts-ignore: decorator
@inline const F_P_COUNT: i32 = 9;
// @ts-ignore: decorator
@inline const F_LINE_COUNT: i32 = 10;
// @ts-ignore: decorator
@inline const F_LOC_COUNT: i32 = 11;
// @ts-ignore: decorator
@inline const F_LOC: i32 = 12;
// @ts-ignore: decorator
@inline const F_UP_COUNT: i32 = 13;
// @ts-ignore: decorator
@inline const F_UP_NAME: i32 = 14;
// @ts-ignore: decorator
@inline const F_DEPTH: i32 = 15;
// @ts-ignore: decorator
@inline const F_K_STRING: i32 = 16;

// Tables (pointer and capacity slots), in LuaChunkTables order.
// @ts-ignore: decorator
@inline const T_PROTOS: i32 = 0;
// @ts-ignore: decorator
@inline const T_CONSTANTS: i32 = 1;
// @ts-ignore: decorator
@inline const T_STRINGS: i32 = 2;
// @ts-ignore: decorator
@inline const T_LOCVARS: i32 = 3;
// @ts-ignore: decorator
@inline const T_UPVALUES: i32 = 4;
// @ts-ignore: decorator
@inline const T_LINES: i32 = 5;
// @ts-ignore: decorator
@inline const T_CODE: i32 = 6;
// @ts-ignore: decorator
@inline const T_OP: i32 = 7;
// @ts-ignore: decorator
@inline const T_A: i32 = 8;
// @ts-ignore: decorator
@inline const T_B: i32 = 9;
// @ts-ignore: decorator
@inline const T_C: i32 = 10;
// @ts-ignore: decorator
@inline const T_TEXT: i32 = 11;

// @ts-ignore: decorator
@inline const PROTO_FIELDS: u32 = 20;
// @ts-ignore: decorator
@inline const MAX_OPCODE: u32 = 37;
// @ts-ignore: decorator
@inline const PROTO_MIN_BYTES: u64 = 36;

let src: usize = 0;
let len: u64 = 0;
let pos: u64 = 0;
let sizeT: u32 = 4;
let maxRecords: u32 = 0;
let fill = false;
let tables: usize = 0;
let caps: usize = 0;
let info: usize = 0;
let cp1252: usize = 0;
let depth: i32 = 0;
let nProtos: u32 = 0;
let nConstants: u32 = 0;
let nStrings: u32 = 0;
let nLocvars: u32 = 0;
let nUpvalues: u32 = 0;
let nLines: u32 = 0;
let nCode: u32 = 0;
let nText: u32 = 0;
let wasUtf8 = false;

// @ts-ignore: decorator
@inline function table(t: i32): usize {
  return <usize>load<u32>(tables + (<usize>t << 2));
}
// @ts-ignore: decorator
@inline function cap(t: i32): u32 {
  return load<u32>(caps + (<usize>t << 2));
}
// @ts-ignore: decorator
@inline function setInfo(slot: i32, v: i32): void {
  store<i32>(info + (<usize>slot << 2), v);
}
// @ts-ignore: decorator
@inline function i32At(at: u64): i32 {
  return load<i32>(src + <usize>at);
}

let errField: i32 = 0;
let errAt: u64 = 0;
let errItem: i32 = 0;
let errValue: i32 = 0;

/** Notes a failure for info (written once, on the way out: a call site stays a few global sets). */
function fail(status: i32, field: i32, at: u64, item: i32, value: i32): i32 {
  errField = field;
  errAt = at;
  errItem = item;
  errValue = value;
  return status;
}

/** A count at pos of items of at least `each` bytes: the count, or a status (< 0). */
function readCount(field: i32, each: u64, total: u32): i32 {
  if (pos + 4 > len) return fail(STATUS_TRUNCATED, field, pos, -1, <i32>(len - pos));
  const v = i32At(pos);
  if (v < 0) return fail(STATUS_CORRUPT, field, pos, -1, v);
  if (<u64>v * each > len - pos - 4) return fail(STATUS_TRUNCATED, field, pos, -1, v);
  if (<u32>v > maxRecords - total) return fail(STATUS_OVERFLOW, field, pos, -1, v);
  pos += 4;
  return v;
}

/** A string at pos: its index, -1 for null, or a status minus one (< -1). */
function readString(field: i32, item: i32): i32 {
  const at = pos;
  if (pos + <u64>sizeT > len) return fail(STATUS_TRUNCATED, field, at, item, <i32>(len - pos)) - 1;
  const n = <u64>load<u32>(src + <usize>pos);
  const high = sizeT == 8 ? load<u32>(src + <usize>pos, 4) : 0;
  pos += <u64>sizeT;
  if (high != 0 || n > len - pos) return fail(STATUS_TRUNCATED, field, at, item, high != 0 ? -1 : <i32>n) - 1;
  if (n == 0) return -1;
  const last = load<u8>(src + <usize>(pos + n - 1));
  if (last != 0) return fail(STATUS_CORRUPT, field, at, item, last) - 1;
  if (nStrings >= maxRecords) return fail(STATUS_OVERFLOW, field, at, item, nStrings) - 1;
  const bytes = pos;
  pos += n;
  if (!fill) {
    nText += <u32>(n - 1);
    return nStrings++;
  }
  const s = nStrings * 4;
  if (s + 4 > cap(T_STRINGS)) return fail(STATUS_OVERFLOW, field, at, item, nStrings) - 1;
  const end = transcode(bytes, bytes + n - 1, nText);
  if (end < 0) return fail(STATUS_OVERFLOW, field, at, item, nStrings) - 1;
  const p = table(T_STRINGS) + (<usize>s << 2);
  store<i32>(p, <i32>bytes);
  store<i32>(p, <i32>(n - 1), 4);
  store<i32>(p, end, 8);
  store<i32>(p, wasUtf8 ? 1 : 0, 12);
  nText = <u32>end;
  return nStrings++;
}

/** src[from..to) into the text table at `at` as UTF-16 (UTF-8 when well-formed, else Windows-1252); the end, or -1. */
function transcode(from: u64, to: u64, at: u32): i32 {
  if (to - from > <u64>(cap(T_TEXT) - at)) return -1;
  wasUtf8 = false;
  const dst = table(T_TEXT);
  let i = from;
  if (to - from >= 3 && load<u8>(src + <usize>i) == 0xef && load<u8>(src + <usize>i, 1) == 0xbb && load<u8>(src + <usize>i, 2) == 0xbf) i += 3;
  let o = at;
  // One way out for bytes that are not UTF-8 (`valid` false), so the fallback is written once.
  let valid = true;
  while (i < to && valid) {
    // Sixteen ASCII bytes at once (most of a cartridge's text): widened to units, stored as they
    // are. The room check above holds for them, as one unit per byte is the most any byte gives.
    while (i + 16 <= to) {
      const v = v128.load(src + <usize>i);
      if (i8x16.bitmask(v) != 0) break;
      const out = dst + (<usize>o << 1);
      v128.store(out, i16x8.extend_low_i8x16_u(v));
      v128.store(out, i16x8.extend_high_i8x16_u(v), 16);
      o += 16;
      i += 16;
    }
    // Then eight (short names and keys).
    if (i + 8 <= to) {
      const v = v128.load64_zero(src + <usize>i);
      if (i8x16.bitmask(v) == 0) {
        v128.store(dst + (<usize>o << 1), i16x8.extend_low_i8x16_u(v));
        o += 8;
        i += 8;
      }
    }
    if (i >= to) break;
    const b0 = <u32>load<u8>(src + <usize>i);
    if (b0 < 0x80) {
      store<u16>(dst + (<usize>o << 1), <u16>b0);
      o++;
      i++;
      continue;
    }
    // Sequence length and the smallest code point it may carry (anything shorter is overlong).
    const n: u64 = b0 >= 0xf0 ? 4 : b0 >= 0xe0 ? 3 : 2;
    const min: u32 = n == 4 ? 0x10000 : n == 3 ? 0x800 : 0x80;
    let cp: u32 = b0 & (n == 4 ? 0x07 : n == 3 ? 0x0f : 0x1f);
    valid = b0 >= 0xc2 && b0 <= 0xf4 && i + n <= to;
    for (let k: u64 = 1; k < n && valid; k++) {
      const b = <u32>load<u8>(src + <usize>(i + k));
      valid = (b & 0xc0) == 0x80;
      cp = (cp << 6) | (b & 0x3f);
    }
    valid = valid && cp >= min && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
    if (!valid) break;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      store<u16>(dst + (<usize>o << 1), <u16>(0xd800 | (cp >> 10)));
      store<u16>(dst + (<usize>o << 1), <u16>(0xdc00 | (cp & 0x3ff)), 2);
      o += 2;
    } else {
      store<u16>(dst + (<usize>o << 1), <u16>cp);
      o++;
    }
    i += n;
  }
  if (!valid) return windows1252(from, to, at);
  wasUtf8 = true;
  return <i32>o;
}

function windows1252(from: u64, to: u64, at: u32): i32 {
  const dst = table(T_TEXT);
  let o = at;
  for (let i = from; i < to; i++) {
    const b = <u32>load<u8>(src + <usize>i);
    const u = b >= 0x80 && b < 0xa0 ? <u32>load<u16>(cp1252 + (<usize>(b - 0x80) << 1)) : b;
    store<u16>(dst + (<usize>o << 1), <u16>u);
    o++;
  }
  return <i32>o;
}

/**
 * `srcPtr` holds `srcLen` bytes of the chunk; the walk starts at `start`. `tablePtrs` and
 * `tableCaps` hold 12 u32 each (pointers and capacities in elements, LuaChunkTables order), read
 * only when `doFill` is 1. `infoPtr` holds INFO_PATH + maxDepth i32; `stack` 2 × maxDepth i32;
 * `cpTable` the 32 UTF-16 units of Windows-1252 bytes 0x80–0x9F.
 */
export function walkLuaChunk(
  srcPtr: usize,
  srcLen: u32,
  start: u32,
  sizeTBytes: u32,
  records: i32,
  maxDepth: i32,
  doFill: i32,
  tablePtrs: usize,
  tableCaps: usize,
  infoPtr: usize,
  stack: usize,
  cpTable: usize,
): i32 {
  if (<u64>start > <u64>srcLen || (sizeTBytes != 4 && sizeTBytes != 8) || maxDepth < 1) return STATUS_CORRUPT;
  src = srcPtr;
  len = <u64>srcLen;
  pos = <u64>start;
  sizeT = sizeTBytes;
  maxRecords = records < 0 ? 0 : <u32>records;
  fill = doFill != 0;
  tables = tablePtrs;
  caps = tableCaps;
  info = infoPtr;
  cp1252 = cpTable;
  depth = 0;
  nProtos = nConstants = nStrings = nLocvars = nUpvalues = nLines = nCode = nText = 0;
  const r = walk(maxDepth, stack);
  if (r < 0) {
    setInfo(INFO_FIELD, errField);
    setInfo(INFO_AT, <i32>errAt);
    setInfo(INFO_ITEM, errItem);
    setInfo(INFO_VALUE, errValue);
    setInfo(INFO_DEPTH, depth);
  }
  setInfo(INFO_COUNTS, nProtos);
  setInfo(INFO_COUNTS + 1, nConstants);
  setInfo(INFO_COUNTS + 2, nStrings);
  setInfo(INFO_COUNTS + 3, nLocvars);
  setInfo(INFO_COUNTS + 4, nUpvalues);
  setInfo(INFO_COUNTS + 5, nLines);
  setInfo(INFO_COUNTS + 6, nCode);
  setInfo(INFO_COUNTS + 7, nText);
  return r;
}

/** The walk itself, over the state walkLuaChunk set; returns the end or a status (info written by the caller). */
function walk(maxDepth: i32, stack: usize): i32 {
  const minProto = PROTO_MIN_BYTES + <u64>sizeT;
  let ordinal: i32 = 0;
  for (;;) {
    // A prototype begins: head, code, constants, the count of its children.
    if (depth >= maxDepth) return fail(STATUS_OVERFLOW, F_DEPTH, pos, -1, depth + 1);
    setInfo(INFO_PATH + depth, ordinal);
    depth++;
    if (nProtos >= maxRecords) return fail(STATUS_OVERFLOW, F_SOURCE, pos, -1, nProtos);
    if (len - pos < minProto) return fail(STATUS_TRUNCATED, F_SOURCE, pos, -1, <i32>(len - pos));
    const index = nProtos++;
    const rec = <usize>index * PROTO_FIELDS;
    if (fill && rec + PROTO_FIELDS > <usize>cap(T_PROTOS)) return fail(STATUS_OVERFLOW, F_SOURCE, pos, -1, index);
    const offset = pos;
    const source = readString(F_SOURCE, -1);
    if (source < -1) return source + 1;
    if (pos + 12 > len) return fail(STATUS_TRUNCATED, F_HEAD, pos, -1, <i32>(len - pos));
    const lineDefined = i32At(pos),
      lastLine = i32At(pos + 4),
      sizes = pos + 8;
    pos += 12;
    const codeCount = readCount(F_CODE_COUNT, 4, nCode);
    if (codeCount < 0) return codeCount;
    if (fill && <u64>nCode + <u64>codeCount > <u64>cap(T_CODE)) return fail(STATUS_OVERFLOW, F_CODE_COUNT, pos - 4, -1, codeCount);
    const rawOut = table(T_CODE) + (<usize>nCode << 2),
      opOut = table(T_OP) + <usize>nCode,
      aOut = table(T_A) + <usize>nCode,
      bOut = table(T_B) + (<usize>nCode << 1),
      cOut = table(T_C) + (<usize>nCode << 1);
    for (let i: i32 = 0; i < codeCount; i++, pos += 4) {
      const w = load<u32>(src + <usize>pos);
      const op = w & 0x3f;
      if (op > MAX_OPCODE) return fail(STATUS_CORRUPT, F_CODE, pos, i, op);
      if (fill) {
        store<u32>(rawOut + (<usize>i << 2), w);
        store<u8>(opOut + <usize>i, <u8>op);
        store<u8>(aOut + <usize>i, <u8>(w >> 6));
        store<u16>(cOut + (<usize>i << 1), <u16>((w >> 14) & 0x1ff));
        store<u16>(bOut + (<usize>i << 1), <u16>(w >> 23));
      }
    }
    const kCount = readCount(F_K_COUNT, 1, nConstants);
    if (kCount < 0) return kCount;
    if (fill && (<u64>nConstants + <u64>kCount) * 2 > <u64>cap(T_CONSTANTS)) return fail(STATUS_OVERFLOW, F_K_COUNT, pos - 4, -1, kCount);
    for (let i: i32 = 0; i < kCount; i++) {
      if (pos >= len) return fail(STATUS_TRUNCATED, F_K_TYPE, pos, i, 0);
      const type = <i32>load<u8>(src + <usize>pos);
      let value: i32 = 0;
      pos++;
      if (type == 1) {
        if (pos >= len) return fail(STATUS_TRUNCATED, F_K_VALUE, pos, i, 0);
        value = <i32>load<u8>(src + <usize>pos);
        if (value > 1) return fail(STATUS_CORRUPT, F_K_VALUE, pos, i, value);
        pos++;
      } else if (type == 3) {
        if (pos + 8 > len) return fail(STATUS_TRUNCATED, F_K_VALUE, pos, i, <i32>(len - pos));
        value = <i32>pos;
        pos += 8;
      } else if (type == 4) {
        value = readString(F_K_STRING, i);
        if (value < -1) return value + 1;
        if (value == -1) return fail(STATUS_CORRUPT, F_K_STRING, pos - <u64>sizeT, i, 0);
      } else if (type != 0) return fail(STATUS_CORRUPT, F_K_TYPE, pos - 1, i, type);
      if (fill) {
        const k = table(T_CONSTANTS) + ((<usize>nConstants + <usize>i) << 3);
        store<i32>(k, type);
        store<i32>(k, value, 4);
      }
    }
    const pCount = readCount(F_P_COUNT, minProto, 0);
    if (pCount < 0) return pCount;
    if (fill) {
      const p = table(T_PROTOS) + (rec << 2);
      store<i32>(p, <i32>offset);
      store<i32>(p, source, 4);
      store<i32>(p, lineDefined, 8);
      store<i32>(p, lastLine, 12);
      store<i32>(p, <i32>load<u8>(src + <usize>sizes), 16);
      store<i32>(p, <i32>load<u8>(src + <usize>sizes, 1), 20);
      store<i32>(p, <i32>load<u8>(src + <usize>sizes, 2), 24);
      store<i32>(p, <i32>load<u8>(src + <usize>sizes, 3), 28);
      store<i32>(p, nCode, 32);
      store<i32>(p, codeCount, 36);
      store<i32>(p, nConstants, 40);
      store<i32>(p, kCount, 44);
      store<i32>(p, pCount, 48);
      store<i32>(p, depth > 1 ? load<i32>(stack + (<usize>(depth - 2) << 3)) : -1, 52);
    }
    nCode += codeCount;
    nConstants += kCount;
    const frame = stack + (<usize>(depth - 1) << 3);
    store<i32>(frame, index);
    store<i32>(frame, pCount, 4);
    if (pCount > 0) {
      ordinal = 0;
      continue;
    }
    // The prototypes on top whose children are all read end: their debug info.
    for (;;) {
      const top = load<i32>(stack + (<usize>(depth - 1) << 3));
      const lineCount = readCount(F_LINE_COUNT, 4, nLines);
      if (lineCount < 0) return lineCount;
      if (fill) {
        if (<u64>nLines + <u64>lineCount > <u64>cap(T_LINES)) return fail(STATUS_OVERFLOW, F_LINE_COUNT, pos - 4, -1, lineCount);
        memory.copy(table(T_LINES) + (<usize>nLines << 2), src + <usize>pos, <usize>lineCount << 2);
      }
      pos += <u64>lineCount << 2;
      const locCount = readCount(F_LOC_COUNT, <u64>sizeT + 8, nLocvars);
      if (locCount < 0) return locCount;
      if (fill && (<u64>nLocvars + <u64>locCount) * 3 > <u64>cap(T_LOCVARS)) return fail(STATUS_OVERFLOW, F_LOC_COUNT, pos - 4, -1, locCount);
      for (let i: i32 = 0; i < locCount; i++) {
        const name = readString(F_LOC, i);
        if (name < -1) return name + 1;
        if (pos + 8 > len) return fail(STATUS_TRUNCATED, F_LOC, pos, i, <i32>(len - pos));
        if (fill) {
          const l = table(T_LOCVARS) + (<usize>(nLocvars + <u32>i) * 12);
          store<i32>(l, name);
          store<i32>(l, i32At(pos), 4);
          store<i32>(l, i32At(pos + 4), 8);
        }
        pos += 8;
      }
      const upCount = readCount(F_UP_COUNT, <u64>sizeT, nUpvalues);
      if (upCount < 0) return upCount;
      if (fill && <u64>nUpvalues + <u64>upCount > <u64>cap(T_UPVALUES)) return fail(STATUS_OVERFLOW, F_UP_COUNT, pos - 4, -1, upCount);
      for (let i: i32 = 0; i < upCount; i++) {
        const name = readString(F_UP_NAME, i);
        if (name < -1) return name + 1;
        if (fill) store<i32>(table(T_UPVALUES) + ((<usize>nUpvalues + <usize>i) << 2), name);
      }
      if (fill) {
        const p = table(T_PROTOS) + ((<usize>top * PROTO_FIELDS) << 2);
        store<i32>(p, nLines, 56);
        store<i32>(p, lineCount, 60);
        store<i32>(p, nLocvars, 64);
        store<i32>(p, locCount, 68);
        store<i32>(p, nUpvalues, 72);
        store<i32>(p, upCount, 76);
      }
      nLines += lineCount;
      nLocvars += locCount;
      nUpvalues += upCount;
      depth--;
      if (depth == 0) return <i32>pos;
      const parent = stack + (<usize>(depth - 1) << 3);
      const left = load<i32>(parent, 4) - 1;
      store<i32>(parent, left, 4);
      if (left > 0) break;
    }
    ordinal = load<i32>(info + (<usize>(INFO_PATH + depth) << 2)) + 1;
  }
  // Not reached (the loop returns); AssemblyScript does not see that an endless loop never ends.
  return STATUS_CORRUPT;
}
