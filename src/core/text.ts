// Text fields of old games are code-page bytes. Every format keeps them as one `Text`: the
// decoded string, the stored bytes and the code page used. Encoders write the stored bytes while
// the string is unchanged, encode a changed string in the field's code page, and refuse (never
// `?`) a character that page cannot hold: see textBytes().

import { encodeError, type FormatId } from './errors.js';

/** A text field as stored: the decoded string, the stored bytes and the code page used. */
export interface Text {
  /** The field decoded with `encoding` (for NUL-terminated fields: the bytes before the first NUL). */
  text: string;
  /**
   * The stored bytes, a copy owned by the result. For fixed-size fields all of the field's bytes,
   * including whatever follows the NUL, so files round-trip byte for byte.
   */
  raw: Uint8Array;
  /** The code page `text` was decoded with (the WHATWG name, e.g. `windows-1252`, `utf-8`). */
  encoding: string;
}

/** A Text whose `text` is `visible` (default: all of `raw`) decoded with `encoding`. `raw` is kept as given. */
export function makeText(raw: Uint8Array, encoding: string, visible: Uint8Array = raw): Text {
  return { text: decodeText(visible, encoding), raw, encoding: canonicalEncoding(encoding) };
}

/** A new Text from a string (what a user builds): its bytes in `encoding`, or UNENCODABLE_TEXT. */
export function textFrom(text: string, encoding = 'windows-1252', format?: FormatId, path = 'text'): Text {
  const raw = encodeText(text, encoding);
  if (!raw) {
    if (format) throw encodeError(format, 'UNENCODABLE_TEXT', { path, actual: JSON.stringify(text), expected: `text ${canonicalEncoding(encoding)} can hold` });
    throw new RangeError(`levelkit: ${JSON.stringify(text)} has characters ${canonicalEncoding(encoding)} cannot hold`);
  }
  return { text, raw, encoding: canonicalEncoding(encoding) };
}

/** Where a text field is being written, for the EncodeError it may raise. */
export interface TextSite {
  format: FormatId;
  path: string;
  /** The part of `raw` that `text` was decoded from (default: all of it; NUL-terminated fields pass up to the NUL). */
  visible?: (raw: Uint8Array) => Uint8Array;
}

/**
 * The bytes to store for `t`: `t.raw` while `t.text` still equals what they decode to, else
 * `t.text` encoded in `t.encoding`. EncodeError UNENCODABLE_TEXT for a character the code page
 * lacks (and BAD_VALUE when `t` is not a Text).
 */
export function textBytes(t: Text, site: TextSite): Uint8Array {
  if (t === null || typeof t !== 'object' || typeof t.text !== 'string' || !(t.raw instanceof Uint8Array) || typeof t.encoding !== 'string') {
    throw encodeError(site.format, 'BAD_VALUE', { path: site.path, expected: '{ text, raw, encoding }', actual: describeValue(t) });
  }
  if (decodeText(site.visible ? site.visible(t.raw) : t.raw, t.encoding) === t.text) return t.raw;
  const bytes = encodeText(t.text, t.encoding);
  if (!bytes) {
    throw encodeError(site.format, 'UNENCODABLE_TEXT', {
      path: site.path,
      actual: JSON.stringify(t.text),
      expected: `text ${canonicalEncoding(t.encoding)} can hold`,
    });
  }
  return bytes;
}

