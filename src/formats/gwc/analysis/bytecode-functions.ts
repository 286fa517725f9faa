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
import type { LuaChunk, LuaProto } from '../lua-types.js';
import type { Budget, Place } from './budget.js';
import { type Flow, flowOf, writtenRegisters } from './bytecode-flow.js';
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
const NIL = values.NIL;

/** A table literal a function builds while it runs (not part of the heap: it is made per call). */
interface LocalTable {
  kind: 'local';
  fields: Map<string, Slot>;
  items: Map<number, Slot>;
}
type Slot = AbstractValue | LocalTable;

/** An entry of a function's own list, or the place of a nested function's list. */
type Entry<T> = T | { child: number };

/** A function's own findings of one sort, each with the source line it is on (0 when stripped). */
class Findings<T> {
  /** True when no nested function's findings need moving (the usual case: lines only grow). */
  private inOrder(): boolean {
    for (let i = 1; i < this.lines.length; i++) {
      const d = this.lines[i]! - this.lines[i - 1]!;
      if (d < 0 || (d === 0 && isChild(this.items[i - 1]) && !isChild(this.items[i]))) return false;
    }
    return true;
  }

  readonly items: Entry<T>[] = [];
  readonly lines: number[] = [];
  push(e: Entry<T>, line: number): void {
    this.items.push(e);
    this.lines.push(line);
  }
  /** In source order: a nested function's findings sit where it is written, not where it is closed over. */
  ordered(): Entry<T>[] {
    if (this.inOrder()) return this.items;
    const order = this.items.map((_, i) => i);
    // On one line, a call's own texts come before those of a function written in its arguments.
    const nested = (i: number) => (isChild(this.items[i]) ? 1 : 0);
    order.sort((x, y) => this.lines[x]! - this.lines[y]! || nested(x) - nested(y) || x - y);
    return order.map((i) => this.items[i]!);
  }
}

interface Own {
  messages: Findings<Text | null>;
  compares: Findings<Text>;
  strings: Findings<Text>;
  /** True when `strings` may repeat a text (a nested function's, or a decoded constant's): only then is it made unique. */
  mixed: boolean;
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
  const own: Own[] = new Array(chunk.protos.length);
  const scan = new FunctionScan(run, budget, decoders, base);
  for (let id = 1; id < chunk.protos.length; id++) {
    if (++budget.functions > budget.limits.maxFunctions) {
      const p = chunk.protos[id]!;
      throw budget.exceeded('maxFunctions', { offset: base + p.offset, path: p.path }, budget.functions);
    }
    own[id] = scan.follow(chunk.protos[id]!);
  }
  // Children come after their parent in `protos` (pre-order), so the last is complete first.
  // Sized up front: filled from the end, an empty array would fall back to slow dictionary elements.
  const count = chunk.protos.length;
  const messages: (Text | null)[][] = new Array(count);
  const compares: Text[][] = new Array(count);
  const strings: Text[][] = new Array(count);
  const out: AbstractFunction[] = new Array(Math.max(0, count - 1));
  for (let id = chunk.protos.length - 1; id >= 1; id--) {
    const p = chunk.protos[id]!;
    const place = (): Place => ({ offset: base + p.offset, path: p.path });
    messages[id] = flatten(own[id]!.messages.ordered(), messages, budget, place);
    compares[id] = flatten(own[id]!.compares.ordered(), compares, budget, place);
    const all = flatten(own[id]!.strings.ordered(), strings, budget, place);
    // One function's constants are unique already (the compiler stores each once).
    strings[id] = own[id]!.mixed ? unique(all) : all;
    // The list itself when every message is known (the usual case), else a copy without the unknown ones.
    const known = messages[id]!.includes(null) ? (messages[id]!.filter((m) => m !== null) as Text[]) : (messages[id] as Text[]);
    out[id - 1] = {
      id: id - 1,
      origin: `${p.path} (lines ${p.lineDefined}–${p.lastLineDefined})`,
      parent: p.parent > 0 ? p.parent - 1 : null,
      messages: known,
      unknownMessages: messages[id]!.length - known.length,
      compares: compares[id]!,
      strings: strings[id]!,
    };
  }
  return out;
}

function isChild<T>(e: Entry<T> | undefined): e is { child: number } {
  return typeof e === 'object' && e !== null && 'child' in e;
}

function flatten<T>(entries: Entry<T>[], done: T[][], budget: Budget, place: () => Place): T[] {
  // No nested function's list to splice in (most functions): the list is already what is wanted.
  if (!entries.some(isChild)) return entries as T[];
  const out: T[] = [];
  for (const e of entries) {
    if (isChild(e)) {
      const sub = done[e.child] ?? [];
      budget.steps += sub.length;
      if (budget.steps > budget.limits.maxSteps) throw budget.exceeded('maxSteps', place(), budget.steps);
      for (const x of sub) out.push(x);
    } else out.push(e as T);
  }
  return out;
}

