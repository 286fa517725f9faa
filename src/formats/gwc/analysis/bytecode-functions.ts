// What each function of a cartridge (every prototype but the main one) shows and compares, read
// from its instructions without running it: the Text of the tables it passes to the message
// calls, the strings its `==` tests and NoCaseEquals calls compare with, and its string
// constants, decoded where it passes them to a string decoder. One linear pass per function, as
// in bytecode-heap.ts: registers hold what is known (constants, decoded strings, table literals
// built here, and what the main function left in globals and upvalues); where control joins,
// what one path wrote is unknown. Nested functions' findings go into their parent's lists at the
// place the parent makes them.

import type { Text } from '../../../core/text.js';
import { LuaOp } from '../lua-opcodes.js';
import type { LuaChunk, LuaCode, LuaProto } from '../lua-types.js';
import type { Budget, Place } from './budget.js';
import { Findings, functionsOf, type Own } from './bytecode-findings.js';
import { type Flow, flowOf, lastWrittenRegister } from './bytecode-flow.js';
import type { MainPass } from './bytecode-heap.js';
import * as values from './bytecode-values.js';
import type { AbstractFunction, AbstractValue, StringDecoders } from './types.js';

// The opcodes as module constants: a switch over them compiles to integer compares.
const {
  CALL: OP_CALL,
  CLOSURE: OP_CLOSURE,
  CONCAT: OP_CONCAT,
  EQ: OP_EQ,
  GETGLOBAL: OP_GETGLOBAL,
  GETTABLE: OP_GETTABLE,
  GETUPVAL: OP_GETUPVAL,
  JMP: OP_JMP,
  LOADBOOL: OP_LOADBOOL,
  LOADK: OP_LOADK,
  LOADNIL: OP_LOADNIL,
  MOVE: OP_MOVE,
  NEWTABLE: OP_NEWTABLE,
  SELF: OP_SELF,
  SETGLOBAL: OP_SETGLOBAL,
  SETLIST: OP_SETLIST,
  SETTABLE: OP_SETTABLE,
  TAILCALL: OP_TAILCALL,
} = LuaOp;

const REGISTERS = 256;
// Module constants (an imported binding can cost a getter call per use where modules are compiled to CommonJS).
const { concatText, constantValue } = values;
const { NIL, TRUE, FALSE } = values;

/** A table literal a function builds while it runs (not part of the heap: it is made per call). Its maps are made on the first entry. */
interface LocalTable {
  kind: 'local';
  fields: Map<string, Slot> | null;
  items: Map<number, Slot> | null;
}
type Slot = AbstractValue | LocalTable;

function fieldsOf(t: LocalTable): Map<string, Slot> {
  if (t.fields === null) t.fields = new Map();
  return t.fields;
}

function itemsOf(t: LocalTable): Map<number, Slot> {
  if (t.items === null) t.items = new Map();
  return t.items;
}

/** Calls whose table argument's `Text` the player shows (the second argument for _Urwigo.Dialog). */
// A Map, not an object: a global's name is looked up here on every call, and an object would
// also answer names of Object.prototype (`constructor`).
const MESSAGE_CALLS = new Map<string, { arg: number; list: boolean }>([
  ['Wherigo.MessageBox', { arg: 1, list: false }],
  ['_Urwigo.MessageBox', { arg: 1, list: false }],
  ['Wherigo.Dialog', { arg: 1, list: true }],
  ['_Urwigo.OldDialog', { arg: 1, list: true }],
  ['_Urwigo.Dialog', { arg: 2, list: true }],
]);

/**
 * The globals whose fields name a call looked for above (`Wherigo.GetInput`, `_Urwigo.Dialog`):
 * only a field of one of these needs its dotted path, so no other field read builds a string.
 */
const CALL_TABLES = new Set(['Wherigo', '_Urwigo']);

/** Every function but the main one, as AbstractFunction (index = prototype id − 1). */
export function summarizeFunctions(chunk: LuaChunk, run: MainPass, budget: Budget, decoders: StringDecoders | null, base: number): AbstractFunction[] {
  const count = chunk.protos.length;
  const own: Own[] = new Array(count);
  const scan = new FunctionScan(run, budget, decoders, base);
  for (let id = 1; id < count; id++) {
    if (++budget.functions > budget.limits.maxFunctions) {
      const p = chunk.protos[id]!;
      throw budget.exceeded('maxFunctions', { offset: base + p.offset, path: p.path }, budget.functions);
    }
    own[id] = scan.follow(chunk.protos[id]!);
  }
  return functionsOf(chunk, own, budget, base);
}

