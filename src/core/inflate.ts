// One zlib interface for every format. Under Node the native zlib binding is used (faster than
// any JS or WASM inflater, see ../shared/docs/PERFORMANCE.md §1); elsewhere, and on request, a
// kernel set's inflateZlib: the WASM inflater (assembly/inflate.ts) or pako (the TS twin). The
// caller always passes the size it expects: the output buffer is sized from it, it is checked
// against `maxInflatedBytes` first, and the stream must produce exactly it.

import { deflate as pakoDeflate } from 'pako';
import { Status, statusName } from '../kernels/status.js';
import type { Kernels } from '../kernels/types.js';
import { type BlockSite, checkBlockSize, type DecodeContext, type Inflater } from './context.js';
import { DecodeError, type ErrorFormat } from './errors.js';
import { bufferToOverwrite, nodeBuiltin } from './host.js';
import type { Limits } from './limits.js';
import type { BlockSource } from './prefetch.js';

export type { Inflater } from './context.js';

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
  format: ErrorFormat;
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
  inflater: Inflater,
  limits: Limits,
  site: InflateSite,
  blocks?: BlockSource,
): InflateResult {
  const fail = failAt(site);
  checkBlockSize(site.format, src.length, expectedSize, limits, site);
  // decodeAsync's pre-inflated blocks (core/prefetch.ts), checked by the same limits as any other.
  const pre = blocks?.(src, expectedSize, site);
  if (pre && pre.bytes.length === expectedSize) return pre;
  if (inflater !== 'native') return inflateWithKernel(inflater, src, expectedSize, fail);
  return inflateNative(nativeOrThrow(), src, expectedSize, fail);
}

/**
 * A block of `cells` 4-byte tile records {index, flags, skip, reserved}, inflated (as
 * inflateExact, to exactly 4 × cells bytes) and split into its index and flags columns:
 * `columns` holds index then flags (2 × cells bytes), `dirty` counts records with non-zero skip or
 * reserved bytes. With a kernel inflater both happen in one call (the WASM set: one trip into its
 * memory); with node:zlib or a pre-inflated block, `split` (the decode's kernel set) splits the
 * block in place and the columns are a view of it.
 */
export function inflateTilesExact(
  src: Uint8Array,
  cells: number,
  inflater: Inflater,
  split: Pick<Kernels, 'splitTilesInPlace'>,
  limits: Limits,
  site: InflateSite,
  blocks?: BlockSource,
): { columns: Uint8Array; dirty: number } {
  const fail = failAt(site);
  const expectedSize = cells * 4;
  checkBlockSize(site.format, src.length, expectedSize, limits, site);
  const pre = blocks?.(src, expectedSize, site);
  if (inflater !== 'native' && !(pre && pre.bytes.length === expectedSize)) {
    // Every byte of the columns is written by inflateTiles (or the array is dropped with the
    // error), so under Node they need not be zeroed first: 2 bytes per tile, ~840 MB of memset per
    // corpus pass saved (bench/README.md §Teeworlds).
    const columns = new Uint8Array(bufferToOverwrite(2 * cells));
    const dirty = inflater.inflateTiles(src, columns, cells);
    if (dirty < 0) throw kernelFailure(dirty, expectedSize, fail);
    return { columns, dirty };
  }
  const block = pre && pre.bytes.length === expectedSize ? pre.bytes : inflateNative(nativeOrThrow(), src, expectedSize, fail).bytes;
  // The block is exactly 4 × cells bytes, so the split cannot fail (TRUNCATED is its only status).
  const dirty = split.splitTilesInPlace(block, cells);
  return { columns: block.subarray(0, 2 * cells), dirty };
}

function failAt(site: InflateSite) {
  return (code: 'CORRUPT_COMPRESSED' | 'LIMIT_EXCEEDED', detail: string, extra: object = {}) =>
    new DecodeError(site.format, code, { offset: site.offset, path: site.path, detail, ...extra });
}

function nativeOrThrow(): NodeZlib {
  const z = native();
  if (!z) throw new TypeError('levelkit: inflate: "native" needs node:zlib (Node ≥ 20.16)');
  return z;
}

/**
 * Inflates one zlib block of a decode: exactly `expectedSize` bytes, after charging them to the
 * file's `maxTotalInflatedBytes` budget (LIMIT_EXCEEDED before anything is allocated when it is
 * spent), with the decode's inflater (or `inflater`, when the format picks per block), limits and pre-inflated blocks. `prepaid`: reserve() already
 * charged this block (a lazy grid inflated on first read).
 */
export function inflateBlock(
  ctx: DecodeContext,
  src: Uint8Array,
  expectedSize: number,
  site: BlockSite,
  prepaid = false,
  inflater: Inflater = ctx.inflater,
): InflateResult {
  if (!prepaid) ctx.charge(expectedSize, site);
  const out = inflateExact(src, expectedSize, inflater, ctx.limits, { ...site, format: ctx.format }, ctx.blocks);
  ctx.inflated(out.consumed, expectedSize);
  return out;
}

/**
 * The inflater for a block read resident and not kept (a lazy decode's grids, counted where they
 * lie): under `inflate: 'auto'` with the WASM kernels, their inflater, which inflates into WASM
 * memory, so no array the size of the block is allocated (node:zlib makes one per call, and under
 * a scan's steady stream of blocks those fill a worker's malloc arena); else the decode's own.
 */
