// heapFromChunk: what a cartridge's main function builds, found by following its instructions
// abstractly — never by running them. One pass in pc order (each instruction once, so the time is
// linear in the code), over registers that hold AbstractValues; constants, builtins and unknowns
// are shared objects, so the pass allocates only what it keeps (tables, their entries, names).
// Control flow is not followed: bytecode-flow.ts finds where it joins, and there whatever one
// path wrote becomes unknown. Calls of the Wherigo constructors make tables; calls of a string
// decoder are evaluated by it; any other call's results are unknown, with a note.

import { LUA_OPCODES, LuaOp } from '../lua-opcodes.js';
import type { LuaChunk, LuaProto } from '../lua-types.js';
import { Budget, type Place } from './budget.js';
import { type Flow, flowOf, writtenRegisters } from './bytecode-flow.js';
import { summarizeFunctions } from './bytecode-functions.js';
import { PassNotes } from './bytecode-notes.js';
import * as values from './bytecode-values.js';
import { fieldsOf, itemsOf, NO_FIELDS, NO_ITEMS, NO_NAMES, nameTable, type Write } from './heap-tables.js';
import type { AnalysisOptions } from './index.js';
import type { AbstractHeap, AbstractTable, AbstractValue, StringDecoders } from './types.js';

// The opcodes as module constants: a switch over them compiles to integer compares.
const {
  ADD: OP_ADD,
  CALL: OP_CALL,
  CLOSURE: OP_CLOSURE,
  CONCAT: OP_CONCAT,
  DIV: OP_DIV,
  FORLOOP: OP_FORLOOP,
  FORPREP: OP_FORPREP,
  GETGLOBAL: OP_GETGLOBAL,
  GETTABLE: OP_GETTABLE,
  GETUPVAL: OP_GETUPVAL,
  JMP: OP_JMP,
  LEN: OP_LEN,
  LOADBOOL: OP_LOADBOOL,
  LOADK: OP_LOADK,
  LOADNIL: OP_LOADNIL,
  MOD: OP_MOD,
  MOVE: OP_MOVE,
  MUL: OP_MUL,
  NEWTABLE: OP_NEWTABLE,
  NOT: OP_NOT,
  POW: OP_POW,
  RETURN: OP_RETURN,
  SELF: OP_SELF,
  SETGLOBAL: OP_SETGLOBAL,
  SETLIST: OP_SETLIST,
  SETTABLE: OP_SETTABLE,
  SUB: OP_SUB,
  TAILCALL: OP_TAILCALL,
  TESTSET: OP_TESTSET,
  TFORLOOP: OP_TFORLOOP,
  UNM: OP_UNM,
  VARARG: OP_VARARG,
} = LuaOp;

export interface HeapOptions {
  /** The chunk's string decoders (findStringDecoders), or null when none are looked for. */
  decoders?: StringDecoders | null;
  limits?: AnalysisOptions;
  /** Where the chunk starts in the file its offsets should count from (a GWC: lua.offset + 4). */
  base?: number;
}

// Module constants (an imported binding can cost a getter call per use where modules are compiled to CommonJS).
const { arith, concatRegisters, LazyConstants, notATable, truthy, ValueCache } = values;
const { NIL, TRUE, FALSE } = values;

/** Lua 5.1 registers: A is 8 bits; B and C name registers below 256. */
const REGISTERS = 256;
/** LFIELDS_PER_FLUSH (lopcodes.h): SETLIST's block size. */
const FIELDS_PER_FLUSH = 50;

/** Builtins whose call makes a table (types.ts AbstractTable.made). */
export function isConstructor(name: string): boolean {
  return name.startsWith('Wherigo.') && (name.charCodeAt(8) === 0x5a /* Z */ || name === 'Wherigo.Distance' || name === 'Wherigo.Bearing');
}

/** The abstract heap the main function (lua.proto[0]) of `chunk` leaves. Never mutates the chunk. */
export function heapFromChunk(chunk: LuaChunk, opts: HeapOptions = {}): AbstractHeap {
  const budget = new Budget(opts.limits);
  const run = new MainPass(chunk, budget, opts.decoders ?? null, opts.base ?? 0);
  run.follow();
  const functions = summarizeFunctions(chunk, run, budget, opts.decoders ?? null, opts.base ?? 0);
  return {
    from: 'bytecode',
    globals: run.globals,
    tables: run.tables,
    functions,
    decoders: opts.decoders?.found ?? [],
    notes: run.noteLines(),
  };
}

