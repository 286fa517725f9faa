// Reference kernel: the walk of a Lua 5.1 chunk's function prototypes (lundump.c's layout) into
// flat tables: prototypes, constants, strings (transcoded to UTF-16), local variables, upvalue
// names, line info and the instructions split into columns. See src/kernels/types.ts
// (walkLuaChunk) for the contract; assembly/lua.ts is its twin, line for line.

import { Status } from '../status.js';
import type { LuaChunkTables } from '../types.js';

/** Slots of `info` (mirrored in assembly/lua.ts). */
export const LuaInfo = {
  /** What failed: a LuaField. */
  FIELD: 0,
  /** Offset in `src` of the failing field (a count, a string's size, a constant's type byte…). */
  AT: 1,
  /** The item of that field (instruction, constant, local…); -1 for none. */
  ITEM: 2,
  /** The value found there (a count, a type tag, an opcode). */
  VALUE: 3,
  /** Prototypes on the path to the failing one (the main function counts 1). */
  DEPTH: 4,
  /** The totals, LuaCount order (after a walk, or as far as a failed one got). */
  COUNTS: 5,
  /** From here: the child ordinal of each prototype on the path (the main function's is 0). */
  PATH: 13,
} as const;

/** Totals a walk reports, at info[LuaInfo.COUNTS + k]. */
export const LuaCount = { PROTOS: 0, CONSTANTS: 1, STRINGS: 2, LOCVARS: 3, UPVALUES: 4, LINES: 5, CODE: 6, TEXT: 7 } as const;

/** Fields a failure names (info[LuaInfo.FIELD]). */
export const LuaField = {
  SOURCE: 1,
  /** The line range and the four bytes (upvalue, parameter, vararg and stack counts). */
  HEAD: 2,
  CODE_COUNT: 4,
  CODE: 5,
  K_COUNT: 6,
  K_TYPE: 7,
  K_VALUE: 8,
  P_COUNT: 9,
  LINE_COUNT: 10,
  LOC_COUNT: 11,
  LOC: 12,
  UP_COUNT: 13,
  UP_NAME: 14,
  DEPTH: 15,
  /** A string constant's size (the string itself: a NUL-less or null string). */
  K_STRING: 16,
} as const;

/** Int32 slots per prototype in `tables.protos`. */
export const LUA_PROTO_FIELDS = 20;
/** Slots of one prototype record. */
export const LuaProtoSlot = {
  OFFSET: 0,
  SOURCE: 1,
  LINE_DEFINED: 2,
  LAST_LINE: 3,
  NUPS: 4,
  NUM_PARAMS: 5,
  IS_VARARG: 6,
  MAX_STACK: 7,
  CODE_START: 8,
  CODE_COUNT: 9,
  K_START: 10,
  K_COUNT: 11,
  P_COUNT: 12,
  PARENT: 13,
  LINE_START: 14,
  LINE_COUNT: 15,
  LOC_START: 16,
  LOC_COUNT: 17,
  UP_START: 18,
  UP_COUNT: 19,
} as const;
/** Int32 slots per string in `tables.strings`: offset of its bytes, length (NUL excluded), end in `text`, 1 = UTF-8. */
export const LUA_STRING_FIELDS = 4;
/** Int32 slots per constant: type tag, value (boolean byte; offset of a number's 8 bytes; string index). */
export const LUA_CONSTANT_FIELDS = 2;
/** Int32 slots per local: name (string index or -1), startpc, endpc. */
export const LUA_LOCVAR_FIELDS = 3;
/** Slots of `limits`: most prototypes, constants, strings… each (all the chunk's together), most nesting. */
export const LuaLimit = { RECORDS: 0, DEPTH: 1 } as const;
/** Fewest bytes a prototype takes (sizeof(size_t) more): source size, 2 line ints, 4 bytes, 6 counts. */
export const LUA_PROTO_MIN_BYTES = 8 + 4 + 24;
/** Opcodes of Lua 5.1 are 0..37 (OP_VARARG). */
export const LUA_MAX_OPCODE = 37;

/**
 * Tables of exactly the sizes a walk without tables totalled in `info`, for the walk that fills
 * them: views of one buffer (4-byte tables first, then 2-byte, then 1-byte, so each is aligned),
 * because twelve allocations cost more than the walk of a small chunk. With `keep`, the buffer
 * ends with a copy of it, `chunk`.
 */
