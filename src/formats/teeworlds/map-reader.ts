// The Teeworlds map decoder's shared state and the reads every section makes through it: items by
// type, data blocks (each claimed by one section only), data strings and the UTF-8 map text.
// The sections (map-info.ts, map-images.ts, map-envelopes.ts, map-groups.ts …) read through these.

import type { DecodeContext } from '../../core/context.js';
import { type DecodeError, decodeError, type ErrorCode } from '../../core/errors.js';
import { makeText, type Text } from '../../core/text.js';
import type { Datafile } from './datafile.js';
import { MAX_STRING_BYTES } from './items.js';
import type { LateWarnings } from './late-warnings.js';
import type { OpaqueLayer, TeeworldsWarningCode } from './types.js';

/** Decoding state shared by the section readers. */
export interface Reader {
  df: Datafile;
  ctx: DecodeContext<TeeworldsWarningCode>;
  summaryOnly: boolean;
  /** The item indices of one type id (`start` … `start + num − 1`, in file order). */
  ofType(typeId: number): { start: number; num: number };
  /** Item `index`'s payload ints (a view into the datafile's item ints: slice() what the result keeps). */
  data(index: number): Int32Array;
  fail(code: ErrorCode, itemIndex: number, path: string, d?: { expected?: string | number; actual?: string | number; detail?: string }): DecodeError;
  /** Path of the section that has read each data block so far (see readBlock). */
  claimedBy: Map<number, string>;
  /** Tile-grid cells allocated so far, over all layers (bounded by maxGridCells together). */
  gridCells: number;
  /** Blocks claimed but not inflated (`sections: 'summary'`). */
  deferred: number;
  /** Opaque layers whose blocks are read last (readOpaqueBlocks). */
  opaque: { layer: OpaqueLayer; d: Int32Array; path: string }[];
  /** `layers: 'lazy'`: the warnings of grids left deflated, each where the eager decode gives them. */
  late: LateWarnings<TeeworldsWarningCode>[];
  /** `sections: 'summary'`: warnings whose checks need a block this decode left deflated. */
  unchecked: Set<TeeworldsWarningCode>;
}

/** `fn` over the items of one type id, in file order: payload view, item index, position within the type. */
export function eachItem<T>(rd: Reader, typeId: number, fn: (d: Int32Array, index: number, k: number) => T): T[] {
  const { start, num } = rd.ofType(typeId);
  const out: T[] = new Array(num);
  for (let k = 0; k < num; k++) out[k] = fn(rd.data(start + k), start + k, k);
  return out;
}

// ── strings ──────────────────────────────────────────────────────────────────

/** Map text is UTF-8 whatever the decode's `encoding` option says; `raw` keeps invalid bytes as stored. */
export function text(bytes: Uint8Array): Text {
  return makeText(bytes, 'utf-8');
}

/** A NUL-terminated data string; null for index −1. */
export function readString(rd: Reader, dataIndex: number, path: string): Text | null {
  if (dataIndex === -1) return null;
  return stringOf(rd, readBlock(rd, dataIndex, path, MAX_STRING_BYTES), dataIndex, path);
}

/** A data string's text from its block's bytes (up to the NUL, warned when there is none). */
export function stringOf(rd: Reader, raw: Uint8Array, dataIndex: number, path: string): Text {
  const end = raw.indexOf(0);
  if (end < 0) rd.ctx.warnings.warn('STRING_NOT_TERMINATED', 'data string has no NUL terminator', rd.df.blocks[dataIndex]!.offset, path);
  return text(end < 0 ? raw : raw.slice(0, end));
}

/**
 * The bytes of one data block, for the one section that owns it. A block may be read once per
 * decode: DDNet likewise lets a data index belong to one layer only. Without this, a small file
 * whose many layers (or image names, sounds…) point at one block inflated it again for each and
 * kept a copy per reader (50 layers sharing a block: 21 KB of file, 400 MiB of grids). With it,
 * every array in the result comes from its own block, so the output is bounded by the blocks'
 * declared sizes (tile-skip grids, which expand, are bounded together by maxGridCells).
 */
export function readBlock(rd: Reader, dataIndex: number, path: string, maxBytes = Infinity): Uint8Array {
  claimBlock(rd, dataIndex, path, maxBytes);
  return rd.df.readData(dataIndex, path);
}

/**
 * Every check readBlock makes before inflating (index, declared size, one reader per block), so a
 * `sections: 'summary'` decode that skips a block still fails where the full decode would, short
 * of the zlib stream itself (counted in `blocksNotInflated`).
 */
export function claimBlock(rd: Reader, dataIndex: number, path: string, maxBytes = Infinity): void {
  if (!Number.isInteger(dataIndex) || dataIndex < 0 || dataIndex >= rd.df.blocks.length) {
    throw decodeError('teeworlds', 'BAD_INDEX', { path, expected: `data index < ${rd.df.blocks.length}`, actual: dataIndex });
  }
  const block = rd.df.blocks[dataIndex]!;
  // Strings are small: a block declaring more than its field can hold is refused before inflating.
  if (block.byteLength > maxBytes) {
    throw decodeError('teeworlds', 'LIMIT_EXCEEDED', { offset: block.offset, path, expected: `≤ ${maxBytes} bytes`, actual: block.byteLength });
  }
  const owner = rd.claimedBy.get(dataIndex);
  if (owner !== undefined) {
    throw decodeError('teeworlds', 'CORRUPT', { offset: rd.df.blocks[dataIndex]!.offset, path, detail: `data block ${dataIndex} is already used by ${owner}` });
  }
  rd.claimedBy.set(dataIndex, path);
}

/** readBlock in a full decode; in a summary decode the same checks, and the block left deflated. */
export function readOrClaim(rd: Reader, dataIndex: number, path: string): Uint8Array | undefined {
  if (!rd.summaryOnly) return readBlock(rd, dataIndex, path);
  claimBlock(rd, dataIndex, path);
  rd.df.checkData(dataIndex, path);
  rd.deferred++;
  return undefined;
}

export const EMPTY_TEXT = (): Text => text(new Uint8Array(0));

export function need(rd: Reader, d: Int32Array, index: number, ints: number, path: string): void {
  if (d.length < ints) throw rd.fail('TRUNCATED', index, path, { expected: `≥ ${ints} ints`, actual: d.length });
}
