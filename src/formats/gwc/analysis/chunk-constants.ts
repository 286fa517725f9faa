// What a decoder may read besides its argument, found statically: the constants its upvalues
// hold (`local dtable = "…"` in the enclosing function, captured by the decoder) and the
// globals the main function sets once to a constant (Earwigo's palette string and its table of
// special characters). Conservative: a value that could be something else on some path is left
// out, so the decoder's run reads it as unknown instead of a guess.

import { bx, LUA_RK_CONSTANT, LuaOp, sbx } from '../lua-opcodes.js';
import type { LuaChunk, LuaProto } from '../lua-types.js';
import { constantValue, type VmEnv } from './mini-vm.js';
import { VmTable, type VmValue } from './mini-vm-values.js';

// The opcode numbers, read once through the module binding (not on every instruction).
const Op = LuaOp;

const LAST_REGISTER = 255;

/** The registers instruction `pc` writes, as an inclusive range (empty when `from > to`). */
export function registersWritten(proto: LuaProto, pc: number): { from: number; to: number } {
  const code = proto.code;
  const op = code.op[pc]!;
  const a = code.a[pc]!;
  switch (op) {
    case Op.MOVE:
    case Op.LOADK:
    case Op.LOADBOOL:
    case Op.GETUPVAL:
    case Op.GETGLOBAL:
    case Op.GETTABLE:
    case Op.NEWTABLE:
    case Op.ADD:
    case Op.SUB:
    case Op.MUL:
    case Op.DIV:
    case Op.MOD:
    case Op.POW:
    case Op.UNM:
    case Op.NOT:
    case Op.LEN:
    case Op.CONCAT:
    case Op.TESTSET:
    case Op.CLOSURE:
    case Op.FORPREP:
      return { from: a, to: a };
    case Op.LOADNIL:
      return { from: a, to: code.b[pc]! };
    case Op.SELF:
      return { from: a, to: a + 1 };
    case Op.FORLOOP:
      return { from: a, to: a + 3 };
    case Op.TFORLOOP:
      return { from: a + 3, to: LAST_REGISTER };
    case Op.CALL:
    case Op.VARARG:
      return { from: a, to: LAST_REGISTER };
    default:
      return { from: 1, to: 0 };
  }
}

const writes = (proto: LuaProto, pc: number, r: number): boolean => {
  const w = registersWritten(proto, pc);
  return r >= w.from && r <= w.to;
};

/** Every instruction index some jump or skip can land on (the other way into straight-line code). */
export function jumpTargets(proto: LuaProto): Set<number> {
  const code = proto.code;
  const targets = new Set<number>();
  for (let pc = 0; pc < code.length; pc++) {
    const op = code.op[pc]!;
    if (op === Op.JMP || op === Op.FORLOOP || op === Op.FORPREP) targets.add(pc + 1 + sbx(code, pc));
    else if (op === Op.EQ || op === Op.LT || op === Op.LE || op === Op.TEST || op === Op.TESTSET || (op === Op.LOADBOOL && code.c[pc]! !== 0))
      targets.add(pc + 2);
  }
  return targets;
}

/** The pc of the nearest instruction before `pc` that writes `r` on the straight line to it, or -1 when a jump lands in between. */
function lastWriter(proto: LuaProto, pc: number, r: number, targets: Set<number>): number {
  for (let i = pc - 1; i >= 0; i--) {
    if (writes(proto, i, r)) return i;
    if (targets.has(i)) return -1;
  }
  return -1;
}

/** The constant register `r` surely holds just before `pc` (a Op.LOADK on the straight line to it), or null. */
function constantBefore(proto: LuaProto, pc: number, r: number, targets: Set<number>): { value: VmValue } | null {
  if (targets.has(pc)) return null;
  const w = lastWriter(proto, pc, r, targets);
  if (w < 0 || proto.code.op[w] !== Op.LOADK) return null;
  return { value: constantValue(proto.k[bx(proto.code, w)]!) };
}

