// What every Graal encoder checks before it writes: field types, number ranges, and the bytes of
// each Text against the record grammar of the target file. One Checker per encode; each method
// returns the checked value or throws EncodeError with the model path. See README.md § Encoders.
import { type EncodeErrorCode, encodeError, type FormatId } from '../../core/errors.js';
import { canEncode, encodeText, type Text, textBytes } from '../../core/text.js';
import { CR, LF } from './text.js';

export class Checker {
  constructor(readonly format: FormatId) {}

  /** Throws EncodeError; `actual` (when given, even as undefined) is shown as the value found. */
  fail(code: EncodeErrorCode, path: string, expected?: string | number, ...actual: unknown[]): never {
    throw encodeError(this.format, code, { path, expected, actual: actual.length ? show(actual[0]) : undefined });
  }

  /** `v` as an array (BAD_VALUE otherwise). */
  array<T>(v: readonly T[] | undefined, path: string): readonly T[] {
    if (!Array.isArray(v)) this.fail('BAD_VALUE', path, 'an array', v);
    // A hole (a deleted element) would be skipped by the writers' loops, not written.
    for (let i = 0; i < v.length; i++) if (!(i in v)) this.fail('BAD_VALUE', `${path}[${i}]`, 'an element', undefined);
    return v;
  }

  /** A level decoded with `sections: 'summary'` lacks its block bodies: writing it would lose them. */
  wholeLevel(level: { sections?: string }): void {
    if (level.sections !== undefined) this.fail('BAD_VALUE', 'sections', 'absent (a full decode)', level.sections);
  }

  /** `v` as a non-null object (BAD_VALUE otherwise). */
  object<T extends object>(v: T | undefined | null, path: string): T {
    if (v === null || typeof v !== 'object') this.fail('BAD_VALUE', path, 'an object', v);
    return v;
  }

  /** A finite number (BAD_VALUE when not a number at all, OUT_OF_RANGE for NaN and ±Infinity). */
  finite(v: number, path: string): number {
    if (typeof v !== 'number') this.fail('BAD_VALUE', path, 'a number', v);
    if (!Number.isFinite(v)) this.fail('OUT_OF_RANGE', path, 'a finite number', v);
    return v;
  }

  /** An integer in min..max; −0 too is refused where a byte holds the value (it reads back as 0). */
  int(v: number, min: number, max: number, path: string): number {
    this.finite(v, path);
    if (!Number.isInteger(v) || v < min || v > max || Object.is(v, -0)) this.fail('OUT_OF_RANGE', path, `an integer in ${min}..${max}`, v);
    return v;
  }

  /** A string (BAD_VALUE otherwise). */
  string(v: string, path: string): string {
    if (typeof v !== 'string') this.fail('BAD_VALUE', path, 'a string', v);
    return v;
  }

  /** The bytes to store for a Text (raw while unchanged; UNENCODABLE_TEXT / BAD_VALUE from core). */
  text(t: Text, path: string): Uint8Array {
    return textBytes(t, { format: this.format, path });
  }

  /** A plain string field written in the code page `encoding` (UNENCODABLE_TEXT when it cannot hold it). */
  pageBytes(s: string, encoding: string, path: string): Uint8Array {
    this.string(s, path);
    const bytes = encodeText(s, encoding);
    if (!bytes) this.fail('UNENCODABLE_TEXT', path, `text ${encoding} can hold`, s);
    return bytes;
  }

  /** A code-page name levelkit can write. */
  encoding(label: string, path: string): string {
    this.string(label, path);
    let ok = false;
    try {
      ok = canEncode(label);
    } catch {
      ok = false;
    }
    if (!ok) this.fail('BAD_VALUE', path, 'a code page levelkit can write (utf-8 or a single-byte page)', label);
    return label;
  }

  /** BAD_VALUE when `bytes` hold one of `forbidden` (a byte the record uses as a separator). */
  without(bytes: Uint8Array, forbidden: readonly number[], path: string, why: string): Uint8Array {
    const bad = bytes.find((b) => forbidden.includes(b));
    if (bad !== undefined) this.fail('BAD_VALUE', path, why, `byte 0x${bad.toString(16).padStart(2, '0')}`);
    return bytes;
  }

  /** A line of a text file: no LF, and no CR at its end where the reader strips one. */
  line(bytes: Uint8Array, path: string, stripsCr: boolean): Uint8Array {
    this.without(bytes, [LF], path, 'text without a line break');
    if (stripsCr && bytes[bytes.length - 1] === CR) this.fail('BAD_VALUE', path, 'a line not ending in CR (the reader drops it)', 'a trailing CR');
    return bytes;
  }
}

function show(v: unknown): string | number {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : v;
  if (typeof v === 'string') return JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  return Array.isArray(v) ? 'an array' : typeof v;
}
