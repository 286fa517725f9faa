// The one error type every decoder throws, and the warning type for tolerated faults.
// Messages are built from the fields in a fixed order (format, path, offset, detail) so a
// bulk scan can count `code` values and a person can still read the message.

/** Stable error codes: the CLI and bulk scans count these, so never rename one. */
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

/** Format ids: the strings used in results, errors, CLI output and file names. */
export type FormatId = 'wwd' | 'teeworlds' | 'graal' | 'graal-nw' | 'graal-gmap' | 'gwc' | 'wdata';

/** The format named in an error: `unknown` when detection found none. */
export type ErrorFormat = FormatId | 'unknown';

export interface DecodeErrorDetails {
  /** Absolute byte offset into the input the caller passed (or into the inflated block, see `path`). */
  offset: number;
  /** Logical location, e.g. `planes[1].objects[12].name`. */
  path?: string;
  expected?: string | number;
  actual?: string | number;
  /** Free text appended to the message. */
  detail?: string;
}

export class DecodeError extends Error {
  readonly code: ErrorCode;
  readonly format: ErrorFormat;
  readonly offset: number;
  readonly path: string;
  readonly expected?: string | number;
  readonly actual?: string | number;

  constructor(format: ErrorFormat, code: ErrorCode, details: DecodeErrorDetails) {
    super(formatMessage(format, code, details));
    this.name = 'DecodeError';
    this.code = code;
    this.format = format;
    this.offset = details.offset;
    this.path = details.path ?? '';
    if (details.expected !== undefined) this.expected = details.expected;
    if (details.actual !== undefined) this.actual = details.actual;
  }

  /** A plain object for JSON output (CLI, scan reports). */
  toJSON(): { code: ErrorCode; offset: number; path: string; message: string } {
    return { code: this.code, offset: this.offset, path: this.path, message: this.message };
  }
}

function formatMessage(format: ErrorFormat, code: ErrorCode, d: DecodeErrorDetails): string {
  let msg = `${format}: ${d.path ? d.path + ' ' : ''}at 0x${d.offset.toString(16)}: ${describe(code)}`;
  if (d.expected !== undefined) msg += `, expected ${d.expected}`;
  if (d.actual !== undefined) msg += `, found ${d.actual}`;
  if (d.detail) msg += ` (${d.detail})`;
  return msg;
}

function describe(code: ErrorCode): string {
  switch (code) {
    case 'TRUNCATED': return 'input ends too early';
    case 'BAD_MAGIC': return 'not this format (bad signature)';
    case 'UNSUPPORTED_VERSION': return 'unsupported version';
    case 'OUT_OF_RANGE': return 'offset or size outside the input';
    case 'BAD_INDEX': return 'reference to a missing item';
    case 'CORRUPT': return 'corrupt data';
    case 'CORRUPT_COMPRESSED': return 'corrupt compressed data';
    case 'LIMIT_EXCEEDED': return 'declared size exceeds the configured limit';
    case 'STRICT': return 'tolerated fault rejected in strict mode';
  }
}

/** A recoverable fault found in a real file; decoding went on. */
export interface DecodeWarning {
  /** Short stable code, e.g. `TRAILING_BYTES`, `CHECKSUM_MISMATCH`. */
  code: string;
  message: string;
  offset: number;
  path?: string;
}

/**
 * Collects warnings for one decode; with `strict` it throws instead.
 * Formats create one per decode and hand its `list` to the result.
 */
export class WarningSink {
  readonly list: DecodeWarning[] = [];
  constructor(private readonly format: FormatId, private readonly strict: boolean) {}

  warn(code: string, message: string, offset: number, path?: string): void {
    if (this.strict) {
      throw new DecodeError(this.format, 'STRICT', { offset, path, detail: `${code}: ${message}` });
    }
    const w: DecodeWarning = { code, message, offset };
    if (path) w.path = path;
    this.list.push(w);
  }
}
