// The TypeScript twin of assembly/inflate.ts: pako, the long-standing reference path, behind the
// Kernels.inflateZlib contract (exact output size, bytes used, negative statuses, no throw).

import { Inflate } from 'pako';
import { Status } from '../status.js';
import { splitTilesInPlace } from './tilemap.js';

const TOO_LARGE = Symbol('too large');

// pako's messages (zlib's, word for word) by the status assembly/inflate.ts returns for the same fault.
const STATUS_OF_MESSAGE: Readonly<Record<string, number>> = {
  'incorrect header check': Status.BAD_ZLIB_HEADER,
  'unknown compression method': Status.BAD_ZLIB_HEADER,
  'invalid window size': Status.BAD_ZLIB_HEADER,
  'need dictionary': Status.BAD_ZLIB_HEADER,
  'too many length or distance symbols': Status.BAD_HUFFMAN_CODE,
  'invalid code lengths set': Status.BAD_HUFFMAN_CODE,
  'invalid bit length repeat': Status.BAD_HUFFMAN_CODE,
  'invalid code -- missing end-of-block': Status.BAD_HUFFMAN_CODE,
  'invalid literal/lengths set': Status.BAD_HUFFMAN_CODE,
  'invalid distances set': Status.BAD_HUFFMAN_CODE,
  'invalid block type': Status.BAD_DEFLATE_DATA,
  'invalid stored block lengths': Status.BAD_DEFLATE_DATA,
  'invalid literal/length code': Status.BAD_DEFLATE_DATA,
  'invalid distance code': Status.BAD_DEFLATE_DATA,
  'invalid distance too far back': Status.BAD_DEFLATE_DATA,
  'incorrect data check': Status.BAD_CHECKSUM,
};

/** Kernels.inflateZlib with pako: see src/kernels/types.ts. */
export function inflateZlib(src: Uint8Array, dst: Uint8Array): number {
  return inflateInto(src, dst, false);
}

/**
 * Raw DEFLATE (no zlib wrapper, as in zip members) into exactly `dst`, with inflateZlib's statuses:
 * bytes of `src` used, or OVERFLOW as soon as the data would pass `dst`, SHORT_OUTPUT when it ends
 * before filling it, another negative status when it does not inflate.
 */
export function inflateRawInto(src: Uint8Array, dst: Uint8Array): number {
  return inflateInto(src, dst, true);
}

function inflateInto(src: Uint8Array, dst: Uint8Array, raw: boolean): number {
  let written = 0;
  const inf = new Inflate({ raw, chunkSize: Math.max(64, Math.min(dst.length, 1 << 20)) });
  // Each chunk goes straight into dst; the stream stops as soon as one would overflow it.
  inf.onData = (chunk: Uint8Array) => {
    if (written + chunk.length > dst.length) throw TOO_LARGE;
    dst.set(chunk, written);
    written += chunk.length;
  };
  inf.onEnd = () => {};
  try {
    inf.push(src, true);
  } catch (e) {
    if (e === TOO_LARGE) return Status.OVERFLOW;
    return Status.CORRUPT;
  }
  if (inf.err) return STATUS_OF_MESSAGE[inf.msg] ?? Status.CORRUPT;
  if (!inf.ended) return Status.TRUNCATED;
  if (written !== dst.length) return Status.SHORT_OUTPUT;
  return src.length - unreadInput(inf);
}

/** Kernels.inflateTiles: pako into a block of records, then the reference split (see src/kernels/types.ts). */
export function inflateTiles(src: Uint8Array, dst: Uint8Array, cells: number): number {
  const records = new Uint8Array(cells * 4);
  const used = inflateZlib(src, records);
  if (used < 0) return used;
  const dirty = splitTilesInPlace(records, cells);
  if (dirty >= 0) dst.set(records.subarray(0, 2 * cells));
  return dirty;
}

/**
 * Bytes of the last push the stream left unread (`strm.avail_in`). pako declares `strm` private
 * (untyped) in its typings, so it is read through checks rather than a cast: a pako without it
 * fails loudly instead of giving a wrong count.
 */
function unreadInput(inf: object): number {
  const strm = 'strm' in inf ? inf.strm : undefined;
  if (typeof strm === 'object' && strm !== null && 'avail_in' in strm && typeof strm.avail_in === 'number') return strm.avail_in;
  throw new Error('levelkit: pako Inflate has no strm.avail_in (unsupported pako version)');
}

/** Kernels.inflateResident with pako: the block is a fresh array (see src/kernels/types.ts). */
export function inflateResident(src: Uint8Array, size: number, use: (block: Uint8Array, consumed: number) => void): number {
  const block = new Uint8Array(size);
  const used = inflateZlib(src, block);
  if (used >= 0) use(block, used);
  return used;
}
