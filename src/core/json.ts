// The JSON that extract() writes for every format: plain data a person or another tool can
// read. Texts become their string (plus the raw bytes when they do not decode back to them),
// bigints decimal strings, short typed arrays number arrays and long ones base64 of their bytes.

import { encodeError, type FormatId } from './errors.js';

/** Typed arrays up to this length are written as plain number arrays. */
const INLINE_MAX = 256;

/**
 * `value` (a decoded `format` level) as indented JSON text, UTF-8 encoded, ending in a newline.
 * EncodeError LIMIT_EXCEEDED when the text would be longer than the JavaScript engine's longest
 * string (about 2^29 characters in V8): a level at the decode limits can reach that, and the
 * engine's own "Invalid string length" says nothing about which file or why.
 */
export function jsonBytes(value: unknown, format: FormatId): Uint8Array {
  try {
    return new TextEncoder().encode(`${JSON.stringify(value, jsonValue, 1)}\n`);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw encodeError(format, 'LIMIT_EXCEEDED', {
      path: '',
      detail: `its JSON would be longer than the longest string this JavaScript engine can hold (${e.message})`,
    });
  }
}

/** The replacer behind jsonBytes(). */
export function jsonValue(_key: string, v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (isText(v)) return v.text;
  if (isTypedArray(v)) {
    if (v.length <= INLINE_MAX) return Array.from<number | bigint>(v);
    return { type: v.constructor.name, length: v.length, base64: base64(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) };
  }
  return v;
}

type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/** Every ArrayBuffer view but a DataView is a typed array (Float16Array, where the host has it, reads as numbers the same way). */
export function isTypedArray(v: unknown): v is TypedArray {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

function isText(v: unknown): v is { text: string } {
  return typeof v === 'object' && v !== null && 'text' in v && 'raw' in v && 'encoding' in v && typeof v.text === 'string';
}

// btoa over chunks: works in browsers and Node alike (no Buffer in the library).
function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
