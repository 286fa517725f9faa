// A lazy CTile or physics grid counted where it is inflated, for a caller that wants only how often each tile
// index occurs (the archive index's histogram): the block is read resident (in the WASM
// inflater's memory, core/inflate.ts inflateBlockResident) and counted a record at a time, so no
// index or flags column is made. Over the corpus that is 856 MB of columns per pass that were
// made, counted once and dropped, filling each scan worker's malloc arena with garbage. A DDNet
// map's physics grids (switch, speedup, tele, tune) were the larger share of a big map's: up to
// 21 MB of blocks and columns for one 0.45 MB file.
// Noted by the decoder (map-tile-layers.ts, deferGrid) for the grids that can be read this way, keyed by the layer.

import { isPending } from '../../core/lazy.js';
import type { TileLayerKind } from './types.js';

/** What the note knows: the layer's grid field and how to count it (undefined: read it instead). */
interface GridCounter {
  key: string;
  count(): Uint32Array | undefined;
}

const counters = new WeakMap<object, GridCounter>();

/** A record read as one word has its index byte in the low 8 bits only on a little-endian host. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function noteGridCounter(layer: object, counter: GridCounter): void {
  counters.set(layer, counter);
}

/** Which byte of a physics layer's record is its tile type (what the index counts for it): tele {number, type}, speedup {force, maxSpeed, type, padding, angle}, switch {number, type, flags, delay}, tune {number, type}. */
export const TYPE_BYTE: Partial<Record<TileLayerKind, number>> = { tele: 1, speedup: 2, switch: 1, tune: 1 };

/**
 * How many cells of `layer`'s still-deflated grid hold each tile index (a physics grid: each
 * tile type), 256 counts, read and counted without being kept; undefined when the grid was read already or cannot be counted
 * this way (then read the field). Throws the DecodeError reading the field would throw.
 */
export function gridCountsOf(layer: object): Uint32Array | undefined {
  const c = counters.get(layer);
  return c && isPending(layer, c.key) ? c.count() : undefined;
}

/**
 * Counts the index byte of `cells` 4-byte tile records {index, flags, skip, reserved} into
 * `counts` (256 entries, added to) and returns how many records have a non-zero skip or reserved
 * byte (what the split of a grid into columns reports). Read a word at a time: most of a map is
 * empty, and an all-zero record costs one compare.
 */
export function countTileRecords(block: Uint8Array, cells: number, counts: Uint32Array): number {
  let dirty = 0;
  let zero = 0;
  if (LITTLE_ENDIAN && (block.byteOffset & 3) === 0) {
    const words = new Uint32Array(block.buffer, block.byteOffset, cells);
    for (let i = 0; i < cells; i++) {
      const w = words[i]!;
      if (w === 0) {
        zero++;
        continue;
      }
      counts[w & 0xff]!++;
      if (w >>> 16 !== 0) dirty++;
    }
  } else
    for (let i = 0, p = 0; i < cells; i++, p += 4) {
      counts[block[p]!]!++;
      if (block[p + 2]! | block[p + 3]!) dirty++;
    }
  counts[0]! += zero;
  return dirty;
}

/** Counts byte `at` of each of the first `cells` records of `stride` bytes in `block` into `counts` (256 entries, added to). */
export function countRecordByte(block: Uint8Array, cells: number, stride: number, at: number, counts: Uint32Array): void {
  for (let i = 0, p = at; i < cells; i++, p += stride) counts[block[p]!]!++;
}