/** The pass over the main function; its state is what the function summaries read afterwards. */
export class MainPass {
  readonly globals = new Map<string, AbstractValue>();
  readonly tables: AbstractTable[] = [];
  private readonly fnValues: AbstractValue[] = [];
  /** Per prototype id: the values of its upvalues when the first CLOSURE of it was made. */
  readonly captures: (AbstractValue[] | undefined)[] = [];
  readonly cache = new ValueCache();
  private readonly notes: PassNotes;
  private readonly regs: AbstractValue[] = new Array(REGISTERS).fill(NIL);
  /** Per register: the pc that last wrote it (−1: none). */
  private readonly regPc = new Int32Array(REGISTERS).fill(-1);
  private highReg = 0;
  /** One past the last value of an open call or vararg (CALL C=0, VARARG B=0). */
  private top = 0;
  private readonly log: Write[] = [];
  private readonly main: LuaProto;
  private readonly k: InstanceType<typeof LazyConstants>;
  /** Per builtin value (one object per name): whether calling it makes a table (isConstructor). */
  private readonly makers = new Map<AbstractValue, boolean>();
  private readonly flow: Flow;
  /** `lua.proto[0] pc `: what each table's origin starts with. */
  private readonly atPc: string;
  private pc = 0;

  constructor(
    readonly chunk: LuaChunk,
    private readonly budget: Budget,
    private readonly decoders: StringDecoders | null,
    private readonly base: number,
  ) {
    this.main = chunk.main;
    this.k = new LazyConstants(this.main.k);
    this.flow = flowOf(this.main);
    this.atPc = `${this.main.path} pc `;
    this.notes = new PassNotes(this.cache, chunk);
  }

  readonly place = (): Place => ({ offset: this.base + this.main.offset, path: `${this.main.path} pc ${this.pc + 1}` });

  /** The value of function prototype `protoId`. */
  fnValue(protoId: number): AbstractValue {
    let v = this.fnValues[protoId];
    if (!v) {
      v = { kind: 'function', fn: protoId - 1 };
      this.fnValues[protoId] = v;
    }
    return v;
  }