export function luaTablesFor(info: Int32Array, keep?: Uint8Array): LuaChunkTables {
  const n = (k: number) => info[LuaInfo.COUNTS + k]!;
  const code = n(LuaCount.CODE);
  const wide = [
    n(LuaCount.PROTOS) * LUA_PROTO_FIELDS,
    n(LuaCount.CONSTANTS) * LUA_CONSTANT_FIELDS,
    n(LuaCount.STRINGS) * LUA_STRING_FIELDS,
    n(LuaCount.LOCVARS) * LUA_LOCVAR_FIELDS,
    n(LuaCount.UPVALUES),
    n(LuaCount.LINES),
  ];
  const text = n(LuaCount.TEXT);
  const words = wide.reduce((a, b) => a + b, 0) + code;
  const buf = new ArrayBuffer(4 * words + 2 * (2 * code + text) + 2 * code + (keep?.length ?? 0));
  let at = 0;
  const i32 = (len: number) => {
    const v = new Int32Array(buf, at, len);
    at += 4 * len;
    return v;
  };
  const protos = i32(wide[0]!),
    constants = i32(wide[1]!),
    strings = i32(wide[2]!),
    locVars = i32(wide[3]!),
    upvalues = i32(wide[4]!),
    lineInfo = i32(wide[5]!);
  const raw = new Uint32Array(buf, at, code);
  at += 4 * code;
  const b = new Uint16Array(buf, at, code),
    c = new Uint16Array(buf, at + 2 * code, code),
    units = new Uint16Array(buf, at + 4 * code, text);
  at += 2 * (2 * code + text);
  const op = new Uint8Array(buf, at, code),
    a = new Uint8Array(buf, at + code, code);
  const tables: LuaChunkTables = { protos, constants, strings, locVars, upvalues, lineInfo, code: raw, op, a, b, c, text: units };
  if (keep) {
    tables.chunk = new Uint8Array(buf, at + 2 * code, keep.length);
    tables.chunk.set(keep);
  }
  return tables;
}

const T_NIL = 0;
const T_BOOLEAN = 1;
const T_NUMBER = 3;
const T_STRING = 4;

/** Windows-1252 code points of bytes 0x80–0x9F (WHATWG: the five unassigned bytes map to C1 controls). */
export const CP1252_HIGH = Uint16Array.of(
  0x20ac,
  0x81,
  0x201a,
  0x192,
  0x201e,
  0x2026,
  0x2020,
  0x2021,
  0x2c6,
  0x2030,
  0x160,
  0x2039,
  0x152,
  0x8d,
  0x17d,
  0x8f,
  0x90,
  0x2018,
  0x2019,
  0x201c,
  0x201d,
  0x2022,
  0x2013,
  0x2014,
  0x2dc,
  0x2122,
  0x161,
  0x203a,
  0x153,
  0x9d,
  0x17e,
  0x178,
);

/**
 * One pass over the prototypes from `start` (the main function's source field), iterative with an
 * explicit stack (nesting bounded by limits[DEPTH]). Every count is checked against the bytes
 * left (times the fewest bytes an item takes) and the totals against limits[RECORDS] before
 * anything is read. With `tables` null only the totals are counted; with tables, each is filled
 * and its capacity checked before every write.
 */
