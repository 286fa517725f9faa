// decodeLuaChunk: a Lua 5.1 chunk (a cartridge's object 0) into prototypes, instructions,
// constants and debug info. The walk over the bytes is a kernel (walkLuaChunk: TS or WASM, by
// `backend`): once to check every count and size and total them, once to fill tables of exactly
// those sizes; this file turns the tables into the model. README.md § Lua.

import { type DecodeError, decodeError, type ErrorCode } from '../../core/errors.js';
import { type DecodeOptions, resolveOptions } from '../../core/limits.js';
import { ByteReader, inputBytes } from '../../core/reader.js';
import type { Text } from '../../core/text.js';
import {
  LUA_CONSTANT_FIELDS,
  LUA_LOCVAR_FIELDS,
  LUA_PROTO_FIELDS,
  LUA_PROTO_MIN_BYTES,
  LUA_STRING_FIELDS,
  LuaCount,
  LuaField,
  LuaInfo,
  LuaProtoSlot as S,
} from '../../kernels/js/lua.js';
import { luaKernelsFor } from '../../kernels/lua.js';
import { chooseKernels } from '../../kernels/select.js';
import { Status } from '../../kernels/status.js';
import type { LuaChunkTables } from '../../kernels/types.js';
import { autoText, LUA_HEADER_BYTES, readLuaHeader } from './lua.js';
import type { LuaChunk, LuaChunkCounts, LuaCode, LuaConstant, LuaLocVar, LuaProto } from './lua-types.js';
import type { GwcCartridge } from './types.js';

/**
 * How deep prototypes may nest. The 5.1 compiler stops at LUAI_MAXCCALLS (200) nested C calls
 * while parsing, so no compiled chunk nests functions deeper; a deeper one is hostile.
 */
export const LUA_MAX_DEPTH = 200;

/**
 * Decodes a Lua 5.1 chunk (the bytes of a cartridge's object 0, or a `.luac`). Options: `backend`
 * / `kernels` (the walk's kernel set), `limits.maxRecords` (the most prototypes, constants,
 * strings, instructions, line entries, locals or upvalue names, each counted over the whole chunk).
 * Throws DecodeError (format `gwc`, path from `lua.proto[0]`): CORRUPT (not a Lua chunk, a
 * negative count, an opcode above 37, an unknown constant type, a boolean other than 0/1, a
 * string not ending in NUL, a null string constant), UNSUPPORTED_VERSION (a header the players do
 * not load), TRUNCATED (a count or field past the end), LIMIT_EXCEEDED (`maxRecords`, or nesting
 * deeper than LUA_MAX_DEPTH). `bytes` is copied, never written; text `raw` arrays are views of
 * that copy, owned by the result.
 */
export function decodeLuaChunk(bytes: Uint8Array, options?: DecodeOptions): LuaChunk {
  return decodeLuaAt(inputBytes(bytes), options, 0);
}

/**
 * The Lua chunk of a decoded cartridge (`cart.lua.bytes`), as decodeLuaChunk decodes it, with
 * error offsets counted in the cartridge's file (the chunk starts 4 bytes after `lua.offset`).
 */
export function decodeLua(cart: GwcCartridge, options?: DecodeOptions): LuaChunk {
  return decodeLuaAt(cart.lua.bytes, options, cart.lua.offset + 4);
}

/**
 * decodeLua for the object model (analysis/index.ts), which reads a prototype's instructions,
 * constants, line info, nesting, path and offset but never its local or upvalue names: those come
 * back empty (`locVars` and `upvalues` `[]`), the rest as decodeLua gives it. The same checks,
 * limits and errors, so a chunk decodeLua refuses is refused here alike.
 */
export function decodeLuaForAnalysis(cart: GwcCartridge, options?: DecodeOptions): LuaChunk {
  return decodeLuaAt(cart.lua.bytes, options, cart.lua.offset + 4, false);
}

/** decodeLuaChunk with error offsets counted from `base` (a cartridge passes where the chunk starts); `names` false leaves local and upvalue names out. */
export function decodeLuaAt(bytes: Uint8Array, options: DecodeOptions | undefined, base: number, names = true): LuaChunk {
  // The walk only reads `bytes`; the copy the result owns comes back in the tables' buffer. Bytes
  // another thread may write (a SharedArrayBuffer's) are copied first: the walk's two passes and
  // that copy must all see the bytes the checks passed.
  const src = typeof SharedArrayBuffer !== 'undefined' && bytes.buffer instanceof SharedArrayBuffer ? bytes.slice() : bytes;
  const { header, kernels, limits, info, fail } = prepare(src, options, base);
  const walked = kernels.walkTables(src, LUA_HEADER_BYTES, header.sizeTSize, limits, info, true);
  if (typeof walked === 'number') throw fail(walked);
  return build(walked.tables.chunk!, header, walked.tables, info[LuaInfo.COUNTS + LuaCount.TEXT]!, walked.end, names);
}

