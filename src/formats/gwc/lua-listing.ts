// A disassembly listing of a Lua chunk for people (`lua.txt` of `levelkit extract`): each
// function with its constants, locals and upvalue names, then its instructions by opcode name
// with what an operand names (a constant, a global, a nested function, a jump target). An RK
// operand naming a constant is shown as k<n>, as the constants table numbers them.

import type { Text } from '../../core/text.js';
import { bx, LUA_OPCODES, LUA_RK_CONSTANT, LuaOp, luaOpMode, sbx } from './lua-opcodes.js';
import type { LuaChunk, LuaConstant, LuaProto } from './lua-types.js';

/** Longest constant shown in an instruction's comment (the constants table shows them whole). */
const COMMENT_CHARS = 48;

/** Opcodes whose B and C are RK operands (a register, or constant B − 256 at 256 and above). */
const RK_B = new Set<number>([LuaOp.SETTABLE, LuaOp.ADD, LuaOp.SUB, LuaOp.MUL, LuaOp.DIV, LuaOp.MOD, LuaOp.POW, LuaOp.EQ, LuaOp.LT, LuaOp.LE]);
const RK_C = new Set<number>([...RK_B, LuaOp.GETTABLE, LuaOp.SELF]);

/** The listing of `chunk`, functions in file order. */
export function luaListing(chunk: LuaChunk): string {
  const h = chunk.header;
  const constants = chunk.protos.reduce((n, p) => n + p.k.length, 0);
  const out = [
    `; Lua 5.1 chunk: ${chunk.bytes} bytes, size_t ${h.sizeTSize}, ${chunk.protos.length} functions, ${chunk.code.length} instructions, ${constants} constants`,
  ];
  if (chunk.trailing.length > 0) out.push(`; ${chunk.trailing.length} bytes after the main function`);
  for (const f of chunk.protos) out.push('', ...listFunction(f));
  return `${out.join('\n')}\n`;
}

function listFunction(f: LuaProto): string[] {
  const where = f.source ? ` ${quote(f.source)}` : '';
  const lines = [
    `function ${f.path}${where} lines ${f.lineDefined}–${f.lastLineDefined} (at 0x${f.offset.toString(16)})`,
    `; ${f.numParams} params, ${f.nups} upvalues, vararg flags ${f.isVararg}, ${f.maxStackSize} slots, ${f.code.length} instructions, ${f.k.length} constants, ${f.p.length} functions`,
  ];
  f.k.forEach((k, i) => lines.push(`;   k[${i}] = ${constantText(k)}`));
  f.locVars.forEach((l, i) => lines.push(`;   local[${i}] ${l.name ? quote(l.name) : '(none)'} pc ${l.startPc}–${l.endPc}`));
  f.upvalues.forEach((u, i) => lines.push(`;   upvalue[${i}] ${u ? quote(u) : '(none)'}`));
  for (let pc = 0; pc < f.code.length; pc++) {
    const op = f.code.op[pc]!;
    const a = f.code.a[pc]!;
    const mode = luaOpMode(op);
    const rk = (v: number, set: Set<number>) => (set.has(op) && v >= LUA_RK_CONSTANT ? `k${v - LUA_RK_CONSTANT}` : String(v));
    const operands =
      mode === 'ABC' ? `${a} ${rk(f.code.b[pc]!, RK_B)} ${rk(f.code.c[pc]!, RK_C)}` : mode === 'ABx' ? `${a} ${bx(f.code, pc)}` : `${a} ${sbx(f.code, pc)}`;
    const line = f.lineInfo.length > pc ? `[${f.lineInfo[pc]}]` : '';
    const note = comment(f, pc);
    lines.push(`  ${String(pc + 1).padStart(5)} ${line.padEnd(7)} ${LUA_OPCODES[op]!.padEnd(9)} ${operands.padEnd(14)}${note ? ` ; ${note}` : ''}`.trimEnd());
  }
  return lines;
}

/** What the operands of instruction `pc` name, when that is more than a register number. */
function comment(f: LuaProto, pc: number): string {
  const op = f.code.op[pc]!;
  const k = (i: number) => (f.k[i] ? short(constantText(f.k[i]!)) : `k[${i}]?`);
  if (op === LuaOp.LOADK || op === LuaOp.GETGLOBAL || op === LuaOp.SETGLOBAL) return k(bx(f.code, pc));
  if (op === LuaOp.CLOSURE) return `function ${f.p[bx(f.code, pc)]?.path ?? `p[${bx(f.code, pc)}]?`}`;
  if (op === LuaOp.JMP || op === LuaOp.FORLOOP || op === LuaOp.FORPREP) return `to ${pc + 2 + sbx(f.code, pc)}`;
  if (op === LuaOp.GETUPVAL || op === LuaOp.SETUPVAL) {
    const u = f.upvalues[f.code.b[pc]!];
    return u ? u.text : '';
  }
  const parts: string[] = [];
  const b = f.code.b[pc]!,
    c = f.code.c[pc]!;
  if (RK_B.has(op) && b >= LUA_RK_CONSTANT) parts.push(k(b - LUA_RK_CONSTANT));
  if (RK_C.has(op) && c >= LUA_RK_CONSTANT) parts.push(k(c - LUA_RK_CONSTANT));
  return parts.join(' ');
}

function constantText(k: LuaConstant): string {
  if (k.type === 'nil') return 'nil';
  if (k.type === 'string') return quote(k.value);
  return Object.is(k.value, -0) ? '-0' : String(k.value);
}

function quote(t: Text): string {
  return JSON.stringify(t.text);
}

function short(s: string): string {
  return s.length > COMMENT_CHARS ? `${s.slice(0, COMMENT_CHARS - 1)}…` : s;
}
