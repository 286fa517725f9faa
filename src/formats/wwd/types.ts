// WWD (WAP32 "Wap World Document": Claw, Gruntz, Get Medieval): the decoded model.
// Field names follow ../../shared/specs/wwd.txt; see README.md here for layout, quirks, text and
// which fields the encoder recomputes.

import type { DecodeWarning } from '../../core/errors.js';
import type { Backend } from '../../core/limits.js';
import type { Text } from '../../core/text.js';
import type { Kernels } from '../../kernels/types.js';
import type { OBJECT_FIELDS } from './objects.js';

/**
 * Every warning code a WWD decode can give (README.md § Warnings): a checksum neither known
 * writer produces, bytes after the zlib stream or the tile table, sections where WapWorld does not
 * put them, no plane flagged main.
 */
export type WwdWarningCode = 'CHECKSUM_MISMATCH' | 'TRAILING_BYTES' | 'LAYOUT' | 'NO_MAIN_PLANE';

/** The game a level belongs to, from its path fields (LEVELn / AREAn / DUNGEONn) and tile size. */
export type WwdGame = 'claw' | 'gruntz' | 'get-medieval' | 'unknown';

/** How the stored checksum relates to the two known writers' formulas (see checksum.ts). */
export type WwdChecksumClass = 'wapworld' | 'wapmap' | 'mismatch';

/**
 * The 1524-byte file header, every field (reserved ones as found). Its text fields are fixed-size:
 * `raw` holds all of the field's bytes (whatever follows the NUL too), `text` the part before the NUL.
 */
export interface WwdHeader {
  /** 0x000, the header size; 0x5F4 in every valid file. */
  signature: number;
  unknown1: number;
  /** 0x008 raw flags; bit 0 use-Z-coords, bit 1 compressed. Other bits kept as found. */
  flags: number;
  useZCoords: boolean;
  compressed: boolean;
  unknown2: number;
  name: Text;
  author: Text;
  /** The "birth" (date) string. */
  birth: Text;
  rezFile: Text;
  /** The tile image directory, e.g. `LEVEL1\TILES` (Claw) or `\AREA1\TILEZ` (Gruntz). */
  imageDir: Text;
  palRez: Text;
  startX: number;
  startY: number;
  /** 0x2D8, reserved; 2 in one real file. */
  unknown3: number;
  /** 0x2DC plane count as stored (the encoder writes `planes.length`). */
  planeCount: number;
  /** 0x2E0 absolute offset of the plane headers (1524 in every known file; recomputed by encode). */
  planesOffset: number;
  /** 0x2E4 absolute offset of the tile-property table (recomputed by encode). */
  tilePropertiesOffset: number;
  unknown4: number;
  launchApp: Text;
  /** The four image-set directories (0x374…). */
  imageSets: [Text, Text, Text, Text];
  /** The four image-set prefixes (0x574…). */
  prefixes: [Text, Text, Text, Text];
}

/** Plane flag bits as named booleans (the raw value is kept in `flags`). */
export interface WwdPlaneFlags {
  main: boolean;
  noDraw: boolean;
  wrapX: boolean;
  wrapY: boolean;
  autoTileSize: boolean;
}

/** Cheap facts about one tile grid, from the scanTileGrid kernel. */
export interface WwdGridStats {
  /** Cells equal to 0xFFFFFFFF. */
  invisible: number;
  /** Cells equal to 0xEEEEEEEE. */
  filled: number;
  /** All other cells. */
  used: number;
  /** Used cells whose image-set index (high 16 bits) is ≥ the plane's image-set count. */
  outsideImageSets: number;
  /** Highest tile id (low 16 bits) per image set of the plane; -1 where none is used. */
  maxTileId: number[];
}

/** One plane: all 160 header bytes as fields, its grid, image sets and objects. */
export interface WwdPlane {
  /** +0x00 header size, 160 in every known file. */
  blockSize: number;
  unknown1: number;
  /** +0x08 raw flags (bits above 0x1F occur in custom levels and are kept). */
  flags: number;
  flagBits: WwdPlaneFlags;
  unknown2: number;
  name: Text;
  widthPx: number;
  heightPx: number;
  tileWidth: number;
  tileHeight: number;
  tilesWide: number;
  tilesHigh: number;
  /** +0x68, +0x6C: reserved per the spec (scroll offsets in WapMap/Gruntz). */
  unknown3: number;
  unknown4: number;
  movementXPercent: number;
  movementYPercent: number;
  /** Kept as found (values > 255 occur). */
  fillColor: number;
  /** Stored counts and offsets; the encoder recomputes them from the arrays and the layout. */
  imageSetCount: number;
  objectCount: number;
  tilesOffset: number;
  imageSetsOffset: number;
  /** 0 when the plane has no objects. */
  objectsOffset: number;
  z: number;
  unknown5: number;
  unknown6: number;
  unknown7: number;
  /** Row-major `tilesWide × tilesHigh` cells (a copy); 0xFFFFFFFF invisible, 0xEEEEEEEE filled. Empty for non-main planes with `sections: 'summary'`. */
  tiles: Uint32Array;
  /** Image-set names (NUL-terminated in the file; `raw` excludes the NUL). The encoder writes `imageSetCount` from this list. */
  imageSetNames: Text[];
  objects: WwdObjectTable;
  /** Grid statistics; null for grids skipped by `sections: 'summary'`. */
  stats: WwdGridStats | null;
}

