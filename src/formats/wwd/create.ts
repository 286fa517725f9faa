// Builders for new WWD levels (for wwd.encode): every field at the value WapWorld writes, so a
// caller sets only what matters. See README.md § Layout, tail and round trips for what encode recomputes.

import type { Text } from '../../core/text.js';
import { objectTable } from './objects.js';
import { fixedText } from './text.js';
import type { WwdLevel, WwdObject, WwdPlane, WwdTileProperty } from './types.js';

export interface NewPlaneOptions {
  name: string;
  /** Raw plane flags (1 main, 2 no draw, 4 wrap X, 8 wrap Y, 16 auto tile size). Default 0. */
  flags?: number;
  tilesWide: number;
  tilesHigh: number;
  /** Tile size in pixels (64 Claw, 32 Gruntz). Default 64. */
  tileSize?: number;
  /** Row-major cells; default all invisible (0xFFFFFFFF). */
  tiles?: Uint32Array;
  imageSets?: string[];
  objects?: WwdObject[];
  /** Code page of the names (default `windows-1252`, what decoding assumes); a character it lacks is a RangeError. */
  encoding?: string;
}

/** A plane with every header field set as WapWorld writes it (movement 100 %, z 0, reserved 0). */
export function newPlane(o: NewPlaneOptions): WwdPlane {
  const flags = o.flags ?? 0;
  const tile = o.tileSize ?? 64;
  const cells = o.tilesWide * o.tilesHigh;
  const tiles = o.tiles ?? new Uint32Array(cells).fill(0xffffffff);
  if (tiles.length !== cells) throw new RangeError(`tiles has ${tiles.length} cells, not ${o.tilesWide}×${o.tilesHigh}`);
  return {
    blockSize: 160,
    unknown1: 0,
    flags,
    flagBits: { main: (flags & 1) !== 0, noDraw: (flags & 2) !== 0, wrapX: (flags & 4) !== 0, wrapY: (flags & 8) !== 0, autoTileSize: (flags & 16) !== 0 },
    unknown2: 0,
    name: fixedText(o.name, 64, o.encoding),
    widthPx: o.tilesWide * tile,
    heightPx: o.tilesHigh * tile,
    tileWidth: tile,
    tileHeight: tile,
    tilesWide: o.tilesWide,
    tilesHigh: o.tilesHigh,
    unknown3: 0,
    unknown4: 0,
    movementXPercent: 100,
    movementYPercent: 100,
    fillColor: 0,
    imageSetCount: 0,
    objectCount: 0,
    tilesOffset: 0,
    imageSetsOffset: 0,
    objectsOffset: 0,
    z: 0,
    unknown5: 0,
    unknown6: 0,
    unknown7: 0,
    tiles,
    imageSetNames: (o.imageSets ?? []).map((s) => fixedText(s, undefined, o.encoding)),
    objects: objectTable(o.objects ?? []),
    stats: null,
  };
}

export interface NewLevelOptions {
  name: string;
  author?: string;
  birth?: string;
  /** Tile directory, e.g. `LEVEL1\TILES` (Claw) or `\AREA1\TILEZ` (Gruntz). */
  imageDir?: string;
  palRez?: string;
  rezFile?: string;
  launchApp?: string;
  /** Up to four image-set directories and their prefixes. */
  imageSets?: string[];
  prefixes?: string[];
  startX?: number;
  startY?: number;
  planes: WwdPlane[];
  tileProperties?: WwdTileProperty[];
  compressed?: boolean;
  /** Code page of every text field (default `windows-1252`); a character it lacks is a RangeError. */
  encoding?: string;
}

/** A level ready for wwd.encode (derived fields such as counts, offsets and checksum are filled by encode). */
export function newLevel(o: NewLevelOptions): WwdLevel {
  const t = (s: string | undefined, size: number): Text => fixedText(s ?? '', size, o.encoding);
  const four = (xs: string[] | undefined, size: number) => [0, 1, 2, 3].map((i) => t(xs?.[i], size)) as [Text, Text, Text, Text];
  const compressed = o.compressed ?? true;
  const props = o.tileProperties ?? [];
  return {
    format: 'wwd',
    warnings: [],
    sections: 'all',
    game: 'unknown',
    header: {
      signature: 0x5f4,
      unknown1: 0,
      flags: 1 | (compressed ? 2 : 0),
      useZCoords: true,
      compressed,
      unknown2: 0,
      name: t(o.name, 64),
      author: t(o.author, 64),
      birth: t(o.birth, 64),
      rezFile: t(o.rezFile, 256),
      imageDir: t(o.imageDir, 128),
      palRez: t(o.palRez, 128),
      startX: o.startX ?? 0,
      startY: o.startY ?? 0,
      unknown3: 0,
      planeCount: o.planes.length,
      planesOffset: 0,
      tilePropertiesOffset: 0,
      unknown4: 0,
      launchApp: t(o.launchApp, 128),
      imageSets: four(o.imageSets, 128),
      prefixes: four(o.prefixes, 32),
    },
    planes: o.planes,
    mainPlane: o.planes.findIndex((p) => p.flagBits.main),
    tilePropertiesHeader: Uint32Array.of(32, 0, props.length, 0, 0, 0, 0, 0),
    tileProperties: props,
    tail: new Uint8Array(0),
    container: {
      mainBlockSizeField: 0,
      storedLength: 0,
      streamLength: 0,
      trailing: new Uint8Array(0),
      checksum: { stored: 0, wapworld: 0, wapmap: 0, wapworldDelta: 0, class: 'wapworld' },
    },
  };
}