  follow(): void {
    const { code } = this.main;
    const raw = code.raw;
    const { joinFrom, loopEnd, data } = this.flow;
    const budget = this.budget;
    const maxSteps = budget.limits.maxSteps;
    const regs = this.regs;
    const n = code.length;
    let live = true;
    for (let pc = 0; pc < n; pc++) {
      this.pc = pc;
      if (++budget.steps > maxSteps) throw budget.exceeded('maxSteps', this.place(), budget.steps);
      if (joinFrom[pc]! >= 0) {
        this.join(joinFrom[pc]!);
        live = true;
      }
      if (loopEnd[pc]! >= 0) {
        this.loopHead(pc, loopEnd[pc]!);
        live = true;
      }
      if (data[pc] || !live) continue;
      // The operands from the stored word (lua-types.ts LuaCode: one load instead of four columns).
      const word = raw[pc]!;
      const op = word & 0x3f;
      const a = (word >>> 6) & 0xff;
      const c = (word >>> 14) & 0x1ff;
      const b = word >>> 23;
      // The cases most frequent in cartridges come first (a switch over non-literal cases compares in order).
      switch (op) {
        case OP_GETGLOBAL:
          this.set(a, this.getGlobal(word >>> 14));
          break;
        case OP_LOADK:
          this.set(a, this.constant(word >>> 14));
          break;
        case OP_SETTABLE:
          if (b >= REGISTERS) this.storeConstantKey(regs[a]!, b - REGISTERS, this.rk(c));
          else this.store(regs[a]!, regs[b]!, this.rk(c));
          break;
        case OP_CALL:
        case OP_TAILCALL:
          this.call(a, b, c);
          if (op === OP_TAILCALL) live = false;
          break;
        case OP_GETTABLE:
          this.set(a, this.index(this.reg(b), this.rk(c)));
          break;
        case OP_LOADBOOL:
          this.set(a, b ? TRUE : FALSE);
          break;
        case OP_NEWTABLE:
          this.set(a, this.newTable(null));
          break;
        case OP_CLOSURE:
          this.closure(a, word >>> 14);
          break;
        case OP_SETGLOBAL:
          this.setGlobal(word >>> 14, regs[a]!);
          break;
        case OP_MOVE:
          this.set(a, this.reg(b));
          break;
        case OP_SETLIST:
          this.setList(a, b, c === 0 ? (pc + 1 < n ? raw[pc + 1]! : 0) : c);
          break;
        case OP_LOADNIL:
          for (let r = a; r <= b && r < REGISTERS; r++) this.set(r, NIL);
          break;
        case OP_GETUPVAL:
          this.set(a, this.cache.unknown('an upvalue of the main function'));
          break;
        case OP_SELF: {
          const obj = this.reg(b);
          this.set(a + 1, obj);
          this.set(a, this.index(obj, this.rk(c)));
          break;
        }
        case OP_ADD:
        case OP_SUB:
        case OP_MUL:
        case OP_DIV:
        case OP_MOD:
        case OP_POW: {
          const x = this.rk(b);
          const y = this.rk(c);
          this.set(
            a,
            x.kind === 'number' && y.kind === 'number'
              ? { kind: 'number', value: arith(LUA_OPCODES[op] as 'ADD', x.value, y.value) }
              : this.cache.unknown('arithmetic on values not known'),
          );
          break;
        }
        case OP_UNM: {
          const x = this.reg(b);
          this.set(a, x.kind === 'number' ? { kind: 'number', value: -x.value } : this.cache.unknown('negation of a value not known'));
          break;
        }
        case OP_NOT: {
          const t = truthy(this.reg(b));
          this.set(a, t === null ? this.cache.unknown('negation of a value not known') : t ? FALSE : TRUE);
          break;
        }
        case OP_LEN: {
          const x = this.reg(b);
          this.set(a, x.kind === 'string' ? { kind: 'number', value: x.value.raw.length } : this.cache.unknown('length of a value not known'));
          break;
        }
        case OP_CONCAT:
          this.set(a, concatRegisters(this.regs, b, Math.min(c, REGISTERS - 1), this.cache));
          break;
        case OP_TESTSET:
          this.set(a, this.reg(b));
          break;
        case OP_JMP:
        case OP_RETURN:
          live = false;
          break;
        case OP_FORLOOP:
          this.set(a, this.cache.unknown('a loop counter'));
          this.set(a + 3, this.cache.unknown('a loop counter'));
          break;
        case OP_FORPREP:
          this.set(a, this.cache.unknown('a loop counter'));
          live = false;
          break;
        case OP_TFORLOOP:
          for (let r = a + 3; r <= a + 2 + c && r < REGISTERS; r++) this.set(r, this.cache.unknown('a value of a generic for loop'));
          break;
        case OP_VARARG: {
          const last = b === 0 ? a : a + b - 2;
          for (let r = a; r <= last && r < REGISTERS; r++) this.set(r, this.cache.unknown('an argument of the main function'));
          if (b === 0) this.top = a + 1;
          break;
        }
        // EQ, LT, LE, TEST, CLOSE, SETUPVAL: no register or heap write (their jumps are in the flow).
      }
    }
  }

  /** The arguments of the call at `a`, as a list: made only for calls that keep or read them. */
  private args(a: number, nargs: number): AbstractValue[] {
    const list: AbstractValue[] = [];
    for (let i = 1; i <= nargs; i++) list.push(this.reg(a + i));
    return list;
  }

  private reg(r: number): AbstractValue {
    return r < REGISTERS ? this.regs[r]! : this.cache.unknown('a register outside the function');
  }

  /** An RK operand: a constant (≥ 256) or a register. */
  private rk(x: number): AbstractValue {
    return x >= REGISTERS ? this.constant(x - REGISTERS) : this.regs[x]!;
  }

  /** The value of constant `i` (unknown when the function has no such constant). */
  private constant(i: number): AbstractValue {
    return this.k.value(i) ?? this.cache.unknown('a constant the function does not have');
  }

  private set(r: number, v: AbstractValue) {
    if (r >= REGISTERS) return;
    this.regs[r] = v;
    this.regPc[r] = this.pc;
    if (r >= this.highReg) this.highReg = r + 1;
  }

  /** Control joins here from `from` (and by falling through): what was written since is unknown. */
  private join(from: number) {
    const why = this.cache.unknown(`set on one branch only (after ${this.main.path} pc ${from + 1})`);
    this.budget.charge(this.highReg, this.place);
    for (let r = 0; r < this.highReg; r++) if (this.regPc[r]! >= from) this.regs[r] = why;
    const log = this.log;
    let i = log.length - 1;
    for (; i >= 0 && log[i]!.pc >= from; i--) this.undo(log[i]!, why);
    this.budget.charge(log.length - 1 - i, this.place);
  }