type ObjectFieldSpec = (typeof OBJECT_FIELDS)[number];
/** One typed column per 4-byte object field (each rect as four columns: `moveRectLeft` …). */
export type WwdObjectColumns = { [F in ObjectFieldSpec as F[0]]: F[1] extends 'u32' ? Uint32Array : Int32Array };
/** One object's fixed fields as numbers. */
export type WwdObjectFields = { [F in ObjectFieldSpec as F[0]]: number };

/**
 * The objects of one plane as a struct-of-arrays table. Every column is a copy owned by the table.
 * `objectAt(table, i)` (also a non-enumerable `table.objectAt(i)`, which structuredClone drops)
 * gives one object as a plain object. Object ids are not unique.
 */
export interface WwdObjectTable extends WwdObjectColumns {
  /** Rows in the table: every column and string list has exactly this length. */
  count: number;
  /**
   * The four strings of each object (text up to a NUL, `raw` exactly the stored bytes: views into
   * one buffer owned by the table). The `…Length` columns hold the stored lengths; the encoder
   * writes the lengths of the bytes it stores instead.
   */
  name: Text[];
  logic: Text[];
  imageSet: Text[];
  animation: Text[];
  /** The same as the free function objectAt(this, i). Not enumerable. */
  readonly objectAt?: (i: number) => WwdObject;
}

/** One object as a plain object (a copy). */
export interface WwdObject extends WwdObjectFields {
  name: Text;
  logic: Text;
  imageSet: Text;
  animation: Text;
}

/** Tile property record, by type (1 single, 2 double, 3 mask). `unknown` is the reserved dword at +4. */
export type WwdTileProperty =
  | { type: 1; unknown: number; width: number; height: number; attribute: number }
  | { type: 2; unknown: number; width: number; height: number; outside: number; inside: number; left: number; top: number; right: number; bottom: number }
  | { type: 3; unknown: number; width: number; height: number; mask: Uint8Array };

/** Facts about the stored main block and its checksum (recomputed by encode, so left out of content comparisons). */
export interface WwdContainer {
  /** 0x2E8 as stored: the inflated size (0 in uncompressed files). */
  mainBlockSizeField: number;
  /** Bytes stored after the header. */
  storedLength: number;
  /** For compressed files, bytes of the zlib stream (the rest is `trailing`). */
  streamLength: number;
  /** Bytes after the zlib stream (WapMap's `<wm_meta>`); re-emitted by encode. A copy. */
  trailing: Uint8Array;
  checksum: {
    /** 0x2EC as stored. */
    stored: number;
    /** WapWorld's base value G over the stored bytes (what encode writes). */
    wapworld: number;
    /** WapMap's value over the zlib stream (without trailing bytes). */
    wapmap: number;
    /** stored − wapworld (mod 2^32): 0..255 for WapWorld files (the byte it read past the end). */
    wapworldDelta: number;
    class: WwdChecksumClass;
  };
}

/** A decoded WWD level. */
export interface WwdLevel {
  format: 'wwd';
  warnings: DecodeWarning<WwdWarningCode>[];
  /** What was decoded: `summary` leaves non-main grids, objects and tile properties empty (encode refuses such a level). */
  sections: 'all' | 'summary';
  game: WwdGame;
  header: WwdHeader;
  planes: WwdPlane[];
  /** Index of the first plane flagged main, or -1. */
  mainPlane: number;
  /** The 8 dwords before the tile-property records (32, 0, count, 0…), kept as found; encode rewrites the count. */
  tilePropertiesHeader: Uint32Array;
  tileProperties: WwdTileProperty[];
  /** Bytes of the (inflated) main block after the last section (none in known files); re-emitted by encode. */
  tail: Uint8Array;
  container: WwdContainer;
  /**
   * Treasure objects per kind, counted by a `summary` decode before it drops the objects (only
   * there: a full decode's summary counts `planes[].objects`, see treasure.ts).
   */
  treasure?: Record<string, number>;
}

/** Options of wwd.encode. */
export interface WwdEncodeOptions {
  /** Compress the main block (zlib). Default: the level's `header.compressed`. */
  compress?: boolean;
  /** zlib level 0–9 (default 9, as WapMap writes). */
  level?: number;
  /** Deflater: `auto` (native under Node), `native`, `pako` (same bytes on every host). Default `auto`. */
  deflate?: 'auto' | 'native' | 'pako';
  /** Write `container.trailing` after the zlib stream. Default true. */
  trailing?: boolean;
  /** Kernel set for the checksum's byte sum (`sumBytes`), as in DecodeOptions. Default `auto`. The output does not depend on it. */
  backend?: Backend;
  /** A kernel set to use instead of `backend`. */
  kernels?: Kernels;
}