/** The value of a `Text` key, to read a message table's text. */
const TEXT_KEY: AbstractValue = { kind: 'string', value: { text: 'Text', raw: new TextEncoder().encode('Text'), encoding: 'utf-8' } };

class FunctionScan {
  private readonly regs: Slot[] = new Array(REGISTERS).fill(NIL);
  /** The global (`_Urwigo`) or field of a CALL_TABLES global (`_Urwigo.MessageBox`) a register was read from, to know a callee by name. */
  private readonly paths: (string | null)[] = new Array(REGISTERS).fill(null);
  /** Per register: the index in `strings` of the constant it was loaded from, or −1. */
  private readonly fromString = new Int32Array(REGISTERS).fill(-1);
  private readonly regPc = new Int32Array(REGISTERS).fill(-1);
  /** One past the highest register written in the current function. */
  private high = REGISTERS;
  private proto!: LuaProto;
  /** The values of the function's constants, each made on its first use (most are only listed in `strings`); reused, cleared per function. */
  private k: (AbstractValue | undefined)[] = new Array(64).fill(undefined);
  /** Per constant: its index in `strings` (−1 before its first use). */
  private constPos = new Int32Array(64);
  /** Per constant: the global of that name as GETGLOBAL reads it, once read (reused, cleared per function). */
  private kGlobal: (AbstractValue | undefined)[] = new Array(64).fill(undefined);
  /** Globals read so far, by name, as `global` gives them. */
  private readonly globals = new Map<string, AbstractValue>();
  private readonly messages = new Findings<Text | null>();
  private readonly compares = new Findings<Text>();
  private readonly strings = new Findings<Text>();
  /** True once the function's `strings` holds a nested function's place or a decoded constant. */
  private mixed = false;
  private nests = false;
  private pc = 0;
  /** The flow arrays, reused from function to function. */
  private flow: Flow | undefined;
  // The unknowns this pass gives, looked up once (not per instruction).
  private readonly computed: AbstractValue;
  private readonly oneBranch: AbstractValue;
  private readonly inLoop: AbstractValue;
  private readonly argument: AbstractValue;
  private readonly upvalue: AbstractValue;
  private readonly callResult: AbstractValue;
  private readonly mayChange: AbstractValue;
  private readonly concatenation: AbstractValue;
  private readonly keyNotKnown: AbstractValue;
  private readonly tableKey: AbstractValue;
  private readonly notTable: AbstractValue;

  constructor(
    private readonly run: MainPass,
    private readonly budget: Budget,
    private readonly decoders: StringDecoders | null,
    private readonly base: number,
  ) {
    const cache = run.cache;
    this.computed = cache.unknown('computed while the function runs');
    this.oneBranch = cache.unknown('set on one branch only');
    this.inLoop = cache.unknown('changed in a loop');
    this.argument = cache.unknown('an argument of the function');
    this.upvalue = cache.unknown('an upvalue not known');
    this.callResult = cache.unknown('the result of a call');
    this.mayChange = cache.unknown('a global value that may change before the function runs');
    this.concatenation = cache.unknown('a concatenation of values not known');
    this.keyNotKnown = cache.unknown('a field whose key is not known');
    this.tableKey = cache.unknown('a field whose key is a table');
    this.notTable = cache.unknown('a field of a value that is not a table');
  }

  private readonly place = (): Place => ({ offset: this.base + this.proto.offset, path: `${this.proto.path} pc ${this.pc + 1}` });

