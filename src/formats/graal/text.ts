// Line and token helpers shared by the Graal codecs. Lines are parsed as "byte strings" (one
// char per byte, U+0000–U+00FF) so every field's stored bytes can be cut out exactly and kept as
// a Text in the caller's code page; with the default Windows-1252 the parse is the same as on
// decoded text (no byte 0x80–0x9F decodes to whitespace or to a separator).
import { canonicalEncoding, decodeText, isSingleByte, makeText, type Text } from '../../core/text.js';

export const LF = 0x0a;
export const CR = 0x0d;
export const SPACE = 0x20;

/** Longest keyword the codecs compare a token with (`TILESETIMAGE` is 12); longer tokens are no keyword. */
export const MAX_KEYWORD = 16;

/**
 * One char per byte. Widened to UTF-16 and decoded natively: no code unit is a surrogate, so the
 * decoder maps each one to itself (a `latin1` TextDecoder would not do: it is Windows-1252).
 */
export function byteString(bytes: Uint8Array): string {
  if (bytes.length < 64) {
    // Short strings (most tokens and lines) go through fromCharCode.apply: a char loop made Graal
    // decodes ~5 % slower and a spread ~5× slower per call. apply takes any array-like (ES5.1),
    // but lib.d.ts types its argument as an array: the widening to ArrayLike<number> is checked,
    // only the step to number[] is asserted.
    const codes: ArrayLike<number> = bytes;
    return String.fromCharCode.apply(null, codes as number[]);
  }
  const wide = new Uint16Array(bytes.length);
  wide.set(bytes);
  return UTF16.decode(wide);
}
const UTF16 = new TextDecoder('utf-16le');

/** The bytes of a byte string (inverse of byteString). */
export function stringBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** The Text of a byte-string field: its bytes kept as stored, decoded with `encoding`. */
export function fieldText(field: string, encoding: string): Text {
  return makeText(stringBytes(field), encoding);
}

/** Headers and keywords: ASCII in every valid file, so the byte string is the text. */
export const ascii = byteString;

/** Splits on single spaces; `minTrailing` tokens are taken from the end and the rest re-joined (names with spaces). */
export function splitTrailing(text: string, minTrailing: number): { head: string; tail: string[] } | undefined {
  // The same as splitting on every space and re-joining the head, found from the end: NPC lines
  // carry long image names and the head needs no split at all.
  const tail: string[] = [];
  let end = text.length;
  for (let k = 0; k < minTrailing; k++) {
    const space = end > 0 ? text.lastIndexOf(' ', end - 1) : -1;
    if (space < 0) return undefined;
    tail.push(text.slice(space + 1, end));
    end = space;
  }
  return { head: text.slice(0, end), tail: tail.reverse() };
}

/** A finite number from a token, or undefined. */
export function num(token: string | undefined): number | undefined {
  if (token === undefined || token.trim() === '') return undefined;
  const v = Number(token);
  return Number.isFinite(v) ? v : undefined;
}

/**
 * num() of the token bytes[start, end): plain decimal integers (what nearly every record holds)
 * are read from the bytes; anything else goes through num() on its byte string, so both agree.
 */
export function numAt(bytes: Uint8Array, start: number, end: number): number | undefined {
  const neg = bytes[start] === 0x2d;
  let p = neg ? start + 1 : start;
  if (p < end && end - p <= 9) {
    let v = 0;
    for (; p < end; p++) {
      const d = bytes[p]! - 0x30;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (p === end) return neg ? -v : v;
  }
  return num(byteString(bytes.subarray(start, end)));
}

/** How numbers are written in text records: what `num` reads back as the same number (−0 included). */
export function numText(v: number): string {
  return Object.is(v, -0) ? '-0' : String(v);
}

/**
 * The Texts of one level. The code page is resolved once per level, and short ASCII fields (most
 * link names, images, verses) of a single-byte page are decoded without a TextDecoder call: every
 * WHATWG single-byte page is ASCII below 0x80, and a host call costs more than such a field's
 * whole parse. Raw bytes come two ways: `of` keeps bytes the level already owns (views of one copy
 * the decoder made), `span` takes a view of the caller's bytes and copies it at `finish()` into
 * one buffer with every other span of the level (one allocation, not one per field).
 */
export class FieldTexts {
  readonly encoding: string;
  private readonly singleByte: boolean;
  private readonly pending: Text[] = [];
  private readonly views: Uint8Array[] = [];
  private size = 0;

  constructor(encoding: string) {
    this.encoding = canonicalEncoding(encoding);
    this.singleByte = isSingleByte(this.encoding);
  }

  /** A Text of `raw`, which the level owns (kept as given). */
  of(raw: Uint8Array): Text {
    return { text: this.decode(raw), raw, encoding: this.encoding };
  }

  /** A Text of `view` (the caller's bytes, never written): its raw is a copy made by finish(). */
  span(view: Uint8Array): Text {
    const t: Text = { text: this.decode(view), raw: view, encoding: this.encoding };
    this.pending.push(t);
    this.views.push(view);
    this.size += view.length;
    return t;
  }

  /** Copies every span's bytes into one buffer the level owns; each raw becomes a view of it. */
  finish(): void {
    const owned = new Uint8Array(this.size);
    for (let i = 0, at = 0; i < this.pending.length; i++) {
      const view = this.views[i]!;
      owned.set(view, at);
      this.pending[i]!.raw = owned.subarray(at, at + view.length);
      at += view.length;
    }
    this.pending.length = 0;
    this.views.length = 0;
    this.size = 0;
  }

  decode(raw: Uint8Array): string {
    const n = raw.length;
    if (n === 0) return '';
    if (this.singleByte && n < 64) {
      let high = 0;
      for (let i = 0; i < n; i++) high |= raw[i]!;
      if (high < 0x80) {
        let s = '';
        for (let i = 0; i < n; i++) s += ASCII[raw[i]!]!;
        return s;
      }
    }
    return decodeText(raw, this.encoding);
  }
}
const ASCII = Array.from({ length: 128 }, (_, b) => String.fromCharCode(b));