function describeValue(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

/** The WHATWG name of a code-page label (`latin1` → `windows-1252`); RangeError for a label no TextDecoder knows. */
export function canonicalEncoding(label: string): string {
  let name = canonical.get(label);
  if (name === undefined) {
    name = new TextDecoder(label).encoding;
    canonical.set(label, name);
  }
  return name;
}
const canonical = new Map<string, string>();

// The WHATWG single-byte encodings: each byte is one character, so an inverse table built from
// the decoder encodes exactly what decodes back. Multi-byte encodings decode but cannot be written.
const SINGLE_BYTE = new Set([
  'ibm866',
  'iso-8859-2',
  'iso-8859-3',
  'iso-8859-4',
  'iso-8859-5',
  'iso-8859-6',
  'iso-8859-7',
  'iso-8859-8',
  'iso-8859-8-i',
  'iso-8859-10',
  'iso-8859-13',
  'iso-8859-14',
  'iso-8859-15',
  'iso-8859-16',
  'koi8-r',
  'koi8-u',
  'macintosh',
  'windows-874',
  'windows-1250',
  'windows-1251',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'windows-1257',
  'windows-1258',
  'x-mac-cyrillic',
]);

/** True for code pages with one byte per character (windows-1252 and the WHATWG single-byte list). */
export function isSingleByte(label: string): boolean {
  const name = canonicalEncoding(label);
  return name === 'windows-1252' || SINGLE_BYTE.has(name);
}

/** True when levelkit can encode changed text in `label` (UTF-8 and the single-byte code pages). */
export function canEncode(label: string): boolean {
  const name = canonicalEncoding(label);
  return name === 'utf-8' || name === 'windows-1252' || SINGLE_BYTE.has(name);
}

/**
 * `s` in the code page `label`, or undefined when a character has no byte there (or the page is
 * multi-byte, which levelkit decodes but does not write). Decoding the result gives `s` back.
 */
export function encodeText(s: string, label: string): Uint8Array | undefined {
  const name = canonicalEncoding(label);
  if (name === 'utf-8') return LONE_SURROGATE.test(s) ? undefined : new TextEncoder().encode(s);
  if (name === 'windows-1252') return encodeWith(s, CP1252_INVERSE);
  if (!SINGLE_BYTE.has(name)) return undefined;
  let inverse = inverses.get(name);
  if (!inverse) {
    inverse = new Map();
    const d = new TextDecoder(name);
    for (let b = 0; b < 256; b++) {
      const c = d.decode(new Uint8Array([b]));
      if (c.length === 1 && c !== '\ufffd' && !inverse.has(c.charCodeAt(0))) inverse.set(c.charCodeAt(0), b);
    }
    inverses.set(name, inverse);
  }
  return encodeWith(s, inverse);
}
const inverses = new Map<string, Map<number, number>>();
// UTF-8 cannot hold a lone surrogate (TextEncoder would write U+FFFD instead).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function encodeWith(s: string, inverse: ReadonlyMap<number, number>): Uint8Array | undefined {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const b = inverse.get(s.charCodeAt(i));
    if (b === undefined) return undefined;
    out[i] = b;
  }
  return out;
}

// One decode function per label, made on first use.
const decoders = new Map<string, (bytes: Uint8Array) => string>();

/** Decodes code-page bytes; `encoding` is a WHATWG label (default `windows-1252`). */
export function decodeText(bytes: Uint8Array, encoding = 'windows-1252'): string {
  let decode = decoders.get(encoding);
  if (!decode) {
    const d = new TextDecoder(encoding);
    // QUIRK: Node 20's TextDecoder decodes every windows-1252 label (latin1, cp819, ascii, …) as
    // ISO-8859-1 (0x80 → U+0080, not €), unlike browsers and the WHATWG table; the label's
    // resolved name tells, so all its aliases decode here and every host gives the same text.
    decode = d.encoding === 'windows-1252' ? decodeWindows1252 : (b) => d.decode(b);
    decoders.set(encoding, decode);
  }
  return decode(bytes);
}

/** Bytes of a fixed-size NUL-padded field up to the first NUL (a copy). */
export function trimNul(field: Uint8Array): Uint8Array {
  const end = field.indexOf(0);
  return (end < 0 ? field : field.subarray(0, end)).slice();
}

export function decodeUtf8(b: Uint8Array): string {
  return decodeText(b, 'utf-8');
}

/** Encodes text as Windows-1252; RangeError for a character with no cp1252 byte. */
export function encodeWindows1252(s: string): Uint8Array {
  const out = encodeWith(s, CP1252_INVERSE);
  if (!out) throw new RangeError(`levelkit: ${JSON.stringify(s)} has characters Windows-1252 cannot hold`);
  return out;
}

const latin1Decoder = new TextDecoder('windows-1252');

function decodeWindows1252(bytes: Uint8Array): string {
  // Outside 0x80–0x9F Windows-1252 and Latin-1 agree, so the native decoder is right (and much
  // faster than the loop below) for text without bytes in that block: the common case.
  let c1 = false;
  for (let i = 0; i < bytes.length && !c1; i++) c1 = bytes[i]! >= 0x80 && bytes[i]! < 0xa0;
  if (!c1) return latin1Decoder.decode(bytes);
  let out = '';
  // Chunks keep String.fromCharCode's argument count bounded.
  for (let start = 0; start < bytes.length; start += 8192) {
    const chunk = Array.from(bytes.subarray(start, start + 8192), (b) => (b >= 0x80 && b < 0xa0 ? CP1252_TABLE[b - 0x80]! : b));
    out += String.fromCharCode(...chunk);
  }
  return out;
}

// The 0x80–0x9F block of Windows-1252 (WHATWG index; unmapped bytes map to C1 controls).
const CP1252_TABLE = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d,
  0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];
/** Code point → byte for all 256 bytes of Windows-1252. */
const CP1252_INVERSE = new Map<number, number>(
  Array.from({ length: 256 }, (_, b): [number, number] => [b >= 0x80 && b < 0xa0 ? CP1252_TABLE[b - 0x80]! : b, b]),
);
