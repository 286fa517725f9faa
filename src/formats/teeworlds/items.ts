// Map item layouts as data: int positions of every field per item type, and the sizes each
// version writes. The reader (map.ts) and the writer (map-encode.ts) both walk these tables,
// so neither holds version if-chains. Positions count from the first payload int.
// Sources and corpus counts: README.md §Items.

/** Item type ids of the map layer (mapitems.h). */
export const ITEM = {
  VERSION: 0,
  INFO: 1,
  IMAGE: 2,
  ENVELOPE: 3,
  GROUP: 4,
  LAYER: 5,
  ENVPOINTS: 6,
  SOUND: 7,
} as const;

/** Raw item types of the 2007 map format (no VERSION item, no UUID index). */
export const LEGACY_TYPES = { IMAGE: 0x8001, TILEMAP: 0x8002, COLLISION: 0x8003 } as const;

/** Layer item `type` values. */
export const LAYER_TYPE = { TILES: 2, QUADS: 3, SOUNDS_DEPRECATED: 9, SOUNDS: 10 } as const;

/**
 * Largest data string (info fields, image and sound names) with its NUL, in bytes. DDNet copies
 * these into buffers of at most 512 bytes (the longest in the corpus is 51), so the decoder
 * refuses a larger declared size (LIMIT_EXCEEDED) before inflating it, in every `sections` mode.
 */
export const MAX_STRING_BYTES = 1024;
/** Largest settings block (NUL-terminated commands; DDNet's are ≤ 256 bytes each; the corpus's largest block is 2.6 KB). */
export const MAX_SETTINGS_BYTES = 1 << 20;

export const INFO = { version: 0, author: 1, mapVersion: 2, credits: 3, license: 4, settings: 5, size: 6 } as const;

/** Image: v1 6 ints; v2 (0.7) adds `format` (later renamed must_be_1). */
export const IMAGE = {
  version: 0,
  width: 1,
  height: 2,
  external: 3,
  name: 4,
  data: 5,
  format: 6,
  sizeByVersion: { 1: 6, 2: 7 } as Record<number, number>,
} as const;

/** Envelope: v1 12 ints (old 0.5 maps write only the first 5, name missing), v2/v3 13. */
export const ENVELOPE = {
  version: 0,
  channels: 1,
  startPoint: 2,
  numPoints: 3,
  name: 4,
  nameInts: 8,
  synchronized: 12,
  sizeByVersion: { 1: 12, 2: 13, 3: 13 } as Record<number, number>,
} as const;

/** Envelope points: 6 ints (time, curve, values[4]); 22 with the 0.7 inline bezier (4 × 4 tangents). */
export const ENVPOINT = { time: 0, curve: 1, values: 2, bezier: 6, ints: 6, intsWithBezier: 22 } as const;
/** The DDNet envpoints-bezier item: 16 ints per point, in-dx, in-dy, out-dx, out-dy (4 each). */
export const BEZIER_INTS = 16;

/** Group: v1 7 ints, v2 adds clipping (12), v3 adds the name (15). */
export const GROUP = {
  version: 0,
  offsetX: 1,
  offsetY: 2,
  parallaxX: 3,
  parallaxY: 4,
  startLayer: 5,
  numLayers: 6,
  useClipping: 7,
  clipX: 8,
  clipY: 9,
  clipW: 10,
  clipH: 11,
  name: 12,
  nameInts: 3,
  sizeByVersion: { 1: 7, 2: 12, 3: 15 } as Record<number, number>,
} as const;

/** Common layer header. */
export const LAYER = { version: 0, type: 1, flags: 2, FLAG_DETAIL: 1 } as const;

/** Tilemap layer: base fields, then per version where the name and the DDNet extension indices sit. */
export const TILEMAP = { version: 3, width: 4, height: 5, flags: 6, color: 7, colorEnv: 11, colorEnvOffset: 12, image: 13, data: 14 } as const;
export interface TilemapLayout {
  /** Int position of name[3], or -1 when this version has none. */
  name: number;
  /** Int position of the 5 extension indices (tele, speedup, front, switch, tune), read by the item's real size. */
  ext: number;
}
export const TILEMAP_BY_VERSION: Record<number, TilemapLayout> = {
  // QUIRK: DDRace-era v2 items carry the extension indices straight after `data` (no name); truncated prefixes occur.
  2: { name: -1, ext: 15 },
  3: { name: 15, ext: 18 },
  // 0.7: tile-skip compressed data; 0.7 has no physics extensions, DDNet never writes v4.
  4: { name: 15, ext: 18 },
};

/** tilemap `flags` → physics layer kind, and where its grid lives (extension slot, -1 = `data`). */
export const PHYSICS = [
  { flag: 0, kind: 'tiles', ext: -1 },
  { flag: 1, kind: 'game', ext: -1 },
  { flag: 2, kind: 'tele', ext: 0 },
  { flag: 4, kind: 'speedup', ext: 1 },
  { flag: 8, kind: 'front', ext: 2 },
  { flag: 16, kind: 'switch', ext: 3 },
  { flag: 32, kind: 'tune', ext: 4 },
] as const;

