// Teeworlds / DDNet maps: the exported types, container first, then the map on top of it.
// See README.md in this folder for the layouts and the quirks behind each field.

import type { DecodeWarning } from '../../core/errors.js';
import type { Text } from '../../core/text.js';

export type { Text } from '../../core/text.js';

/**
 * Every warning code a Teeworlds decode can give (README.md §Warnings); `strict: true` turns each
 * into DecodeError `STRICT` carrying the code.
 */
export type TeeworldsWarningCode =
  | 'HEADER_SIZE_BUG' // v4 size/swaplen omit data_sizes (pre-2010 writers)
  | 'HEADER_SIZE_MISMATCH' // size/swaplen disagree with the layout otherwise
  | 'TRAILING_BYTES' // bytes after the data section
  | 'DUPLICATE_EX_ITEM' // the UUID index item written twice (old DDNet tools)
  | 'DUPLICATE_ITEM_ID' // another (type, id) pair written twice
  | 'ZERO_SIZE_DATA' // a data block declares an inflated size of 0 (TeeUniverse)
  | 'STRING_NOT_TERMINATED' // a data string without its NUL
  | 'OVERSIZED_IMAGE_DATA' // bytes after an image's pixels (dropped)
  | 'SHORT_IMAGE_DATA' // an embedded image's block is shorter than its pixels (not loaded; kept in storedPixels)
  | 'EMPTY_IMAGE' // an embedded image of 0 × 0 (older editors' embed of an image they could not load)
  | 'BEZIER_MISMATCH' // the envpoints-bezier item does not cover the points (ignored)
  | 'UNGROUPED_LAYERS' // layer items no group refers to (dropped)
  | 'SHARED_LAYERS' // a group lists layers an earlier group lists too (MMOTee; in each group, decoded once)
  | 'UNDERSIZED_TILES' // 2010 DDRace grids with smaller tiles (the rest reads as empty)
  | 'NONZERO_TILE_SKIP' // CTile skip/reserved bytes set (ignored)
  | 'BAD_INFO_FIELD'; // an info field or the settings name a block that cannot be theirs (read as null)

// ── container ────────────────────────────────────────────────────────────────

/** One datafile item: a 16-bit type id, a 16-bit id and its payload ints (a copy). */
export interface DatafileItem {
  typeId: number;
  id: number;
  data: Int32Array;
}

/** Where a data block sits in the file (used by lazy reads and by benches). */
export interface DataBlockInfo {
  /** Absolute offset of the stored (compressed in v4) bytes. */
  offset: number;
  /** Stored byte length. */
  storedByteLength: number;
  /** Inflated byte length (v4: from data_sizes; v3: the stored length). */
  byteLength: number;
}

// ── map ──────────────────────────────────────────────────────────────────────

/**
 * `ddnet` (0.6 layouts, DDNet extensions), `teeworlds07` (0.7 layouts), `infclass` (0.6 layouts
 * with InfClass's entity and zone tile layers, flags 2 and 4), `legacy` (2007 maps).
 */
export type MapFlavour = 'ddnet' | 'teeworlds07' | 'infclass' | 'legacy';

// Every text of a map is a `Text` with `encoding: 'utf-8'` (the game's encoding; the decode option
// `encoding` does not apply): `raw` holds the stored bytes, invalid UTF-8 included, and is what the
// encoder writes back while `text` is unchanged.

export interface MapInfo {
  /** Item version (1). */
  version: number;
  author: Text | null;
  mapVersion: Text | null;
  credits: Text | null;
  license: Text | null;
  /** DDNet server settings (one command per entry); [] when the settings field is −1 (no commands), null when the INFO item has no settings field (5-int layout). */
  settings: Text[] | null;
}

export interface MapImage {
  /** Item version: 1 (0.6/DDNet) or 2 (0.7, adds `format`). */
  version: number;
  width: number;
  height: number;
  name: Text;
  /** External images are looked up as `mapres/<name>.png` and carry no pixels. */
  external: boolean;
  /** v2 only: 1 = RGBA; 0 = RGB (0.7 editors 2012–2020). Undefined on v1. */
  format?: number;
  /** Row-major pixels, `width × height × channels` bytes (channels 4, or 3 for format 0); absent when external or with `sections: 'summary'`. */
  pixels?: Uint8Array;
  /**
   * An embedded image whose block is shorter than its pixels (warning SHORT_IMAGE_DATA): the game
   * cannot use it, so it has no `pixels`; these are the stored bytes, which the encoder writes back.
   */
  storedPixels?: Uint8Array;
}

export interface MapSound {
  version: number;
  external: boolean;
  name: Text;
  /** Opus file bytes; absent when external or with `sections: 'summary'`. */
  data?: Uint8Array;
}

