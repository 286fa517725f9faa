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

// Byte → the one character its glyph reads as, or '' when the byte needs the rules below (an
// escape, a two-code half, the lone `#`, a byte outside the font).
const PLAIN: string[] = Array.from({ length: 256 }, (_, b) => (b >= 32 && b - 32 < GLYPHS.length && GLYPHS[b - 32]!.length === 1 ? GLYPHS[b - 32]! : ''));

/** Sign bytes (without the two coordinate bytes) → text with `#` escapes. */
export function decodeSign(codes: Uint8Array): string {
  // One table lookup and one append per byte: V8 builds the string as a rope (measured several
  // times faster on the corpus signs than collecting parts and joining them).
  let out = '';
  let loneHash = false; // a lone `#` glyph whose spelling waits for what follows it
  for (let i = 0; i < codes.length; i++) {
    const b = codes[i]!;
    let part = PLAIN[b]!;
    if (part === '') {
      const g = b - 32,
        next = (codes[i + 1] ?? 0) - 32;
      if (g < 0 || g > 96) part = raw(b);
      else if (g === 74 || g === 87) {
        // Two-code symbols (head, and the #4 glyph) decode only as a pair.
        if (next === g + 1) {
          part = g === 74 ? '#h' : '#4';
          i++;
        } else part = raw(b);
      } else if (g === 75 || g === 88) part = raw(b);
      else if (g === LONE_HASH) {
        if (next === LONE_HASH) {
          part = '##';
          i++;
        } else part = '#';
      } else part = GLYPHS[g]!;
    }
    // A lone `#` glyph followed by text that starts with an escape letter would read back as
    // that escape: such a glyph is kept as its raw byte instead.
    if (loneHash) out += ESCAPES.has(part[0]!) ? raw(LONE_HASH + 32) : '#';
    loneHash = part === '#';
    if (!loneHash) out += part;
  }
  return loneHash ? `${out}#` : out;
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