  private undo(w: Write, why: AbstractValue) {
    if (w.table < 0) this.globals.set(w.key as string, why);
    else if (typeof w.key === 'string') fieldsOf(this.tables[w.table]!).set(w.key, why);
    else itemsOf(this.tables[w.table]!).set(w.key, why);
  }

  /** A loop from `head` to `end`: registers and globals its body writes are unknown on entry. */
  private loopHead(head: number, end: number) {
    const { code } = this.main;
    const why = this.cache.unknown(`changed in a loop (${this.main.path} pc ${head + 1}–${end + 1})`);
    const range: [number, number] = [-1, -1];
    this.budget.charge(end - head + 1, this.place);
    for (let q = head; q <= end && q < code.length; q++) {
      if (this.flow.data[q]) continue;
      if (code.op[q] === OP_SETGLOBAL) {
        const name = this.k.name(code.raw[q]! >>> 14);
        if (name !== null) this.globals.set(name, why);
        continue;
      }
      writtenRegisters(code, q, range);
      if (range[0] < 0) continue;
      const hi = Math.min(range[1], REGISTERS - 1);
      for (let r = range[0]; r <= hi; r++) this.regs[r] = why;
    }
  }

  /** The global named by constant `i`. */
  private getGlobal(i: number): AbstractValue {
    const name = this.k.name(i);
    if (name === null) return this.cache.unknown('a global whose name is not a string');
    return this.globals.get(name) ?? this.cache.unsetGlobal(name);
  }

  /** Sets the global named by constant `i`. */
  private setGlobal(i: number, v: AbstractValue) {
    const key = this.k.name(i);
    if (key === null) return this.note('a global whose name is not a string is set');
    if (this.flow.branchy[this.pc]) this.log.push({ pc: this.pc, table: -1, key });
    this.globals.set(key, v);
    if (v.kind === 'table') nameTable(this.tables, v.table, key, this.budget, this.place);
  }

  /** `obj[key]`. A field a Wherigo object was not given is unknown (the player's class may supply it). */
  index(obj: AbstractValue, key: AbstractValue): AbstractValue {
    if (obj.kind === 'builtin') return key.kind === 'string' ? this.cache.member(obj.name, key.value.text) : this.cache.unknown(`a field of ${obj.name}`);
    if (obj.kind === 'unknown') return obj;
    if (obj.kind !== 'table') return this.cache.unknown('a field of a value that is not a table');
    if (key.kind !== 'string' && key.kind !== 'number') return this.cache.unknown('a field whose key is not known');
    let t: AbstractTable | undefined = this.tables[obj.table]!;
    for (let hop = 0; t && hop < 2; hop++) {
      const v = key.kind === 'string' ? t.fields.get(key.value.text) : t.items.get(key.value);
      if (v) return v;
      if (!t.made) return NIL;
      // A constructor's table argument holds the object's first fields.
      const arg: AbstractValue | undefined = t.made.args[0];
      t = arg?.kind === 'table' && !this.tables[arg.table]!.made ? this.tables[arg.table] : undefined;
    }
    return this.cache.unknown(`${key.kind === 'string' ? key.value.text : `[${key.value}]`} not set by the main function`);
  }

  /** `obj[key] = v`. */
  private store(obj: AbstractValue, key: AbstractValue, v: AbstractValue) {
    if (key.kind === 'string') return this.storeEntry(obj, key.value.text, v);
    if (key.kind === 'number') return this.storeEntry(obj, key.value, v);
    if (obj.kind !== 'table') return this.note(`a field of ${notATable(obj)} is set`);
    return this.note('a table field whose key is not known is set');
  }

  /** `obj[k[i]] = v`: SETTABLE with a constant key, nearly always a field's name. */
  private storeConstantKey(obj: AbstractValue, i: number, v: AbstractValue) {
    const name = this.k.name(i);
    if (name !== null) this.storeEntry(obj, name, v);
    else this.store(obj, this.constant(i), v);
  }