export function residentInflater(ctx: DecodeContext): Inflater {
  return ctx.inflateChoice === 'auto' && ctx.kernels.name === 'wasm' ? ctx.kernels : ctx.inflater;
}

/**
 * inflateBlock() for a block several kernels then read: `use(block, consumed)` gets the inflated
 * bytes, valid only while it runs (copy what is kept). With a kernel inflater that is one trip
 * into its memory (Kernels.inflateResident: the WASM set inflates into its arena and its kernels
 * read the block there); with node:zlib or a pre-inflated block, a fresh array as inflateBlock()
 * gives. `owned` is true when the block is a fresh array no one else holds (node:zlib's result):
 * then the decode may keep views of it instead of copies. Returns `use`'s result. `prepaid` and
 * `inflater` as for inflateBlock().
 */
export function inflateBlockResident<T>(
  ctx: DecodeContext,
  src: Uint8Array,
  expectedSize: number,
  site: BlockSite,
  use: (block: Uint8Array, consumed: number, owned: boolean) => T,
  prepaid = false,
  inflater: Inflater = ctx.inflater,
): T {
  if (inflater === 'native' || ctx.blocks) {
    const { bytes, consumed } = inflateBlock(ctx, src, expectedSize, site, prepaid, inflater);
    // node:zlib's result is a fresh buffer nothing else holds: the decode may keep views of it.
    return use(bytes, consumed, !ctx.blocks);
  }
  if (!prepaid) ctx.charge(expectedSize, site);
  const full = { ...site, format: ctx.format };
  checkBlockSize(ctx.format, src.length, expectedSize, ctx.limits, full);
  let result: { value: T } | undefined;
  const used = inflater.inflateResident(src, expectedSize, (block, consumed) => {
    result = { value: use(block, consumed, false) };
  });
  if (used < 0 || !result) throw kernelFailure(used, expectedSize, failAt(full));
  ctx.inflated(used, expectedSize);
  return result.value;
}

/**
 * inflateBlock() of a block of `cells` 4-byte tile records, split into index and flags columns (see
 * inflateTilesExact). `inflater` (default the decode's) lets a format pick per block shape.
 */
export function inflateTileBlock(
  ctx: DecodeContext,
  src: Uint8Array,
  cells: number,
  site: BlockSite,
  prepaid = false,
  inflater: Inflater = ctx.inflater,
): { columns: Uint8Array; dirty: number } {
  if (!prepaid) ctx.charge(cells * 4, site);
  const out = inflateTilesExact(src, cells, inflater, ctx.kernels, ctx.limits, { ...site, format: ctx.format }, ctx.blocks);
  ctx.inflated(src.length, cells * 4);
  return out;
}

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
  if (buf.byteOffset === 0 && buf.buffer.byteLength <= expectedSize + 1) {
    // The slack byte was never written (Node allocates chunks uninitialized) and a result that keeps
    // a view of this block exposes its whole buffer: zero it, so no stale process memory shows.
    if (buf.buffer.byteLength > buf.length) new Uint8Array(buf.buffer, buf.length).fill(0);
    return { bytes: new Uint8Array(buf.buffer, 0, buf.length), consumed: out.engine.bytesWritten };
  }
  return { bytes: new Uint8Array(buf), consumed: out.engine.bytesWritten };
}

function inflateWithKernel(kernel: Pick<Kernels, 'inflateZlib'>, src: Uint8Array, expectedSize: number, fail: Fail): InflateResult {
  const bytes = new Uint8Array(expectedSize);
  const used = kernel.inflateZlib(src, bytes);
  if (used >= 0) return { bytes, consumed: used };
  throw kernelFailure(used, expectedSize, fail);
}

function kernelFailure(status: number, expectedSize: number, fail: Fail): DecodeError {
  return fail('CORRUPT_COMPRESSED', KERNEL_DETAIL[status] ?? statusName(status), status === Status.OVERFLOW ? { expected: expectedSize } : {});
}

/** What each inflateZlib status means, in the words the other inflaters use. */
const KERNEL_DETAIL: Readonly<Record<number, string>> = {
  [Status.TRUNCATED]: 'stream ends early',
  [Status.OVERFLOW]: 'stream inflates to more than expected',
  [Status.SHORT_OUTPUT]: 'stream inflates to fewer bytes than expected',
  [Status.BAD_ZLIB_HEADER]: 'bad zlib header',
  [Status.BAD_HUFFMAN_CODE]: 'bad Huffman code lengths',
  [Status.BAD_DEFLATE_DATA]: 'bad deflate data',
  [Status.BAD_CHECKSUM]: 'Adler-32 mismatch',
};

/** zlib-wraps `src` (level 0–9, default 9). Native under Node, pako elsewhere; both give valid zlib streams. */
export function deflateZlib(src: Uint8Array, level = 9, choice: 'auto' | 'native' | 'pako' = 'auto'): Uint8Array {
  const z = choice === 'pako' ? null : native();
  if (z) {
    const b = z.deflateSync(src, { level });
    return new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  }
  return pakoDeflate(src, { level: level as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 });
}