/**
 * The counts of a chunk without decoding it (the walk that checks and counts, no tables): what
 * `levelkit info` shows. Throws as decodeLuaChunk does for a chunk it would refuse.
 */
export function luaCounts(bytes: Uint8Array, options?: DecodeOptions, base = 0): LuaChunkCounts {
  const own = inputBytes(bytes);
  const { header, kernels, limits, info, fail } = prepare(own, options, base);
  const counted = kernels.walkLuaChunk(own, LUA_HEADER_BYTES, header.sizeTSize, limits, null, info);
  if (counted < 0) throw fail(counted);
  const total = (k: number) => info[LuaInfo.COUNTS + k]!;
  return { functions: total(LuaCount.PROTOS), instructions: total(LuaCount.CODE), constants: total(LuaCount.CONSTANTS), strings: total(LuaCount.STRINGS) };
}

/** The header, the kernel pair, the walk's limits and info, and the error a failed walk gives. */
function prepare(bytes: Uint8Array, options: DecodeOptions | undefined, base: number) {
  const opts = resolveOptions(options);
  const r = new ByteReader(bytes, 'gwc', base);
  const { header } = r.within('lua', () => readLuaHeader(r, autoText));
  const kernels = luaKernelsFor(chooseKernels(opts.backend, opts.kernels));
  const limits = Int32Array.of(Math.min(opts.limits.maxRecords, 0x7fffffff), LUA_MAX_DEPTH);
  const info = new Int32Array(LuaInfo.PATH + LUA_MAX_DEPTH);
  const fail = (status: number) => walkError(status, info, base, header.sizeTSize, opts.limits.maxRecords, bytes.length);
  return { header, kernels, limits, info, fail };
}

const utf16 = new TextDecoder('utf-16le', { ignoreBOM: true });
/** Node's Buffer where there is one: its UTF-16 decode copies the units as they are, several times faster than TextDecoder's. */
const nodeBuffer = (globalThis as { Buffer?: { from(b: ArrayBuffer, at: number, length: number): { toString(encoding: 'utf16le'): string } } }).Buffer;

/**
 * UTF-16 units as a string. The walk writes only well-formed UTF-16 (a surrogate only in a pair,
 * from a 4-byte UTF-8 sequence), so Buffer and TextDecoder (which would replace a lone surrogate)
 * give the same string; a BOM is kept by both.
 */
function utf16Text(units: Uint16Array): string {
  if (units.length === 0) return '';
  return nodeBuffer ? nodeBuffer.from(units.buffer as ArrayBuffer, units.byteOffset, units.byteLength).toString('utf16le') : utf16.decode(units);
}

// The table layouts as plain numbers, read once: the build loop below runs per prototype,
// constant and string, and an imported binding may be an accessor (module interop).
const { OFFSET, SOURCE, LINE_DEFINED, LAST_LINE, NUPS, NUM_PARAMS, IS_VARARG, MAX_STACK, CODE_START, CODE_COUNT, K_START, K_COUNT, PARENT } = S;
const { LINE_START, LINE_COUNT, LOC_START, LOC_COUNT, UP_START, UP_COUNT } = S;
const [PROTO_FIELDS, CONSTANT_FIELDS, STRING_FIELDS, LOCVAR_FIELDS] = [LUA_PROTO_FIELDS, LUA_CONSTANT_FIELDS, LUA_STRING_FIELDS, LUA_LOCVAR_FIELDS];
/** The names of every prototype of a chunk decoded without them: one shared list, frozen so no caller can fill it for all. */
const NO_NAMES = Object.freeze([]) as unknown as never[];

