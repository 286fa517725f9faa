// Sign text of binary Graal levels: each byte b is glyph b − 32 of the 97-entry sign font.
// Glyphs with no character become `#` escapes (the .nw spelling), so binary and text levels
// share one `text`. See README.md § "Signs" for the table and the escape rules.

// Glyph index → text; '' marks the halves of two-code symbols and the lone-`#` glyph (86),
// which decodeSign() handles itself.
const GLYPHS: readonly string[] = [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!?-.,',
  '#.',
  '>',
  '(',
  ')',
  '#x',
  '#y',
  '#z',
  '',
  '',
  '"',
  '#u',
  '#d',
  '#l',
  '#r',
  "'",
  ':',
  '/',
  '~',
  '&',
  '',
  '',
  '',
  ' ',
  '<',
  '#A',
  '#B',
  '#X',
  '#Y',
  ';',
  '\n',
];

/** Letters that follow `#` in an escape, and the glyph indices each stands for. */
const ESCAPES: ReadonlyMap<string, readonly number[]> = new Map<string, number[]>([
  ['A', [91]],
  ['B', [92]],
  ['X', [93]],
  ['Y', [94]],
  ['u', [77]],
  ['d', [78]],
  ['l', [79]],
  ['r', [80]],
  ['x', [71]],
  ['y', [72]],
  ['z', [73]],
  ['.', [67]],
  ['h', [74, 75]],
  ['#', [86, 86]],
  ['4', [87, 88]],
]);
const LONE_HASH = 86;
/** Code points U+E000..U+E0FF stand for sign bytes no glyph rule explains (kept, distinguishable). */
const RAW_BASE = 0xe000;

const CHAR_TO_GLYPH = new Map<string, number>();
GLYPHS.forEach((t, i) => {
  if (t.length === 1) CHAR_TO_GLYPH.set(t, i);
});

const raw = (b: number) => String.fromCharCode(RAW_BASE + b);

// Byte → the one UTF-16 unit its glyph reads as, or 0 when the byte needs the rules below (an
// escape, a two-code half, the lone `#`, a byte outside the font).
const PLAIN = new Uint16Array(256);
GLYPHS.forEach((t, g) => {
  if (t.length === 1) PLAIN[g + 32] = t.charCodeAt(0);
});

/** Sign bytes (without the two coordinate bytes) → text with `#` escapes. */
export function decodeSign(codes: Uint8Array): string {
  // Most signs are plain letters: one table lookup per byte, one string, no parts.
  if (codes.length <= 256) {
    const units = new Uint16Array(codes.length);
    let i = 0;
    for (; i < codes.length; i++) {
      const u = PLAIN[codes[i]!]!;
      if (u === 0) break;
      units[i] = u;
    }
    if (i === codes.length) return String.fromCharCode.apply(null, units as unknown as number[]);
  }
  const parts: string[] = [];
  for (let i = 0; i < codes.length; i++) {
    const b = codes[i]!,
      g = b - 32,
      next = (codes[i + 1] ?? 0) - 32;
    if (g < 0 || g > 96) parts.push(raw(b));
    else if (g === 74 || g === 87) {
      // Two-code symbols (head, and the #4 glyph) decode only as a pair.
      if (next === g + 1) {
        parts.push(g === 74 ? '#h' : '#4');
        i++;
      } else parts.push(raw(b));
    } else if (g === 75 || g === 88) parts.push(raw(b));
    else if (g === LONE_HASH) {
      if (next === LONE_HASH) {
        parts.push('##');
        i++;
      } else parts.push('#');
    } else parts.push(GLYPHS[g]!);
  }
  // A lone `#` glyph followed by text that starts with an escape letter would read back as that
  // escape: keep such a glyph as its raw byte instead.
  for (let i = 0; i + 1 < parts.length; i++) {
    if (parts[i] === '#' && ESCAPES.has(parts[i + 1]![0]!)) parts[i] = raw(LONE_HASH + 32);
  }
  return parts.join('');
}

/**
 * Text → sign bytes. `#` + an escape letter gives its glyph(s), any other `#` the lone-`#` glyph;
 * a character the font lacks is written `#K(<code>)` (as Graal's own editor does);
 * U+E000 + b gives byte b back, except 0x0A, which would end the line and is dropped.
 */
export function encodeSign(text: string): Uint8Array {
  const out: number[] = [];
  const glyph = (g: number) => out.push(g + 32);
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const code = c.charCodeAt(0);
    if (c === '#') {
      const esc = ESCAPES.get(text[i + 1] ?? '');
      if (esc) {
        esc.forEach(glyph);
        i++;
      } else glyph(LONE_HASH);
    } else if (code >= RAW_BASE && code < RAW_BASE + 256) {
      if (code - RAW_BASE !== 0x0a) out.push(code - RAW_BASE);
    } else {
      const g = CHAR_TO_GLYPH.get(c);
      if (g !== undefined) glyph(g);
      else for (const k of `#K(${code})`) glyph(k === '#' ? LONE_HASH : CHAR_TO_GLYPH.get(k)!);
    }
  }
  return Uint8Array.from(out);
}

/** The first character of `text` the sign font cannot hold (encodeSign would spell it `#K(n)`), or undefined. */
export function unencodableSignChar(text: string): string | undefined {
  for (const c of text) {
    const code = c.charCodeAt(0);
    if (c !== '#' && !(code >= RAW_BASE && code < RAW_BASE + 256 && c.length === 1) && !CHAR_TO_GLYPH.has(c)) return c;
  }
  return undefined;
}
