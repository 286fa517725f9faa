// What every preview adapter shares: the shapes a preview is made of (drawable layers, markers,
// tables), text fields as strings, and how an adapter tells which format a decoded value is (the
// few fields it reads of each, declared here for GWC and GWZ).

import type { MainGrid } from '../formats/define.js';
import type { GraalDecoded } from '../formats/graal/index.js';
import type { TeeworldsMap } from '../formats/teeworlds/index.js';
import type { WdataLevel } from '../formats/wdata/types.js';
import type { WwdLevel } from '../formats/wwd/types.js';
import type { PreviewQuads } from './quads.js';
import type { GroupView } from './tee-camera.js';
import type { Tileset } from './tilesources.js';

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

export type Any = { format: string };

export const isWwd = (v: Any): v is WwdLevel => v.format === 'wwd';
export const isTee = (v: Any): v is TeeworldsMap => v.format === 'teeworlds';
export const isWdata = (v: Any): v is WdataLevel => v.format === 'wdata';
export const isGraal = (v: Any): v is GraalDecoded => v.format === 'graal' || v.format === 'graal-nw' || v.format === 'graal-gmap';

/**
 * The few fields of a GWC (Wherigo) cartridge a preview reads, declared here rather than imported
 * so this module does not depend on the format's internals (src/formats/gwc/types.ts documents them).
 */
export interface GwcView {
  format: 'gwc';
  header: Record<string, unknown> & { latitude: number; longitude: number; altitude: number };
  media: { id: number; type: number | null; data: Uint8Array; length: number }[];
}
export const isGwc = (v: Any): v is GwcView => v.format === 'gwc' && 'header' in v && Array.isArray((v as { media?: unknown }).media);

/** The fields of a GWZ (Wherigo source archive) a preview reads (src/formats/gwc/types.ts documents them). */
export interface GwzView {
  format: 'gwz';
  luaFile: string;
  lua: { text: string; raw: Uint8Array };
  media: { name: string; size: number; data: Uint8Array }[];
  others: { name: string; size: number }[];
}
export const isGwz = (v: Any): v is GwzView => v.format === 'gwz' && Array.isArray((v as { media?: unknown }).media);
