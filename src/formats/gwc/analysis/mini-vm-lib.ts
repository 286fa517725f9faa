// The library of the mini VM: the `string` and `math` functions string decoders call, with
// Lua 5.1's argument rules (lstrlib.c, lmathlib.c: facts only). Anything outside them — Lua
// patterns with magic characters, a `gsub` replacement function, `%` formats other than
// c/d/i/s/x/X — is VmUnknown: the VM says it cannot follow rather than approximating.

import { luaType, numberToString, stringToNumber, type VmBuiltin, type VmCallContext, VmTable, VmUnknown, type VmValue } from './mini-vm-values.js';

type Impl = (args: VmValue[], ctx: VmCallContext) => VmValue[];

function builtin(name: string, impl: Impl): VmBuiltin {
  return { builtin: name, call: impl };
}

/** luaL_checklstring: a string, or a number turned into one. */
function str(args: VmValue[], i: number, fn: string): string {
  const v = args[i];
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberToString(v);
  throw new VmUnknown(`${fn} given a ${luaType(v)} as argument ${i + 1} (an error when run)`);
}

/** luaL_checkinteger (or optinteger with `dflt`): a number or numeral, truncated toward zero as C's cast. */
function int(args: VmValue[], i: number, fn: string, dflt?: number): number {
  const v = args[i];
  if (v === undefined && dflt !== undefined) return dflt;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? stringToNumber(v) : undefined;
  if (n === undefined) throw new VmUnknown(`${fn} given a ${luaType(v)} as argument ${i + 1} (an error when run)`);
  if (!Number.isFinite(n)) throw new VmUnknown(`${fn} given ${n} as argument ${i + 1} (C's integer cast of it is undefined)`);
  return Math.trunc(n);
}

/** luaL_checknumber. */
function num(args: VmValue[], i: number, fn: string): number {
  const v = args[i];
  const n = typeof v === 'number' ? v : typeof v === 'string' ? stringToNumber(v) : undefined;
  if (n === undefined) throw new VmUnknown(`${fn} given a ${luaType(v)} as argument ${i + 1} (an error when run)`);
  return n;
}

/** lstrlib.c's posrelat: a negative position counts from the end. */
const posrelat = (pos: number, len: number): number => (pos < 0 ? len + pos + 1 : pos);

