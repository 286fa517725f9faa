// Graal level model helpers shared by the binary and text codecs: the per-version layout
// table, the tile-id ↔ tileset position mapping, the item and baddy name tables, gridDigest.
// See README.md in this folder.
import { gridDigestOf } from '../../core/digest.js';
import type { GraalLayer, GraalLevel } from './types.js';

/** Tiles per layer (64 × 64). */
export const TILE_COUNT = 4096;
export const LEVEL_SIZE = 64;
/** Cell value for "no tile" in overlay layers (binary 0xFFF in layers ≥ 1; absent cells in .nw rows). */
export const NO_TILE = 0xffff;

/** What one binary header implies: code width and which sections the file carries. */
export interface BinaryLayout {
  codeBits: 12 | 13;
  verses: boolean;
  npcs: boolean;
  chests: boolean;
  heights: boolean;
  layers: boolean;
}

// Per-version sections (notes §A.3; the corpus confirms 12-bit codes up to GR-V1.01).
const L = (codeBits: 12 | 13, verses: boolean, npcs: boolean, chests: boolean, heights: boolean, layers: boolean): BinaryLayout => ({
  codeBits,
  verses,
  npcs,
  chests,
  heights,
  layers,
});
export const BINARY_LAYOUTS: Readonly<Record<string, BinaryLayout>> = Object.freeze({
  //               bits verses npcs   chests heights layers
  'Z3-V1.03': L(12, false, false, false, false, false),
  'Z3-V1.04': L(12, true, false, false, false, false),
  'GR-V1.00': L(12, true, true, false, false, false),
  'GR-V1.01': L(12, true, true, true, false, false),
  'GR-V1.02': L(13, true, true, true, false, false),
  'GR-V1.03': L(13, true, true, true, false, false),
  'GR-V1.04': L(13, true, true, true, true, false),
  'GR-V1.05': L(13, true, true, true, true, true),
});

/** First line of a .nw level. */
export const NW_MAGIC = 'GLEVNW01';
/** First line of a .gmap. */
export const GMAP_MAGIC = 'GRMAP001';

/** Chest items by index (binary files store the index, .nw files the name). */
export const CHEST_ITEMS: readonly string[] = [
  'greenrupee',
  'bluerupee',
  'redrupee',
  'bombs',
  'darts',
  'heart',
  'glove1',
  'bow',
  'bomb',
  'shield',
  'sword',
  'fullheart',
  'superbomb',
  'battleaxe',
  'goldensword',
  'mirrorshield',
  'glove2',
  'lizardshield',
  'lizardsword',
  'goldrupee',
  'fireball',
  'fireblast',
  'nukeshot',
  'joltbomb',
  'spinattack',
];

/** Baddy types by index (.nw may name them instead of numbering). */
export const BADDY_NAMES: readonly string[] = [
  'graysoldier',
  'bluesoldier',
  'redsoldier',
  'shootingsoldier',
  'swampsoldier',
  'frog',
  'octopus',
  'goldenwarrior',
  'lizardon',
  'dragon',
];

/** Position of a tile id in the classic 128×32-tile tileset (`pics1.png`), in tiles. */
export function tileToTileset(id: number): { x: number; y: number } {
  return { x: (id % 16) + 16 * Math.floor(id / 512), y: Math.floor(id / 16) % 32 };
}

/** Inverse of tileToTileset: the tile id at tileset position (x, y) in tiles. */
export function tilesetToTile(x: number, y: number): number {
  return Math.floor(x / 16) * 512 + (x % 16) + y * 16;
}

/** A fresh layer: layer 0 starts as tile 0, overlays as NO_TILE. */
export function emptyLayer(index: number): GraalLayer {
  return { index, tiles: new Uint16Array(TILE_COUNT).fill(index === 0 ? 0 : NO_TILE) };
}

/**
 * The bulk-scan duplicate key: gridDigestOf layer 0 (64×64, tiles as little-endian u16); null when
 * the level has none or it is blank, every tile what emptyLayer fills it with (0; NO_TILE for the
 * overlay that stands in for a missing layer 0).
 */
export function gridDigest(level: GraalLevel): string | null {
  const base = level.layers.find((l) => l.index === 0) ?? level.layers[0];
  return base ? gridDigestOf(LEVEL_SIZE, LEVEL_SIZE, base.tiles, base.index === 0 ? 0 : NO_TILE) : null;
}

/**
 * The level with no content (what encoders and generators start from). Decoders pass the layers
 * they read, so no blank layer is allocated only to be replaced.
 */
export function blankLevel(
  format: GraalLevel['format'] = 'graal-nw',
  version = format === 'graal' ? 'GR-V1.03' : NW_MAGIC,
  layers: GraalLayer[] = [emptyLayer(0)],
): GraalLevel {
  return {
    format,
    version,
    layers,
    links: [],
    baddies: [],
    npcs: [],
    chests: [],
    signs: [],
    unknownLines: [],
    lineEnding: '\n',
    encoding: 'windows-1252',
    warnings: [],
  };
}
