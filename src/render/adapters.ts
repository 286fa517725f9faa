// What a preview reads from each format, in one place: the layers it can draw, the markers it
// puts on them and the tables it lists. Each adapter reads a few documented fields of the
// decoded value; everything else about drawing is format-agnostic (draw.ts).

import { defineLazy, isPending, readUncached } from '../core/lazy.js';
import type { MainGrid } from '../formats/define.js';
import type { GraalDecoded } from '../formats/graal/index.js';
import type { MapImage, OpaqueLayer, TeeworldsMap, TileLayer } from '../formats/teeworlds/index.js';
import type { WdataLevel } from '../formats/wdata/types.js';
import type { WwdLevel } from '../formats/wwd/types.js';
import { envelopeAt } from './envelopes.js';
import { type PreviewQuads, quadLayerOf } from './quads.js';
import { type GroupView, groupView, isIdentityView, isScreenOverlay } from './tee-camera.js';
import { entityColumns, externalTileset, isEntityLayerKind, type RenderResources, type Tileset, wwdTileImage } from './tilesources.js';
import { wdataPlot, wdataTables } from './wdata.js';

export type { Tileset } from './tilesources.js';

/** One drawable tile grid. */
export interface PreviewLayer {
  name: string;
  width: number;
  height: number;
  cells: MainGrid['cells'];
  /** Per-cell Teeworlds flags (flip/rotate) when the tiles come from a tileset. */
  flags?: Uint8Array;
  /** Draw tiles from this image instead of a colour per tile id. */
  tileset?: Tileset;
  /** RGBA tint applied to tileset pixels (Teeworlds layer colour). */
  tint?: [number, number, number, number];
  /** The format's main grid (what `mainGrid()` returns). */
  main: boolean;
  /** A Teeworlds quads layer: drawn as quads, not cells (`cells` is then empty; width and height are the map's). */
  quads?: PreviewQuads;
  /** Where a Teeworlds tile layer of a parallax group lands in the picture (absent: cell for cell). */
  view?: GroupView;
  /** The picture of each cell value (WWD tiles from the user's graphics), drawn whole into its cell; undefined: its colour. */
  tileImage?: (v: number) => Tileset | undefined;
  /** A screen-fixed foreground layer (a HUD): left out of a whole-map picture (tee-camera.ts isScreenOverlay). */
  overlay?: boolean;
  /** A Teeworlds physics layer (game, front, tele, speedup, switch, tune): the game does not draw it, only editors do. */
  physics?: boolean;
}

/** Something placed on the level: an object, link, spawn point, chest… In tile units. */
export interface Marker {
  kind: string;
  x: number;
  y: number;
  /** Size of an area marker (links); 0 for a point. */
  w: number;
  h: number;
  label: string;
  /** The table row this marker stands for (the page's inspector opens it, and highlights both). */
  ref?: { table: string; row: number };
}

/** Every field of one table row, for an inspector: names as the format documents them, values JSON-ready. */
export type PreviewRecord = Readonly<Record<string, unknown>>;

/** A table of records the page pages through. */
export interface PreviewTable {
  name: string;
  columns: string[];
  rows: (string | number)[][];
  /** All fields of each row (same order as `rows`), when the row shows only some. */
  records?: PreviewRecord[];
}

/** A text field as a string, whether the format gives a string or a Text ({ text, raw }). */
export function str(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && 'text' in v) return String((v as { text: unknown }).text);
  return v === undefined || v === null ? '' : String(v);
}

type Any = { format: string };

/**
 * The grid a preview draws of a Teeworlds tile layer: its first column (tile ids, tele/switch/tune
 * numbers, speedup force) and, for CTile kinds, the tile flags; undefined when the layer has none
 * (a `sections: 'summary'` decode). `keep: false` reads a lazy grid (`layers: 'lazy'`) without
 * keeping it in the map, so drawing many layers holds one grid at a time.
 */
