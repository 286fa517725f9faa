// Teeworlds tile layers: which kind a tilemap item is, read the way the game that wrote it reads
// it (DDNet physics flags, InfClass's entity/zone flags), or why it cannot be placed for certain
// and is kept opaque. Shared by the decoder (map.ts) and the encoder's check (map-check.ts), so an
// opaque layer is written only as what reads back opaque the same way. README.md §Mods.
import { MOD_TILE_LAYERS, PHYSICS, TILEMAP, TILEMAP_BY_VERSION, type TilemapLayout } from './items.js';
import type { TileLayerKind } from './types.js';

/** Where a tile layer's grid is, when the layer can be placed for certain; else why not. */
export type Placement = { kind: TileLayerKind; dataIndex: number; layout: TilemapLayout } | { reason: string };

/**
 * The kind of tilemap item `d` (whole item, header included) in a file of `blockCount` data blocks.
 * A reason depends on the item's ints alone (never on indices or counts), so it reads back the same
 * after the encoder renumbers the blocks.
 */
export function placeTileLayer(d: Int32Array, blockCount: number): Placement {
  if (d.length < TILEMAP.data + 1) return { reason: `a tilemap item of ${d.length} ints (at least ${TILEMAP.data + 1} needed)` };
  const version = d[TILEMAP.version]!;
  const layout = TILEMAP_BY_VERSION[version];
  if (!layout) return { reason: `tilemap version ${version} (2, 3 or 4 known)` };
  const flags = d[TILEMAP.flags]!;
  const phys = PHYSICS.find((p) => p.flag === flags);
  if (phys && phys.ext < 0) return { kind: phys.kind, dataIndex: d[TILEMAP.data]!, layout };
  const mod = MOD_TILE_LAYERS.find((m) => m.flag === flags && m.tilemapVersion === version && d.length === layout.ext);
  if (mod) return { kind: mod.kind, dataIndex: d[TILEMAP.data]!, layout };
  if (!phys) return { reason: `tilemap flags ${flags} (no known game or mod gives them this layout)` };
  const at = d[layout.ext + phys.ext];
  if (at === undefined || at < 0 || at >= blockCount) return { reason: `${phys.kind} flag, but the item names no ${phys.kind} grid` };
  // DDNet refuses tile-skip on physics layers, and 0.7 (which writes tile-skip) has none.
  if (version >= 4) return { reason: `tile-skip compression (tilemap v4) on a ${phys.kind} layer` };
  return { kind: phys.kind, dataIndex: at, layout };
}

/** Item slots that may name a data block: `data`, then the extension indices the item holds. */
export function blockSlots(d: Int32Array): number[] {
  const layout = TILEMAP_BY_VERSION[d[TILEMAP.version] ?? -1];
  const slots: number[] = d.length > TILEMAP.data ? [TILEMAP.data] : [];
  if (layout) for (let k = layout.ext; k < Math.min(d.length, layout.ext + 5); k++) slots.push(k);
  return slots;
}

/** A copy of item `d` with every block slot set to −1. */
export function withoutBlockIndices(d: Int32Array): Int32Array {
  const out = d.slice();
  for (const k of blockSlots(d)) out[k] = -1;
  return out;
}