/** Points of one envelope as columns (n points). Values are 22.10 fixed point; times in ms. */
export interface EnvelopePoints {
  time: Int32Array;
  curve: Int32Array;
  /** 4 per point. */
  values: Int32Array;
  /**
   * Bezier tangents, 4 per point each: present when the map stores them (0.7 envelope v3
   * inline, or the DDNet envpoints-bezier item).
   */
  bezier?: { inDx: Int32Array; inDy: Int32Array; outDx: Int32Array; outDy: Int32Array };
}

export interface MapEnvelope {
  /** 1, 2 (adds `synchronized`) or 3 (0.7: points carry inline bezier data). */
  version: number;
  /** 1 sound, 3 position, 4 colour. */
  channels: number;
  name: Text;
  synchronized: boolean;
  points: EnvelopePoints;
}

/**
 * Tile grids as byte columns, `width × height` each, row-major. Decoded columns may be views of
 * one larger buffer (index and flags of a DDNet grid are the first half of its inflated block):
 * copy with `slice()` before transferring `.buffer` elsewhere.
 */
export interface TileColumns {
  index: Uint8Array;
  flags: Uint8Array;
}

export interface TeleColumns {
  number: Uint8Array;
  type: Uint8Array;
}
export interface SpeedupColumns {
  force: Uint8Array;
  maxSpeed: Uint8Array;
  type: Uint8Array;
  angle: Int16Array;
}
export interface SwitchColumns {
  number: Uint8Array;
  type: Uint8Array;
  flags: Uint8Array;
  delay: Uint8Array;
}
export interface TuneColumns {
  number: Uint8Array;
  type: Uint8Array;
}

/**
 * Which grid a tile layer holds: plain tiles, one of the DDNet physics layers, or InfClass's
 * entity or zone layer (tilemap flags 2 and 4 on an item without DDNet's extension indices).
 */
export type TileLayerKind = 'tiles' | 'game' | 'front' | 'tele' | 'speedup' | 'switch' | 'tune' | 'infclassEntities' | 'infclassZones';
export type LayerKind = TileLayerKind | 'quads' | 'sounds' | 'opaque' | 'unknown';

export interface LayerBase {
  name: Text;
  /** Layer flag bit 0: detail (hidden at low detail settings). */
  detail: boolean;
}

/** What every tile layer has, whatever grid it holds. */
export interface TileLayerBase extends LayerBase {
  /** Tilemap item version: 2 (0.6/DDRace), 3 (DDNet, TW 2011) or 4 (0.7, tile-skip compressed; `tiles` and `game` only). */
  tilemapVersion: number;
  width: number;
  height: number;
  color: { r: number; g: number; b: number; a: number };
  colorEnv: number;
  colorEnvOffset: number;
  image: number;
  /**
   * A tele, speed-up, switch or tune grid stored shorter than `width × height` records (2010
   * DDRace's 4-byte speed-up and 2-byte switch tiles): DDNet ignores it, so the grid reads as empty
   * (warning UNDERSIZED_TILES), and these stored bytes are what the encoder writes back.
   */
  ignoredGrid?: Uint8Array;
}

// Grids are absent with `sections: 'summary'` (except the game layer's `tiles`).
export interface TilesLayer extends TileLayerBase {
  kind: 'tiles';
  tiles?: TileColumns;
}
export interface GameLayer extends TileLayerBase {
  kind: 'game';
  tiles?: TileColumns;
}
export interface FrontLayer extends TileLayerBase {
  kind: 'front';
  tiles?: TileColumns;
}
export interface TeleLayer extends TileLayerBase {
  kind: 'tele';
  tele?: TeleColumns;
}
export interface SpeedupLayer extends TileLayerBase {
  kind: 'speedup';
  speedup?: SpeedupColumns;
}
export interface SwitchLayer extends TileLayerBase {
  kind: 'switch';
  switch?: SwitchColumns;
}
export interface TuneLayer extends TileLayerBase {
  kind: 'tune';
  tune?: TuneColumns;
}

/** InfClass entity layer (tilemap flag 2, 18-int v3 item): a CTile grid in `data`. */
export interface InfclassEntitiesLayer extends TileLayerBase {
  kind: 'infclassEntities';
  tiles?: TileColumns;
}
/** InfClass zone layer (tilemap flag 4, 18-int v3 item): a CTile grid in `data` (zone numbers in `index`). */
export interface InfclassZonesLayer extends TileLayerBase {
  kind: 'infclassZones';
  tiles?: TileColumns;
}

/** A tile layer, discriminated by `kind`: `if (l.kind === 'tele')` gives `l.tele`. */
export type TileLayer = TilesLayer | GameLayer | FrontLayer | TeleLayer | SpeedupLayer | SwitchLayer | TuneLayer | InfclassEntitiesLayer | InfclassZonesLayer;

/** Quads as columns (n quads): points 5×(x,y), colors 4×(r,g,b,a), texcoords 4×(u,v). */
export interface QuadColumns {
  count: number;
  points: Int32Array;
  colors: Int32Array;
  texcoords: Int32Array;
  posEnv: Int32Array;
  posEnvOffset: Int32Array;
  colorEnv: Int32Array;
  colorEnvOffset: Int32Array;
}

