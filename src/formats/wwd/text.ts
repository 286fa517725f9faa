// WWD text fields, both directions: fixed-size NUL-padded header fields, NUL-terminated image-set
// names and the length-counted object strings. All are core `Text`s; this file holds the framing
// each kind needs on top of the lossless rule (core/text.ts textBytes). See README.md § Text.

import { encodeError } from '../../core/errors.js';
import { canonicalEncoding, makeText, type Text, textBytes, textFrom } from '../../core/text.js';

/** The part of a stored field before its first NUL (a view): what `text` is decoded from. */
export function untilNul(raw: Uint8Array): Uint8Array {
  const end = raw.indexOf(0);
  return end < 0 ? raw : raw.subarray(0, end);
}

/**
 * A decoded fixed-size field or object string: every stored byte kept in `raw`, `text` the bytes
 * up to the first NUL (object strings are length-counted, but their text stops at a NUL too).
 */
export function textToNul(raw: Uint8Array, encoding: string): Text {
  return makeText(raw, encoding, untilNul(raw));
}

/**
 * A new text value for building levels: `text` in `encoding` (default Windows-1252, the code page
 * decoding assumes). With `size` (a fixed header field: 64 for names) `raw` is the whole field,
 * NUL-padded, as a decode would give it. RangeError when a character has no byte in the code page
 * or the text does not fit `size − 1` bytes (the game needs the NUL).
 */
export function fixedText(text: string, size?: number, encoding = 'windows-1252'): Text {
  const t = textFrom(text, encoding);
  if (size === undefined) return t;
  if (t.raw.length > size - 1) throw new RangeError(`levelkit: ${JSON.stringify(text)} takes ${t.raw.length} bytes; the field holds ${size - 1} and its NUL`);
  const raw = new Uint8Array(size);
  raw.set(t.raw);
  return { ...t, raw };
}

/**
 * The code page of the level being written. A WWD file does not say which code page its text is
 * in, so a decode reads every field with one (`encoding`): fields in different code pages could
 * not all read back as they are. The first text field checked sets it.
 */
export interface CodePage {
  name?: string;
}

/**
 * The bytes to store for `t` (core's lossless rule), checked for a code page this host knows and
 * shares with the level's other fields, and for NULs in changed text: a NUL ends every WWD text
 * when read back, so such text cannot be framed.
 */
function storedBytes(t: unknown, path: string, page: CodePage, visible?: (raw: Uint8Array) => Uint8Array): Uint8Array {
  const encoding = t !== null && typeof t === 'object' ? (t as Partial<Text>).encoding : undefined;
  if (typeof encoding === 'string') {
    let name: string;
    try {
      name = canonicalEncoding(encoding);
    } catch {
      throw encodeError('wwd', 'BAD_VALUE', { path: `${path}.encoding`, expected: 'a code page TextDecoder knows', actual: encoding });
    }
    page.name ??= name;
    if (name !== page.name) {
      throw encodeError('wwd', 'BAD_VALUE', {
        path: `${path}.encoding`,
        expected: `${page.name}, the code page of the level's other text (the file does not record one)`,
        actual: name,
      });
    }
  }
  const text = t as Text;
  const bytes = textBytes(text, visible ? { format: 'wwd', path, visible } : { format: 'wwd', path });
  if (bytes !== text.raw && bytes.includes(0)) {
    throw encodeError('wwd', 'BAD_VALUE', {
      path,
      expected: 'text without NUL (a NUL ends the field when it is read back)',
      actual: JSON.stringify(text.text),
    });
  }
  return bytes;
}

/**
 * A fixed-size field's `size` bytes. Unchanged text writes `raw` as stored (NUL-filled up to
 * `size` when shorter, as `textFrom` values are); changed text must leave room for the NUL.
 * LIMIT_EXCEEDED when it does not fit: the game reads up to the NUL, so cutting it would change it.
 */
export function fixedFieldBytes(t: unknown, size: number, path: string, page: CodePage): Uint8Array {
  const bytes = storedBytes(t, path, page, untilNul);
  const room = bytes === (t as Text).raw ? size : size - 1;
  if (bytes.length > room) {
    throw encodeError('wwd', 'LIMIT_EXCEEDED', {
      path,
      expected: `at most ${room} bytes${room < size ? ' (the field keeps one for its NUL)' : ''}`,
      actual: `${bytes.length} bytes`,
    });
  }
  if (bytes.length === size) return bytes;
  const out = new Uint8Array(size);
  out.set(bytes);
  return out;
}

/** An image-set name's bytes (the writer adds the NUL): BAD_VALUE when they hold a NUL, which would split the name. */
export function terminatedBytes(t: unknown, path: string, page: CodePage): Uint8Array {
  const bytes = storedBytes(t, path, page);
  if (bytes.includes(0))
    throw encodeError('wwd', 'BAD_VALUE', { path, expected: 'a name without NUL (NUL ends a name in the list)', actual: JSON.stringify((t as Text).text) });
  return bytes;
}

/** An object string's bytes (its length is stored beside it, so stored NULs are kept as they are). */
export function countedBytes(t: unknown, path: string, page: CodePage): Uint8Array {
  return storedBytes(t, path, page, untilNul);
}
