// Model values to DiffValues: Text → its string, bigint → decimal string, Date → ISO string,
// typed arrays → number arrays (long ones by length and SHA-256). Used for `from`/`to`.

import { sha256Hex } from '../core/digest.js';
import { isTypedArray } from '../core/json.js';
import { type DiffValue, INLINE_ARRAY_MAX } from './change.js';

/** A decoded Text (any format's): a `text` string with its `raw` bytes. */
export function isText(v: unknown): v is { text: string; raw: Uint8Array } {
  return typeof v === 'object' && v !== null && typeof (v as { text?: unknown }).text === 'string' && (v as { raw?: unknown }).raw instanceof Uint8Array;
}

/** SHA-256 (hex) of a typed array's bytes. */
export function digestOf(a: ArrayBufferView): string {
  return sha256Hex(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
}

/** `v` as a JSON-ready value. */
export function plain(v: unknown): DiffValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (isText(v)) return v.text;
  if (isTypedArray(v)) {
    if (v.length <= INLINE_ARRAY_MAX) return Array.from(v as ArrayLike<number | bigint>, (x) => plain(x));
    return { length: v.length, sha256: digestOf(v) };
  }
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return String(v);
}

/** Deep equality of two model values as diff() sees them (Texts by their text, typed arrays by content). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (isText(a) || isText(b)) return isText(a) && isText(b) && a.text === b.text;
  if (isTypedArray(a) || isTypedArray(b)) return isTypedArray(a) && isTypedArray(b) && sameArray(a as ArrayLike<unknown>, b as ArrayLike<unknown>);
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function sameArray(a: ArrayLike<unknown>, b: ArrayLike<unknown>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return false;
  return true;
}

/** True when the two views hold the same bytes; compared four bytes at a time where both are aligned (pixels are megabytes). */
export function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (a.byteLength !== b.byteLength) return false;
  const n = a.byteLength;
  const words = a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0 ? n >>> 2 : 0;
  const wa = new Uint32Array(a.buffer, a.byteOffset, words);
  const wb = new Uint32Array(b.buffer, b.byteOffset, words);
  for (let i = 0; i < words; i++) if (wa[i] !== wb[i]) return false;
  const ba = new Uint8Array(a.buffer, a.byteOffset, n);
  const bb = new Uint8Array(b.buffer, b.byteOffset, n);
  for (let i = words * 4; i < n; i++) if (ba[i] !== bb[i]) return false;
  return true;
}