  /** `obj[k] = v` for a key known. */
  private storeEntry(obj: AbstractValue, k: string | number, v: AbstractValue) {
    if (obj.kind !== 'table') return this.note(`a field of ${notATable(obj)} is set`);
    const budget = this.budget;
    if (++budget.entries > budget.limits.maxEntries) throw budget.exceeded('maxEntries', this.place(), budget.entries);
    const t = this.tables[obj.table]!;
    if (this.flow.branchy[this.pc]) this.log.push({ pc: this.pc, table: t.id, key: k });
    if (typeof k !== 'string') {
      itemsOf(t).set(k, v);
      return;
    }
    fieldsOf(t).set(k, v);
    if (v.kind === 'table' && t.names.length > 0) nameTable(this.tables, v.table, `${t.names[0]}.${k}`, this.budget, this.place);
  }

  private setList(a: number, b: number, block: number) {
    const list = this.reg(a);
    const count = b === 0 ? this.top - a - 1 : b;
    if (list.kind !== 'table') return this.note('a list is filled in a value that is not a known table');
    if (count <= 0) return;
    this.budget.chargeEntries(count, this.place);
    const items = itemsOf(this.tables[list.table]!);
    const first = (block - 1) * FIELDS_PER_FLUSH;
    for (let i = 1; i <= count; i++) {
      items.set(first + i, this.reg(a + i));
      if (this.flow.branchy[this.pc]) this.log.push({ pc: this.pc, table: list.table, key: first + i });
    }
  }

  private newTable(made: AbstractTable['made']): AbstractValue {
    const budget = this.budget;
    if (++budget.tables > budget.limits.maxTables) throw budget.exceeded('maxTables', this.place(), budget.tables);
    const id = this.tables.length;
    const line = this.main.lineInfo[this.pc];
    const origin = line !== undefined ? `${this.atPc}${this.pc + 1} (line ${line})` : this.atPc + (this.pc + 1);
    this.tables.push({ id, made, fields: NO_FIELDS, items: NO_ITEMS, names: NO_NAMES, origin });
    return { kind: 'table', table: id };
  }

  private closure(a: number, bx: number) {
    const proto = this.main.p[bx];
    if (!proto) {
      this.set(a, this.cache.unknown('a closure of a function the chunk does not have'));
      return this.note(`CLOSURE names function p[${bx}], which the main function does not have`);
    }
    this.set(a, this.fnValue(proto.id));
    if (this.captures[proto.id]) return;
    const { code } = this.main;
    const ups: AbstractValue[] = [];
    for (let i = 1; i <= proto.nups; i++) {
      const q = this.pc + i;
      ups.push(q < code.length && code.op[q] === OP_MOVE ? this.reg(code.b[q]!) : this.cache.unknown('an upvalue of the main function'));
    }
    this.captures[proto.id] = ups;
  }

  private call(a: number, b: number, c: number) {
    const callee = this.reg(a);
    const nargs = b === 0 ? Math.max(0, this.top - a - 1) : b - 1;
    let result: AbstractValue;
    let single = true;
    if (callee.kind === 'builtin' && this.makes(callee)) result = this.newTable({ by: callee.name, args: this.args(a, nargs) });
    else if (callee.kind === 'builtin' && callee.name === 'require') {
      const name = nargs >= 1 ? this.reg(a + 1) : undefined;
      result = name?.kind === 'string' ? this.cache.builtin(name.value.text) : this.cache.unknown('a module required by a name not known');
    } else if (callee.kind === 'function' && this.decoders?.isDecoder(callee.fn + 1)) result = this.decoders.decode(callee.fn + 1, this.args(a, nargs));
    else {
      const unfollowed = this.notes.unfollowed(callee);
      this.note(unfollowed.note);
      result = unfollowed.result;
      single = false;
    }
    const last = c === 0 ? a : a + c - 2;
    for (let r = a; r <= last && r < REGISTERS; r++) this.set(r, r === a || !single ? result : NIL);
    if (c === 0) this.top = a + 1;
  }

  /** isConstructor of a builtin, found once per builtin value. */
  private makes(callee: AbstractValue & { kind: 'builtin' }): boolean {
    let makes = this.makers.get(callee);
    if (makes === undefined) {
      makes = isConstructor(callee.name);
      this.makers.set(callee, makes);
    }
    return makes;
  }

  private note(what: string) {
    this.notes.add(what, this.place);
  }

  /** The notes, one line each: what, where first, and how often. */
  noteLines(): string[] {
    return this.notes.lines();
  }
}
