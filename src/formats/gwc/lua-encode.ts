// encodeLuaChunk: a LuaChunk back to bytes, as ldump.c lays a chunk out, byte for byte what
// decodeLuaChunk read. Everything is checked before the bytes are returned; what would not read
// back the same is refused (EncodeError). README.md § Lua.

import { type EncodeErrorCode, encodeError } from '../../core/errors.js';
import { ByteWriter } from '../../core/reader.js';
import { type Text, textBytes } from '../../core/text.js';
import { autoText, LUA_SIGNATURE } from './lua.js';
import { LUA_MAX_DEPTH } from './lua-chunk.js';
import type { LuaChunk, LuaCode, LuaConstant, LuaProto } from './lua-types.js';
import type { LuaHeader } from './types.js';

/** The header fields and the only values the players load (lua.ts readLuaHeader). */
const HEADER: [keyof LuaHeader, readonly unknown[]][] = [
  ['version', [0x51]],
  ['format', [0]],
  ['littleEndian', [true]],
  ['intSize', [4]],
  ['sizeTSize', [4, 8]],
  ['instructionSize', [4]],
  ['numberSize', [8]],
  ['integral', [false]],
];

const fail = (code: EncodeErrorCode, path: string, expected: string, actual?: unknown) =>
  encodeError('gwc', code, { path, expected, actual: actual === undefined ? undefined : describe(actual) });

/**
 * Writes `chunk` as a Lua 5.1 chunk: the header, the prototypes from `main` down (not `protos`,
 * which decode derives), then `trailing`. Each instruction is written from `code.raw`; strings
 * from their Text (the stored bytes while the text is unchanged); a NaN number from `nanBits`
 * when given. EncodeError (format `gwc`) for a header the players would not load, a prototype
 * met twice (a cycle, or shared) or nested deeper than LUA_MAX_DEPTH, a byte or int field out
 * of range, op/a/b/c columns that disagree with `raw`, an opcode above 37, an unknown constant,
 * and text that would not read back the same (UNENCODABLE_TEXT). `chunk` is never written.
 */
export function encodeLuaChunk(chunk: LuaChunk): Uint8Array {
  if (!chunk || typeof chunk !== 'object') throw fail('BAD_VALUE', 'lua', 'a LuaChunk', chunk);
  const h = chunk.header;
  if (!h || typeof h !== 'object') throw fail('BAD_VALUE', 'lua.header', 'a LuaHeader', h);
  for (const [key, allowed] of HEADER) if (!allowed.includes(h[key])) throw fail('BAD_VALUE', `lua.header.${key}`, allowed.join(' or '), h[key]);
  const sizeT = h.sizeTSize;
  const w = new ByteWriter(chunk.bytes > 0 ? chunk.bytes : 4096);
  for (const b of LUA_SIGNATURE) w.u8(b);
  w.u8(h.version).u8(h.format).u8(1).u8(h.intSize).u8(sizeT).u8(h.instructionSize).u8(h.numberSize).u8(0);
  const seen = new Set<LuaProto>();
  // Iterative, as the decoder: a frame is a prototype and how many of its children are written.
  const stack: { f: LuaProto; path: string; next: number }[] = [];
  const begin = (f: LuaProto, path: string) => {
    if (!f || typeof f !== 'object') throw fail('BAD_VALUE', path, 'a LuaProto', f);
    if (stack.length >= LUA_MAX_DEPTH) throw fail('LIMIT_EXCEEDED', path, `prototypes nested at most ${LUA_MAX_DEPTH} deep (what decode reads)`);
    if (seen.has(f)) throw fail('BAD_VALUE', path, 'each prototype once (a chunk is a tree)', 'a prototype met before');
    seen.add(f);
    writeHead(w, f, path, sizeT);
    if (!Array.isArray(f.p)) throw fail('BAD_VALUE', `${path}.p`, 'an array of prototypes', f.p);
    w.i32(f.p.length);
    stack.push({ f, path, next: 0 });
  };
  begin(chunk.main, 'lua.proto[0]');
  while (stack.length > 0) {
    const top = stack.at(-1)!;
    if (top.next < top.f.p.length) {
      const i = top.next++;
      begin(top.f.p[i]!, `${top.path}.p[${i}]`);
      continue;
    }
    writeDebug(w, top.f, top.path, sizeT);
    stack.pop();
  }
  if (!(chunk.trailing instanceof Uint8Array)) throw fail('BAD_VALUE', 'lua.trailing', 'a Uint8Array', chunk.trailing);
  w.bytes(chunk.trailing);
  return w.finish();
}

/** Source, line range, the four bytes, code and constants. */
function writeHead(w: ByteWriter, f: LuaProto, path: string, sizeT: number): void {
  writeString(w, f.source, `${path}.source`, sizeT, true);
  w.i32(int32(f.lineDefined, `${path}.lineDefined`)).i32(int32(f.lastLineDefined, `${path}.lastLineDefined`));
  for (const k of ['nups', 'numParams', 'isVararg', 'maxStackSize'] as const) w.u8(byte(f[k], `${path}.${k}`));
  const code = checkCode(f.code, `${path}.code`);
  w.i32(code.length);
  for (let i = 0; i < code.length; i++) w.u32(code.raw[i]!);
  if (!Array.isArray(f.k)) throw fail('BAD_VALUE', `${path}.k`, 'an array of constants', f.k);
  w.i32(f.k.length);
  f.k.forEach((k, i) => writeConstant(w, k, `${path}.k[${i}]`, sizeT));
}

