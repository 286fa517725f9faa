// The values the bytecode front-end passes around (types.ts AbstractValue), made once and shared:
// a constant's value is built once per prototype, a builtin once per name, an unknown once per
// reason, so following an instruction allocates nothing it does not keep.

import type { Text } from '../../../core/text.js';
import { autoText } from '../lua.js';
import type { LuaChunk, LuaConstant, LuaProto } from '../lua-types.js';
import type { AbstractValue } from './types.js';

export const NIL: AbstractValue = Object.freeze({ kind: 'nil' });
export const TRUE: AbstractValue = Object.freeze({ kind: 'boolean', value: true });
export const FALSE: AbstractValue = Object.freeze({ kind: 'boolean', value: false });

/**
 * Globals a cartridge reads without setting: the Lua 5.1 standard library and the player's
 * `Wherigo` module. Reading one gives the builtin of that name; any other global the main
 * function did not set is unknown (something it called may have set it).
 */
const STANDARD_GLOBALS = new Set([
  'Wherigo',
  'require',
  'string',
  'math',
  'table',
  'os',
  'io',
  'coroutine',
  'debug',
  'package',
  'tostring',
  'tonumber',
  'type',
  'pairs',
  'ipairs',
  'next',
  'select',
  'unpack',
  'print',
  'error',
  'assert',
  'pcall',
  'xpcall',
  'rawget',
  'rawset',
  'rawequal',
  'setmetatable',
  'getmetatable',
  'setfenv',
  'getfenv',
  'loadstring',
  'collectgarbage',
  '_G',
  '_VERSION',
]);

/** Builtins and unknowns by name, so each is one shared object. */
export class ValueCache {
  private readonly builtins = new Map<string, AbstractValue>();
  private readonly unknowns = new Map<string, AbstractValue>();
  private readonly members = new Map<string, Map<string, AbstractValue>>();
  /** unsetGlobal by name: a handler reads the same unset globals again and again. */
  private readonly unset = new Map<string, AbstractValue>();

  builtin(name: string): AbstractValue {
    let v = this.builtins.get(name);
    if (!v) {
      v = { kind: 'builtin', name };
      this.builtins.set(name, v);
    }
    return v;
  }

  /** `builtin.key` (`Wherigo` → `Wherigo.ZItem`), found without building the name again. */
  member(of: string, key: string): AbstractValue {
    let keys = this.members.get(of);
    if (!keys) {
      keys = new Map();
      this.members.set(of, keys);
    }
    let v = keys.get(key);
    if (!v) {
      v = this.builtin(`${of}.${key}`);
      keys.set(key, v);
    }
    return v;
  }

  unknown(why: string): AbstractValue {
    let v = this.unknowns.get(why);
    if (!v) {
      v = { kind: 'unknown', why };
      this.unknowns.set(why, v);
    }
    return v;
  }

  /** A global nobody set: the builtin for the standard names, else unknown. */
  unsetGlobal(name: string): AbstractValue {
    let v = this.unset.get(name);
    if (!v) {
      v = STANDARD_GLOBALS.has(name) ? this.builtin(name) : this.unknown(`global ${name} is not set by the main function`);
      this.unset.set(name, v);
    }
    return v;
  }
}

/** The value of each constant of `proto` (one object per constant, made here once). */
export function constantValues(proto: LuaProto): AbstractValue[] {
  return proto.k.map(constantValue);
}

/**
 * A prototype's constants as a pass reads them, each valued or named on first use (most are only
 * read as names, again and again). Arrays sized up front, so filling them at random indexes keeps them fast.
 */
export class LazyConstants {
  private readonly values: (AbstractValue | undefined)[];
  private readonly names: (string | null | undefined)[];

  constructor(private readonly k: readonly LuaConstant[]) {
    this.values = new Array(k.length);
    this.names = new Array(k.length);
  }

  /** The value of constant `i`; undefined when the prototype has no such constant. */
  value(i: number): AbstractValue | undefined {
    let v = this.values[i];
    if (v === undefined && this.k[i] !== undefined) {
      v = constantValue(this.k[i]!);
      this.values[i] = v;
    }
    return v;
  }

