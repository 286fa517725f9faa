// Line and token helpers shared by the Graal codecs: byte lines with CR stripped, and
// Windows-1252 text that never throws on encode (the default code page is byte-for-byte lossless).
import { decodeText, encodeWindows1252 } from '../../core/text.js';

export const LF = 0x0a;
export const CR = 0x0d;

/** Text → Windows-1252 bytes; characters with no byte become '?'. */
export function textBytes(s: string): Uint8Array {
  try {
    return encodeWindows1252(s);
  } catch {
    return encodeWindows1252(Array.from(s, (c) => { try { encodeWindows1252(c); return c; } catch { return '?'; } }).join(''));
  }
}

/** Longest keyword the codecs compare a token with (`TILESETIMAGE` is 12); longer tokens are no keyword. */
export const MAX_KEYWORD = 16;

/**
 * `bytes` as Windows-1252 text, for headers and keywords (ASCII in every valid file). Any length
 * is safe: spreading the bytes into String.fromCharCode overflowed the stack from ~120 KB on.
 */
export function ascii(bytes: Uint8Array): string {
  return decodeText(bytes, 'windows-1252');
}

/** Splits on single spaces; `minTrailing` tokens are taken from the end and the rest re-joined (names with spaces). */
export function splitTrailing(text: string, minTrailing: number): { head: string; tail: string[] } | undefined {
  const t = text.split(' ');
  if (t.length < minTrailing + 1) return undefined;
  return { head: t.slice(0, t.length - minTrailing).join(' '), tail: t.slice(t.length - minTrailing) };
}

/** A finite number from a token, or undefined. */
export function num(token: string | undefined): number | undefined {
  if (token === undefined || token.trim() === '') return undefined;
  const v = Number(token);
  return Number.isFinite(v) ? v : undefined;
}

