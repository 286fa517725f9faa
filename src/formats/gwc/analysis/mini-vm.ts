// A small, bounded interpreter of Lua 5.1 bytecode (lvm.c's instruction semantics; facts only),
// for just the functions decoders.ts recognises as string decoders. It runs one prototype on
// known arguments: registers, constants, arithmetic, comparisons and jumps, numeric for loops,
// `..`, `#`, local tables, upvalues known to be constants, and the string/math library of
// mini-vm-lib.ts. No I/O, no closures, no global writes, no calls of Lua functions: anything
// outside that is VmUnknown with the reason, never a guess.
//
// Bounds: each call runs at most `maxStepsPerCall` instructions (DECODER_STEP_LIMIT by default;
// past it the result is unknown: an endless decoder is the decoder's fault, not the cartridge's
// reading), every string it builds is at most `maxStringBytes` long (else unknown), and every
// step also spends the cartridge-wide budget `VmBudget.stepsLeft`; when that is spent the run
// throws VmBudgetSpent, which decoders.ts turns into a LIMIT_EXCEEDED DecodeError.

import { bx, LUA_RK_CONSTANT, LuaOp, sbx } from '../lua-opcodes.js';
import type { LuaConstant, LuaProto } from '../lua-types.js';
import { STRING_TABLE } from './mini-vm-lib.js';
import {
  bytesToBinary,
  isBuiltin,
  lessThan,
  luaType,
  rawEquals,
  stringToNumber,
  tableKey,
  tableLength,
  toArith,
  toConcat,
  truthy,
  type VmCallContext,
  VmTable,
  VmUnknown,
  type VmValue,
} from './mini-vm-values.js';

// The opcode numbers as plain constants: read once here, not through the module binding on every instruction.
const {
  ADD,
  CALL,
  CLOSE,
  CLOSURE,
  CONCAT,
  DIV,
  EQ,
  FORLOOP,
  FORPREP,
  GETGLOBAL,
  GETTABLE,
  GETUPVAL,
  JMP,
  LE,
  LEN,
  LOADBOOL,
  LOADK,
  LOADNIL,
  LT,
  MOD,
  MOVE,
  MUL,
  NEWTABLE,
  NOT,
  POW,
  RETURN,
  SELF,
  SETGLOBAL,
  SETLIST,
  SETTABLE,
  SETUPVAL,
  SUB,
  TAILCALL,
  TEST,
  TESTSET,
  TFORLOOP,
  UNM,
  VARARG,
} = LuaOp;

/** Instructions one decoder call may run before its result is unknown. */
export const DECODER_STEP_LIMIT = 1_000_000;
/** Longest string (bytes) a decoder call may build before its result is unknown. */
export const DECODER_STRING_LIMIT = 1 << 20;

/** What a run may know beyond its arguments: the globals it may read and its upvalues. */
export interface VmEnv {
  /** Globals by name (the string/math library, constants the chunk assigns once). Others are unknown. */
  globals: ReadonlyMap<string, VmValue>;
  /** Upvalues by index: the constant, or why it is not known. */
  upvalues: readonly ({ value: VmValue } | { why: string })[];
}

/** The cartridge-wide bound, shared by every call (mutated as steps are spent). */
export interface VmBudget {
  stepsLeft: number;
  readonly maxStepsPerCall: number;
  readonly maxStringBytes: number;
}

/** Thrown when the cartridge-wide step budget is spent. */
export class VmBudgetSpent extends Error {}

/** Lua's FPF: items SETLIST stores per batch (lopcodes.h LFIELDS_PER_FLUSH). */
const FIELDS_PER_FLUSH = 50;

const constantCache = new WeakMap<LuaProto, VmValue[]>();

function constantsOf(proto: LuaProto): VmValue[] {
  let k = constantCache.get(proto);
  if (!k) {
    k = proto.k.map(constantValue);
    constantCache.set(proto, k);
  }
  return k;
}

/** A constant as a VM value. */
export function constantValue(c: LuaConstant): VmValue {
  if (c.type === 'nil') return undefined;
  if (c.type === 'string') return bytesToBinary(c.value.raw);
  return c.value;
}

function index(obj: VmValue, key: VmValue): VmValue {
  // A string's fields are the string library's (its metatable's __index).
  const t = typeof obj === 'string' ? STRING_TABLE : obj;
  if (t instanceof VmTable) {
    const v = t.entries.get(tableKey(key));
    if (v === undefined && t.library !== null) throw new VmUnknown(`${t.library}.${String(key)} is not one the decoder evaluator follows`);
    return v;
  }
  throw new VmUnknown(`indexing a ${luaType(obj)} (an error when run)`);
}