export function walkLuaChunk(src: Uint8Array, start: number, sizeT: number, limits: Int32Array, tables: LuaChunkTables | null, info: Int32Array): number {
  const n = src.length;
  const maxRecords = limits[LuaLimit.RECORDS]!;
  const maxDepth = limits[LuaLimit.DEPTH]!;
  if (!Number.isInteger(start) || start < 0 || start > n || (sizeT !== 4 && sizeT !== 8) || maxDepth < 1 || info.length < LuaInfo.PATH + maxDepth)
    return Status.CORRUPT;
  const fill = tables !== null;
  // The instruction columns share one capacity: the shortest of them.
  const codeCap = fill ? Math.min(tables.code.length, tables.op.length, tables.a.length, tables.b.length, tables.c.length) : 0;
  const minProto = LUA_PROTO_MIN_BYTES + sizeT;
  let pos = start;
  let protos = 0,
    constants = 0,
    strings = 0,
    locvars = 0,
    upvalues = 0,
    lines = 0,
    code = 0,
    text = 0;
  // The stack: per level, the prototype's index, its children still to read, the ordinal of the
  // child being read. The path of ordinals goes to info as it changes, so a failure has it.
  const stackProto = new Int32Array(maxDepth);
  const stackLeft = new Int32Array(maxDepth);
  let depth = 0;

  const counts = () => {
    const c = LuaInfo.COUNTS;
    info[c] = protos;
    info[c + 1] = constants;
    info[c + 2] = strings;
    info[c + 3] = locvars;
    info[c + 4] = upvalues;
    info[c + 5] = lines;
    info[c + 6] = code;
    info[c + 7] = text;
  };
  const fail = (status: number, field: number, at: number, item: number, value: number): number => {
    info[LuaInfo.FIELD] = field;
    info[LuaInfo.AT] = at;
    info[LuaInfo.ITEM] = item;
    info[LuaInfo.VALUE] = value;
    info[LuaInfo.DEPTH] = depth;
    counts();
    return status;
  };
  const i32 = (at: number) => src[at]! | (src[at + 1]! << 8) | (src[at + 2]! << 16) | (src[at + 3]! << 24);
  // A count at pos of items taking at least `each` bytes; returns it, or a status (< 0).
  const count = (field: number, each: number, total: number): number => {
    if (pos + 4 > n) return fail(Status.TRUNCATED, field, pos, -1, n - pos);
    const v = i32(pos);
    if (v < 0) return fail(Status.CORRUPT, field, pos, -1, v);
    if (v * each > n - pos - 4) return fail(Status.TRUNCATED, field, pos, -1, v);
    if (v > maxRecords - total) return fail(Status.OVERFLOW, field, pos, -1, v);
    pos += 4;
    return v;
  };
  // A string at pos (size_t length with the NUL, 0 = null): its index in `strings`, -1 for null, or a status (< -1).
  const string = (field: number, item: number): number => {
    const at = pos;
    if (pos + sizeT > n) return fail(Status.TRUNCATED, field, at, item, n - pos) - 1;
    const len = i32(pos) >>> 0;
    const high = sizeT === 8 ? i32(pos + 4) : 0;
    pos += sizeT;
    if (high !== 0 || len > n - pos) return fail(Status.TRUNCATED, field, at, item, high !== 0 ? -1 : len) - 1;
    if (len === 0) return -1;
    if (src[pos + len - 1] !== 0) return fail(Status.CORRUPT, field, at, item, src[pos + len - 1]!) - 1;
    if (strings >= maxRecords) return fail(Status.OVERFLOW, field, at, item, strings) - 1;
    const bytes = pos;
    pos += len;
    if (!fill) {
      text += len - 1;
      return strings++;
    }
    const s = strings * LUA_STRING_FIELDS;
    if (s + LUA_STRING_FIELDS > tables.strings.length) return fail(Status.OVERFLOW, field, at, item, strings) - 1;
    const end = transcode(src, bytes, bytes + len - 1, tables.text, text);
    if (end < 0) return fail(Status.OVERFLOW, field, at, item, strings) - 1;
    tables.strings[s] = bytes;
    tables.strings[s + 1] = len - 1;
    tables.strings[s + 2] = end;
    tables.strings[s + 3] = lastWasUtf8 ? 1 : 0;
    text = end;
    return strings++;
  };

  for (let ordinal = 0; ; ) {
    // ── a prototype begins: its head, code and constants, then the count of its children.
    if (depth >= maxDepth) return fail(Status.OVERFLOW, LuaField.DEPTH, pos, -1, depth + 1);
    info[LuaInfo.PATH + depth] = ordinal;
    depth++;
    if (protos >= maxRecords) return fail(Status.OVERFLOW, LuaField.SOURCE, pos, -1, protos);
    if (n - pos < minProto) return fail(Status.TRUNCATED, LuaField.SOURCE, pos, -1, n - pos);
    const index = protos++;
    const rec = index * LUA_PROTO_FIELDS;
    if (fill && rec + LUA_PROTO_FIELDS > tables.protos.length) return fail(Status.OVERFLOW, LuaField.SOURCE, pos, -1, index);
    const offset = pos;
    const source = string(LuaField.SOURCE, -1);
    if (source < -1) return source + 1;
    if (pos + 12 > n) return fail(Status.TRUNCATED, LuaField.HEAD, pos, -1, n - pos);
    const lineDefined = i32(pos),
      lastLine = i32(pos + 4),
      sizes = pos + 8;
    pos += 12;
    const codeCount = count(LuaField.CODE_COUNT, 4, code);
    if (codeCount < 0) return codeCount;
    if (fill && code + codeCount > codeCap) return fail(Status.OVERFLOW, LuaField.CODE_COUNT, pos - 4, -1, codeCount);
    for (let i = 0; i < codeCount; i++, pos += 4) {
      const w = i32(pos) >>> 0;
      const op = w & 0x3f;
      if (op > LUA_MAX_OPCODE) return fail(Status.CORRUPT, LuaField.CODE, pos, i, op);
      if (fill) {
        const j = code + i;
        tables.code[j] = w;
        tables.op[j] = op;
        tables.a[j] = (w >>> 6) & 0xff;
        tables.c[j] = (w >>> 14) & 0x1ff;
        tables.b[j] = w >>> 23;
      }
    }
    const kCount = count(LuaField.K_COUNT, 1, constants);
    if (kCount < 0) return kCount;
    if (fill && (constants + kCount) * LUA_CONSTANT_FIELDS > tables.constants.length) return fail(Status.OVERFLOW, LuaField.K_COUNT, pos - 4, -1, kCount);
    for (let i = 0; i < kCount; i++) {
      if (pos >= n) return fail(Status.TRUNCATED, LuaField.K_TYPE, pos, i, 0);
      const type = src[pos]!;
      const k = (constants + i) * LUA_CONSTANT_FIELDS;
      let value = 0;
      pos++;
      if (type === T_BOOLEAN) {
        if (pos >= n) return fail(Status.TRUNCATED, LuaField.K_VALUE, pos, i, 0);
        value = src[pos]!;
        if (value > 1) return fail(Status.CORRUPT, LuaField.K_VALUE, pos, i, value);
        pos++;
      } else if (type === T_NUMBER) {
        if (pos + 8 > n) return fail(Status.TRUNCATED, LuaField.K_VALUE, pos, i, n - pos);
        value = pos;
        pos += 8;
      } else if (type === T_STRING) {
        value = string(LuaField.K_STRING, i);
        if (value < -1) return value + 1;
        if (value === -1) return fail(Status.CORRUPT, LuaField.K_STRING, pos - sizeT, i, 0);
      } else if (type !== T_NIL) return fail(Status.CORRUPT, LuaField.K_TYPE, pos - 1, i, type);
      if (fill) {
        tables.constants[k] = type;
        tables.constants[k + 1] = value;
      }
    }
    const pCount = count(LuaField.P_COUNT, minProto, 0);
    if (pCount < 0) return pCount;
    if (fill) {
      const p = tables.protos;
      p[rec + LuaProtoSlot.OFFSET] = offset;
      p[rec + LuaProtoSlot.SOURCE] = source;
      p[rec + LuaProtoSlot.LINE_DEFINED] = lineDefined;
      p[rec + LuaProtoSlot.LAST_LINE] = lastLine;
      p[rec + LuaProtoSlot.NUPS] = src[sizes]!;
      p[rec + LuaProtoSlot.NUM_PARAMS] = src[sizes + 1]!;
      p[rec + LuaProtoSlot.IS_VARARG] = src[sizes + 2]!;
      p[rec + LuaProtoSlot.MAX_STACK] = src[sizes + 3]!;
      p[rec + LuaProtoSlot.CODE_START] = code;
      p[rec + LuaProtoSlot.CODE_COUNT] = codeCount;
      p[rec + LuaProtoSlot.K_START] = constants;
      p[rec + LuaProtoSlot.K_COUNT] = kCount;
      p[rec + LuaProtoSlot.P_COUNT] = pCount;
      p[rec + LuaProtoSlot.PARENT] = depth > 1 ? stackProto[depth - 2]! : -1;
    }
    code += codeCount;
    constants += kCount;
    stackProto[depth - 1] = index;
    stackLeft[depth - 1] = pCount;
    if (pCount > 0) {
      ordinal = 0;
      continue;
    }
    // ── the prototypes on top of the stack whose children are all read end: their debug info.
    for (;;) {
      const top = stackProto[depth - 1]!;
      const lineCount = count(LuaField.LINE_COUNT, 4, lines);
      if (lineCount < 0) return lineCount;
      if (fill && lines + lineCount > tables.lineInfo.length) return fail(Status.OVERFLOW, LuaField.LINE_COUNT, pos - 4, -1, lineCount);
      if (fill) for (let i = 0; i < lineCount; i++) tables.lineInfo[lines + i] = i32(pos + 4 * i);
      pos += 4 * lineCount;
      const locCount = count(LuaField.LOC_COUNT, sizeT + 8, locvars);
      if (locCount < 0) return locCount;
      if (fill && (locvars + locCount) * LUA_LOCVAR_FIELDS > tables.locVars.length) return fail(Status.OVERFLOW, LuaField.LOC_COUNT, pos - 4, -1, locCount);
      for (let i = 0; i < locCount; i++) {
        const name = string(LuaField.LOC, i);
        if (name < -1) return name + 1;
        if (pos + 8 > n) return fail(Status.TRUNCATED, LuaField.LOC, pos, i, n - pos);
        if (fill) {
          const l = (locvars + i) * LUA_LOCVAR_FIELDS;
          tables.locVars[l] = name;
          tables.locVars[l + 1] = i32(pos);
          tables.locVars[l + 2] = i32(pos + 4);
        }
        pos += 8;
      }
      const upCount = count(LuaField.UP_COUNT, sizeT, upvalues);
      if (upCount < 0) return upCount;
      if (fill && upvalues + upCount > tables.upvalues.length) return fail(Status.OVERFLOW, LuaField.UP_COUNT, pos - 4, -1, upCount);
      for (let i = 0; i < upCount; i++) {
        const name = string(LuaField.UP_NAME, i);
        if (name < -1) return name + 1;
        if (fill) tables.upvalues[upvalues + i] = name;
      }
      if (fill) {
        const p = tables.protos;
        const r = top * LUA_PROTO_FIELDS;
        p[r + LuaProtoSlot.LINE_START] = lines;
        p[r + LuaProtoSlot.LINE_COUNT] = lineCount;
        p[r + LuaProtoSlot.LOC_START] = locvars;
        p[r + LuaProtoSlot.LOC_COUNT] = locCount;
        p[r + LuaProtoSlot.UP_START] = upvalues;
        p[r + LuaProtoSlot.UP_COUNT] = upCount;
      }
      lines += lineCount;
      locvars += locCount;
      upvalues += upCount;
      depth--;
      if (depth === 0) {
        counts();
        return pos;
      }
      // The parent has read one more child: begin the next, or end the parent too.
      if (--stackLeft[depth - 1]! > 0) break;
    }
    ordinal = info[LuaInfo.PATH + depth]! + 1;
  }
}