/** True when `p` has none of the characters that make a Lua pattern more than plain text. */
const isPlainPattern = (p: string): boolean => !/[\^$*+?.([%-]/.test(p);

function sub(s: string, i: number, j: number): string {
  const len = s.length;
  let start = posrelat(i, len);
  let end = posrelat(j, len);
  if (start < 1) start = 1;
  if (end > len) end = len;
  return start <= end ? s.slice(start - 1, end) : '';
}

function format(args: VmValue[], ctx: VmCallContext): string {
  const fmt = str(args, 0, 'string.format');
  let out = '';
  let arg = 1;
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    const spec = /^([-0 ]?)(\d{0,2})([%cdisxX])/.exec(fmt.slice(i + 1));
    if (!spec) throw new VmUnknown(`string.format spec %${fmt.slice(i + 1, i + 4)} is not one the decoder evaluator follows`);
    i += spec[0].length;
    const [, flag, width, conv] = spec as unknown as [string, string, string, string];
    if (conv === '%') {
      out += '%';
      continue;
    }
    let piece: string;
    if (conv === 'c') piece = String.fromCharCode(int(args, arg++, 'string.format') & 0xff);
    else if (conv === 's') piece = str(args, arg++, 'string.format');
    else {
      const n = int(args, arg++, 'string.format');
      piece = conv === 'x' ? (n >>> 0).toString(16) : conv === 'X' ? (n >>> 0).toString(16).toUpperCase() : String(n);
    }
    const w = Number(width || 0);
    if (piece.length < w) piece = flag === '-' ? piece.padEnd(w) : flag === '0' && conv !== 's' && conv !== 'c' ? piece.padStart(w, '0') : piece.padStart(w);
    ctx.checkLength(out.length + piece.length);
    out += piece;
  }
  return out;
}

function gsub(args: VmValue[], ctx: VmCallContext): VmValue[] {
  const s = str(args, 0, 'string.gsub');
  const pat = str(args, 1, 'string.gsub');
  const repl = args[2];
  if (typeof repl !== 'string' && typeof repl !== 'number') throw new VmUnknown(`string.gsub with a ${luaType(repl)} replacement is not followed`);
  const rep = typeof repl === 'number' ? numberToString(repl) : repl;
  if (!isPlainPattern(pat) || pat === '') throw new VmUnknown(`string.gsub pattern ${JSON.stringify(pat)} is not plain text`);
  if (rep.includes('%')) throw new VmUnknown('string.gsub replacement with % captures is not followed');
  const max = args[3] === undefined ? Number.POSITIVE_INFINITY : int(args, 3, 'string.gsub');
  ctx.charge(s.length);
  let out = '';
  let count = 0;
  let pos = 0;
  for (let at = s.indexOf(pat); at >= 0 && count < max; at = s.indexOf(pat, pos)) {
    out += s.slice(pos, at) + rep;
    pos = at + pat.length;
    count++;
    ctx.checkLength(out.length);
  }
  out += s.slice(pos);
  ctx.checkLength(out.length);
  return [out, count];
}

function find(args: VmValue[], ctx: VmCallContext): VmValue[] {
  const s = str(args, 0, 'string.find');
  const pat = str(args, 1, 'string.find');
  let init = posrelat(int(args, 2, 'string.find', 1), s.length);
  if (init < 1) init = 1;
  if (init > s.length + 1) return [undefined];
  const plain = args[3] !== undefined && args[3] !== false;
  if (!plain && !isPlainPattern(pat)) throw new VmUnknown(`string.find pattern ${JSON.stringify(pat)} is not plain text`);
  ctx.charge(s.length);
  const at = s.indexOf(pat, init - 1);
  return at < 0 ? [undefined] : [at + 1, at + pat.length];
}

const STRING_LIB: Record<string, Impl> = {
  byte: (a, ctx) => {
    const s = str(a, 0, 'string.byte');
    const i = int(a, 1, 'string.byte', 1);
    const first = Math.max(1, posrelat(i, s.length));
    const last = Math.min(s.length, posrelat(int(a, 2, 'string.byte', i), s.length));
    if (first > last) return [];
    ctx.charge(last - first);
    const out: VmValue[] = [];
    for (let k = first; k <= last; k++) out.push(s.charCodeAt(k - 1));
    return out;
  },
  char: (a, ctx) => {
    ctx.checkLength(a.length);
    let out = '';
    for (let i = 0; i < a.length; i++) {
      const c = int(a, i, 'string.char');
      if (c < 0 || c > 255) throw new VmUnknown(`string.char(${c}): invalid value (an error when run)`);
      out += String.fromCharCode(c);
    }
    return [out];
  },
  sub: (a) => {
    const s = str(a, 0, 'string.sub');
    return [sub(s, int(a, 1, 'string.sub', 1), int(a, 2, 'string.sub', -1))];
  },
  len: (a) => [str(a, 0, 'string.len').length],
  lower: (a) => [str(a, 0, 'string.lower').replace(/[A-Z]/g, (c) => c.toLowerCase())],
  upper: (a) => [str(a, 0, 'string.upper').replace(/[a-z]/g, (c) => c.toUpperCase())],
  reverse: (a) => [[...str(a, 0, 'string.reverse')].reverse().join('')],
  rep: (a, ctx) => {
    const s = str(a, 0, 'string.rep');
    const n = int(a, 1, 'string.rep');
    if (n <= 0 || s === '') return [''];
    ctx.checkLength(s.length * n);
    ctx.charge(n);
    return [s.repeat(n)];
  },
  format: (a, ctx) => [format(a, ctx)],
  gsub,
  find,
};

const MATH_LIB: Record<string, Impl> = {
  floor: (a) => [Math.floor(num(a, 0, 'math.floor'))],
  ceil: (a) => [Math.ceil(num(a, 0, 'math.ceil'))],
  abs: (a) => [Math.abs(num(a, 0, 'math.abs'))],
  // C's fmod: the remainder takes the dividend's sign, as JS's %.
  fmod: (a) => [num(a, 0, 'math.fmod') % num(a, 1, 'math.fmod')],
  mod: (a) => [num(a, 0, 'math.mod') % num(a, 1, 'math.mod')],
  // At least one number (luaL_checknumber of argument 1), so `math.max()` is an error, not -inf.
  max: (a) => [Math.max(num(a, 0, 'math.max'), ...a.slice(1).map((_, i) => num(a, i + 1, 'math.max')))],
  min: (a) => [Math.min(num(a, 0, 'math.min'), ...a.slice(1).map((_, i) => num(a, i + 1, 'math.min')))],
  pow: (a) => [num(a, 0, 'math.pow') ** num(a, 1, 'math.pow')],
  sqrt: (a) => [Math.sqrt(num(a, 0, 'math.sqrt'))],
};

function library(name: string, impls: Record<string, Impl>, values: Record<string, number> = {}): VmTable {
  const t = new VmTable(true, name);
  for (const [key, impl] of Object.entries(impls)) t.entries.set(key, builtin(`${name}.${key}`, impl));
  for (const [key, value] of Object.entries(values)) t.entries.set(key, value);
  return t;
}

/** The frozen `string` and `math` tables (shared: frozen tables are never written). */
export const STRING_TABLE = library('string', STRING_LIB);
export const MATH_TABLE = library('math', MATH_LIB, { pi: Math.PI, huge: Number.POSITIVE_INFINITY });

/** The library globals a decoder may read. */
export const LIBRARY_GLOBALS: ReadonlyMap<string, VmValue> = new Map<string, VmValue>([
  ['string', STRING_TABLE],
  ['math', MATH_TABLE],
]);

/** The names of the string functions that build a string (a decoder's result comes out of one of them or of `..`). */
export const STRING_BUILDERS: ReadonlySet<string> = new Set(['char', 'sub', 'format', 'gsub', 'rep', 'reverse', 'lower', 'upper']);