  /** The text of constant `i` when it is a string (a global's or a field's name), else null. */
  name(i: number): string | null {
    let name = this.names[i];
    if (name === undefined) {
      const c = this.k[i];
      name = c?.type === 'string' ? c.value.text : null;
      if (c) this.names[i] = name;
    }
    return name;
  }
}

/** What a value whose field is set is, for a note: a builtin's name, else what kind of value. */
export function notATable(obj: AbstractValue): string {
  return obj.kind === 'builtin' ? obj.name : obj.kind === 'unknown' ? 'a value not known' : 'a value that is not a table';
}

/** The value of one constant (nil and booleans shared, a number or string made here). */
export function constantValue(k: LuaConstant): AbstractValue {
  switch (k.type) {
    case 'nil':
      return NIL;
    case 'boolean':
      return k.value ? TRUE : FALSE;
    case 'number':
      return { kind: 'number', value: k.value };
    case 'string':
      return { kind: 'string', value: k.value };
  }
}

/** A callee as a note names it: a builtin's name, a function's path, else what kind of value it is. */
export function calleeText(callee: AbstractValue, chunk: LuaChunk): string {
  if (callee.kind === 'builtin') return callee.name;
  if (callee.kind === 'function') return `function ${chunk.protos[callee.fn + 1]?.path ?? callee.fn + 1}`;
  return callee.kind === 'unknown' ? 'a value not known' : `a ${callee.kind}`;
}

/** Lua's truth: everything but nil and false is true; null when the value is not known. */
export function truthy(v: AbstractValue): boolean | null {
  if (v.kind === 'unknown') return null;
  return !(v.kind === 'nil' || (v.kind === 'boolean' && !v.value));
}

/** A number as Lua 5.1's `tostring` writes it (`%.14g`), for CONCAT. */
export function luaNumberText(n: number): string {
  if (Number.isNaN(n)) return n > 0 ? 'nan' : '-nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return Object.is(n, -0) ? '-0' : String(n);
  const g = n.toPrecision(14);
  // %g drops trailing zeros and uses an exponent below 1e-4 or from 1e14 on, as toPrecision does.
  const [mant, exp] = g.split('e');
  const m = mant!.includes('.') ? mant!.replace(/0+$/, '').replace(/\.$/, '') : mant!;
  if (exp === undefined) return m;
  const e = Number(exp);
  return `${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

const utf8 = new TextEncoder();

/**
 * The text of CONCAT over `parts` (strings or numbers), or null when one is neither. The bytes
 * are the parts' bytes one after another, read back by the chunk's UTF-8-else-1252 rule.
 */
export function concatText(parts: readonly AbstractValue[]): Text | null {
  const raws: Uint8Array[] = [];
  let size = 0;
  for (const p of parts) {
    let raw: Uint8Array;
    if (p.kind === 'string') raw = p.value.raw;
    else if (p.kind === 'number') raw = utf8.encode(luaNumberText(p.value));
    else return null;
    raws.push(raw);
    size += raw.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const r of raws) {
    out.set(r, at);
    at += r.length;
  }
  return autoText(out);
}

/** CONCAT of registers `b`..`c`: a string when every part is known (decoded if one part was), else unknown. */
export function concatRegisters(regs: readonly AbstractValue[], b: number, c: number, cache: ValueCache): AbstractValue {
  const parts: AbstractValue[] = [];
  let decoded = false;
  for (let r = b; r <= c; r++) {
    const v = regs[r]!;
    if (v.kind === 'string' && v.decoded) decoded = true;
    parts.push(v);
  }
  const text = concatText(parts);
  if (!text) return cache.unknown('a concatenation of values not known');
  return decoded ? { kind: 'string', value: text, decoded } : { kind: 'string', value: text };
}

/** Arithmetic of two known numbers as Lua 5.1 does it (lvm.c: luai_num*), or null. */
export function arith(op: 'ADD' | 'SUB' | 'MUL' | 'DIV' | 'MOD' | 'POW', a: number, b: number): number {
  switch (op) {
    case 'ADD':
      return a + b;
    case 'SUB':
      return a - b;
    case 'MUL':
      return a * b;
    case 'DIV':
      return a / b;
    case 'MOD':
      return a - Math.floor(a / b) * b;
    case 'POW':
      return a ** b;
  }
}
