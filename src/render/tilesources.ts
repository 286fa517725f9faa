// Where a preview's tile pictures come from besides a map's embedded images: resources the caller
// loads and passes in (the bundled Teeworlds map resources by name, DDNet's editor atlases, a
// Graal tileset the user dropped), which of them a level needs, and how a tile id picks its cell
// of an atlas. The assets themselves live outside the library (assets/teeworlds/, README there).

import type { GraalDecoded } from '../formats/graal/index.js';
import type { TeeworldsMap, TileLayer } from '../formats/teeworlds/index.js';
import type { WwdLevel } from '../formats/wwd/types.js';

/** Pixels of a tileset image. Teeworlds' layout (default): 16 × 16 tiles of `width / 16` pixels. */
export interface Tileset {
  width: number;
  height: number;
  /** 3 (RGB) or 4 (RGBA) bytes per pixel. */
  channels: 3 | 4;
  pixels: Uint8Array;
  /**
   * 'graal': 16 × 16-pixel tiles, tile id → column `id % 16 + 16 · floor(id / 512)`, row
   * `floor(id / 16) % 32` (the classic 2048 × 512 pics1.png; docs/formats/graal.md). Absent:
   * Teeworlds' 16 × 16 grid of cells.
   */
  layout?: 'graal';
}

/**
 * Pictures a preview may draw with that are not inside the level; each is optional (what is
 * missing is drawn as a colour per tile id). Load only what resourcesNeeded() lists.
 */
export interface RenderResources {
  /** Teeworlds external images by name (the bundled map resources: assets/teeworlds/mapres/<name>.png). */
  images?: ReadonlyMap<string, Tileset>;
  /**
   * DDNet's editor atlases by layer kind, as its editor draws them: `game` with the entities atlas
   * (assets/teeworlds/entities/ddnet.png), front, tele, speedup, switch and tune each with its own
   * (entities/<kind>.png). ENTITY_ASSETS names the files.
   */
  entities?: Partial<Record<EntityLayerKind, Tileset>>;
  /** A Graal tileset (pics1.png layout) for Graal levels; graalTileset() makes one from a decoded PNG. */
  graalTileset?: Tileset;
  /**
   * WWD tile images by image-set name (upper case, as resourcesNeeded() lists it: `ACTION`,
   * `BACK`…) and tile id: each a whole tile picture (Claw's are 64 × 64), from the user's own copy
   * of the game. A tile without one is drawn as its colour.
   */
  wwdTiles?: ReadonlyMap<string, ReadonlyMap<number, Tileset>>;
}

/** What resourcesNeeded() says a level would draw with. */
export interface NeededResources {
  /** Names of the external images its tile and quad layers use (each once, as the map spells them; only names safe as file names). */
  images: string[];
  /** Its game, front, tele, speedup, switch and tune layer kinds (each once): the atlases it draws with. */
  entities: EntityLayerKind[];
  /** True for a Graal level with tiles (a tileset would draw them). */
  graalTileset: boolean;
  /** A WWD level's image sets (upper case) and the tile ids its planes use from each, ascending. */
  wwdTiles: { imageSet: string; ids: number[] }[];
}

/** Teeworlds/DDNet layer kinds drawn with an editor atlas. */
export type EntityLayerKind = 'game' | 'front' | 'tele' | 'speedup' | 'switch' | 'tune';
/** The bundled atlas of each kind, below assets/teeworlds/ (DDNet's data/editor/entities/DDNet.png and data/editor/<kind>.png). */
export const ENTITY_ASSETS: Readonly<Record<EntityLayerKind, string>> = {
  game: 'entities/ddnet.png',
  front: 'entities/front.png',
  tele: 'entities/tele.png',
  speedup: 'entities/speedup.png',
  switch: 'entities/switch.png',
  tune: 'entities/tune.png',
};
export const isEntityLayerKind = (kind: string): kind is EntityLayerKind => Object.hasOwn(ENTITY_ASSETS, kind);

