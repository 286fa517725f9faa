// The two error types every codec throws (DecodeError, EncodeError), the warning type for
// tolerated faults, and the one place both kinds of error are built. Messages come from the
// fields in a fixed order (format, path, offset, detail) so a bulk scan can count `code` values
// and a person can still read the message.

/** Stable decode error codes: the CLI and bulk scans count these, so never rename one. */
export type ErrorCode =
  | 'TRUNCATED' // the input ended before a structure did
  | 'BAD_MAGIC' // the signature is not the format's
  | 'UNSUPPORTED_VERSION' // a version this decoder does not know
  | 'OUT_OF_RANGE' // an offset or size points outside the input
  | 'BAD_INDEX' // a reference to an item that does not exist
  | 'CORRUPT' // a value no writer produces (unknown record type, inconsistent sizes)
  | 'CORRUPT_COMPRESSED' // the zlib stream is damaged or inflates to the wrong size
  | 'LIMIT_EXCEEDED' // a declared size is larger than the configured limit
  | 'STRICT'; // a recoverable fault, raised as an error because `strict` was set

/** Stable encode error codes. */
export type EncodeErrorCode =
  | 'OUT_OF_RANGE' // a number outside its field's range (or not a finite integer where one is needed)
  | 'BAD_LENGTH' // an array or column whose length disagrees with the count or size that governs it
  | 'BAD_VALUE' // a value of the wrong type, a missing field, or text the format's grammar cannot frame
  | 'UNENCODABLE_TEXT' // a character the field's code page cannot hold
  | 'LIMIT_EXCEEDED'; // more records, bytes or cells than the format can store

/** Format ids: the strings used in results, errors, CLI output and file names. Only formats that exist. */
export type FormatId = 'wwd' | 'teeworlds' | 'graal' | 'graal-nw' | 'graal-gmap' | 'gwc' | 'gwz' | 'wdata';

/** The format named in an error: `unknown` when detection found none, `png` for an image the previews read (src/render/png-decode.ts). */
export type ErrorFormat = FormatId | 'unknown' | 'png' | 'bmp';

export interface DecodeErrorDetails {
  /**
   * Absolute byte offset into the input the caller passed (or into the inflated block, as `path`
   * says). Absent when the fault has no single place (never a placeholder 0).
   */
  offset?: number | undefined;
  /** Logical location, e.g. `planes[1].objects[12].name`. */
  path?: string | undefined;
  expected?: string | number | undefined;
  actual?: string | number | undefined;
  /** Free text appended to the message. */
  detail?: string | undefined;
  /** For `STRICT`: the code of the warning that strict mode turned into this error. */
  warning?: string | undefined;
}

/** A JSON-friendly view of an error, as the CLI and scans print it. */
export interface ErrorRecord {
  code: string;
  offset: number | null;
  path: string;
  message: string;
}

export class DecodeError extends Error {
  readonly code: ErrorCode;
  readonly format: ErrorFormat;
  readonly offset: number | undefined;
  readonly path: string;
  readonly expected?: string | number;
  readonly actual?: string | number;
  /** For `STRICT`: the warning code strict mode refused (e.g. `TRAILING_BYTES`). */
  readonly warning?: string;

  constructor(format: ErrorFormat, code: ErrorCode, details: DecodeErrorDetails = {}) {
    super(formatMessage(format, describeDecode(code), details));
    this.name = 'DecodeError';
    this.code = code;
    this.format = format;
    this.offset = knownOffset(details.offset);
    this.path = clipped(details.path ?? '');
    if (details.expected !== undefined) this.expected = details.expected;
    if (details.actual !== undefined) this.actual = details.actual;
    if (details.warning !== undefined) this.warning = details.warning;
  }

  toJSON(): ErrorRecord {
    return { code: this.code, offset: this.offset ?? null, path: this.path, message: this.message };
  }
}

export interface EncodeErrorDetails {
  /** Where in the model, e.g. `planes[0].objects.x` or `links[3].level`. */
  path: string;
  expected?: string | number | undefined;
  actual?: string | number | undefined;
  detail?: string | undefined;
}

/** Thrown by every encoder before it writes a byte, when the model cannot be written so that it reads back the same. */
export class EncodeError extends Error {
  readonly code: EncodeErrorCode;
  readonly format: FormatId;
  readonly path: string;
  readonly expected?: string | number;
  readonly actual?: string | number;

  constructor(format: FormatId, code: EncodeErrorCode, details: EncodeErrorDetails) {
    super(formatMessage(format, describeEncode(code), details));
    this.name = 'EncodeError';
    this.code = code;
    this.format = format;
    this.path = clipped(details.path);
    if (details.expected !== undefined) this.expected = details.expected;
    if (details.actual !== undefined) this.actual = details.actual;
  }

  toJSON(): ErrorRecord {
    return { code: this.code, offset: null, path: this.path, message: this.message };
  }
}