/** Line info, locals, upvalue names. */
function writeDebug(w: ByteWriter, f: LuaProto, path: string, sizeT: number): void {
  const lines = f.lineInfo;
  if (!(lines instanceof Int32Array) && !Array.isArray(lines)) throw fail('BAD_VALUE', `${path}.lineInfo`, 'an Int32Array', lines);
  w.i32(lines.length);
  for (let i = 0; i < lines.length; i++) w.i32(int32(lines[i], `${path}.lineInfo[${i}]`));
  if (!Array.isArray(f.locVars)) throw fail('BAD_VALUE', `${path}.locVars`, 'an array of locals', f.locVars);
  w.i32(f.locVars.length);
  f.locVars.forEach((l, i) => {
    const at = `${path}.locVars[${i}]`;
    if (!l || typeof l !== 'object') throw fail('BAD_VALUE', at, '{ name, startPc, endPc }', l);
    writeString(w, l.name, `${at}.name`, sizeT, true);
    w.i32(int32(l.startPc, `${at}.startPc`)).i32(int32(l.endPc, `${at}.endPc`));
  });
  if (!Array.isArray(f.upvalues)) throw fail('BAD_VALUE', `${path}.upvalues`, 'an array of names', f.upvalues);
  w.i32(f.upvalues.length);
  f.upvalues.forEach((u, i) => writeString(w, u, `${path}.upvalues[${i}]`, sizeT, true));
}

/** The code's columns, checked: `raw` is what is written, so op/a/b/c must be what it says. */
function checkCode(code: LuaCode, path: string): LuaCode {
  if (!code || !(code.raw instanceof Uint32Array)) throw fail('BAD_VALUE', `${path}.raw`, 'a Uint32Array', code?.raw);
  const n = code.raw.length;
  if (code.length !== n) throw fail('BAD_LENGTH', `${path}.length`, `${n} (raw.length)`, code.length);
  for (const col of ['op', 'a', 'b', 'c'] as const) {
    if (!ArrayBuffer.isView(code[col]) || code[col].length !== n) throw fail('BAD_LENGTH', `${path}.${col}`, `${n} entries (raw.length)`, code[col]?.length);
  }
  for (let i = 0; i < n; i++) {
    const r = code.raw[i]!;
    const op = r & 0x3f;
    if (op > 37) throw fail('OUT_OF_RANGE', `${path}.raw[${i}]`, 'an opcode 0..37', op);
    if (code.op[i] !== op || code.a[i] !== ((r >>> 6) & 0xff) || code.c[i] !== ((r >>> 14) & 0x1ff) || code.b[i] !== r >>> 23)
      throw fail(
        'BAD_VALUE',
        `${path}[${i}]`,
        `op/a/b/c as raw 0x${r.toString(16)} says (raw is what is written)`,
        `op ${code.op[i]} a ${code.a[i]} b ${code.b[i]} c ${code.c[i]}`,
      );
  }
  return code;
}

function writeConstant(w: ByteWriter, k: LuaConstant, path: string, sizeT: number): void {
  if (!k || typeof k !== 'object') throw fail('BAD_VALUE', path, 'a constant { type, value }', k);
  if (k.type === 'nil') w.u8(0);
  else if (k.type === 'boolean') {
    if (typeof k.value !== 'boolean') throw fail('BAD_VALUE', `${path}.value`, 'true or false', (k as { value: unknown }).value);
    w.u8(1).u8(k.value ? 1 : 0);
  } else if (k.type === 'number') {
    if (typeof k.value !== 'number') throw fail('BAD_VALUE', `${path}.value`, 'a number', (k as { value: unknown }).value);
    w.u8(3);
    const nan = k.nanBits;
    if (Number.isNaN(k.value) && nan instanceof Uint8Array && nan.length === 8 && Number.isNaN(new DataView(nan.buffer, nan.byteOffset, 8).getFloat64(0, true)))
      w.bytes(nan);
    else {
      const b = new Uint8Array(8);
      new DataView(b.buffer).setFloat64(0, k.value, true);
      w.bytes(b);
    }
  } else if (k.type === 'string') {
    w.u8(4);
    writeString(w, k.value, `${path}.value`, sizeT, false);
  } else throw fail('BAD_VALUE', `${path}.type`, "'nil', 'boolean', 'number' or 'string'", (k as { type: unknown }).type);
}

/** A Lua string: size_t length with the NUL (0 for none), the bytes, NUL. */
function writeString(w: ByteWriter, t: Text | null, path: string, sizeT: number, nullable: boolean): void {
  if (t === null && nullable) {
    w.u32(0);
    if (sizeT === 8) w.u32(0);
    return;
  }
  const b = textBytes(t as Text, { format: 'gwc', path });
  // The chunk does not say how its strings are encoded; decode reads UTF-8 when the bytes are.
  const back = autoText(b).text;
  if (back !== t!.text)
    throw encodeError('gwc', 'UNENCODABLE_TEXT', {
      path,
      expected: `text that reads back the same (${t!.encoding} bytes are decoded as UTF-8 when valid)`,
      actual: JSON.stringify(t!.text),
      detail: `would read back as ${JSON.stringify(back)}`,
    });
  if (b.length + 1 > 0x7fffffff) throw fail('LIMIT_EXCEEDED', path, 'a string below 2 GiB', b.length);
  w.u32(b.length + 1);
  if (sizeT === 8) w.u32(0);
  w.bytes(b).u8(0);
}

function int32(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) throw fail('OUT_OF_RANGE', path, 'a 32-bit signed integer', v);
  return v;
}

function byte(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 255) throw fail('OUT_OF_RANGE', path, 'a byte 0..255', v);
  return v;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'object') return Array.isArray(v) ? 'an array' : 'an object';
  return String(v);
}
