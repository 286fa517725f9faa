// Lua 5.1's 38 opcodes (lopcodes.h: names, order and operand modes; facts only) and the readers
// of the wide operands, for the listing and for analyses that walk the instructions.

import type { LuaCode } from './lua-types.js';

/** Opcode names by number (OP_MOVE = 0 … OP_VARARG = 37). */
export const LUA_OPCODES = [
  'MOVE',
  'LOADK',
  'LOADBOOL',
  'LOADNIL',
  'GETUPVAL',
  'GETGLOBAL',
  'GETTABLE',
  'SETGLOBAL',
  'SETUPVAL',
  'SETTABLE',
  'NEWTABLE',
  'SELF',
  'ADD',
  'SUB',
  'MUL',
  'DIV',
  'MOD',
  'POW',
  'UNM',
  'NOT',
  'LEN',
  'CONCAT',
  'JMP',
  'EQ',
  'LT',
  'LE',
  'TEST',
  'TESTSET',
  'CALL',
  'TAILCALL',
  'RETURN',
  'FORLOOP',
  'FORPREP',
  'TFORLOOP',
  'SETLIST',
  'CLOSE',
  'CLOSURE',
  'VARARG',
] as const;

export type LuaOpcodeName = (typeof LUA_OPCODES)[number];

/** Opcode numbers by name. */
export const LuaOp = Object.freeze(Object.fromEntries(LUA_OPCODES.map((name, i) => [name, i])) as { [K in LuaOpcodeName]: number });

/** Operand format of each opcode: A B C, A Bx, or A sBx. */
export type LuaOpMode = 'ABC' | 'ABx' | 'AsBx';

const ABX = new Set<number>([LuaOp.LOADK, LuaOp.GETGLOBAL, LuaOp.SETGLOBAL, LuaOp.CLOSURE]);
const ASBX = new Set<number>([LuaOp.JMP, LuaOp.FORLOOP, LuaOp.FORPREP]);

export function luaOpMode(op: number): LuaOpMode {
  return ABX.has(op) ? 'ABx' : ASBX.has(op) ? 'AsBx' : 'ABC';
}

/** B or C at or above this names constant (B or C − 256) instead of a register (an RK operand). */
export const LUA_RK_CONSTANT = 256;
/** sBx = Bx − this. */
export const LUA_MAXARG_SBX = 131071;

/** Bx of instruction `i` (bits 14–31). */
export function bx(code: LuaCode, i: number): number {
  return code.raw[i]! >>> 14;
}

/** sBx of instruction `i` (a signed jump or loop offset). */
export function sbx(code: LuaCode, i: number): number {
  return (code.raw[i]! >>> 14) - LUA_MAXARG_SBX;
}
