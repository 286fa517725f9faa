// Text fields of old games are code-page bytes. We keep the raw bytes and decode them with
// Windows-1252 by default (any TextDecoder label by option); encoders write the raw bytes back.

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

export function decodeUtf8(b: Uint8Array): string { return decodeText(b, 'utf-8'); }

/**
 * Encodes text as Windows-1252 (Latin-1 for code points the cp1252 table maps to themselves).
 * Characters with no cp1252 byte throw: callers that round-trip keep the raw bytes instead.
 */
export function encodeWindows1252(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const b = c < 0x80 || (c >= 0xa0 && c <= 0xff) ? c : CP1252_HIGH.get(c);
    if (b === undefined) throw new RangeError(`character U+${c.toString(16)} has no Windows-1252 byte`);
    out[i] = b;
  }
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
const CP1252_TABLE = [0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
    0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178];
/** Code point → byte for that block. */
const CP1252_HIGH = new Map<number, number>(CP1252_TABLE.map((cp, i) => [cp, 0x80 + i]));
