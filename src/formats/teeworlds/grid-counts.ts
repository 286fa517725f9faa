// A lazy CTile grid counted where it is inflated, for a caller that wants only how often each tile
// index occurs (the archive index's histogram): the block is read resident (in the WASM
// inflater's memory, core/inflate.ts inflateBlockResident) and counted a record at a time, so no
// index or flags column is made. Over the corpus that is 856 MB of columns per pass that were
// made, counted once and dropped, filling each scan worker's malloc arena with garbage.
// Noted by the decoder (map.ts, deferGrid) for the grids that can be read this way, keyed by the layer.

import { isPending } from '../../core/lazy.js';

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

/**
 * How many cells of `layer`'s still-deflated CTile grid hold each tile index (256 counts), read
 * and counted without being kept; undefined when the grid was read already or cannot be counted
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