/** Whether the last transcode() read its bytes as UTF-8 (a result beside the return value). */
let lastWasUtf8 = false;

/**
 * Writes `src[from..to)` to `dst` from `at` as UTF-16: decoded as UTF-8 when it is well-formed
 * UTF-8 (what a fatal TextDecoder accepts; a leading BOM dropped, as TextDecoder does), else as
 * Windows-1252. Returns the end in `dst`, or -1 when `dst` is too short; `lastWasUtf8` says
 * which reading it took.
 */
export function transcode(src: Uint8Array, from: number, to: number, dst: Uint16Array, at: number): number {
  if (to - from > dst.length - at) return -1;
  lastWasUtf8 = false;
  let i = from;
  if (to - from >= 3 && src[i] === 0xef && src[i + 1] === 0xbb && src[i + 2] === 0xbf) i += 3;
  let o = at;
  while (i < to) {
    const b0 = src[i]!;
    if (b0 < 0x80) {
      dst[o++] = b0;
      i++;
      continue;
    }
    let cp: number;
    let len: number;
    let min: number;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      cp = b0 & 0x1f;
      len = 2;
      min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      cp = b0 & 0x0f;
      len = 3;
      min = 0x800;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      cp = b0 & 0x07;
      len = 4;
      min = 0x10000;
    } else return windows1252(src, from, to, dst, at);
    if (i + len > to) return windows1252(src, from, to, dst, at);
    for (let k = 1; k < len; k++) {
      const b = src[i + k]!;
      if ((b & 0xc0) !== 0x80) return windows1252(src, from, to, dst, at);
      cp = (cp << 6) | (b & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return windows1252(src, from, to, dst, at);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      dst[o++] = 0xd800 | (cp >>> 10);
      dst[o++] = 0xdc00 | (cp & 0x3ff);
    } else dst[o++] = cp;
    i += len;
  }
  lastWasUtf8 = true;
  return o;
}

/** Bytes as Windows-1252, one unit each; the caller checked the room. Returns the end in `dst`. */
function windows1252(src: Uint8Array, from: number, to: number, dst: Uint16Array, at: number): number {
  let o = at;
  for (let i = from; i < to; i++) {
    const b = src[i]!;
    dst[o++] = b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80]! : b;
  }
  return o;
}
