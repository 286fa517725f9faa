// The decoded Lua 5.1 chunk of a cartridge (object 0): every function prototype with its
// instructions (struct of arrays), constants, nested prototypes and debug info, as lundump.c
// reads them. Field names follow lobject.h's Proto (k = constants, p = nested prototypes), so a
// reader of the Lua sources finds them; README.md § Lua has the byte layout.

import type { Text } from '../../core/text.js';
import type { LuaHeader } from './types.js';

/**
 * The instructions of a prototype (or of the whole chunk), one column per field. Lua 5.1 packs
 * each in 32 bits: opcode bits 0–5, A 6–13, C 14–22, B 23–31; Bx = bits 14–31 (B and C
 * together), sBx = Bx − 131071. `bx()` and `sbx()` in lua-opcodes.ts read the last two.
 */
export interface LuaCode {
  /** Instructions. */
  length: number;
  /** Each instruction as stored (what encode writes; the other columns must agree with it). */
  raw: Uint32Array;
  /** Opcode, 0..37 (`LUA_OPCODES` names them). */
  op: Uint8Array;
  a: Uint8Array;
  b: Uint16Array;
  c: Uint16Array;
}

/** One constant of a prototype's `k` table. */
export type LuaConstant =
  | { type: 'nil' }
  | { type: 'boolean'; value: boolean }
  | {
      type: 'number';
      value: number;
      /** The 8 stored bytes, kept only for a NaN (whose payload a number may not carry through). */
      nanBits?: Uint8Array;
    }
  | {
      type: 'string';
      /** The bytes (without Lua's NUL) and their text: UTF-8 when well-formed, else Windows-1252. */
      value: Text;
    };

/** A local variable's debug entry: its name and the instructions where it is live. */
export interface LuaLocVar {
  /** Null when the chunk stores none (size 0). */
  name: Text | null;
  /** First instruction where the local is active. */
  startPc: number;
  /** First instruction where it is dead. */
  endPc: number;
}

/** One function prototype. */
export interface LuaProto {
  /** Index in `LuaChunk.protos` (file order: a function before the functions it nests). */
  id: number;
  /** `id` of the enclosing prototype; −1 for the main function. */
  parent: number;
  /** Where it is, as errors say it: `lua.proto[0]` for the main function, `lua.proto[0].p[3]` for its fourth child. */
  path: string;
  /** Offset in the chunk of its source field (the prototype's first byte). */
  offset: number;
  /** The source name; null when stored as none (luac stores it for the main function only). */
  source: Text | null;
  lineDefined: number;
  lastLineDefined: number;
  /** Upvalues. */
  nups: number;
  numParams: number;
  /** The vararg flags byte (1 HASARG, 2 ISVARARG, 4 NEEDSARG). */
  isVararg: number;
  maxStackSize: number;
  /** The instructions (views of `LuaChunk.code`). */
  code: LuaCode;
  /** Constants. */
  k: LuaConstant[];
  /** Nested prototypes (closures this function creates with CLOSURE A Bx → p[Bx]). */
  p: LuaProto[];
  /** Source line of each instruction (empty when stripped; a view of one array for the chunk). */
  lineInfo: Int32Array;
  locVars: LuaLocVar[];
  /** Upvalue names (empty when stripped); an entry is null when stored as none. */
  upvalues: (Text | null)[];
}

/** A decoded Lua 5.1 chunk. */
export interface LuaChunk {
  header: LuaHeader;
  /** The main function: `protos[0]`. */
  main: LuaProto;
  /** Every prototype in file order (pre-order); `protos[i].id === i`. */
  protos: LuaProto[];
  /** Every instruction of the chunk, prototype after prototype in file order (each prototype's `code` is a view). */
  code: LuaCode;
  /** Bytes after the main function (lundump.c stops there without looking); empty in every known chunk. Kept for encode. */
  trailing: Uint8Array;
  /** Size of the chunk in bytes. */
  bytes: number;
}

/** Counts of a chunk, for `levelkit info`. */
export interface LuaChunkCounts {
  functions: number;
  instructions: number;
  constants: number;
  /** Every string stored: string constants, source names, local and upvalue names. */
  strings: number;
}