  follow(proto: LuaProto): Own {
    this.proto = proto;
    const constants = proto.k.length;
    if (this.k.length < constants) {
      this.k = new Array(Math.max(constants, 2 * this.k.length)).fill(undefined);
      this.constPos = new Int32Array(this.k.length);
      this.kGlobal = new Array(this.k.length).fill(undefined);
    }
    // Loops, not fill(): a function has a few constants and registers, and a fill call costs more than that.
    const { k, constPos, kGlobal } = this;
    for (let i = 0; i < constants; i++) {
      k[i] = undefined;
      kGlobal[i] = undefined;
      constPos[i] = -1;
    }
    this.messages.start();
    this.compares.start();
    this.strings.start();
    this.mixed = false;
    this.nests = false;
    const regs = this.regs;
    // Only the registers the last function wrote need resetting (a function of 3 slots costs 3, not 256).
    const reset = Math.min(Math.max(this.high, proto.numParams), REGISTERS);
    const { paths, fromString, regPc } = this;
    for (let r = 0; r < reset; r++) {
      regs[r] = r < proto.numParams ? this.argument : NIL;
      paths[r] = null;
      fromString[r] = -1;
      regPc[r] = -1;
    }
    this.high = Math.min(REGISTERS, proto.numParams);
    const code = proto.code;
    // The pass keeps no log of writes to undo, so it needs no `branchy`.
    const flow = flowOf(proto, this.flow, false);
    this.flow = flow;
    const { joinFrom, loopEnd, data } = flow;
    const { op: ops, a: as, b: bs, c: cs, raw } = code;
    const budget = this.budget;
    for (let pc = 0; pc < code.length; pc++) {
      this.pc = pc;
      if (++budget.steps > budget.limits.maxSteps) throw budget.exceeded('maxSteps', this.place(), budget.steps);
      const from = joinFrom[pc]!;
      if (from >= 0) this.join(from);
      const end = loopEnd[pc]!;
      if (end >= 0) this.loop(code, pc, end);
      if (data[pc]) continue;
      const op = ops[pc]!;
      const a = as[pc]!;
      const b = bs[pc]!;
      const c = cs[pc]!;
      const bx = raw[pc]! >>> 14;
      // Every string constant an instruction names, in code order (decoded later where it is passed to a decoder).
      if (op === OP_LOADK || op === OP_GETGLOBAL || op === OP_SETGLOBAL) this.useConstant(bx);
      else if (op !== OP_CLOSURE && op !== OP_JMP) {
        if (b >= REGISTERS) this.useConstant(b - REGISTERS);
        if (c >= REGISTERS) this.useConstant(c - REGISTERS);
      }
      this.step(op, a, b, c, bx);
    }
    for (let i = 0; i < constants; i++) this.useConstant(i);
    return {
      messages: this.messages.ordered(),
      compares: this.compares.ordered(),
      strings: this.strings.ordered(),
      nests: this.nests,
      mixed: this.mixed,
    };
  }

  /** Where control joins: what was written since the earliest jump here may be on one path only. */
  private join(from: number) {
    const why = this.oneBranch;
    const high = this.high;
    this.budget.charge(high, this.place);
    for (let r = 0; r < high; r++) if (this.regPc[r]! >= from) this.put(r, why);
  }

  /** At a loop's head: what its body writes may have changed on an earlier turn. */
  private loop(code: LuaCode, pc: number, end: number) {
    const why = this.inLoop;
    const data = this.flow!.data;
    this.budget.charge(end - pc + 1, this.place);
    for (let q = pc; q <= end && q < code.length; q++) {
      if (data[q]) continue;
      const last = Math.min(lastWrittenRegister(code.op[q]!, code.a[q]!, code.b[q]!), REGISTERS - 1);
      for (let r = code.a[q]!; r <= last; r++) this.put(r, why);
    }
  }

  private compare(v: Slot) {
    if (v.kind === 'string') this.compares.push(v.value, this.line());
  }

  /** The source line of the current instruction (0 when the chunk is stripped). */
  private line(): number {
    return this.proto.lineInfo[this.pc] ?? 0;
  }

  private useConstant(i: number) {
    // constPos is reused between functions: past this one's constants it holds another's.
    if (i >= this.proto.k.length || this.constPos[i] !== -1) return;
    const v = this.proto.k[i]!;
    if (v.type !== 'string') return;
    this.constPos[i] = this.strings.items.length;
    this.strings.push(v.value, this.line());
  }

  private reg(r: number): Slot {
    return r < REGISTERS ? this.regs[r]! : NIL;
  }

  private rk(x: number): Slot {
    return x >= REGISTERS ? this.constant(x - REGISTERS) : this.regs[x]!;
  }

