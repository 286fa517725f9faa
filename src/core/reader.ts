// ByteReader: a bounds-checked little-endian cursor that knows its absolute offset and its
// logical path, so format code never computes offsets for error messages by hand.

import { type DecodeError, type DecodeErrorDetails, decodeError, type ErrorCode, type FormatId } from './errors.js';

/**
 * The caller's bytes as a plain Uint8Array over the same memory. A Node Buffer is a Uint8Array
 * whose slice() is a view, not a copy: a decoder that copies with slice() would hand out arrays
 * sharing the caller's memory, or write into it. Every public decode entry starts here.
 */
export function plainBytes(bytes: Uint8Array): Uint8Array {
  return Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * What decoders accept: a Uint8Array (a Buffer or any subclass too), an ArrayBuffer or another
 * ArrayBufferView (DataView, Int16Array…), each read as a plain Uint8Array view of the same bytes.
 * Anything else (a string, a number array) is a TypeError saying what is accepted.
 */
export function inputBytes(input: unknown): Uint8Array {
  if (input instanceof Uint8Array) return plainBytes(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && input instanceof SharedArrayBuffer)) return new Uint8Array(input);
  const what = input === null ? 'null' : typeof input === 'string' ? 'a string' : Array.isArray(input) ? 'an array' : typeof input;
  throw new TypeError(`levelkit: decode needs the file's bytes as a Uint8Array, Buffer, ArrayBuffer or ArrayBufferView, got ${what}`);
}

export class ByteReader {
  /** Cursor, relative to `bytes`. */
  pos = 0;
  private readonly view: DataView;
  private readonly pathStack: string[] = [];

  /**
   * @param bytes the region to read (not copied, never written)
   * @param format the format named in errors
   * @param base absolute offset of `bytes[0]` in the file, for error messages
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly format: FormatId,
    readonly base = 0,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.bytes.length;
  }
  get remaining(): number {
    return this.bytes.length - this.pos;
  }
  /** Absolute offset of the cursor in the file. */
  get offset(): number {
    return this.base + this.pos;
  }
  get path(): string {
    return this.pathStack.join('.').replace(/\.\[/g, '[');
  }

  /** Runs `fn` with `segment` pushed on the path (e.g. `planes[2]`). */
  within<T>(segment: string, fn: () => T): T {
    this.pathStack.push(segment);
    try {
      return fn();
    } finally {
      this.pathStack.pop();
    }
  }

  /** Builds a DecodeError at the cursor (or at `at`, relative to `bytes`). */
  fail(code: ErrorCode, details: Omit<DecodeErrorDetails, 'offset'> & { at?: number } = {}): DecodeError {
    const { at, ...rest } = details;
    const path = rest.path ?? this.path;
    return decodeError(this.format, code, { ...rest, path, offset: this.base + (at ?? this.pos) });
  }

  /** Throws TRUNCATED unless `n` bytes remain at the cursor. */
  need(n: number, what?: string): void {
    if (n < 0 || this.pos + n > this.bytes.length) {
      throw this.fail('TRUNCATED', { expected: `${n} bytes${what ? ` of ${what}` : ''}`, actual: `${Math.max(0, this.remaining)} left` });
    }
  }

  /** Moves the cursor to `pos` (relative to `bytes`); OUT_OF_RANGE when outside. */
  seek(pos: number, what?: string): this {
    if (!Number.isInteger(pos) || pos < 0 || pos > this.bytes.length) {
      throw this.fail('OUT_OF_RANGE', { expected: `${what ?? 'offset'} within 0..0x${this.bytes.length.toString(16)}`, actual: pos });
    }
    this.pos = pos;
    return this;
  }

  skip(n: number): this {
    this.need(n);
    this.pos += n;
    return this;
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++]!;
  }
  i8(): number {
    this.need(1);
    return this.view.getInt8(this.pos++);
  }
  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }
  i16(): number {
    this.need(2);
    const v = this.view.getInt16(this.pos, true);
    this.pos += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  i32(): number {
    this.need(4);
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }
  u16be(): number {
    this.need(2);
    const v = this.view.getUint16(this.pos, false);
    this.pos += 2;
    return v;
  }
  u32be(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, false);
    this.pos += 4;
    return v;
  }
  i32be(): number {
    this.need(4);
    const v = this.view.getInt32(this.pos, false);
    this.pos += 4;
    return v;
  }

  /** `n` bytes as a view into the input (no copy). */
  view8(n: number, what?: string): Uint8Array {
    this.need(n, what);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** `n` bytes copied out, so results never alias the caller's buffer. */
  take(n: number, what?: string): Uint8Array {
    return this.view8(n, what).slice();
  }

  /** Bytes up to (not including) the next NUL; the cursor moves past the NUL. TRUNCATED if none. */
  cstring(what?: string): Uint8Array {
    const end = this.bytes.indexOf(0, this.pos);
    if (end < 0) throw this.fail('TRUNCATED', { expected: `NUL-terminated ${what ?? 'string'}` });
    const out = this.bytes.slice(this.pos, end);
    this.pos = end + 1;
    return out;
  }

  /** Reads a count and checks it against `max` and against the bytes left (`minBytesEach` per entry). */
  count(value: number, max: number, minBytesEach: number, what: string): number {
    if (!Number.isInteger(value) || value < 0 || value > max) {
      throw this.fail('LIMIT_EXCEEDED', { expected: `${what} ≤ ${max}`, actual: value });
    }
    if (value * minBytesEach > this.remaining) {
      throw this.fail('TRUNCATED', { expected: `${value} ${what} (${value * minBytesEach} bytes)`, actual: `${this.remaining} left` });
    }
    return value;
  }
}

/** Growable little-endian byte writer for encoders. */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  pos = 0;

  constructor(initialCapacity = 4096) {
    this.buf = new Uint8Array(Math.max(16, initialCapacity));
    this.view = new DataView(this.buf.buffer);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.pos + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.pos++] = v;
    return this;
  }
  u16(v: number): this {
    this.ensure(2);
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
    return this;
  }
  i16(v: number): this {
    this.ensure(2);
    this.view.setInt16(this.pos, v, true);
    this.pos += 2;
    return this;
  }
  u32(v: number): this {
    this.ensure(4);
    this.view.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
    return this;
  }
  i32(v: number): this {
    this.ensure(4);
    this.view.setInt32(this.pos, v | 0, true);
    this.pos += 4;
    return this;
  }
  i32be(v: number): this {
    this.ensure(4);
    this.view.setInt32(this.pos, v | 0, false);
    this.pos += 4;
    return this;
  }
  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }
  /** `b` padded with NULs (or cut) to exactly `n` bytes. */
  fixed(b: Uint8Array, n: number): this {
    this.ensure(n);
    this.buf.fill(0, this.pos, this.pos + n);
    this.buf.set(b.subarray(0, n), this.pos);
    this.pos += n;
    return this;
  }
  zeros(n: number): this {
    this.ensure(n);
    this.buf.fill(0, this.pos, this.pos + n);
    this.pos += n;
    return this;
  }
  /** Overwrites 4 bytes at `at` (for offsets known only later). */
  patchU32(at: number, v: number): this {
    this.view.setUint32(at, v >>> 0, true);
    return this;
  }
  /** The bytes written so far (a copy sized exactly). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