function forNumber(v: VmValue, what: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? stringToNumber(v) : undefined;
  if (n === undefined) throw new VmUnknown(`'for' ${what} must be a number (an error when run)`);
  return n;
}

/**
 * Runs `proto` on `args` and gives what it returns. VmUnknown when it leaves what the VM does or
 * passes a per-call bound; VmBudgetSpent when the cartridge-wide budget runs out.
 */
export function runProto(proto: LuaProto, args: readonly VmValue[], env: VmEnv, budget: VmBudget): VmValue[] {
  const code = proto.code;
  const k = constantsOf(proto);
  const R: VmValue[] = new Array(Math.max(proto.maxStackSize, 1)).fill(undefined);
  for (let i = 0; i < proto.numParams; i++) R[i] = args[i];
  let steps = 0;
  const charge = (n: number): void => {
    steps += n;
    budget.stepsLeft -= n;
    if (budget.stepsLeft < 0) throw new VmBudgetSpent();
    if (steps > budget.maxStepsPerCall) throw new VmUnknown(`ran past ${budget.maxStepsPerCall} steps (the per-call bound)`);
  };
  const checkLength = (bytes: number): void => {
    if (bytes > budget.maxStringBytes) throw new VmUnknown(`built a string past ${budget.maxStringBytes} bytes (the bound)`);
  };
  const ctx: VmCallContext = { charge, checkLength };
  // A constant index past the table is bytecode no compiler writes: unknown, not nil.
  const K = (i: number): VmValue => {
    if (i >= k.length) throw new VmUnknown(`reads constant ${i} of ${k.length}`);
    return k[i];
  };
  const RK = (x: number): VmValue => (x >= LUA_RK_CONSTANT ? K(x - LUA_RK_CONSTANT) : R[x]);
  let top = 0;
  let pc = 0;

  const call = (a: number, b: number): VmValue[] => {
    const fn = R[a];
    if (!isBuiltin(fn)) throw new VmUnknown(`calls a ${luaType(fn)} that is not a string or math library function`);
    const last = b === 0 ? top : a + b;
    return fn.call(R.slice(a + 1, last), ctx);
  };

  for (;;) {
    if (pc < 0 || pc >= code.length) throw new VmUnknown(`ran off the function's instructions at pc ${pc + 1}`);
    charge(1);
    const op = code.op[pc]!;
    const a = code.a[pc]!;
    const b = code.b[pc]!;
    const c = code.c[pc]!;
    const here = pc++;
    switch (op) {
      case MOVE:
        R[a] = R[b];
        break;
      case LOADK:
        R[a] = K(bx(code, here));
        break;
      case LOADBOOL:
        R[a] = b !== 0;
        if (c !== 0) pc++;
        break;
      case LOADNIL:
        for (let r = a; r <= b; r++) R[r] = undefined;
        break;
      case GETUPVAL: {
        const up = env.upvalues[b];
        if (!up || 'why' in up) throw new VmUnknown(up ? up.why : `upvalue ${b} is not known`);
        R[a] = up.value;
        break;
      }
      case GETGLOBAL: {
        const name = K(bx(code, here));
        if (typeof name !== 'string' || !env.globals.has(name))
          throw new VmUnknown(`reads the global ${String(name)}, which is not a known constant or library`);
        R[a] = env.globals.get(name);
        break;
      }
      case GETTABLE:
        R[a] = index(R[b], RK(c));
        break;
      case SETGLOBAL:
        throw new VmUnknown(`writes the global ${String(k[bx(code, here)])}`);
      case SETUPVAL:
        throw new VmUnknown('writes an upvalue');
      case SETTABLE: {
        const t = R[a];
        if (!(t instanceof VmTable) || t.frozen) throw new VmUnknown(`writes into a ${t instanceof VmTable ? 'table it did not make' : luaType(t)}`);
        const key = tableKey(RK(b));
        const v = RK(c);
        if (v === undefined) t.entries.delete(key);
        else t.entries.set(key, v);
        break;
      }
      case NEWTABLE:
        R[a] = new VmTable(false);
        break;
      case SELF:
        R[a + 1] = R[b];
        R[a] = index(R[b], RK(c));
        break;
      case ADD:
        R[a] = toArith(RK(b), '+') + toArith(RK(c), '+');
        break;
      case SUB:
        R[a] = toArith(RK(b), '-') - toArith(RK(c), '-');
        break;
      case MUL:
        R[a] = toArith(RK(b), '*') * toArith(RK(c), '*');
        break;
      case DIV:
        R[a] = toArith(RK(b), '/') / toArith(RK(c), '/');
        break;
      case MOD: {
        // luai_nummod: a - floor(a/b)*b (the result takes the divisor's sign).
        const x = toArith(RK(b), '%');
        const y = toArith(RK(c), '%');
        R[a] = x - Math.floor(x / y) * y;
        break;
      }
      case POW:
        R[a] = toArith(RK(b), '^') ** toArith(RK(c), '^');
        break;
      case UNM:
        R[a] = -toArith(R[b], 'unary -');
        break;
      case NOT:
        R[a] = !truthy(R[b]);
        break;
      case LEN: {
        const v = R[b];
        if (typeof v === 'string') R[a] = v.length;
        else if (v instanceof VmTable) {
          charge(v.entries.size);
          R[a] = tableLength(v);
        } else throw new VmUnknown(`# of a ${luaType(v)} (an error when run)`);
        break;
      }
      case CONCAT: {
        let s = '';
        for (let r = b; r <= c; r++) {
          s += toConcat(R[r]);
          checkLength(s.length);
        }
        R[a] = s;
        break;
      }
      case JMP:
        pc += sbx(code, here);
        break;
      case EQ:
        if (rawEquals(RK(b), RK(c)) !== (a !== 0)) pc++;
        break;
      case LT:
        if (lessThan(RK(b), RK(c), false) !== (a !== 0)) pc++;
        break;
      case LE:
        if (lessThan(RK(b), RK(c), true) !== (a !== 0)) pc++;
        break;
      case TEST:
        if (truthy(R[a]) !== (c !== 0)) pc++;
        break;
      case TESTSET:
        if (truthy(R[b]) === (c !== 0)) R[a] = R[b];
        else pc++;
        break;
      case CALL: {
        const results = call(a, b);
        if (c === 0) {
          for (let i = 0; i < results.length; i++) R[a + i] = results[i];
          top = a + results.length;
        } else for (let i = 0; i < c - 1; i++) R[a + i] = results[i];
        break;
      }
      case TAILCALL:
        return call(a, b);
      case RETURN:
        return R.slice(a, b === 0 ? top : a + b - 1);
      case FORLOOP: {
        const [base, limit, step] = [R[a], R[a + 1], R[a + 2]];
        // FORPREP made all three numbers; a jump into the loop past it is bytecode no compiler writes.
        if (typeof base !== 'number' || typeof limit !== 'number' || typeof step !== 'number') throw new VmUnknown('FORLOOP over values FORPREP did not set');
        const idx = base + step;
        if (step > 0 ? idx <= limit : idx >= limit) {
          pc += sbx(code, here);
          R[a] = idx;
          R[a + 3] = idx;
        }
        break;
      }
      case FORPREP: {
        const init = forNumber(R[a], 'initial value');
        R[a + 1] = forNumber(R[a + 1], 'limit');
        const step = forNumber(R[a + 2], 'step');
        R[a + 2] = step;
        R[a] = init - step;
        pc += sbx(code, here);
        break;
      }
      case SETLIST: {
        const t = R[a];
        if (!(t instanceof VmTable) || t.frozen) throw new VmUnknown('SETLIST into something it did not make');
        let batch = c;
        if (batch === 0) {
          if (pc >= code.length) throw new VmUnknown('SETLIST without its batch word');
          batch = code.raw[pc++]!;
        }
        const n = b === 0 ? top - a - 1 : b;
        charge(n);
        for (let i = 1; i <= n; i++) {
          const v = R[a + i];
          if (v !== undefined) t.entries.set((batch - 1) * FIELDS_PER_FLUSH + i, v);
        }
        break;
      }
      case CLOSE:
        // No closures are made, so there is nothing to close.
        break;
      case CLOSURE:
        throw new VmUnknown('makes a closure');
      case VARARG:
        throw new VmUnknown('reads varargs');
      case TFORLOOP:
        throw new VmUnknown('runs a generic for loop (an iterator function)');
      default:
        throw new VmUnknown(`opcode ${op} is not one Lua 5.1 has`);
    }
  }
}