  /** The value of constant `i` (nil past the last, as the pass has always read it). */
  private constant(i: number): AbstractValue {
    if (i >= this.proto.k.length) return NIL;
    let v = this.k[i];
    if (v === undefined) {
      v = constantValue(this.proto.k[i]!);
      this.k[i] = v;
    }
    return v;
  }

  private put(r: number, v: Slot, path: string | null = null, fromString = -1) {
    if (r >= REGISTERS) return;
    this.regs[r] = v;
    this.paths[r] = path;
    this.fromString[r] = fromString;
    this.regPc[r] = this.pc;
    if (r >= this.high) this.high = r + 1;
  }

  private step(op: number, a: number, b: number, c: number, bx: number) {
    const unknown = this.computed;
    switch (op) {
      case OP_MOVE:
        this.put(a, this.reg(b), this.paths[b] ?? null, this.fromString[b] ?? -1);
        return;
      case OP_LOADK:
        this.put(a, this.constant(bx), null, bx < this.proto.k.length ? this.constPos[bx]! : -1);
        return;
      case OP_GETUPVAL:
        this.put(a, this.run.captures[this.proto.id]?.[b] ?? this.upvalue);
        return;
      case OP_GETGLOBAL: {
        const name = this.proto.k[bx];
        if (name?.type !== 'string') return this.put(a, unknown);
        // A function reads the same global again and again: its value is looked up once per constant.
        let v = this.kGlobal[bx];
        if (v === undefined) {
          v = this.global(name.value.text);
          this.kGlobal[bx] = v;
        }
        return this.put(a, v, name.value.text);
      }
      case OP_GETTABLE:
      case OP_SELF: {
        const obj = this.reg(b);
        const key = this.rk(c);
        const of = this.paths[b];
        const path = of && key.kind === 'string' && CALL_TABLES.has(of) ? `${of}.${key.value.text}` : null;
        if (op === OP_SELF) this.put(a + 1, obj);
        return this.put(a, this.field(obj, key), path);
      }
      case OP_SETTABLE: {
        const t = this.regs[a]!;
        if (t.kind !== 'local') return;
        const key = this.rk(b);
        if (key.kind === 'string') fieldsOf(t).set(key.value.text, this.rk(c));
        else if (key.kind === 'number') itemsOf(t).set(key.value, this.rk(c));
        return;
      }
      case OP_NEWTABLE:
        this.budget.chargeEntries(1, this.place);
        return this.put(a, { kind: 'local', fields: null, items: null });
      case OP_SETLIST: {
        const t = this.regs[a]!;
        if (t.kind !== 'local' || b === 0 || c === 0) return;
        this.budget.chargeEntries(b, this.place);
        const items = itemsOf(t);
        for (let i = 1; i <= b; i++) items.set((c - 1) * 50 + i, this.reg(a + i));
        return;
      }
      case OP_CONCAT: {
        const parts: AbstractValue[] = [];
        for (let r = b; r <= c && r < REGISTERS; r++) {
          const v = this.regs[r]!;
          if (v.kind === 'local') return this.put(a, unknown);
          parts.push(v);
        }
        const text = concatText(parts);
        return this.put(a, text ? { kind: 'string', value: text } : this.concatenation);
      }
      case OP_EQ:
        this.compare(this.rk(b));
        this.compare(this.rk(c));
        return;
      case OP_CALL:
      case OP_TAILCALL:
        return this.call(a, b, c);
      case OP_CLOSURE:
        return this.closure(a, bx);
      case OP_LOADBOOL:
        return this.put(a, b ? TRUE : FALSE);
      case OP_LOADNIL:
        for (let r = a; r <= b && r < REGISTERS; r++) this.put(r, NIL);
        return;
    }
    const last = Math.min(lastWrittenRegister(op, a, b), REGISTERS - 1);
    for (let r = a; r <= last; r++) this.put(r, unknown);
  }

  private field(obj: Slot, key: Slot): Slot {
    if (obj.kind === 'local') {
      if (key.kind === 'string') return obj.fields?.get(key.value.text) ?? NIL;
      if (key.kind === 'number') return obj.items?.get(key.value) ?? NIL;
      return this.keyNotKnown;
    }
    if (key.kind === 'local') return this.tableKey;
    if (obj.kind === 'table' || obj.kind === 'builtin' || obj.kind === 'unknown') return this.lasting(this.run.index(obj, key));
    return this.notTable;
  }