/** Names a bundled map resource can have: letters, digits, `_`, `-`, `.` (never a path). */
export const MAPRES_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** A decoded tileset image (decodePng's RGBA) as the Graal tileset render() draws Graal levels with. */
export function graalTileset(image: { width: number; height: number; pixels: Uint8Array }): Tileset {
  return { width: image.width, height: image.height, channels: 4, pixels: image.pixels, layout: 'graal' };
}

/** Tile ids by image set (upper case) of a WWD level's planes: the high 16 bits of a cell pick the plane's set, the low 16 the tile. */
function wwdTilesUsed(level: WwdLevel): NeededResources['wwdTiles'] {
  const sets = new Map<string, Set<number>>();
  for (const p of level.planes) {
    const names = p.imageSetNames.map((n) => n.text.toUpperCase());
    for (const v of p.tiles) {
      if (v === 0xffffffff || v === 0xeeeeeeee) continue;
      const name = names[v >>> 16];
      if (!name) continue;
      const ids = sets.get(name) ?? new Set<number>();
      sets.set(name, ids);
      ids.add(v & 0xffff);
    }
  }
  return [...sets].map(([imageSet, ids]) => ({ imageSet, ids: [...ids].sort((a, b) => a - b) }));
}

/** The tile picture of WWD cell `v` of a plane whose image sets are `names` (upper case), if the caller loaded it. */
export function wwdTileImage(tiles: RenderResources['wwdTiles'], names: string[], v: number): Tileset | undefined {
  const name = names[v >>> 16];
  return name === undefined ? undefined : tiles?.get(name)?.get(v & 0xffff);
}

/** Which resources `value` would draw with: fetch or read these, nothing else. Cheap: reads no grid (a WWD level's tiles, decoded already, are scanned). */
export function resourcesNeeded(value: { format: string }): NeededResources {
  const out: NeededResources = { images: [], entities: [], graalTileset: false, wwdTiles: [] };
  if (value.format === 'wwd') {
    out.wwdTiles = wwdTilesUsed(value as WwdLevel);
    return out;
  }
  if (value.format === 'graal' || value.format === 'graal-nw') {
    out.graalTileset = (value as GraalDecoded & { layers: unknown[] }).layers.length > 0;
    return out;
  }
  if (value.format !== 'teeworlds') return out;
  const map = value as TeeworldsMap;
  const names = new Set<string>();
  const kinds = new Set<EntityLayerKind>();
  for (const g of map.groups)
    for (const l of g.layers) {
      if (isEntityLayerKind(l.kind)) kinds.add(l.kind);
      const image = l.kind === 'tiles' || l.kind === 'quads' ? l.image : -1;
      const img = image >= 0 ? map.images[image] : undefined;
      const name = img?.external ? img.name.text : undefined;
      if (name && MAPRES_NAME.test(name)) names.add(name);
    }
  out.images = [...names];
  out.entities = [...kinds];
  return out;
}

/** The tileset a Teeworlds tile or quad layer's external image is drawn with, if the caller loaded it. */
export function externalTileset(map: TeeworldsMap, image: number, resources: RenderResources | undefined): Tileset | undefined {
  const img = image >= 0 ? map.images[image] : undefined;
  if (!img?.external || !resources?.images) return undefined;
  const t = resources.images.get(img.name.text);
  return t && t.width >= 16 && t.height >= 16 ? t : undefined;
}

/**
 * The grid an editor-atlas drawing of a DDNet physics layer reads: the tile id DDNet's editor
 * draws (game/front: `index`; tele, speedup, switch, tune: `type`) and the flip/rotate flags where
 * the layer has them. Speedup arrows are not turned by their angle, and numbers are not written.
 */
export function entityColumns(l: TileLayer, grid: Record<string, Uint8Array | Int16Array> | undefined): { cells: Uint8Array; flags?: Uint8Array } | undefined {
  if (!grid) return undefined;
  if (l.kind === 'game' || l.kind === 'front') return { cells: grid.index as Uint8Array, flags: grid.flags as Uint8Array };
  if (l.kind === 'switch') return { cells: grid.type as Uint8Array, flags: grid.flags as Uint8Array };
  if (l.kind === 'tele' || l.kind === 'speedup' || l.kind === 'tune') return { cells: grid.type as Uint8Array };
  return undefined;
}

/** The source rectangle of tile `index` in `ts` (pixels), or undefined when the atlas has no such cell. */
export function atlasCell(ts: Tileset, index: number): { sx0: number; sy0: number; tw: number; th: number } | undefined {
  if (ts.layout === 'graal') {
    const col = (index % 16) + 16 * Math.floor(index / 512);
    const row = Math.floor(index / 16) % 32;
    if (index < 0 || (col + 1) * 16 > ts.width || (row + 1) * 16 > ts.height) return undefined;
    return { sx0: col * 16, sy0: row * 16, tw: 16, th: 16 };
  }
  if (index < 0 || index > 255) return undefined;
  const tw = ts.width / 16;
  const th = ts.height / 16;
  return { sx0: (index & 15) * tw, sy0: (index >> 4) * th, tw, th };
}
