// How a preview reads a Teeworlds map's layers: a tile layer's grid (read without keeping it when
// lazy), its tileset and tint, the size quads are placed in, the game group, and a plain grid for a
// layer that could not be placed.

import { defineLazy, isPending, readUncached } from '../core/lazy.js';
import type { MapImage, OpaqueLayer, TeeworldsMap, TileLayer } from '../formats/teeworlds/index.js';
import { envelopeAt } from './envelopes.js';
import { externalTileset, type RenderResources, type Tileset } from './tilesources.js';

/**
 * The grid a preview draws of a Teeworlds tile layer: its first column (tile ids, tele/switch/tune
 * numbers, speedup force) and, for CTile kinds, the tile flags; undefined when the layer has none
 * (a `sections: 'summary'` decode). `keep: false` reads a lazy grid (`layers: 'lazy'`) without
 * keeping it in the map, so drawing many layers holds one grid at a time.
 */
export function teeGrid(l: TileLayer, keep: boolean): { cells: Uint8Array; flags?: Uint8Array } | undefined {
  const fields = l as unknown as Record<ReturnType<typeof teeGridKey>, TeeGrid | undefined>;
  const key = teeGridKey(l);
  const grid = keep ? fields[key] : readUncached(fields, key);
  if (!grid) return undefined;
  if ('index' in grid) return { cells: grid.index, flags: grid.flags };
  return { cells: 'force' in grid ? grid.force : grid.number };
}

/** The grid fields of every tile-layer kind, as far as a preview reads them. */
type TeeGrid = { index: Uint8Array; flags: Uint8Array } | { number: Uint8Array } | { force: Uint8Array };

/** The field holding a Teeworlds tile layer's grid. */
export function teeGridKey(l: TileLayer): 'tiles' | 'tele' | 'speedup' | 'switch' | 'tune' {
  return l.kind === 'tele' || l.kind === 'speedup' || l.kind === 'switch' || l.kind === 'tune' ? l.kind : 'tiles';
}

/** True when an image has pixels, read or still lazy (without reading them). */
function hasPixels(img: MapImage): boolean {
  return isPending(img, 'pixels') || img.pixels !== undefined;
}

/** A Teeworlds image as a tileset; lazy pixels are read (and kept: many layers share a tileset) only when a layer using it is drawn. */
function tilesetOf(img: MapImage): Tileset {
  const tileset = { width: img.width, height: img.height, channels: img.format === 0 ? 3 : 4 } as Tileset;
  defineLazy(tileset, 'pixels', () => img.pixels!);
  return tileset;
}

/** True when the layer has a grid, read or still lazy (without reading it). */
export function hasTeeGrid(l: TileLayer): boolean {
  const key = teeGridKey(l);
  return isPending(l, key) || (l as unknown as Record<string, unknown>)[key] !== undefined;
}

/** A Teeworlds layer's grid fields by name (tiles, tele, speedup, switch, tune). */
export function teeFields(l: TileLayer): Record<string, Record<string, Uint8Array | Int16Array> | undefined> {
  return l as unknown as Record<string, Record<string, Uint8Array | Int16Array> | undefined>;
}

/** The picture of Teeworlds image `index`: its embedded pixels, else the bundled resource of its name when the caller loaded it. */
export function teeImage(map: TeeworldsMap, index: number, resources: RenderResources | undefined): Tileset | undefined {
  const img = index >= 0 ? map.images[index] : undefined;
  if (!img) return undefined;
  if (img.external) return externalTileset(map, index, resources);
  return hasPixels(img) && img.width >= 16 && img.height >= 16 ? tilesetOf(img) : undefined;
}

/** The size quads are placed in: the game layer's, else the largest tile layer's (in tiles). */
export function teeMapSize(map: TeeworldsMap): { width: number; height: number } {
  let size = { width: 0, height: 0 };
  for (const g of map.groups)
    for (const l of g.layers) {
      if (l.kind === 'game') return { width: l.width, height: l.height };
      if ('width' in l && l.kind !== 'opaque' && l.width * l.height > size.width * size.height) size = { width: l.width, height: l.height };
    }
  return size;
}

/** The game group's index (the first group holding a game layer), or -1. */
export function gameGroupIndex(map: TeeworldsMap): number {
  return map.groups.findIndex((g) => g.layers.some((l) => l.kind === 'game'));
}

/** A Teeworlds tile layer's tint: its colour times its colour envelope at `timeMs`. */
export function teeTint(map: TeeworldsMap, l: TileLayer, timeMs: number): [number, number, number, number] {
  const env = envelopeAt(map.envelopes[l.colorEnv], timeMs + l.colorEnvOffset) ?? [1, 1, 1, 1];
  return [l.color.r * env[0], l.color.g * env[1], l.color.b * env[2], l.color.a * env[3]].map((v) => Math.max(0, Math.min(255, v))) as [
    number,
    number,
    number,
    number,
  ];
}

/**
 * A plain grid for a Teeworlds layer that could not be placed: the first byte of each record of
 * the first block holding width × height records (a CTile's index, a physics tile's number).
 * `keep`: read lazy blocks into the level (else read and dropped).
 */
export function opaqueCells(l: OpaqueLayer, keep = false): Uint8Array | undefined {
  const cells = l.width * l.height;
  if (!(l.width > 0 && l.height > 0 && Number.isSafeInteger(cells))) return undefined;
  const blocks = keep ? l.blocks : readUncached(l, 'blocks');
  const block = blocks?.find((b) => b.bytes.length >= cells);
  if (!block) return undefined;
  const stride = Math.floor(block.bytes.length / cells);
  const out = new Uint8Array(cells);
  for (let i = 0; i < cells; i++) out[i] = block.bytes[i * stride]!;
  return out;
}
