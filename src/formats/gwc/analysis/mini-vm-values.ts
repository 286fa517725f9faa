// The values of the mini VM (mini-vm.ts) and Lua 5.1's rules for them: truth, equality, order,
// number ↔ string coercion. A Lua string is a byte string; here it is a JS "binary string" (one
// char per byte, codes 0–255), so `..` is a cheap rope concatenation and `byte`/`sub` are O(1)
// per char, and the decoded bytes come back out exactly.

import type { Text } from '../../../core/text.js';
import { autoText } from '../lua.js';

/** A builtin the VM can call: the string and math library functions decoders use. */
export interface VmBuiltin {
  builtin: string;
  call(args: VmValue[], ctx: VmCallContext): VmValue[];
}

/** A table: made by the function (writable) or a known constant one (frozen). */
export class VmTable {
  readonly entries = new Map<string | number | boolean, VmValue>();
  /**
   * `library` names a library table (`string`, `math`): the real one has fields this one lacks
   * (`string.gmatch` …), so reading a missing field is unknown, not nil.
   */
  constructor(
    readonly frozen: boolean,
    readonly library: string | null = null,
  ) {}
}

/** `undefined` is nil; strings are binary strings (see the file's comment). */
export type VmValue = undefined | boolean | number | string | VmTable | VmBuiltin;

/** What a builtin may charge and check while it works. */
export interface VmCallContext {
  /** Charges `n` steps (work proportional to bytes, e.g. `string.rep`), or gives up. */
  charge(n: number): void;
  /** Checks a string about to be built against the bound on string bytes, or gives up. */
  checkLength(bytes: number): void;
}

/** Thrown inside the VM when the evaluation leaves what it does; `decode` turns it into `unknown`. */
export class VmUnknown extends Error {
  constructor(readonly why: string) {
    super(why);
  }
}

export const isBuiltin = (v: VmValue): v is VmBuiltin => typeof v === 'object' && !(v instanceof VmTable);

/** Lua's truth: everything but nil and false. */
export const truthy = (v: VmValue): boolean => v !== undefined && v !== false;

/** The type name Lua's `type()` would give, for reasons. */
export function luaType(v: VmValue): string {
  if (v === undefined) return 'nil';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  return v instanceof VmTable ? 'table' : 'function';
}

/** Bytes → binary string (chunks keep the spread below the engine's argument limit). */
export function bytesToBinary(raw: Uint8Array): string {
  let s = '';
  for (let i = 0; i < raw.length; i += 4096) s += String.fromCharCode(...raw.subarray(i, i + 4096));
  return s;
}

/** Binary string → bytes. */
export function binaryToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** Decoded bytes as a Text, with the rule of every GWC string: UTF-8 when well-formed, else Windows-1252. */
export const binaryToText = (s: string): Text => autoText(binaryToBytes(s));

/** Lua's `tostring` of a number (`%.14g`, as luaconf.h's LUA_NUMBER_FMT, rounded as the C library does). */
export function numberToString(n: number): string {
  if (Number.isNaN(n)) throw new VmUnknown('a NaN turned into text (its spelling depends on the C library)');
  if (n === Number.POSITIVE_INFINITY) return 'inf';
  if (n === Number.NEGATIVE_INFINITY) return '-inf';
  if (Object.is(n, -0)) return '-0';
  if (Number.isInteger(n) && Math.abs(n) < 1e14) return String(n);
  const sign = n < 0 ? '-' : '';
  const { digits, exp } = roundSignificant(Math.abs(n), G_PRECISION);
  if (exp < -4 || exp >= G_PRECISION) {
    const mant = trimZeros(`${digits[0]}.${digits.slice(1)}`);
    return `${sign}${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  const fixed = exp >= 0 ? `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}` : `0.${'0'.repeat(-exp - 1)}${digits}`;
  return sign + trimZeros(fixed);
}

const G_PRECISION = 14;

const trimZeros = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

/**
 * `x` (> 0) rounded to `p` significant digits from its exact binary value, ties to even (what
 * glibc's printf does; JS's toPrecision rounds ties up, so 123456789012345 would differ). `exp`
 * is the power of ten of the first digit.
 */
function roundSignificant(x: number, p: number): { digits: string; exp: number } {
  // x = m / 2^k exactly, with m an integer; then x = m·5^k / 10^k.
  let k = 0;
  let scaled = x;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    k++;
  }
  const all = (BigInt(scaled) * 5n ** BigInt(k)).toString();
  let exp = all.length - 1 - k;
  if (all.length <= p) return { digits: all.padEnd(p, '0'), exp };
  let head = BigInt(all.slice(0, p));
  const rest = all.slice(p);
  const half = rest[0]! > '5' || (rest[0] === '5' && /[1-9]/.test(rest.slice(1)));
  const tie = rest[0] === '5' && !/[1-9]/.test(rest.slice(1));
  if (half || (tie && head % 2n === 1n)) head += 1n;
  let digits = head.toString();
  if (digits.length > p) {
    digits = digits.slice(0, p);
    exp++;
  }
  return { digits, exp };
}

const NUMERAL = /^[ \t\n\v\f\r]*([+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?))[ \t\n\v\f\r]*$/;

/** Lua's string → number coercion (lua_str2number: decimal or hex); undefined when not a numeral. */
export function stringToNumber(s: string): number | undefined {
  const m = NUMERAL.exec(s);
  if (!m) return undefined;
  const t = m[1]!;
  const hex = /^([+-]?)0[xX](.*)$/.exec(t);
  if (hex) return (hex[1] === '-' ? -1 : 1) * Number.parseInt(hex[2]!, 16);
  return Number(t);
}

/** A number operand of arithmetic (strings coerce, as in Lua), or VmUnknown. */
export function toArith(v: VmValue, op: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const n = stringToNumber(v);
    if (n !== undefined) return n;
  }
  throw new VmUnknown(`${op} of a ${luaType(v)} (an error when run)`);
}

/** An operand of `..`: strings, and numbers as `%.14g`. */
export function toConcat(v: VmValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberToString(v);
  throw new VmUnknown(`.. of a ${luaType(v)} (an error when run)`);
}

/** Lua's raw equality (no metatables here). */
export const rawEquals = (a: VmValue, b: VmValue): boolean => a === b;

/** `a < b` (or `a <= b`): numbers, or strings compared byte by byte (the C locale's strcoll). */
export function lessThan(a: VmValue, b: VmValue, orEqual: boolean): boolean {
  if (typeof a === 'number' && typeof b === 'number') return orEqual ? a <= b : a < b;
  if (typeof a === 'string' && typeof b === 'string') return orEqual ? a <= b : a < b;
  throw new VmUnknown(`comparison of a ${luaType(a)} with a ${luaType(b)} (an error when run)`);
}

/** A table key as the Map holds it: float keys with an integer value are that integer (as in Lua). */
export function tableKey(k: VmValue): string | number | boolean {
  if (k === undefined) throw new VmUnknown('a table indexed with nil (an error when run)');
  if (typeof k === 'number' && Number.isNaN(k)) throw new VmUnknown('a table indexed with NaN (an error when run)');
  if (typeof k === 'object') throw new VmUnknown(`a table indexed with a ${luaType(k)}`);
  return k;
}

/** `#t`: a border (the first n with t[n+1] nil, counting from 1, as Lua finds for array-like tables). */
export function tableLength(t: VmTable): number {
  let n = 0;
  while (t.entries.get(n + 1) !== undefined) n++;
  return n;
}
