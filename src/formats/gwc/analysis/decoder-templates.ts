// A fast path for the one decoder shape nearly every obfuscated cartridge has: Urwigo's
// table-lookup function, which Urwigo compiles to the same 31 instructions every time (only the
// table and the name change). When a prototype matches that instruction sequence exactly —
// opcodes, registers, jumps and constants — what it computes is fixed, so decoders.ts evaluates
// it natively (one table lookup per byte) instead of stepping the mini VM through ~20
// instructions per byte. Anything that differs by one operand runs in the mini VM as before,
// and the tests check both paths give lua5.1's bytes.

import { bx, LUA_OPCODES, LUA_RK_CONSTANT, luaOpMode, sbx } from '../lua-opcodes.js';
import type { LuaProto } from '../lua-types.js';

/** The table string: one byte for each argument byte 1..127. */
const TABLE_BYTES = 127;

/**
 * Urwigo's decoder as normalised instructions (see `normalised`): `res = ""`, the table, then
 * `for i = 1, #str do local b = str:byte(i) if b > 0 and b <= 127 then res = res ..
 * string.char(dtable:byte(b)) else res = res .. string.char(b) end end return res`.
 */
const URWIGO_TABLE_DECODER = [
  'LOADK 1 ""',
  'LOADK 2 <table>',
  'LOADK 3 1',
  'LEN 4 0 0',
  'LOADK 5 1',
  'FORPREP 3 22',
  'SELF 7 0 k"byte"',
  'MOVE 9 6 0',
  'CALL 7 3 2',
  'LT 0 k0 7',
  'JMP 0 11',
  'LE 0 7 k127',
  'JMP 0 9',
  'MOVE 8 1 0',
  'GETGLOBAL 9 "string"',
  'GETTABLE 9 9 k"char"',
  'SELF 10 2 k"byte"',
  'MOVE 12 7 0',
  'CALL 10 3 0',
  'CALL 9 0 2',
  'CONCAT 1 8 9',
  'JMP 0 6',
  'MOVE 8 1 0',
  'GETGLOBAL 9 "string"',
  'GETTABLE 9 9 k"char"',
  'MOVE 10 7 0',
  'CALL 9 2 2',
  'CONCAT 1 8 9',
  'FORLOOP 3 -23',
  'RETURN 1 2 0',
  'RETURN 0 1 0',
];

/** Instruction `pc` as text: constants by value (the 127-byte table as `<table>`), jumps relative. */
function normalised(proto: LuaProto, pc: number): string {
  const code = proto.code;
  const op = code.op[pc]!;
  const name = LUA_OPCODES[op] ?? `OP${op}`;
  const constant = (i: number): string => {
    const c = proto.k[i];
    if (c?.type === 'string') return c.value.raw.length === TABLE_BYTES ? '<table>' : JSON.stringify(c.value.text);
    if (c?.type === 'number' || c?.type === 'boolean') return String(c.value);
    return 'nil';
  };
  const mode = luaOpMode(op);
  if (mode === 'ABx') return `${name} ${code.a[pc]} ${constant(bx(code, pc))}`;
  if (mode === 'AsBx') return `${name} ${code.a[pc]} ${sbx(code, pc)}`;
  const rk = (x: number): string => (x >= LUA_RK_CONSTANT ? `k${constant(x - LUA_RK_CONSTANT)}` : String(x));
  return `${name} ${code.a[pc]} ${rk(code.b[pc]!)} ${rk(code.c[pc]!)}`;
}

/** The 127-byte table when `proto` is exactly Urwigo's table decoder, else null. */
export function urwigoTable(proto: LuaProto): Uint8Array | null {
  if (proto.numParams !== 1 || proto.nups !== 0 || proto.code.length !== URWIGO_TABLE_DECODER.length) return null;
  for (let pc = 0; pc < proto.code.length; pc++) if (normalised(proto, pc) !== URWIGO_TABLE_DECODER[pc]) return null;
  const table = proto.k[bx(proto.code, 1)];
  return table?.type === 'string' && table.value.raw.length === TABLE_BYTES ? table.value.raw : null;
}

/** What Urwigo's decoder with `table` returns for `arg`: bytes 1..127 looked up, the others kept. */
export function decodeWithTable(table: Uint8Array, arg: Uint8Array): Uint8Array {
  const out = new Uint8Array(arg.length);
  for (let i = 0; i < arg.length; i++) {
    const b = arg[i]!;
    out[i] = b > 0 && b <= TABLE_BYTES ? table[b - 1]! : b;
  }
  return out;
}