/** The Op.CLOSURE that makes `proto` in its parent (the first, when several do), or -1. */
export function closureSite(parent: LuaProto, proto: LuaProto): number {
  const child = parent.p.indexOf(proto);
  for (let pc = 0; pc < parent.code.length; pc++) if (parent.code.op[pc] === Op.CLOSURE && bx(parent.code, pc) === child) return pc;
  return -1;
}

const hasSetUpval = (proto: LuaProto): boolean => {
  for (let pc = 0; pc < proto.code.length; pc++) if (proto.code.op[pc] === Op.SETUPVAL) return true;
  return proto.p.some(hasSetUpval);
};

/** What each upvalue of `proto` holds when it is a constant that nothing writes afterwards. */
export function upvalueConstants(chunk: LuaChunk, proto: LuaProto, depth = 0): VmEnv['upvalues'] {
  const out: VmEnv['upvalues'][number][] = [];
  const parent = chunk.protos[proto.parent];
  const site = parent ? closureSite(parent, proto) : -1;
  for (let u = 0; u < proto.nups; u++) {
    if (!parent || site < 0 || depth > 8) {
      out.push({ why: `upvalue ${u} has no enclosing function to read` });
      continue;
    }
    const pseudo = site + 1 + u;
    const op = parent.code.op[pseudo];
    const src = parent.code.b[pseudo]!;
    if (op === Op.GETUPVAL) {
      out.push(upvalueConstants(chunk, parent, depth + 1)[src] ?? { why: `upvalue ${u} is not known` });
      continue;
    }
    const targets = jumpTargets(parent);
    const known = op === Op.MOVE ? constantBefore(parent, site, src, targets) : null;
    let laterWrite = false;
    for (let pc = pseudo + 1; pc < parent.code.length && !laterWrite; pc++) laterWrite = writes(parent, pc, src);
    if (!known || laterWrite || parent.p.some(hasSetUpval)) out.push({ why: `upvalue ${u} is a local that is not surely a constant` });
    else out.push(known);
  }
  return out;
}

/** Global names set anywhere in the chunk, with how many times. */
export function globalWrites(chunk: LuaChunk): Map<string, number> {
  const count = new Map<string, number>();
  for (const proto of chunk.protos) {
    for (let pc = 0; pc < proto.code.length; pc++) {
      if (proto.code.op[pc] !== Op.SETGLOBAL) continue;
      const name = proto.k[bx(proto.code, pc)];
      if (name?.type === 'string') count.set(name.value.text, (count.get(name.value.text) ?? 0) + 1);
    }
  }
  return count;
}

/**
 * Which of the globals `names` some function writes into through the name (`magic[x] = y` after
 * `magic` is read), in one forward pass per function that tracks only registers holding one of them.
 */
export function globalsWrittenInto(chunk: LuaChunk, names: ReadonlySet<string>): Set<string> {
  return globalsChanged(chunk, names, false);
}

/** Which of the globals `names` some function assigns (`string = …`) or writes into (globalsWrittenInto). */
export function globalsReplaced(chunk: LuaChunk, names: ReadonlySet<string>): Set<string> {
  return globalsChanged(chunk, names, true);
}

function globalsChanged(chunk: LuaChunk, names: ReadonlySet<string>, assigned: boolean): Set<string> {
  const out = new Set<string>();
  // The global each register surely holds (by name), on the straight-line code so far; `held`
  // counts them. Reused from function to function (emptied when a function leaves any).
  const holds: (string | undefined)[] = new Array(LAST_REGISTER + 1).fill(undefined);
  for (const proto of chunk.protos) {
    // A function none of whose constants is one of `names` can neither read nor assign them (most
    // functions): it is not followed, and each constant is looked at once, not once per use.
    const named = namedConstants(proto, names);
    if (named === null) continue;
    const code = proto.code;
    const targets = jumpTargets(proto);
    let held = 0;
    for (let pc = 0; pc < code.length; pc++) {
      if (held > 0 && targets.has(pc)) held = release(holds, 0, LAST_REGISTER, held);
      const op = code.op[pc];
      if (op === Op.SETTABLE || op === Op.SETLIST) {
        const name = holds[code.a[pc]!];
        if (name !== undefined) out.add(name);
        continue;
      }
      if (held > 0) {
        const w = registersWritten(proto, pc);
        held = release(holds, w.from, Math.min(w.to, LAST_REGISTER), held);
      }
      if (op === Op.GETGLOBAL || (assigned && op === Op.SETGLOBAL)) {
        const name = named.get(bx(code, pc));
        if (name === undefined) continue;
        if (op === Op.SETGLOBAL) out.add(name);
        else {
          if (holds[code.a[pc]!] === undefined) held++;
          holds[code.a[pc]!] = name;
        }
      }
    }
    if (held > 0) release(holds, 0, LAST_REGISTER, held);
  }
  return out;
}

