// File names as bytes. Linux allows any byte but '/' and NUL in a name, so paths travel as
// Buffers from readdir to open and are turned into text only for printing.

/** A path as bytes; a string (argv, tests) is taken as UTF-8. */
export function pathBytes(p: string | Buffer): Buffer {
  return typeof p === 'string' ? Buffer.from(p, 'utf8') : p;
}

/** `dir/name` without going through a string, so no byte of either is changed. */
export function joinBytes(dir: Buffer, name: Buffer): Buffer {
  return dir.length && dir[dir.length - 1] === 0x2f ? Buffer.concat([dir, name]) : Buffer.concat([dir, Buffer.from('/'), name]);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The name as text when it is valid UTF-8, else undefined. */
export function utf8Name(p: Buffer): string | undefined {
  try {
    return strictUtf8.decode(p);
  } catch {
    return undefined;
  }
}

/** The name for people: valid UTF-8 as is, each byte of an invalid sequence as `\xNN`. */
export function displayName(p: Buffer): string {
  let out = '';
  let i = 0;
  while (i < p.length) {
    const len = sequenceLength(p, i);
    if (len === 0) {
      out += hexEscape(p[i]!);
      i++;
      continue;
    }
    out += p.toString('utf8', i, i + len);
    i += len;
  }
  return out;
}

/**
 * Characters a terminal acts on rather than shows, beyond the C0 controls: C1 controls (U+0080–U+009F;
 * many terminals read U+009B as CSI and U+009D as OSC, so a name could move the cursor or set the
 * title), the line and paragraph separators, and the bidi marks, embeddings, overrides and isolates
 * that reorder what follows them ("Trojan Source"), so a name could show as another name.
 */
export const TERMINAL_UNSAFE = '\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069';

const UNPRINTABLE = new RegExp(`[\\x00-\\x1f\\x7f${TERMINAL_UNSAFE}]`, 'g');

/**
 * Text for a terminal: C0 controls and DEL as `\xNN` (so a name holding a newline cannot break
 * line-based output), the other TERMINAL_UNSAFE characters as `\uNNNN` (unlike displayName's
 * `\xNN` for a byte that is not UTF-8: these are valid characters).
 */
export function printable(s: string): string {
  return s.replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x80 ? hexEscape(code) : unicodeEscape(code);
  });
}

/** `\u009b`: how JSON writes a character too, so the same escape reads back in either. */
export function unicodeEscape(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

function hexEscape(b: number): string {
  return `\\x${b.toString(16).padStart(2, '0')}`;
}

/** Length of the valid UTF-8 sequence starting at i, or 0 when the byte there starts none. */
function sequenceLength(p: Buffer, i: number): number {
  const b = p[i]!;
  if (b < 0x80) return 1;
  const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (len === 0 || i + len > p.length) return 0;
  return utf8Name(p.subarray(i, i + len)) === undefined ? 0 : len;
}

/**
 * How a record names its file: `file` is always text (escaped when needed), and `fileBytes`
 * (base64 of the exact bytes) is added only when the name is not valid UTF-8, so JSON readers
 * can still open the file.
 */
export function fileFields(p: Buffer): { file: string; fileBytes?: string } {
  const text = utf8Name(p);
  return text !== undefined ? { file: text } : { file: displayName(p), fileBytes: p.toString('base64') };
}

/** The lower-case extension of the last path segment, with its dot ('' when none). Extensions are ASCII, so latin1 is exact here. */
export function extOf(p: Buffer): string {
  return extOfLatin1(p.toString('latin1'));
}

/** extOf of a path already held as a latin1 string (a scan item's path: one character per byte). */
export function extOfLatin1(s: string): string {
  const base = s.slice(s.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}
