// Tile layers whose kind is not certain (placement.ts), kept as stored: their ints, and the blocks
// they name that no other section reads (read last, so a garbage index never takes another's block).

import { defineLazy } from '../../core/lazy.js';
import type { BlockReader } from './datafile.js';
import { noteDeferredBlocks } from './deferred-blocks.js';
import { TILEMAP, TILEMAP_BY_VERSION } from './items.js';
import { claimBlock, EMPTY_TEXT, type Reader, readOrClaim, text } from './map-reader.js';
import { unpackName } from './names.js';
import { blockSlots, withoutBlockIndices } from './placement.js';
import type { OpaqueBlock, OpaqueLayer } from './types.js';

/** A tile layer kept as stored: its ints, and the readable blocks they name (never a failure of the map). */
export function decodeOpaqueLayer(rd: Reader, d: Int32Array, path: string, detail: boolean, reason: string): OpaqueLayer {
  const at = (k: number) => d[k] ?? 0;
  const layout = TILEMAP_BY_VERSION[at(TILEMAP.version)];
  const named = layout && layout.name >= 0 && d.length >= layout.name + 3;
  const layer: OpaqueLayer = {
    kind: 'opaque',
    name: named ? text(unpackName(d, layout.name, 3)) : EMPTY_TEXT(),
    detail,
    // Block slots read as −1: their indices are the file's numbering, which the encoder redoes.
    item: withoutBlockIndices(d).slice(3),
    tilemapVersion: at(TILEMAP.version),
    width: at(TILEMAP.width),
    height: at(TILEMAP.height),
    flags: at(TILEMAP.flags),
    reason,
  };
  // Its blocks are read after every other section has claimed its own (readOpaqueBlocks), so a
  // garbage index here never takes a block from the layer or image it belongs to.
  rd.opaque.push({ layer, d, path });
  return layer;
}

/** The blocks of the opaque layers: each slot naming a block that is there and that no other section reads. */
export function readOpaqueBlocks(rd: Reader): void {
  const lazy = rd.ctx.lazyLayers && !rd.summaryOnly;
  for (const { layer, d, path } of rd.opaque) {
    const blocks: OpaqueBlock[] = [];
    const deferred: { slot: number; source: BlockReader }[] = [];
    for (const slot of blockSlots(d)) {
      const index = d[slot]!;
      // A slot naming anything else is garbage this layer cannot account for: written back as −1.
      if (index < 0 || index >= rd.df.blocks.length || rd.claimedBy.has(index)) continue;
      const where = `${path}.blocks[${blocks.length + deferred.length}]`;
      if (lazy) {
        claimBlock(rd, index, where);
        deferred.push({ slot: slot - 3, source: rd.df.deferData(index, where) });
        continue;
      }
      const bytes = readOrClaim(rd, index, where);
      if (bytes) blocks.push({ slot: slot - 3, bytes });
    }
    if (lazy) deferOpaqueBlocks(layer, deferred);
    else if (!rd.summaryOnly) layer.blocks = blocks;
  }
}

/** An opaque layer's `blocks`, read on first access (layers: 'lazy'); a function of its own so the loader holds only `deferred`. */
function deferOpaqueBlocks(layer: OpaqueLayer, deferred: { slot: number; source: BlockReader }[]): void {
  defineLazy(layer, 'blocks', () => deferred.map(({ slot, source }) => ({ slot, bytes: source.read() })));
  noteDeferredBlocks(
    layer,
    deferred.map((d) => d.source),
  );
}
