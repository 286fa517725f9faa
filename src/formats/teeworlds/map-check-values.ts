// The value checks the Teeworlds encoder's check (map-check.ts, map-check-layers.ts) makes of the
// model: numbers, booleans, objects, lists, typed columns, texts and names, each refused with an
// EncodeError naming its path, what was expected and what was there.

import { type EncodeErrorCode, encodeError } from '../../core/errors.js';
import { type Text, textBytes } from '../../core/text.js';
import { MAX_STRING_BYTES } from './items.js';

const I32_MAX = 0x7fffffff;
/** Item ids are 16 bits: more items of one type than this cannot each have their own id. */
export const MAX_ITEMS_PER_TYPE = 0x10000;
/** An item payload or data block size is an i32 in the file. */
export const MAX_BLOCK_BYTES = I32_MAX;

type Details = { expected?: string | number; actual?: string | number; detail?: string };
export const fail = (code: EncodeErrorCode, path: string, d: Details = {}) => encodeError('teeworlds', code, { path, ...d });

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined (missing)';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${'length' in v ? String(v.length) : `${v.byteLength} bytes`})`;
  if (typeof v === 'number') return String(v);
  return typeof v;
}

/** A whole number in [min, max]: BAD_VALUE when not a number at all, OUT_OF_RANGE otherwise. */
export function int(v: unknown, path: string, min = -0x80000000, max = I32_MAX): number {
  if (typeof v !== 'number') throw fail('BAD_VALUE', path, { expected: 'a number', actual: describe(v) });
  if (!Number.isInteger(v) || v < min || v > max) throw fail('OUT_OF_RANGE', path, { expected: `a whole number in ${min}..${max}`, actual: v });
  return v;
}

export function bool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') throw fail('BAD_VALUE', path, { expected: 'a boolean', actual: describe(v) });
  return v;
}

export function object(v: unknown, path: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw fail('BAD_VALUE', path, { expected: 'an object', actual: describe(v) });
  return v as Record<string, unknown>;
}

export function list(v: unknown, path: string, max = MAX_ITEMS_PER_TYPE): unknown[] {
  if (!Array.isArray(v)) throw fail('BAD_VALUE', path, { expected: 'an array', actual: describe(v) });
  if (v.length > max) throw fail('LIMIT_EXCEEDED', path, { expected: `≤ ${max} entries`, actual: v.length });
  return v;
}

type ColumnType = Int32ArrayConstructor | Uint8ArrayConstructor | Int16ArrayConstructor;
const RANGE = new Map<ColumnType, [number, number]>([
  [Int32Array, [-0x80000000, I32_MAX]],
  [Uint8Array, [0, 255]],
  [Int16Array, [-0x8000, 0x7fff]],
]);

/**
 * A column of `type` and exactly `length` values. Values of any other array-like are checked first
 * (so a NaN time is OUT_OF_RANGE, as it would be in a typed column), then the type (BAD_VALUE:
 * decoding gives this typed array back, never a plain one), then the length (BAD_LENGTH).
 */
export function column(v: unknown, type: ColumnType, length: number, path: string): void {
  if (!(v instanceof type)) {
    if (v === null || typeof v !== 'object' || typeof (v as { length?: unknown }).length !== 'number') {
      throw fail('BAD_VALUE', path, { expected: type.name, actual: describe(v) });
    }
    const [min, max] = RANGE.get(type)!;
    const a = v as ArrayLike<unknown>;
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) {
        throw fail('OUT_OF_RANGE', `${path}[${i}]`, { expected: `a whole number in ${min}..${max}`, actual: describe(x) });
      }
    }
    throw fail('BAD_VALUE', path, { expected: type.name, actual: describe(v) });
  }
  if (v.length !== length) throw fail('BAD_LENGTH', path, { expected: length, actual: v.length });
}

/** The bytes `t` writes (textBytes: raw while unchanged, else UTF-8), with no NUL inside (a NUL ends the string on reading). */
export function textOf(t: unknown, path: string): Uint8Array {
  const bytes = textBytes(t as Text, { format: 'teeworlds', path });
  // Map text is UTF-8: a Text in another code page would read back as UTF-8, i.e. as another Text.
  if ((t as Text).encoding !== 'utf-8')
    throw fail('BAD_VALUE', `${path}.encoding`, {
      expected: "'utf-8' (map text is UTF-8; build texts with textFrom(s, 'utf-8'))",
      actual: JSON.stringify((t as Text).encoding),
    });
  if (bytes.includes(0)) throw fail('BAD_VALUE', path, { expected: 'text without NUL characters', actual: JSON.stringify((t as Text).text) });
  return bytes;
}

/** A NUL-terminated data string (info fields, image and sound names). */
export function dataString(t: unknown, path: string): void {
  const n = textOf(t, path).length + 1;
  if (n > MAX_STRING_BYTES) throw fail('LIMIT_EXCEEDED', path, { expected: `≤ ${MAX_STRING_BYTES - 1} bytes (MAX_STRING_BYTES with the NUL)`, actual: n - 1 });
}

/** An int-packed name of `ints` ints (4·ints − 1 bytes at most). */
export function packedName(t: unknown, ints: number, path: string): Uint8Array {
  const bytes = textOf(t, path);
  if (bytes.length > ints * 4 - 1) throw fail('LIMIT_EXCEEDED', path, { expected: `≤ ${ints * 4 - 1} bytes`, actual: bytes.length });
  return bytes;
}

/** A name the item's version does not store: only the empty name reads back. */
export function noName(t: unknown, path: string, why: string): void {
  if (textOf(t, path).length > 0) throw fail('BAD_VALUE', path, { expected: 'an empty name', actual: JSON.stringify((t as Text).text), detail: why });
}
