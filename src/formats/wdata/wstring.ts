// Rusty Hearts .wdata strings: a u16 count of UTF-16LE code units, then the units. Game files count
// a trailing NUL, the Toolkit's writer does not; both read, and each string remembers which.
// See README.md § Strings.

import { encodeError } from '../../core/errors.js';
import type { ByteReader, ByteWriter } from '../../core/reader.js';
import type { WString } from './types.js';

const utf16 = new TextDecoder('utf-16le');

/** The path placeholder `.\` that stands for "no path". */
export const NO_PATH = '.\\';

/** Index of the first unpaired surrogate among `units` code units at `bytes[at…]`, or -1. */
function loneSurrogate(bytes: Uint8Array, at: number, units: number): number {
  for (let i = 0; i < units; i++) {
    const u = bytes[at + 2 * i]! | (bytes[at + 2 * i + 1]! << 8);
    if (u >= 0xd800 && u <= 0xdbff) {
      const next = i + 1 < units ? bytes[at + 2 * i + 2]! | (bytes[at + 2 * i + 3]! << 8) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return i;
    } else if (u >= 0xdc00 && u <= 0xdfff) return i;
  }
  return -1;
}

/**
 * A WString from the `units` code units stored at `bytes[at…]` (checked to be there by the
 * caller), or the index of its first unpaired surrogate. Short strings (names, the common case)
 * are built unit by unit in the same pass as the surrogate check; long ones go to TextDecoder.
 */
export function wstringAt(bytes: Uint8Array, at: number, units: number): WString | number {
  const raw = bytes.slice(at, at + 2 * units);
  const nul = units > 0 && raw[2 * units - 2] === 0 && raw[2 * units - 1] === 0;
  const shown = nul ? units - 1 : units;
  if (units > 128) {
    const bad = loneSurrogate(raw, 0, units);
    if (bad >= 0) return bad;
    return { text: utf16.decode(raw.subarray(0, 2 * shown)), raw, encoding: 'utf-16le', nul };
  }
  let text = '';
  for (let i = 0; i < units; i++) {
    const u = raw[2 * i]! | (raw[2 * i + 1]! << 8);
    if (u >= 0xd800 && u <= 0xdfff) {
      const next = i + 1 < units ? raw[2 * i + 2]! | (raw[2 * i + 3]! << 8) : 0;
      if (u > 0xdbff || next < 0xdc00 || next > 0xdfff) return i;
      if (i < shown) text += String.fromCharCode(u, next);
      i++;
    } else if (i < shown) text += String.fromCharCode(u);
  }
  return { text, raw, encoding: 'utf-16le', nul };
}

/** Reads one string at the cursor: TRUNCATED when it runs past the end, CORRUPT for an unpaired surrogate. */
export function readWString(r: ByteReader, what: string): WString {
  const start = r.pos;
  const units = r.u16();
  r.need(units * 2, what);
  const s = wstringAt(r.bytes, r.pos, units);
  if (typeof s === 'number') throw r.fail('CORRUPT', { at: r.pos + 2 * s, detail: `${what}: unpaired UTF-16 surrogate`, path: r.path || what });
  r.pos = start + 2 + units * 2;
  return s;
}

/** Reads the string whose count field is at `at` (already walked by the kernel, so in bounds); `path()` names it in an error. */
export function wstringFromWalk(r: ByteReader, at: number, path: () => string): WString {
  const units = r.bytes[at]! | (r.bytes[at + 1]! << 8);
  const s = wstringAt(r.bytes, at + 2, units);
  if (typeof s === 'number') throw r.fail('CORRUPT', { at: at + 2 + 2 * s, path: path(), detail: 'unpaired UTF-16 surrogate' });
  return s;
}

/** A new WString for `text` (NUL counted unless `nul` is false). */
export function wstring(text: string, nul = true): WString {
  return { text, raw: utf16Bytes(text + (nul ? '\0' : '')), encoding: 'utf-16le', nul };
}

function utf16Bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 2);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[2 * i] = c & 0xff;
    out[2 * i + 1] = c >> 8;
  }
  return out;
}

/** True when `s` is the `.\` placeholder (a path field holding "no path"). */
export const isNoPath = (s: WString): boolean => s.text === NO_PATH;

/**
 * The stored units of `s`: `raw` while it still reads back as (`text`, `nul`); else `text`
 * encoded, with a NUL when `nul` (or `forceNul`) says so. EncodeError for anything that would
 * read back differently (lone surrogates, a text ending in NUL written without one, over 65535 units).
 */
export function wstringBytes(s: WString, path: string, forceNul?: boolean): Uint8Array {
  if (
    s === null ||
    typeof s !== 'object' ||
    typeof s.text !== 'string' ||
    typeof s.nul !== 'boolean' ||
    !(s.raw instanceof Uint8Array) ||
    s.encoding !== 'utf-16le'
  ) {
    throw encodeError('wdata', 'BAD_VALUE', { path, expected: '{ text, raw, encoding: utf-16le, nul }', actual: s === null ? 'null' : typeof s });
  }
  let raw = s.raw;
  const fits = raw.length % 2 === 0 && loneSurrogate(raw, 0, raw.length / 2) < 0;
  const reads = fits ? wstringAt(raw, 0, raw.length / 2) : -1;
  const same = typeof reads === 'object' && reads.text === s.text && reads.nul === s.nul;
  if (!same) {
    const nul = forceNul ?? s.nul;
    if (loneSurrogate(utf16Bytes(s.text), 0, s.text.length) >= 0) {
      throw encodeError('wdata', 'UNENCODABLE_TEXT', { path, actual: JSON.stringify(s.text), expected: 'well-formed UTF-16 (no unpaired surrogate)' });
    }
    if (!nul && s.text.endsWith('\0')) {
      throw encodeError('wdata', 'BAD_VALUE', { path, actual: 'text ending in NUL with nul: false', detail: 'it would read back as a counted NUL' });
    }
    raw = utf16Bytes(s.text + (nul ? '\0' : ''));
  }
  if (raw.length / 2 > 0xffff) throw encodeError('wdata', 'LIMIT_EXCEEDED', { path, expected: '≤ 65535 UTF-16 units', actual: raw.length / 2 });
  return raw;
}

/** Writes `s` (count + units). */
export function writeWString(w: ByteWriter, s: WString, path: string, forceNul?: boolean): void {
  const raw = wstringBytes(s, path, forceNul);
  w.u16(raw.length / 2).bytes(raw);
}