/** The constants of `proto` that are one of `names`, by index; null when none is. */
function namedConstants(proto: LuaProto, names: ReadonlySet<string>): Map<number, string> | null {
  let named: Map<number, string> | null = null;
  for (let i = 0; i < proto.k.length; i++) {
    const k = proto.k[i]!;
    if (k.type !== 'string' || !names.has(k.value.text)) continue;
    if (named === null) named = new Map();
    named.set(i, k.value.text);
  }
  return named;
}

/** Forgets what registers `from`..`to` hold; returns how many registers still hold a name. */
function release(holds: (string | undefined)[], from: number, to: number, held: number): number {
  for (let r = from; r <= to && held > 0; r++) {
    if (holds[r] === undefined) continue;
    holds[r] = undefined;
    held--;
  }
  return held;
}

/**
 * Globals the main function sets exactly once (in the whole chunk) to a constant or to a table
 * literal of constants, read on its straight-line code. Tables come back frozen.
 */
export function globalConstants(chunk: LuaChunk): Map<string, VmValue> {
  const main = chunk.main;
  const code = main.code;
  const setCount = globalWrites(chunk);
  const targets = jumpTargets(main);
  const regs = new Map<number, VmValue>();
  const poisoned = new Set<VmTable>();
  const found = new Map<string, VmValue>();
  const k = (x: number): { value: VmValue } | null =>
    x >= LUA_RK_CONSTANT
      ? { value: constantValue(main.k[x - LUA_RK_CONSTANT]!) }
      : regs.has(x) && !(regs.get(x) instanceof VmTable)
        ? { value: regs.get(x) }
        : null;
  for (let pc = 0; pc < code.length; pc++) {
    if (targets.has(pc)) regs.clear();
    const op = code.op[pc]!;
    const a = code.a[pc]!;
    if (op === Op.SETTABLE || op === Op.SETLIST) {
      const t = regs.get(a);
      if (t instanceof VmTable) {
        const key = op === Op.SETTABLE ? k(code.b[pc]!) : null;
        const value = op === Op.SETTABLE ? k(code.c[pc]!) : null;
        if (key && value && key.value !== undefined && typeof key.value !== 'object') t.entries.set(key.value, value.value);
        else poisoned.add(t);
      }
      continue;
    }
    if (op === Op.SETGLOBAL) {
      const name = main.k[bx(code, pc)];
      if (name?.type === 'string' && regs.has(a) && setCount.get(name.value.text) === 1) found.set(name.value.text, regs.get(a));
      continue;
    }
    const w = registersWritten(main, pc);
    for (let r = w.from; r <= Math.min(w.to, main.maxStackSize); r++) regs.delete(r);
    if (op === Op.LOADK) regs.set(a, constantValue(main.k[bx(code, pc)]!));
    else if (op === Op.NEWTABLE) regs.set(a, new VmTable(false));
  }
  const tableNames = new Set([...found].flatMap(([name, value]) => (value instanceof VmTable ? [name] : [])));
  const writtenInto = tableNames.size > 0 ? globalsWrittenInto(chunk, tableNames) : new Set<string>();
  const out = new Map<string, VmValue>();
  for (const [name, value] of found) {
    if (!(value instanceof VmTable)) out.set(name, value);
    else if (!poisoned.has(value) && !writtenInto.has(name)) {
      const frozen = new VmTable(true);
      for (const [key, v] of value.entries) frozen.entries.set(key, v);
      out.set(name, frozen);
    }
  }
  return out;
}
