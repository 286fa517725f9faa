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
 * The Texts of one level, made for the price of one string decode: a level with hundreds of
 * short fields pays one TextDecoder call, not one each (a host call costs more than such a
 * field's whole parse). Raw bytes come two ways: `of` keeps bytes the level already owns (views
 * of one copy the decoder made, e.g. of a binary file), `span` takes a view of the caller's bytes
 * and copies it at `finish()` into one buffer with every other span of the level (one allocation,
 * not one per field). `finish()` then fills in every `text`: for single-byte code pages (one char
 * per byte) one decode of the bytes they cover, cut by offsets; other pages decode field by field.
 * The Texts are plain `{ text, raw, encoding }` objects, so JSON, structuredClone and equality see
 * nothing different; the decoder calls finish() before it returns the level.
 */
export class FieldTexts {
  readonly encoding: string;
  private readonly singleByte: boolean;
  private readonly owned: Text[] = [];
  private readonly spans: Text[] = [];
  private readonly views: Uint8Array[] = [];
  private spanBytes = 0;
  // spanAt's fields: [start, end) pairs into one source, and their Texts (no view per field until
  // finish(): a 6 M-line file made 18 M short-lived views, most of its heap and GC time).
  private source: Uint8Array | undefined;
  private readonly sourceTexts: Text[] = [];
  private sourceBounds = new Int32Array(64);

  constructor(encoding: string) {
    this.encoding = canonicalEncoding(encoding);
    this.singleByte = isSingleByte(this.encoding);
  }

  /** A Text of `raw`, which the level owns (kept as given); every `of` raw must share one buffer. */
  of(raw: Uint8Array): Text {
    const t: Text = { text: '', raw, encoding: this.encoding };
    if (raw.length > 0) this.owned.push(t);
    return t;
  }

  /** A Text of `view` (the caller's bytes, never written): its raw is a copy made by finish(). */
  span(view: Uint8Array): Text {
    const t: Text = { text: '', raw: view, encoding: this.encoding };
    this.spans.push(t);
    this.views.push(view);
    this.spanBytes += view.length;
    return t;
  }

  /**
   * span() of source[start, end) without making the view: its raw is a copy made by finish().
   * Every spanAt of one FieldTexts takes the same source (the decoder's bytes).
   */
  spanAt(source: Uint8Array, start: number, end: number): Text {
    if (this.source !== undefined && this.source !== source) throw new Error('levelkit internal: FieldTexts.spanAt takes one source');
    this.source = source;
    const t: Text = { text: '', raw: NO_BYTES, encoding: this.encoding };
    const k = this.sourceTexts.length;
    if (2 * k + 2 > this.sourceBounds.length) {
      const grown = new Int32Array(2 * this.sourceBounds.length);
      grown.set(this.sourceBounds);
      this.sourceBounds = grown;
    }
    this.sourceBounds[2 * k] = start;
    this.sourceBounds[2 * k + 1] = end;
    this.sourceTexts.push(t);
    this.spanBytes += end - start;
    return t;
  }

  /** Copies the spans into one buffer the level owns, then fills in every Text's `text`. */
  finish(): void {
    const copy = new Uint8Array(this.spanBytes);
    let at = 0;
    for (let i = 0; i < this.spans.length; i++) {
      const view = this.views[i]!;
      copy.set(view, at);
      this.spans[i]!.raw = copy.subarray(at, at + view.length);
      at += view.length;
    }
    const source = this.source,
      bounds = this.sourceBounds;
    for (let i = 0; i < this.sourceTexts.length; i++) {
      const start = bounds[2 * i]!,
        n = bounds[2 * i + 1]! - start;
      // Most fields are a few bytes: a loop costs less than a view to copy from.
      if (n > 64) copy.set(source!.subarray(start, start + n), at);
      else for (let k = 0; k < n; k++) copy[at + k] = source![start + k]!;
      this.sourceTexts[i]!.raw = copy.subarray(at, at + n);
      at += n;
    }
    this.fill(this.spans.length ? this.spans.concat(this.sourceTexts) : this.sourceTexts);
    this.fill(this.owned);
    this.spans.length = 0;
    this.views.length = 0;
    this.owned.length = 0;
    this.sourceTexts.length = 0;
    this.source = undefined;
    this.spanBytes = 0;
  }

  /** Decodes the texts of `list`, whose raws are views of one buffer. */
  private fill(list: Text[]): void {
    if (list.length === 0) return;
    const buffer = list[0]!.raw.buffer;
    if (!this.singleByte || list.length === 1 || list.some((t) => t.raw.buffer !== buffer)) {
      for (const t of list) t.text = t.raw.length ? decodeText(t.raw, this.encoding) : '';
      return;
    }
    let lo = Infinity,
      hi = 0;
    for (const t of list) {
      lo = Math.min(lo, t.raw.byteOffset);
      hi = Math.max(hi, t.raw.byteOffset + t.raw.length);
    }
    const all = this.decodeMany(new Uint8Array(buffer, lo, hi - lo));
    for (const t of list) t.text = all.slice(t.raw.byteOffset - lo, t.raw.byteOffset - lo + t.raw.length);
  }

  /**
   * decodeText, with windows-1252 (the default) first decoded natively as Latin-1 and checked with
   * one native regex scan for C1 controls, where only bytes 0x80–0x9F land: without any, the two
   * pages agree; with some, just those characters are replaced by their windows-1252 ones.
   * (decodeText checks the bytes for that block in a loop and rebuilds the whole string when it
   * finds one, which was most of a binary level's text cost.)
   */
  private decodeMany(bytes: Uint8Array): string {
    if (this.encoding !== 'windows-1252') return decodeText(bytes, this.encoding);
    const s = LATIN1.decode(bytes);
    return C1.test(s) ? s.replace(C1_ALL, (c) => C1_AS_1252[c.charCodeAt(0) - 0x80]!) : s;
  }

  /** One field decoded now (sign texts, chest items: strings, not Texts). */
  decode(raw: Uint8Array): string {
    return raw.length ? decodeText(raw, this.encoding) : '';
  }
}
const NO_BYTES = new Uint8Array(0);
// Node decodes the windows-1252 label as ISO-8859-1 (core/text.ts QUIRK); browsers as
// windows-1252. Either way a text without U+0080–U+009F is the same in both pages.
const LATIN1 = new TextDecoder('latin1');
const C1 = /[\u0080-\u009f]/;
const C1_ALL = /[\u0080-\u009f]/g;
/** Bytes 0x80–0x9F as windows-1252 reads them (core decodeText's table; unmapped ones stay C1). */
const C1_AS_1252 = decodeText(
  Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i),
  'windows-1252',
);