export interface QuadsLayer extends LayerBase {
  kind: 'quads';
  /** Quads item version (1 or 2). */
  quadsVersion: number;
  image: number;
  quads?: QuadColumns;
}

/** Sound sources as columns (n sources); shape: type 0 rectangle (w, h), 1 circle (radius in w). */
export interface SoundSourceColumns {
  count: number;
  /** 2 per source. */
  position: Int32Array;
  loop: Int32Array;
  pan: Int32Array;
  delay: Int32Array;
  falloff: Int32Array;
  posEnv: Int32Array;
  posEnvOffset: Int32Array;
  soundEnv: Int32Array;
  soundEnvOffset: Int32Array;
  /** 3 per source: type, width or radius, height. */
  shape: Int32Array;
}

export interface SoundsLayer extends LayerBase {
  kind: 'sounds';
  /** True for the deprecated layer type 9 (36-byte sources, converted on read). */
  deprecated: boolean;
  soundsVersion: number;
  sound: number;
  sources?: SoundSourceColumns;
}

/** A layer type this decoder does not know: its item ints after the 3-int header, kept raw. */
export interface UnknownLayer extends LayerBase {
  kind: 'unknown';
  layerType: number;
  data: Int32Array;
}

/** One data block an opaque layer's item names, by the item slot that names it. */
export interface OpaqueBlock {
  /** Position in `item` of the int holding the data index (the encoder re-points it). */
  slot: number;
  /** The block's inflated bytes (a copy owned by the result). */
  bytes: Uint8Array;
}

/**
 * A tile layer (type 2) this decoder cannot place for certain: flags no game or confirmed mod
 * gives this layout (several physics flags, unknown bits, a DDNet physics flag whose extension
 * index is missing or names no block), or a tilemap version other than 2–4. Never a failure of
 * the map: its item ints and the blocks they name are kept and written back unchanged (README.md §Mods).
 */
export interface OpaqueLayer extends LayerBase {
  kind: 'opaque';
  /** Item ints after the 3-int layer header, as stored. */
  item: Int32Array;
  /** Tilemap version, width, height and flags as the item stores them (0 where the item is too short). */
  tilemapVersion: number;
  width: number;
  height: number;
  flags: number;
  /** Why it could not be placed. */
  reason: string;
  /**
   * The readable blocks its `data` and extension slots name (each a valid index no other section
   * uses); absent with `sections: 'summary'`. A slot naming no readable block is written back as −1.
   */
  blocks?: OpaqueBlock[];
}

export type MapLayer = TileLayer | QuadsLayer | SoundsLayer | OpaqueLayer | UnknownLayer;

export interface MapGroup {
  /** 1, 2 (adds clipping) or 3 (adds the name). */
  version: number;
  offsetX: number;
  offsetY: number;
  parallaxX: number;
  parallaxY: number;
  clipping: { enabled: boolean; x: number; y: number; width: number; height: number };
  name: Text;
  layers: MapLayer[];
}

export interface AutomapperConfig {
  version: number;
  /** Group index and layer index within the group. */
  group: number;
  layer: number;
  config: number;
  seed: number;
  /** Bit 0: automatic. */
  flags: number;
}

/** An item the map layer does not interpret, kept for the encoder: by UUID when it has one. */
export interface ExtraItem {
  uuid?: string;
  typeId?: number;
  id: number;
  data: Int32Array;
}

export interface TeeworldsMap {
  format: 'teeworlds';
  warnings: DecodeWarning<TeeworldsWarningCode>[];
  flavour: MapFlavour;
  datafileVersion: 3 | 4;
  /** 'ATAD' when the file carries the reversed magic of big-endian writers. */
  magic: 'DATA' | 'ATAD';
  info: MapInfo | null;
  images: MapImage[];
  envelopes: MapEnvelope[];
  groups: MapGroup[];
  sounds: MapSound[];
  automapperConfigs: AutomapperConfig[];
  /** Items kept raw: unknown UUID types, the obsolete group-ex item, other unknown types. */
  extraItems: ExtraItem[];
  /** Legacy (2007) maps only: every item and data block, raw (data absent with `sections: 'summary'`). */
  legacy?: { items: DatafileItem[]; data?: Uint8Array[] };
  /**
   * `sections: 'summary'` only: the data blocks that decode did not inflate (grids, pixels, sounds,
   * quads, sources), so their zlib streams and contents were not checked; every index, size and
   * ownership rule was. Absent after a full decode.
   */
  blocksNotInflated?: number;
  /**
   * `sections: 'summary'` only: the warnings whose checks read a block this decode left deflated
   * (`NONZERO_TILE_SKIP` when a CTile grid other than the game layer's was not read), so a full
   * decode may add them. Every other warning is checked at both depths. Absent after a full decode.
   */
  uncheckedWarnings?: TeeworldsWarningCode[];
}