/** The model from the filled tables; `names` false leaves every `locVars` and `upvalues` empty. */
function build(own: Uint8Array, header: LuaChunk['header'], t: LuaChunkTables, textUnits: number, end: number, names: boolean): LuaChunk {
  const dv = new DataView(own.buffer, own.byteOffset, own.byteLength);
  const buf = own.buffer,
    base = own.byteOffset;
  // Every string's text is a slice of one decoded string: one decoder call for the whole chunk.
  const all = utf16Text(t.text.subarray(0, textUnits));
  const st = t.strings;
  // Each stored string is used once (by one constant, local, upvalue name or source), so its Text
  // is made where it is used: a string left out (names false) costs nothing.
  const textAt = (i: number): Text | null => {
    if (i < 0) return null;
    const s = i * STRING_FIELDS;
    // Views made with the constructor: subarray() looks up a species constructor first, which
    // made the views of a big chunk's strings and code cost twice as much.
    return {
      text: all.slice(i > 0 ? st[s - STRING_FIELDS + 2]! : 0, st[s + 2]!),
      raw: new Uint8Array(buf, base + st[s]!, st[s + 1]!),
      encoding: st[s + 3] ? 'utf-8' : 'windows-1252',
    };
  };
  const P = t.protos,
    K = t.constants,
    L = t.locVars,
    U = t.upvalues;
  // Each table's buffer and offset, read once (typed array getters), for the per-prototype views.
  const [rawBuf, opBuf, aBuf, bBuf, cBuf, lineBuf] = [t.code.buffer, t.op.buffer, t.a.buffer, t.b.buffer, t.c.buffer, t.lineInfo.buffer];
  const [rawAt, opAt, aAt, bAt, cAt, lineAt] = [t.code.byteOffset, t.op.byteOffset, t.a.byteOffset, t.b.byteOffset, t.c.byteOffset, t.lineInfo.byteOffset];
  const chunkCode: LuaCode = { length: t.code.length, raw: t.code, op: t.op, a: t.a, b: t.b, c: t.c };
  const protos: LuaProto[] = new Array(P.length / PROTO_FIELDS);
  for (let id = 0, r = 0; id < protos.length; id++, r += PROTO_FIELDS) {
    const parent = P[r + PARENT]!;
    const up = parent < 0 ? null : protos[parent]!;
    const codeFrom = P[r + CODE_START]!,
      n = P[r + CODE_COUNT]!;
    const k: LuaConstant[] = new Array(P[r + K_COUNT]!);
    for (let i = 0, c = P[r + K_START]! * CONSTANT_FIELDS; i < k.length; i++, c += CONSTANT_FIELDS) {
      const type = K[c]!;
      k[i] = type === 4 ? { type: 'string', value: textAt(K[c + 1]!)! } : constant(type, K[c + 1]!, dv, own);
    }
    let locVars: LuaLocVar[] = NO_NAMES;
    let upvalues: (Text | null)[] = NO_NAMES;
    if (names) {
      locVars = new Array(P[r + LOC_COUNT]!);
      for (let i = 0, l = P[r + LOC_START]! * LOCVAR_FIELDS; i < locVars.length; i++, l += LOCVAR_FIELDS)
        locVars[i] = { name: textAt(L[l]!), startPc: L[l + 1]!, endPc: L[l + 2]! };
      upvalues = new Array(P[r + UP_COUNT]!);
      for (let i = 0, u = P[r + UP_START]!; i < upvalues.length; i++, u++) upvalues[i] = textAt(U[u]!);
    }
    const lineFrom = P[r + LINE_START]!;
    const proto: LuaProto = {
      id,
      parent,
      path: up ? `${up.path}.p[${up.p.length}]` : 'lua.proto[0]',
      offset: P[r + OFFSET]!,
      source: textAt(P[r + SOURCE]!),
      lineDefined: P[r + LINE_DEFINED]!,
      lastLineDefined: P[r + LAST_LINE]!,
      nups: P[r + NUPS]!,
      numParams: P[r + NUM_PARAMS]!,
      isVararg: P[r + IS_VARARG]!,
      maxStackSize: P[r + MAX_STACK]!,
      code: {
        length: n,
        raw: new Uint32Array(rawBuf, rawAt + 4 * codeFrom, n),
        op: new Uint8Array(opBuf, opAt + codeFrom, n),
        a: new Uint8Array(aBuf, aAt + codeFrom, n),
        b: new Uint16Array(bBuf, bAt + 2 * codeFrom, n),
        c: new Uint16Array(cBuf, cAt + 2 * codeFrom, n),
      },
      k,
      p: [],
      lineInfo: new Int32Array(lineBuf, lineAt + 4 * lineFrom, P[r + LINE_COUNT]!),
      locVars,
      upvalues,
    };
    protos[id] = proto;
    up?.p.push(proto);
  }
  return { header, main: protos[0]!, protos, code: chunkCode, trailing: own.slice(end), bytes: own.length };
}

/** A constant other than a string. */
function constant(type: number, value: number, dv: DataView, own: Uint8Array): LuaConstant {
  if (type === 3) {
    const n = dv.getFloat64(value, true);
    return Number.isNaN(n) ? { type: 'number', value: n, nanBits: own.slice(value, value + 8) } : { type: 'number', value: n };
  }
  if (type === 1) return { type: 'boolean', value: value !== 0 };
  return { type: 'nil' };
}