function teeGrid(l: TileLayer, keep: boolean): { cells: Uint8Array; flags?: Uint8Array } | undefined {
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
function teeGridKey(l: TileLayer): 'tiles' | 'tele' | 'speedup' | 'switch' | 'tune' {
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
function hasTeeGrid(l: TileLayer): boolean {
  const key = teeGridKey(l);
  return isPending(l, key) || (l as unknown as Record<string, unknown>)[key] !== undefined;
}

/** A Teeworlds layer's grid fields by name (tiles, tele, speedup, switch, tune). */
function teeFields(l: TileLayer): Record<string, Record<string, Uint8Array | Int16Array> | undefined> {
  return l as unknown as Record<string, Record<string, Uint8Array | Int16Array> | undefined>;
}

/** The picture of Teeworlds image `index`: its embedded pixels, else the bundled resource of its name when the caller loaded it. */
function teeImage(map: TeeworldsMap, index: number, resources: RenderResources | undefined): Tileset | undefined {
  const img = index >= 0 ? map.images[index] : undefined;
  if (!img) return undefined;
  if (img.external) return externalTileset(map, index, resources);
  return hasPixels(img) && img.width >= 16 && img.height >= 16 ? tilesetOf(img) : undefined;
}

/** The size quads are placed in: the game layer's, else the largest tile layer's (in tiles). */
function teeMapSize(map: TeeworldsMap): { width: number; height: number } {
  let size = { width: 0, height: 0 };
  for (const g of map.groups)
    for (const l of g.layers) {
      if (l.kind === 'game') return { width: l.width, height: l.height };
      if ('width' in l && l.kind !== 'opaque' && l.width * l.height > size.width * size.height) size = { width: l.width, height: l.height };
    }
  return size;
}

/**
 * How drawing reads each preview layer's grid when it can do so without keeping it (a lazy
 * Teeworlds grid): the drawing code asks previewGrid(), which falls back to the layer's fields.
 */
const uncachedGrids = new WeakMap<PreviewLayer, () => { cells: MainGrid['cells']; flags?: Uint8Array | undefined }>();

/** The grid of a preview layer for drawing: read without keeping it in the level when it is lazy (then each call reads it again). */
export function previewGrid(layer: PreviewLayer): { cells: MainGrid['cells']; flags?: Uint8Array | undefined } {
  return uncachedGrids.get(layer)?.() ?? { cells: layer.cells, flags: layer.flags };
}

const isWwd = (v: Any): v is WwdLevel => v.format === 'wwd';
const isTee = (v: Any): v is TeeworldsMap => v.format === 'teeworlds';
const isWdata = (v: Any): v is WdataLevel => v.format === 'wdata';
const isGraal = (v: Any): v is GraalDecoded => v.format === 'graal' || v.format === 'graal-nw' || v.format === 'graal-gmap';

/** The game group's index (the first group holding a game layer), or -1. */
function gameGroupIndex(map: TeeworldsMap): number {
  return map.groups.findIndex((g) => g.layers.some((l) => l.kind === 'game'));
}

/** A Teeworlds tile layer's tint: its colour times its colour envelope at `timeMs`. */
function teeTint(map: TeeworldsMap, l: TileLayer, timeMs: number): [number, number, number, number] {
  const env = envelopeAt(map.envelopes[l.colorEnv], timeMs + l.colorEnvOffset) ?? [1, 1, 1, 1];
  return [l.color.r * env[0], l.color.g * env[1], l.color.b * env[2], l.color.a * env[3]].map((v) => Math.max(0, Math.min(255, v))) as [
    number,
    number,
    number,
    number,
  ];
}

/**
 * Every tile grid (and Teeworlds quads layer) of `value` a preview can show, the main grid flagged.
 * Empty for formats without grids. `resources`: pictures from outside the level (bundled Teeworlds
 * map resources and entities atlas, a Graal tileset) that layers are drawn with when given.
 * `timeMs`: the moment Teeworlds envelopes (moving quads, pulsing colours) are drawn at.
 */
export function layersOf(value: Any, main: MainGrid | undefined, resources?: RenderResources, timeMs = 0): PreviewLayer[] {
  const out: PreviewLayer[] = [];
  if (isWwd(value)) {
    value.planes.forEach((p, i) => {
      if (p.tiles.length === p.tilesWide * p.tilesHigh && p.tiles.length > 0) {
        const layer: PreviewLayer = {
          name: str(p.name) || `plane ${i}`,
          width: p.tilesWide,
          height: p.tilesHigh,
          cells: p.tiles,
          main: p.tiles === main?.cells,
        };
        const names = p.imageSetNames.map((n) => n.text.toUpperCase());
        if (resources?.wwdTiles?.size) layer.tileImage = (v) => wwdTileImage(resources.wwdTiles, names, v);
        out.push(layer);
      }
    });
  } else if (isTee(value)) {
    let mainSeen = false;
    const size = teeMapSize(value);
    const game = gameGroupIndex(value);
    value.groups.forEach((g, gi) => {
      const view = groupView(g, size);
      const placed = isIdentityView(view) ? {} : { view };
      const overlay = isScreenOverlay(g, game >= 0 && gi > game) ? { overlay: true } : {};
      g.layers.forEach((l, li) => {
        if (l.kind === 'quads') {
          if (!l.quads?.count && !isPending(l, 'quads')) return;
          // Not spread: that would read the lazy quads now.
          const layer: PreviewLayer = quadLayerOf(value, gi, li, teeImage(value, l.image, resources), size, timeMs);
          if (overlay.overlay) layer.overlay = true;
          out.push(layer);
          return;
        }
        if (l.kind === 'sounds' || l.kind === 'unknown') return;
        if (l.kind === 'opaque') {
          // Opaque layers are rare: whether one has a drawable block is found by reading its blocks (not kept).
          if (!opaqueCells(l)) return;
          const layer = { name: `${gi}.${li} opaque${str(l.name) ? ` ${str(l.name)}` : ''}`, width: l.width, height: l.height, main: false } as PreviewLayer;
          defineLazy(layer, 'cells', () => opaqueCells(l, true)!);
          uncachedGrids.set(layer, () => ({ cells: opaqueCells(l)! }));
          out.push(layer);
          return;
        }
        if (!hasTeeGrid(l)) return;
        const entities = isEntityLayerKind(l.kind) ? resources?.entities?.[l.kind] : undefined;
        const tileset = l.kind === 'tiles' ? teeImage(value, l.image, resources) : entities;
        const name = `${gi}.${li} ${l.kind}${str(l.name) ? ` ${str(l.name)}` : ''}`;
        // mainGrid() is the first game layer's tiles: that layer, found without reading any grid.
        const isMain = main !== undefined && l.kind === 'game' && !mainSeen;
        if (l.kind === 'game') mainSeen = true;
        // The grid fields read the level's own (a lazy grid is kept once read through them); drawing reads through previewGrid.
        const physics = isEntityLayerKind(l.kind) ? { physics: true } : {};
        const layer = { name, width: l.width, height: l.height, main: isMain, ...placed, ...overlay, ...physics } as PreviewLayer;
        if (entities) {
          // Drawn as DDNet's editor draws them: the entity tile ids (a tele's type, not its number) from the kind's atlas.
          const columns = (keep: boolean) => entityColumns(l, keep ? teeFields(l)[teeGridKey(l)] : readUncached(teeFields(l), teeGridKey(l)))!;
          defineLazy(layer, 'cells', () => columns(true).cells);
          defineLazy(layer, 'flags', () => columns(true).flags);
          layer.tileset = entities;
          uncachedGrids.set(layer, () => columns(false));
          out.push(layer);
          return;
        }
        defineLazy(layer, 'cells', () => teeGrid(l, true)!.cells);
        if (tileset) {
          layer.tileset = tileset;
          if (teeGridKey(l) === 'tiles') defineLazy(layer, 'flags', () => teeGrid(l, true)!.flags);
          layer.tint = teeTint(value, l, timeMs);
        }
        uncachedGrids.set(layer, () => {
          const grid = teeGrid(l, false)!;
          return tileset ? grid : { cells: grid.cells };
        });
        out.push(layer);
      });
    });
  } else if (isWdata(value)) {
    // No tile grid: a blank plot the box markers are drawn on.
    const plot = wdataPlot(value);
    if (plot) out.push(plot.layer);
  } else if (isGraal(value) && value.format !== 'graal-gmap') {
    const tileset = resources?.graalTileset;
    for (const l of value.layers)
      out.push({ name: `layer ${l.index}`, width: 64, height: 64, cells: l.tiles, main: l.tiles === main?.cells, ...(tileset ? { tileset } : {}) });
  } else if (main) {
    out.push({ name: 'main', ...main, main: true });
  }
  if (main && !out.some((l) => l.main)) out.unshift({ name: 'main', ...main, main: true });
  return out;
}

/**
 * A plain grid for a Teeworlds layer that could not be placed: the first byte of each record of
 * the first block holding width × height records (a CTile's index, a physics tile's number).
 * `keep`: read lazy blocks into the level (else read and dropped).
 */
function opaqueCells(l: OpaqueLayer, keep = false): Uint8Array | undefined {
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

/** Teeworlds entity tiles that get a marker (game layer index values). */
const TEE_ENTITIES: Record<number, string> = { 192: 'spawn', 193: 'spawn (red)', 194: 'spawn (blue)', 195: 'flag (red)', 196: 'flag (blue)' };
/** At most this many markers per level (a preview is not a table). */
export const MAX_MARKERS = 20_000;

/** Markers of `value`: WWD objects (main plane), Graal links/NPCs/chests/signs/baddies, Teeworlds spawns, flags and teleporters. */
export function markersOf(value: Any): Marker[] {
  const out: Marker[] = [];
  const push = (m: Marker) => {
    if (out.length < MAX_MARKERS) out.push(m);
  };
  if (isWwd(value)) {
    const plane = value.planes[value.mainPlane];
    if (!plane) return out;
    const o = plane.objects;
    const tw = plane.tileWidth || 64;
    const th = plane.tileHeight || 64;
    for (let i = 0; i < o.count; i++)
      push({
        kind: 'object',
        x: o.x[i]! / tw,
        y: o.y[i]! / th,
        w: 0,
        h: 0,
        label: `${str(o.logic[i]) || 'object'} #${o.id[i]}${str(o.name[i]) ? ` "${str(o.name[i])}"` : ''}`,
      });
  } else if (isGraal(value) && value.format !== 'graal-gmap') {
    for (const l of value.links)
      push({ kind: 'link', x: l.x, y: l.y, w: l.width, h: l.height, label: `link → ${str(l.level)} (${str(l.destX)}, ${str(l.destY)})` });
    for (const n of value.npcs) push({ kind: 'npc', x: n.x, y: n.y, w: 0, h: 0, label: `NPC${str(n.image) ? ` ${str(n.image)}` : ''}` });
    for (const c of value.chests) push({ kind: 'chest', x: c.x, y: c.y, w: 0, h: 0, label: `chest: ${str(c.item)}` });
    for (const s of value.signs) push({ kind: 'sign', x: s.x, y: s.y, w: 0, h: 0, label: `sign: ${str(s.text).slice(0, 80)}` });
    for (const b of value.baddies) push({ kind: 'baddy', x: b.x, y: b.y, w: 0, h: 0, label: `baddy type ${b.type}` });
  } else if (isWdata(value)) {
    for (const m of wdataPlot(value)?.markers ?? []) push(m);
  } else if (isTee(value)) {
    for (const g of value.groups)
      for (const l of g.layers) {
        // Lazy grids are read here without being kept (the game grid is usually read already, as the main grid).
        if (l.kind === 'game') {
          const idx = readUncached(l, 'tiles')?.index;
          for (let i = 0; idx && i < idx.length; i++) {
            const name = TEE_ENTITIES[idx[i]!];
            if (name) push({ kind: name.startsWith('spawn') ? 'spawn' : 'flag', x: i % l.width, y: Math.floor(i / l.width), w: 1, h: 1, label: name });
          }
        } else if (l.kind === 'tele') {
          const tele = readUncached(l, 'tele');
          for (let i = 0; tele && i < tele.number.length; i++) {
            if (tele.type[i])
              push({ kind: 'tele', x: i % l.width, y: Math.floor(i / l.width), w: 1, h: 1, label: `tele ${tele.number[i]} (type ${tele.type[i]})` });
          }
        }
      }
  }
  return out;
}

/**
 * The few fields of a GWC (Wherigo) cartridge a preview reads, declared here rather than imported
 * so this module does not depend on the format's internals (src/formats/gwc/types.ts documents them).
 */
interface GwcView {
  format: 'gwc';
  header: Record<string, unknown> & { latitude: number; longitude: number; altitude: number };
  media: { id: number; type: number | null; data: Uint8Array; length: number }[];
}
const isGwc = (v: Any): v is GwcView => v.format === 'gwc' && 'header' in v && Array.isArray((v as { media?: unknown }).media);

/** MIME types of GWC media type numbers a browser can show or play. */
const GWC_MIME: Record<number, string> = {
  1: 'image/bmp',
  2: 'image/png',
  3: 'image/jpeg',
  4: 'image/gif',
  17: 'audio/wav',
  18: 'audio/mpeg',
  21: 'audio/ogg',
};

/** The fields of a GWZ (Wherigo source archive) a preview reads (src/formats/gwc/types.ts documents them). */
interface GwzView {
  format: 'gwz';
  luaFile: string;
  lua: { text: string; raw: Uint8Array };
  media: { name: string; size: number; data: Uint8Array }[];
  others: { name: string; size: number }[];
}
const isGwz = (v: Any): v is GwzView => v.format === 'gwz' && Array.isArray((v as { media?: unknown }).media);

/** MIME types of the media file names a GWZ holds (by extension, lower case); a Map, as the keys come from the file. */
const EXTENSION_MIME = new Map<string, string>([
  ['bmp', 'image/bmp'],
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['wav', 'audio/wav'],
  ['mp3', 'audio/mpeg'],
  ['ogg', 'audio/ogg'],
]);
const mimeOfName = (name: string) => EXTENSION_MIME.get(/\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? '');

/** Media a page can show (images) or play (sounds): GWC cartridges' media objects, a GWZ's media files. */
export interface PreviewMedia {
  /** The media object's id (GWC), or the member's index (GWZ). */
  id: number;
  /** The file name, when the format has one (GWZ). */
  name?: string;
  mime: string;
  bytes: Uint8Array;
}

/** `value`'s images and sounds, for thumbnails and players (empty for formats without media). */
export function mediaOf(value: Any): PreviewMedia[] {
  if (isGwz(value)) {
    return value.media.flatMap((m, id) => {
      const mime = mimeOfName(m.name);
      return mime && m.data.length ? [{ id, name: m.name, mime, bytes: m.data }] : [];
    });
  }
  if (!isGwc(value)) return [];
  return value.media.flatMap((m) => {
    const mime = m.type === null ? undefined : GWC_MIME[m.type];
    return mime && m.data.length ? [{ id: m.id, mime, bytes: m.data }] : [];
  });
}

/** A text a page shows as it is (source code, settings), in a preformatted block. */
export interface PreviewText {
  name: string;
  text: string;
}

/** `value`'s texts worth reading whole: a GWZ's Lua source, a DDNet map's server settings (empty for formats without such texts). */
export function textsOf(value: Any): PreviewText[] {
  if (isGwz(value)) return [{ name: value.luaFile, text: value.lua.text }];
  const settings = isTee(value) ? value.info?.settings : undefined;
  if (settings?.length) return [{ name: 'server settings', text: settings.map((t) => t.text).join('\n') }];
  return [];
}

/** Tables of `value`'s records for the page (objects, links, layers, images…). */
export function tablesOf(value: Any): PreviewTable[] {
  if (isWdata(value)) return wdataTables(value);
  if (isGwz(value)) {
    const members = [
      [value.luaFile, 'Lua source', value.lua.raw.length],
      ...value.media.map((m) => [m.name, mimeOfName(m.name) ?? 'media', m.size]),
      ...value.others.map((m) => [m.name, 'other', m.size]),
    ] as (string | number)[][];
    return [{ name: 'members', columns: ['name', 'kind', 'bytes'], rows: members }];
  }
  if (isGwc(value)) {
    const header = Object.entries(value.header).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v instanceof Date ? v.toISOString() : str(v)]);
    const media = value.media.map((m) => [m.id, m.type === null ? 'deleted' : (GWC_MIME[m.type] ?? `type ${m.type}`), m.length]);
    return [
      { name: 'header', columns: ['field', 'value'], rows: header },
      { name: 'media', columns: ['id', 'type', 'bytes'], rows: media },
    ];
  }
  if (isWwd(value)) {
    const rows: (string | number)[][] = [];
    value.planes.forEach((p, pi) => {
      const o = p.objects;
      for (let i = 0; i < o.count; i++) rows.push([pi, o.id[i]!, str(o.name[i]), str(o.logic[i]), str(o.imageSet[i]), o.x[i]!, o.y[i]!, o.z[i]!]);
    });
    const planes = value.planes.map(
      (p, i) => [i, str(p.name), `${p.tilesWide}×${p.tilesHigh}`, `${p.tileWidth}×${p.tileHeight}`, p.objects.count] as (string | number)[],
    );
    return [
      { name: 'objects', columns: ['plane', 'id', 'name', 'logic', 'image set', 'x', 'y', 'z'], rows },
      { name: 'planes', columns: ['plane', 'name', 'tiles', 'tile size', 'objects'], rows: planes },
    ];
  }
  if (isTee(value)) {
    const layers: (string | number)[][] = [];
    value.groups.forEach((g, gi) =>
      g.layers.forEach((l, li) => {
        const t = l.kind === 'quads' || l.kind === 'sounds' || l.kind === 'unknown' || l.kind === 'opaque' ? undefined : l;
        const size = t ? `${t.width}×${t.height}` : l.kind === 'opaque' ? `${l.width}×${l.height}` : '';
        layers.push([`${gi}.${li}`, str(g.name), str(l.name), l.kind, size, t?.image ?? '']);
      }),
    );
    const info = value.info;
    const infoRows: (string | number)[][] = info
      ? [
          ['author', info.author ? str(info.author) : '—'],
          ['version', info.mapVersion ? str(info.mapVersion) : '—'],
          ['credits', info.credits ? str(info.credits) : '—'],
          ['license', info.license ? str(info.license) : '—'],
          ['settings', info.settings ? `${info.settings.length} command${info.settings.length === 1 ? '' : 's'}` : 'none'],
        ]
      : [];
    return [
      { name: 'map info', columns: ['field', 'value'], rows: infoRows },
      { name: 'layers', columns: ['layer', 'group', 'name', 'kind', 'size', 'image'], rows: layers },
      {
        name: 'images',
        columns: ['#', 'name', 'size', 'embedded'],
        rows: value.images.map((m, i) => [i, str(m.name), `${m.width}×${m.height}`, m.external ? 'no' : 'yes']),
      },
      { name: 'sounds', columns: ['#', 'name', 'embedded'], rows: value.sounds.map((s, i) => [i, str(s.name), s.external ? 'no' : 'yes']) },
      {
        name: 'envelopes',
        columns: ['#', 'name', 'channels', 'points'],
        rows: value.envelopes.map((e, i) => [i, str(e.name), e.channels, e.points.time.length]),
      },
    ];
  }
  if (isGraal(value)) {
    if (value.format === 'graal-gmap') {
      const rows: (string | number)[][] = [];
      value.levels.forEach((row, y) => row.forEach((name, x) => rows.push([x, y, str(name)])));
      return [{ name: 'levels', columns: ['x', 'y', 'level'], rows }];
    }
    return [
      {
        name: 'links',
        columns: ['level', 'x', 'y', 'width', 'height', 'dest x', 'dest y'],
        rows: value.links.map((l) => [str(l.level), l.x, l.y, l.width, l.height, str(l.destX), str(l.destY)]),
      },
      { name: 'npcs', columns: ['x', 'y', 'image', 'script'], rows: value.npcs.map((n) => [n.x, n.y, str(n.image), str(n.script).slice(0, 120)]) },
      { name: 'chests', columns: ['x', 'y', 'item', 'sign'], rows: value.chests.map((c) => [c.x, c.y, str(c.item), c.signIndex]) },
      { name: 'signs', columns: ['x', 'y', 'text'], rows: value.signs.map((s) => [s.x, s.y, str(s.text).slice(0, 120)]) },
      { name: 'baddies', columns: ['x', 'y', 'type'], rows: value.baddies.map((b) => [b.x, b.y, b.type]) },
    ];
  }
  return [];
}
