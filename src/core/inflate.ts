// One zlib interface for every format. Under Node the native zlib binding is used (several
// times faster than any JS or WASM inflater, see ../shared/docs/PERFORMANCE.md §1); in browsers,
// and on request, pako. The caller always passes the size it expects: the output buffer is sized
// from it, it is checked against `maxInflatedBytes` first, and the stream must produce exactly it.

import { Inflate, deflate as pakoDeflate } from 'pako';
import type { DecodeContext } from './context.js';
import { DecodeError, type FormatId } from './errors.js';
import { nodeBuiltin } from './host.js';
import type { InflaterChoice, Limits } from './limits.js';
import type { BlockSource } from './prefetch.js';

interface NodeZlib {
  inflateSync(buf: Uint8Array, opts: object): { buffer: Uint8Array; engine: { bytesWritten: number } };
  deflateSync(buf: Uint8Array, opts: object): Uint8Array;
}

// Reached without a static import (core/host.ts), so the same bundle runs in browsers (where it
// is absent) and picks the native path under Node.
let nativeZlib: NodeZlib | null | undefined;
function native(): NodeZlib | null {
  if (nativeZlib === undefined) nativeZlib = nodeBuiltin<NodeZlib>('node:zlib');
  return nativeZlib;
}

/** True when the native (node:zlib) inflater can be used in this environment. */
export function hasNativeZlib(): boolean {
  return native() !== null;
}

export interface InflateResult {
  /** Exactly `expectedSize` bytes, owned by the caller. */
  bytes: Uint8Array;
  /** Input bytes the zlib stream used; anything after it is the caller's to judge. */
  consumed: number;
}

export interface InflateSite {
  format: FormatId;
  /** Absolute offset of `src[0]` in the file. */
  offset: number;
  path: string;
}

/**
 * Inflates a zlib (RFC 1950) stream that must produce exactly `expectedSize` bytes.
 * Throws LIMIT_EXCEEDED before allocating when `expectedSize` exceeds the limit, and
 * CORRUPT_COMPRESSED when the stream is damaged, ends early, or has a different size.
 * `blocks` may supply the block instead (decodeAsync); it is asked after the size checks.
 */
export function inflateExact(
  src: Uint8Array,
  expectedSize: number,
  choice: InflaterChoice,
  limits: Limits,
  site: InflateSite,
  blocks?: BlockSource,
): InflateResult {
  const fail = (code: 'CORRUPT_COMPRESSED' | 'LIMIT_EXCEEDED', detail: string, extra: object = {}) =>
    new DecodeError(site.format, code, { offset: site.offset, path: site.path, detail, ...extra });
  if (!Number.isInteger(expectedSize) || expectedSize < 0 || expectedSize > limits.maxInflatedBytes) {
    throw fail('LIMIT_EXCEEDED', 'inflated size', { expected: `≤ ${limits.maxInflatedBytes}`, actual: expectedSize });
  }
  // Deflate cannot expand more than ~1032:1 (a 258-byte match per ~2 bits), so a size beyond
  // that is a lie told by the header: reject it before the inflater allocates an output for it.
  if (expectedSize > src.length * MAX_DEFLATE_RATIO + 64) {
    throw fail('CORRUPT_COMPRESSED', `${src.length} compressed bytes cannot inflate to ${expectedSize}`);
  }
  // decodeAsync's pre-inflated blocks (core/prefetch.ts), checked by the same limits as any other.
  const pre = blocks?.(src, expectedSize, site);
  if (pre && pre.bytes.length === expectedSize) return pre;
  const z = choice === 'pako' ? null : native();
  if (choice === 'native' && !z) throw new TypeError('levelkit: inflate: "native" needs node:zlib (Node ≥ 20.16)');
  return z ? inflateNative(z, src, expectedSize, fail) : inflatePako(src, expectedSize, fail);
}

/**
 * Inflates one zlib block of a decode: exactly `expectedSize` bytes, after charging them to the
 * file's `maxTotalInflatedBytes` budget (LIMIT_EXCEEDED before anything is allocated when it is
 * spent), with the decode's inflater choice, limits and pre-inflated blocks.
 */
export function inflateBlock(ctx: DecodeContext, src: Uint8Array, expectedSize: number, site: { offset: number; path: string }): InflateResult {
  ctx.chargeInflated(expectedSize, site);
  return inflateExact(src, expectedSize, ctx.inflateChoice, ctx.limits, { ...site, format: ctx.format }, ctx.blocks);
}