/**
 * Tile layers of mods whose `flags` mean something else than DDNet's, recognised only where the
 * mod's own sources confirm the layout (README.md §Mods). InfClass (necropotame/teeworlds-infclass,
 * editor io.cpp until 2017-01): flag 2 = entities, 4 = zones, a CTile grid in `data`, written as
 * an 18-int v3 item (TW 0.6 layout, no DDNet extension indices).
 */
export const MOD_TILE_LAYERS = [
  { mod: 'infclass', flag: 2, kind: 'infclassEntities', tilemapVersion: 3 },
  { mod: 'infclass', flag: 4, kind: 'infclassZones', tilemapVersion: 3 },
] as const;

/** Group names InfClass (infclassR) reads as its zone and entity groups, whatever their layers' flags. */
export const INFCLASS_GROUP_NAMES: readonly string[] = ['#Zones', '#Entities'];

/** The grid field a tile layer of `kind` stores (`tiles` for every CTile kind), which is also its TILE_STRUCTS key. */
export function gridKey(kind: string): 'tiles' | 'tele' | 'speedup' | 'switch' | 'tune' {
  return kind === 'tele' || kind === 'speedup' || kind === 'switch' || kind === 'tune' ? kind : 'tiles';
}

/** Byte structs of the tile grids: stride, and the column names in byte order. */
export const TILE_STRUCTS = {
  tiles: { stride: 4, columns: ['index', 'flags'] }, // + skip, reserved (checked, not kept)
  front: { stride: 4, columns: ['index', 'flags'] },
  tele: { stride: 2, columns: ['number', 'type'] },
  speedup: { stride: 6, columns: ['force', 'maxSpeed', 'type', 'pad', 'angleLo', 'angleHi'] },
  switch: { stride: 4, columns: ['number', 'type', 'flags', 'delay'] },
  tune: { stride: 2, columns: ['number', 'type'] },
} as const;

export const QUADS = { version: 3, numQuads: 4, data: 5, image: 6, name: 7, sizeByVersion: { 1: 7, 2: 10 } as Record<number, number> } as const;
export const SOUNDS = { version: 3, numSources: 4, data: 5, sound: 6, name: 7, size: 10 } as const;

/** Int-struct tables as (column, ints per record) in record order. */
export type IntStruct = readonly (readonly [string, number])[];
/** The columns an IntStruct reads into: one Int32Array per column name (so readers need no casts). */
export type IntColumns<S extends IntStruct> = { [K in S[number][0]]: Int32Array };

export const QUAD_STRUCT = [
  ['points', 10],
  ['colors', 16],
  ['texcoords', 8],
  ['posEnv', 1],
  ['posEnvOffset', 1],
  ['colorEnv', 1],
  ['colorEnvOffset', 1],
] as const satisfies IntStruct;
export const SOURCE_STRUCT = [
  ['position', 2],
  ['loop', 1],
  ['pan', 1],
  ['delay', 1],
  ['falloff', 1],
  ['posEnv', 1],
  ['posEnvOffset', 1],
  ['soundEnv', 1],
  ['soundEnvOffset', 1],
  ['shape', 3],
] as const satisfies IntStruct;
/** The deprecated sound layer's 36-byte source (converted to SOURCE_STRUCT with pan 1, falloff 0, a circle). */
export const SOURCE_STRUCT_DEPRECATED = [
  ['position', 2],
  ['loop', 1],
  ['delay', 1],
  ['radius', 1],
  ['posEnv', 1],
  ['posEnvOffset', 1],
  ['soundEnv', 1],
  ['soundEnvOffset', 1],
] as const satisfies IntStruct;
export const SHAPE_CIRCLE = 1;

export const SOUND = { version: 0, external: 1, name: 2, data: 3, dataSize: 4, size: 5 } as const;
export const AUTOMAPPER = { version: 0, group: 1, layer: 2, config: 3, seed: 4, flags: 5, size: 6 } as const;

/** Ints per record of an IntStruct. */
export function structInts(s: IntStruct): number {
  let n = 0;
  for (const [, w] of s) n += w;
  return n;
}

/** Splits `count` records of little-endian int structs in `bytes` into one Int32Array per column. */
export function gatherInts<S extends IntStruct>(bytes: Uint8Array, count: number, s: S): IntColumns<S> {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stride = structInts(s);
  const out: Record<string, Int32Array> = {};
  let at = 0;
  for (const [name, w] of s) {
    const col = new Int32Array(count * w);
    for (let r = 0; r < count; r++) for (let k = 0; k < w; k++) col[r * w + k] = dv.getInt32((r * stride + at + k) * 4, true);
    out[name] = col;
    at += w;
  }
  // Every name of S was just set: the record is exactly IntColumns<S>.
  return out as IntColumns<S>;
}

/** Inverse of gatherInts: interleaves the columns back into little-endian records. */
export function scatterInts<S extends IntStruct>(cols: IntColumns<S>, count: number, s: S): Uint8Array {
  const stride = structInts(s);
  const bytes = new Uint8Array(count * stride * 4);
  const dv = new DataView(bytes.buffer);
  let at = 0;
  const byName: Readonly<Record<string, Int32Array>> = cols;
  for (const [name, w] of s) {
    const col = byName[name]!;
    for (let r = 0; r < count; r++) for (let k = 0; k < w; k++) dv.setInt32((r * stride + at + k) * 4, col[r * w + k]!, true);
    at += w;
  }
  return bytes;
}
