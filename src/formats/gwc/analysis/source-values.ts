// Small pieces the source front-end shares: strings as luaparse gives them (one char per byte)
// to Text, Lua's number-to-string, truthiness, and the node walk in source order.

import type { Node, StringLiteral } from 'luaparse';
import type { Text } from '../../../core/text.js';
import { autoText } from '../lua.js';
import type { AbstractValue } from './types.js';

/** A Lua string (one char per byte, as luaparse's `pseudo-latin1` mode gives it) as a Text, by autoText's UTF-8-else-1252 rule. */
export function byteText(s: string): Text {
  const raw = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) raw[i] = s.charCodeAt(i) & 0xff;
  return autoText(raw);
}

/**
 * A string literal's bytes as the Lua 5.1 compiler stores them: its lexer turns every line end in
 * a long string (`[[…]]`: CR LF, LF CR, CR or LF) into one LF, which luaparse keeps as written.
 */
export function literalBytes(node: StringLiteral): string {
  return node.raw.startsWith('[') ? node.value.replace(/\r\n|\n\r|\r/g, '\n') : node.value;
}

/** A Text's bytes as a Lua string (one char per byte). */
export function textBytes(t: Text): string {
  let s = '';
  for (let i = 0; i < t.raw.length; i += 8192) s += String.fromCharCode(...t.raw.subarray(i, i + 8192));
  return s;
}

/** `tostring(n)` of Lua 5.1 (`%.14g`). */
export function luaNumberString(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  const g = n.toPrecision(14);
  // %g drops trailing zeros and uses an exponent below 1e-4 or from 1e14.
  const [mant, exp] = g.split('e') as [string, string | undefined];
  const trimmed = mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant;
  if (exp === undefined) return trimmed;
  const e = Number(exp);
  return `${trimmed}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** Lua truthiness, or null when the value is not known. */
export function truthy(v: AbstractValue): boolean | null {
  if (v.kind === 'unknown') return null;
  if (v.kind === 'nil') return false;
  if (v.kind === 'boolean') return v.value;
  return true;
}

export const unknown = (why: string): AbstractValue => ({ kind: 'unknown', why });

/** The AST nodes directly under `node`, in source order. */
export function childNodes(node: Node): Node[] {
  const out: Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'range' || value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const v of value) if (v && typeof v === 'object' && typeof (v as Node).type === 'string') out.push(v as Node);
    } else if (typeof (value as Node).type === 'string') out.push(value as Node);
  }
  return out.sort((a, b) => a.range[0] - b.range[0]);
}

export function describe(v: AbstractValue): string {
  switch (v.kind) {
    case 'builtin':
      return v.name;
    case 'unknown':
      return `unknown (${v.why})`;
    case 'string':
      return `"${v.value.text}"`;
    case 'number':
    case 'boolean':
      return String(v.value);
    default:
      return `a ${v.kind}`;
  }
}

export function unary(op: string, a: AbstractValue): AbstractValue {
  if (op === 'not') {
    const t = truthy(a);
    return t === null ? unknown('not of an unknown') : { kind: 'boolean', value: !t };
  }
  if (op === '-' && a.kind === 'number') return { kind: 'number', value: -a.value };
  if (op === '#' && a.kind === 'string') return { kind: 'number', value: a.value.raw.length };
  return unknown(`${op} of ${describe(a)}`);
}

/** A binary operator on known numbers and strings (Lua 5.1's coercions); unknown otherwise. */
export function binaryOp(op: string, a: AbstractValue, b: AbstractValue): AbstractValue {
  if (op === '..') {
    const s = (v: AbstractValue) => (v.kind === 'string' ? textBytes(v.value) : v.kind === 'number' ? luaNumberString(v.value) : null);
    const x = s(a);
    const y = s(b);
    return x !== null && y !== null ? { kind: 'string', value: byteText(x + y) } : unknown(`.. of ${describe(x === null ? a : b)}`);
  }
  if (op === '==' || op === '~=') {
    if (a.kind === 'unknown' || b.kind === 'unknown' || a.kind === 'table' || a.kind === 'function' || a.kind === 'builtin')
      return unknown(`${op} of values not known`);
    const same =
      a.kind === b.kind &&
      (a.kind === 'nil' ||
        (a.kind === 'string' ? a.value.text === (b as typeof a).value.text : (a as { value: unknown }).value === (b as { value: unknown }).value));
    return { kind: 'boolean', value: op === '==' ? same : !same };
  }
  if (a.kind !== 'number' || b.kind !== 'number') return unknown(`${op} of ${describe(a.kind === 'number' ? b : a)}`);
  const x = a.value;
  const y = b.value;
  const value =
    op === '+'
      ? x + y
      : op === '-'
        ? x - y
        : op === '*'
          ? x * y
          : op === '/'
            ? x / y
            : op === '%'
              ? x - Math.floor(x / y) * y
              : op === '^'
                ? x ** y
                : undefined;
  if (value !== undefined) return { kind: 'number', value };
  if (op === '<' || op === '<=' || op === '>' || op === '>=')
    return { kind: 'boolean', value: op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y };
  return unknown(`the operator ${op}`);
}