/** What a failing field is, for the message: its path suffix and what was expected there. */
const FIELDS: Record<number, { path: (item: number) => string; items?: string; each?: number; expected?: string }> = {
  [LuaField.SOURCE]: { path: () => '.source', expected: 'a prototype (source, line range, sizes, six counts)' },
  [LuaField.HEAD]: { path: () => '.lineDefined', expected: 'the line range and the four size bytes (12 bytes)' },
  [LuaField.CODE_COUNT]: { path: () => '.code', items: 'instructions', each: 4 },
  [LuaField.CODE]: { path: (i) => `.code[${i}]`, expected: `an opcode 0..37 (MOVE..VARARG)` },
  [LuaField.K_COUNT]: { path: () => '.k', items: 'constants', each: 1 },
  [LuaField.K_TYPE]: { path: (i) => `.k[${i}].type`, expected: 'a constant type 0 (nil), 1 (boolean), 3 (number) or 4 (string)' },
  [LuaField.K_VALUE]: { path: (i) => `.k[${i}]`, expected: 'the constant’s value (a boolean 0 or 1, a number of 8 bytes)' },
  [LuaField.K_STRING]: { path: (i) => `.k[${i}]`, expected: 'a string: size_t length ≥ 1 with the NUL, the bytes, NUL' },
  [LuaField.P_COUNT]: { path: () => '.p', items: 'prototypes', each: 0 },
  [LuaField.LINE_COUNT]: { path: () => '.lineInfo', items: 'line entries', each: 4 },
  [LuaField.LOC_COUNT]: { path: () => '.locVars', items: 'locals', each: 0 },
  [LuaField.LOC]: { path: (i) => `.locVars[${i}]`, expected: 'a local: name (a string, NUL last), startpc, endpc' },
  [LuaField.UP_COUNT]: { path: () => '.upvalues', items: 'upvalue names', each: 0 },
  [LuaField.UP_NAME]: { path: (i) => `.upvalues[${i}]`, expected: 'an upvalue name (a string, NUL last)' },
  [LuaField.DEPTH]: { path: () => '', expected: `prototypes nested at most ${LUA_MAX_DEPTH} deep` },
};

/** The DecodeError for a failed walk, from what the kernel left in `info`. */
function walkError(status: number, info: Int32Array, base: number, sizeT: number, maxRecords: number, size: number): DecodeError {
  const field = FIELDS[info[LuaInfo.FIELD]!] ?? { path: () => '', expected: 'a Lua 5.1 chunk' };
  const depth = info[LuaInfo.DEPTH]!;
  let path = 'lua.proto[0]';
  for (let d = 1; d < depth; d++) path += `.p[${info[LuaInfo.PATH + d]!}]`;
  if (info[LuaInfo.FIELD] === LuaField.DEPTH) path += `.p[${info[LuaInfo.PATH + depth] ?? 0}]`;
  path += field.path(info[LuaInfo.ITEM]!);
  const at = info[LuaInfo.AT]!;
  const value = info[LuaInfo.VALUE]!;
  const code: ErrorCode = status === Status.TRUNCATED ? 'TRUNCATED' : status === Status.OVERFLOW ? 'LIMIT_EXCEEDED' : 'CORRUPT';
  const fail = (expected: string, actual: string | number) => decodeError('gwc', code, { offset: base + at, path, expected, actual });
  if (field.items !== undefined) {
    // A count: negative, past the bytes left, or past a limit.
    if (code === 'CORRUPT') return fail('a count ≥ 0', value);
    if (code === 'LIMIT_EXCEEDED') return fail(`at most ${maxRecords} ${field.items} in the chunk (limits.maxRecords)`, value);
    if (size - at < 4) return fail(`the count of ${field.items} (4 bytes)`, `${Math.max(0, size - at)} bytes left`);
    const each = field.each || (field.items === 'prototypes' ? LUA_PROTO_MIN_BYTES + sizeT : sizeT + (field.items === 'locals' ? 8 : 0));
    return fail(`${value} ${field.items} (at least ${value * each} bytes)`, `${Math.max(0, size - at - 4)} bytes left`);
  }
  if (code === 'LIMIT_EXCEEDED')
    return fail(
      field.expected && info[LuaInfo.FIELD] === LuaField.DEPTH ? field.expected : `at most ${maxRecords} prototypes and strings (limits.maxRecords)`,
      value,
    );
  if (code === 'TRUNCATED') return fail(field.expected ?? 'more bytes', `${Math.max(0, size - at)} bytes left`);
  return fail(field.expected ?? 'a Lua 5.1 chunk', value);
}