/** The one builder of decode errors (ByteReader.fail and the kernels' status mapping go through it). */
export function decodeError(format: ErrorFormat, code: ErrorCode, details: DecodeErrorDetails = {}): DecodeError {
  return new DecodeError(format, code, details);
}

/** The one builder of encode errors. */
export function encodeError(format: FormatId, code: EncodeErrorCode, details: EncodeErrorDetails): EncodeError {
  return new EncodeError(format, code, details);
}

function formatMessage(
  format: string,
  what: string,
  d: { path?: string | undefined; offset?: number | undefined; expected?: unknown; actual?: unknown; detail?: string | undefined },
): string {
  const offset = knownOffset(d.offset);
  let msg = `${format}: ${d.path ? `${clipped(d.path)} ` : ''}${offset !== undefined ? `at 0x${offset.toString(16)}: ` : ''}${what}`;
  if (d.expected !== undefined) msg += `, expected ${shown(d.expected)}`;
  if (d.actual !== undefined) msg += `, found ${shown(d.actual)}`;
  if (d.detail) msg += ` (${clipped(d.detail)})`;
  return msg;
}

/**
 * An offset a message can show: a whole number ≥ 0, else undefined. A NaN or infinite offset is
 * a bug in the code computing it from the file (`0xNaN` said nothing to anyone); the error still
 * carries its code and path, and the message simply has no place.
 */
function knownOffset(offset: number | undefined): number | undefined {
  return offset !== undefined && Number.isSafeInteger(offset) && offset >= 0 ? offset : undefined;
}

/** A value for a message; numbers that are not finite are said in words, never as `NaN`. */
function shown(v: unknown): string {
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? '(a value that is not a number)' : v > 0 ? '(too large)' : '(too small)';
  return clipped(String(v));
}

/** Longest part of a message or warning taken from a file (a quoted line, a name), in UTF-16 units. */
export const MAX_MESSAGE_PART = 1024;

/**
 * `s`, cut to MAX_MESSAGE_PART units with `…` at the end when longer: a message quotes what it
 * found, and what it found can be a whole 100 MB line, which one scan record must not carry.
 */
export function clipped(s: string): string {
  if (s.length <= MAX_MESSAGE_PART) return s;
  let end = MAX_MESSAGE_PART - 1;
  const unit = s.charCodeAt(end - 1);
  if (unit >= 0xd800 && unit <= 0xdbff) end--; // never half a surrogate pair
  return `${s.slice(0, end)}…`;
}

function describeDecode(code: ErrorCode): string {
  switch (code) {
    case 'TRUNCATED':
      return 'input ends too early';
    case 'BAD_MAGIC':
      return 'not this format (bad signature)';
    case 'UNSUPPORTED_VERSION':
      return 'unsupported version';
    case 'OUT_OF_RANGE':
      return 'offset or size outside the input';
    case 'BAD_INDEX':
      return 'reference to a missing item';
    case 'CORRUPT':
      return 'corrupt data';
    case 'CORRUPT_COMPRESSED':
      return 'corrupt compressed data';
    case 'LIMIT_EXCEEDED':
      return 'declared size exceeds the configured limit';
    case 'STRICT':
      return 'tolerated fault rejected in strict mode';
  }
}

function describeEncode(code: EncodeErrorCode): string {
  switch (code) {
    case 'OUT_OF_RANGE':
      return "value outside the field's range";
    case 'BAD_LENGTH':
      return 'length disagrees with the count or size that governs it';
    case 'BAD_VALUE':
      return 'value cannot be written so that it reads back the same';
    case 'UNENCODABLE_TEXT':
      return "text the field's code page cannot hold";
    case 'LIMIT_EXCEEDED':
      return 'more than the format can store';
  }
}

/** A recoverable fault found in a real file; decoding went on. `C` is the format's warning-code union. */
export interface DecodeWarning<C extends string = string> {
  /** Stable code from the format's own list, e.g. `TRAILING_BYTES`, `CHECKSUM_MISMATCH`. */
  code: C;
  message: string;
  /** Absolute byte offset, when the fault has one place. */
  offset?: number;
  path?: string;
}

/**
 * Collects warnings for one decode; with `strict` it throws DecodeError `STRICT` carrying the
 * warning's own code. Formats create one per decode and hand its `list` to the result.
 */
export class WarningSink<C extends string = string> {
  readonly list: DecodeWarning<C>[] = [];
  constructor(
    private readonly format: FormatId,
    private readonly strict: boolean,
  ) {}

  /** `offset`: the absolute byte offset of the fault, or undefined when it has none. */
  warn(code: C, message: string, offset: number | undefined, path?: string): void {
    if (this.strict) {
      throw decodeError(this.format, 'STRICT', { offset, path, detail: `${code}: ${message}`, warning: code });
    }
    const w: DecodeWarning<C> = { code, message: clipped(message) };
    if (offset !== undefined) w.offset = offset;
    if (path) w.path = clipped(path);
    this.list.push(w);
  }
}