  /**
   * What a function may rely on from the heap the main function left: tables, functions and
   * builtins (objects are rarely replaced); a string, number or boolean there may have changed by
   * the time the function runs, so it is unknown.
   */
  private lasting(v: AbstractValue): AbstractValue {
    return v.kind === 'string' || v.kind === 'number' || v.kind === 'boolean' ? this.mayChange : v;
  }

  /** Global `name` as a function may rely on it (the main function's globals stay as they are while functions are read). */
  private global(name: string): AbstractValue {
    let v = this.globals.get(name);
    if (v === undefined) {
      v = this.lasting(this.run.globals.get(name) ?? this.run.cache.unsetGlobal(name));
      this.globals.set(name, v);
    }
    return v;
  }

  private call(a: number, b: number, c: number) {
    const callee = this.reg(a);
    const name = callee.kind === 'builtin' ? callee.name : this.paths[a];
    const nargs = b === 0 ? 0 : b - 1;
    let result: Slot = this.callResult;
    const shows = name ? MESSAGE_CALLS.get(name) : undefined;
    if (shows) this.showMessages(shows.arg <= nargs ? this.reg(a + shows.arg) : NIL, shows.list);
    else if (name === 'Wherigo.GetInput') this.showMessages(nargs >= 1 ? this.reg(a + 1) : NIL, false);
    else if (name === 'Wherigo.NoCaseEquals') {
      for (let i = 1; i <= nargs; i++) {
        const v = this.reg(a + i);
        if (v.kind === 'string') this.compares.push(v.value, this.line());
      }
    } else if (callee.kind === 'function' && this.decoders?.isDecoder(callee.fn + 1)) {
      const args: AbstractValue[] = [];
      for (let i = 1; i <= nargs; i++) {
        const v = this.reg(a + i);
        args.push(v.kind === 'local' ? this.run.cache.unknown('a table built while the function runs') : v);
      }
      result = this.decoders.decode(callee.fn + 1, args);
      // The obfuscated constant passed in reads as its decoded text in `strings`.
      const at = nargs >= 1 ? this.fromString[a + 1]! : -1;
      if (at >= 0 && result.kind === 'string') {
        this.strings.items[at] = result.value;
        this.mixed = true;
      }
    }
    this.put(a, result);
    const last = c === 0 ? a : a + c - 2;
    for (let r = a + 1; r <= last && r < REGISTERS; r++) this.put(r, result);
  }

  /** The Text of `arg` (a table with a `Text` field), or of each table of the list `arg`. */
  private showMessages(arg: Slot, list: boolean) {
    const tables: Slot[] = [];
    if (!list) tables.push(arg);
    else if (arg.kind === 'local') {
      if (arg.items) for (const [, v] of [...arg.items].sort((x, y) => x[0] - y[0])) tables.push(v);
    } else return void this.messages.push(null, this.line());
    for (const t of tables) {
      // A Wherigo object's Text (Wherigo.GetInput's question) is read as the main function left it.
      const text = t.kind === 'local' ? this.field(t, TEXT_KEY) : t.kind === 'table' ? this.run.index(t, TEXT_KEY) : NIL;
      this.messages.push(text.kind === 'string' ? text.value : null, this.line());
    }
  }

  private closure(a: number, bx: number) {
    const child = this.proto.p[bx];
    if (!child) return this.put(a, this.run.cache.unknown('a closure of a function the chunk does not have'));
    this.put(a, this.run.fnValue(child.id));
    this.messages.push(child.id, child.lineDefined);
    this.compares.push(child.id, child.lineDefined);
    this.strings.push(child.id, child.lineDefined);
    this.nests = true;
    this.mixed = true;
    if (this.run.captures[child.id]) return;
    const { code } = this.proto;
    const ups: AbstractValue[] = [];
    for (let i = 1; i <= child.nups; i++) {
      const q = this.pc + i;
      const from = code.b[q] ?? 0;
      const v: Slot | undefined =
        q >= code.length
          ? undefined
          : code.op[q] === OP_MOVE
            ? this.reg(from)
            : code.op[q] === OP_GETUPVAL
              ? this.run.captures[this.proto.id]?.[from]
              : undefined;
      ups.push(v && v.kind !== 'local' ? v : this.upvalue);
    }
    this.run.captures[child.id] = ups;
  }
}