function unique(texts: Text[]): Text[] {
  const seen = new Set<string>();
  const out: Text[] = [];
  for (const t of texts) {
    if (seen.has(t.text)) continue;
    seen.add(t.text);
    out.push(t);
  }
  return out;
}

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
  /** The values of the function's constants, each made on its first use (most are only listed in `strings`). */
  private k: (AbstractValue | undefined)[] = [];
  /** Per constant: its index in `strings` (−1 before its first use). */
  private constPos = new Int32Array(0);
  private own!: Own;
  private pc = 0;
  /** The flow arrays, reused from function to function. */
  private flow: Flow | undefined;
  /** Shared unknowns (looked up once, not per instruction). */
  private readonly computed: AbstractValue;
  private readonly oneBranch: AbstractValue;
  private readonly inLoop: AbstractValue;

  constructor(
    private readonly run: MainPass,
    private readonly budget: Budget,
    private readonly decoders: StringDecoders | null,
    private readonly base: number,
  ) {
    this.computed = run.cache.unknown('computed while the function runs');
    this.oneBranch = run.cache.unknown('set on one branch only');
    this.inLoop = run.cache.unknown('changed in a loop');
  }

  private readonly place = (): Place => ({ offset: this.base + this.proto.offset, path: `${this.proto.path} pc ${this.pc + 1}` });

  follow(proto: LuaProto): Own {
    this.proto = proto;
    this.k = new Array(proto.k.length);
    this.own = { messages: new Findings(), compares: new Findings(), strings: new Findings(), mixed: false };
    const regs = this.regs;
    const params = this.run.cache.unknown('an argument of the function');
    // Only the registers the last function wrote need resetting (a function of 3 slots costs 3, not 256).
    const reset = Math.max(this.high, proto.numParams);
    for (let r = 0; r < reset && r < REGISTERS; r++) {
      regs[r] = r < proto.numParams ? params : NIL;
      this.paths[r] = null;
      this.fromString[r] = -1;
      this.regPc[r] = -1;
    }
    this.high = Math.min(REGISTERS, proto.numParams);
    const { code } = proto;
    const flow = flowOf(proto, this.flow);
    this.flow = flow;
    const constants = proto.k.length;
    if (this.constPos.length < constants) this.constPos = new Int32Array(Math.max(constants, 2 * this.constPos.length));
    this.constPos.fill(-1, 0, constants);
    const range: [number, number] = [-1, -1];
    const budget = this.budget;
    for (let pc = 0; pc < code.length; pc++) {
      this.pc = pc;
      if (++budget.steps > budget.limits.maxSteps) throw budget.exceeded('maxSteps', this.place(), budget.steps);
      const from = flow.joinFrom[pc]!;
      if (from >= 0) {
        const why = this.oneBranch;
        budget.charge(this.high, this.place);
        for (let r = 0; r < this.high; r++) if (this.regPc[r]! >= from) this.put(r, why);
      }
      const end = flow.loopEnd[pc]!;
      if (end >= 0) {
        const why = this.inLoop;
        budget.charge(end - pc + 1, this.place);
        for (let q = pc; q <= end && q < code.length; q++) {
          if (flow.data[q]) continue;
          writtenRegisters(code, q, range);
          for (let r = range[0]; r >= 0 && r <= Math.min(range[1], REGISTERS - 1); r++) this.put(r, why);
        }
      }
      if (flow.data[pc]) continue;
      const op = code.op[pc]!;
      const a = code.a[pc]!;
      const b = code.b[pc]!;
      const c = code.c[pc]!;
      const bx = code.raw[pc]! >>> 14;
      // Every string constant an instruction names, in code order (decoded later where it is passed to a decoder).
      if (op === OP_LOADK || op === OP_GETGLOBAL || op === OP_SETGLOBAL) this.useConstant(bx);
      else if (op !== OP_CLOSURE && op !== OP_JMP) {
        if (b >= REGISTERS) this.useConstant(b - REGISTERS);
        if (c >= REGISTERS) this.useConstant(c - REGISTERS);
      }
      this.step(op, a, b, c, bx);
    }
    for (let i = 0; i < constants; i++) this.useConstant(i);
    return this.own;
  }

  private compare(v: Slot) {
    if (v.kind === 'string') this.own.compares.push(v.value, this.line());
  }

  /** The source line of the current instruction (0 when the chunk is stripped). */
  private line(): number {
    return this.proto.lineInfo[this.pc] ?? 0;
  }

  private useConstant(i: number) {
    const v = this.proto.k[i];
    if (v?.type !== 'string' || this.constPos[i] !== -1) return;
    this.constPos[i] = this.own.strings.items.length;
    this.own.strings.push(v.value, this.line());
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
      case OP_LOADK: {
        // constPos is reused between functions: past this one's constants it holds another's.
        this.put(a, this.constant(bx), null, bx < this.proto.k.length ? this.constPos[bx]! : -1);
        return;
      }
      case OP_GETUPVAL:
        this.put(a, this.run.captures[this.proto.id]?.[b] ?? this.run.cache.unknown('an upvalue not known'));
        return;
      case OP_GETGLOBAL: {
        const name = this.proto.k[bx];
        if (name?.type !== 'string') return this.put(a, unknown);
        const key = name.value.text;
        return this.put(a, lasting(this.run.globals.get(key) ?? this.run.cache.unsetGlobal(key), this.run), key);
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
        const key = this.rk(b);
        if (t.kind !== 'local') return;
        if (key.kind === 'string') t.fields.set(key.value.text, this.rk(c));
        else if (key.kind === 'number') t.items.set(key.value, this.rk(c));
        return;
      }
      case OP_NEWTABLE:
        this.budget.chargeEntries(1, this.place);
        return this.put(a, { kind: 'local', fields: new Map(), items: new Map() });
      case OP_SETLIST: {
        const t = this.regs[a]!;
        if (t.kind !== 'local' || b === 0 || c === 0) return;
        this.budget.chargeEntries(b, this.place);
        for (let i = 1; i <= b; i++) t.items.set((c - 1) * 50 + i, this.reg(a + i));
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
        return this.put(a, text ? { kind: 'string', value: text } : this.run.cache.unknown('a concatenation of values not known'));
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
        return this.put(a, b ? { kind: 'boolean', value: true } : { kind: 'boolean', value: false });
      case OP_LOADNIL:
        for (let r = a; r <= b && r < REGISTERS; r++) this.put(r, NIL);
        return;
    }
    const range: [number, number] = [-1, -1];
    writtenRegisters(this.proto.code, this.pc, range);
    for (let r = range[0]; r >= 0 && r <= Math.min(range[1], REGISTERS - 1); r++) this.put(r, unknown);
  }

  private field(obj: Slot, key: Slot): Slot {
    if (obj.kind === 'local') {
      if (key.kind === 'string') return obj.fields.get(key.value.text) ?? NIL;
      if (key.kind === 'number') return obj.items.get(key.value) ?? NIL;
      return this.run.cache.unknown('a field whose key is not known');
    }
    if (key.kind === 'local') return this.run.cache.unknown('a field whose key is a table');
    if (obj.kind === 'table' || obj.kind === 'builtin' || obj.kind === 'unknown') return lasting(this.run.index(obj, key), this.run);
    return this.run.cache.unknown('a field of a value that is not a table');
  }

  private call(a: number, b: number, c: number) {
    const callee = this.reg(a);
    const name = callee.kind === 'builtin' ? callee.name : this.paths[a];
    const nargs = b === 0 ? 0 : b - 1;
    let result: Slot = this.run.cache.unknown('the result of a call');
    const shows = name ? MESSAGE_CALLS.get(name) : undefined;
    if (shows) this.showMessages(shows.arg <= nargs ? this.reg(a + shows.arg) : NIL, shows.list);
    else if (name === 'Wherigo.GetInput') this.showMessages(nargs >= 1 ? this.reg(a + 1) : NIL, false);
    else if (name === 'Wherigo.NoCaseEquals') {
      for (let i = 1; i <= nargs; i++) {
        const v = this.reg(a + i);
        if (v.kind === 'string') this.own.compares.push(v.value, this.line());
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
        this.own.strings.items[at] = result.value;
        this.own.mixed = true;
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
    else if (arg.kind === 'local') for (const [, v] of [...arg.items].sort((x, y) => x[0] - y[0])) tables.push(v);
    else return void this.own.messages.push(null, this.line());
    for (const t of tables) {
      // A Wherigo object's Text (Wherigo.GetInput's question) is read as the main function left it.
      const key: AbstractValue = { kind: 'string', value: TEXT_KEY };
      const text = t.kind === 'local' ? this.field(t, key) : t.kind === 'table' ? this.run.index(t, key) : NIL;
      this.own.messages.push(text.kind === 'string' ? text.value : null, this.line());
    }
  }

  private closure(a: number, bx: number) {
    const child = this.proto.p[bx];
    if (!child) return this.put(a, this.run.cache.unknown('a closure of a function the chunk does not have'));
    this.put(a, this.run.fnValue(child.id));
    this.own.messages.push({ child: child.id }, child.lineDefined);
    this.own.compares.push({ child: child.id }, child.lineDefined);
    this.own.strings.push({ child: child.id }, child.lineDefined);
    this.own.mixed = true;
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
      ups.push(v && v.kind !== 'local' ? v : this.run.cache.unknown('an upvalue not known'));
    }
    this.run.captures[child.id] = ups;
  }
}

/**
 * What a function may rely on from the heap the main function left: tables, functions and
 * builtins (objects are rarely replaced); a string, number or boolean there may have changed by
 * the time the function runs, so it is unknown.
 */
function lasting(v: AbstractValue, run: MainPass): AbstractValue {
  return v.kind === 'string' || v.kind === 'number' || v.kind === 'boolean' ? run.cache.unknown('a global value that may change before the function runs') : v;
}

const TEXT_KEY: Text = { text: 'Text', raw: new TextEncoder().encode('Text'), encoding: 'utf-8' };