/** The largest output per input byte a deflate stream can have (RFC 1951: 258 bytes per 2-bit code, rounded up). */
const MAX_DEFLATE_RATIO = 1032;

type Fail = (code: 'CORRUPT_COMPRESSED', detail: string, extra?: object) => DecodeError;

function inflateNative(z: NodeZlib, src: Uint8Array, expectedSize: number, fail: Fail): InflateResult {
  let out: { buffer: Uint8Array; engine: { bytesWritten: number } };
  try {
    // One byte of slack: with chunkSize = expectedSize exactly, Node sees a full output chunk,
    // allocates a second chunk of the same size for a last call that writes nothing, and throws
    // it away. That doubled the buffer bytes per block, and with them the GC work they trigger.
    out = z.inflateSync(src, { info: true, chunkSize: Math.max(64, expectedSize + 1), maxOutputLength: Math.max(1, expectedSize) });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw fail('CORRUPT_COMPRESSED', 'stream inflates to more than expected', { expected: expectedSize });
    throw fail('CORRUPT_COMPRESSED', (e as Error).message);
  }
  if (out.buffer.length !== expectedSize) {
    throw fail('CORRUPT_COMPRESSED', 'inflated size differs', { expected: expectedSize, actual: out.buffer.length });
  }
  // Node hands back a Buffer that may share a pooled slab; copy small ones into a plain Uint8Array
  // we own. A larger one sits alone in its chunk (expectedSize + 1 bytes), so a view of it is ours.
  const buf = out.buffer;
  const bytes = buf.byteOffset === 0 && buf.buffer.byteLength <= expectedSize + 1 ? new Uint8Array(buf.buffer, 0, buf.length) : new Uint8Array(buf);
  return { bytes, consumed: out.engine.bytesWritten };
}

const TOO_LARGE = Symbol('too large');

function inflatePako(src: Uint8Array, expectedSize: number, fail: Fail): InflateResult {
  const bytes = new Uint8Array(expectedSize);
  let written = 0;
  const inf = new Inflate({ chunkSize: Math.max(64, Math.min(expectedSize, 1 << 20)) });
  // Write each chunk straight into the exact-size output; stop as soon as it would overflow.
  inf.onData = (chunk: Uint8Array) => {
    if (written + chunk.length > expectedSize) throw TOO_LARGE;
    bytes.set(chunk, written);
    written += chunk.length;
  };
  inf.onEnd = () => {};
  try {
    inf.push(src, true);
  } catch (e) {
    if (e === TOO_LARGE) throw fail('CORRUPT_COMPRESSED', 'stream inflates to more than expected', { expected: expectedSize });
    throw fail('CORRUPT_COMPRESSED', String((e as Error).message ?? e));
  }
  if (inf.err) throw fail('CORRUPT_COMPRESSED', inf.msg || `zlib error ${inf.err}`);
  if (!inf.ended) throw fail('CORRUPT_COMPRESSED', 'stream ends early');
  if (written !== expectedSize) throw fail('CORRUPT_COMPRESSED', 'inflated size differs', { expected: expectedSize, actual: written });
  return { bytes, consumed: src.length - unreadInput(inf) };
}

/**
 * Bytes of the last push the stream left unread (`strm.avail_in`). pako declares `strm` private
 * (untyped) in its typings, so it is read through checks rather than a cast: a pako without it
 * fails loudly instead of giving a wrong `consumed`.
 */
function unreadInput(inf: object): number {
  const strm = 'strm' in inf ? inf.strm : undefined;
  if (typeof strm === 'object' && strm !== null && 'avail_in' in strm && typeof strm.avail_in === 'number') return strm.avail_in;
  throw new Error('levelkit: pako Inflate has no strm.avail_in (unsupported pako version)');
}

/** zlib-wraps `src` (level 0–9, default 9). Native under Node, pako elsewhere; both give valid zlib streams. */
export function deflateZlib(src: Uint8Array, level = 9, choice: InflaterChoice = 'auto'): Uint8Array {
  const z = choice === 'pako' ? null : native();
  if (z) {
    const b = z.deflateSync(src, { level });
    return new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  }
  return pakoDeflate(src, { level: level as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 });
}
