// Graal Online levels: public surface of the format (binary .zelda/.graal, text .nw, .gmap).
// decode() picks the codec by content; encode() by the value's `format`. See README.md.
import type { FormatId } from '../../core/errors.js';
import { encodeError } from '../../core/errors.js';
import type { DecodeOptions } from '../../core/limits.js';
import { snapshot } from '../../core/snapshot.js';
import { boundSummary, defineFormat, type MainGrid, type Summary } from '../define.js';
import { decodeBinary } from './binary.js';
import { type BinaryEncodeOptions, binaryLayout, encodeBinary } from './binary-encode.js';
import { diff } from './diff.js';
import { extract } from './extract.js';
import { indexRows, writeRows } from './index-rows.js';

export { diff } from './diff.js';
export { extract } from './extract.js';
export { indexRows, writeRows } from './index-rows.js';

import { decodeGmap, encodeGmap } from './gmap.js';
import { BINARY_LAYOUTS, GMAP_MAGIC, gridDigest, LEVEL_SIZE, NW_MAGIC } from './level.js';
import { decodeNw } from './nw.js';
import { encodeNw } from './nw-encode.js';
import type { GraalGmap, GraalLevel } from './types.js';

export { textFrom } from '../../core/text.js';
export type { Text } from '../define.js';
export { decodeBinary } from './binary.js';
export { type BinaryEncodeOptions, binaryVersionFor, encodeBinary, encodeTileStream, MAX_BINARY_LAYERS } from './binary-encode.js';
export { decodeGmap, encodeGmap } from './gmap.js';
export { BADDY_NAMES, BINARY_LAYOUTS, blankLevel, CHEST_ITEMS, emptyLayer, gridDigest, NO_TILE, TILE_COUNT, tilesetToTile, tileToTileset } from './level.js';
export { decodeNw } from './nw.js';
export { encodeNw } from './nw-encode.js';
export { decodeSign, encodeSign } from './signs.js';
export type { GraalBaddy, GraalChest, GraalGmap, GraalLayer, GraalLevel, GraalLink, GraalNpc, GraalSign, GraalWarningCode } from './types.js';

/** Everything the Graal codecs return. */
export type GraalDecoded = GraalLevel | GraalGmap;

/** `graal`, `graal-nw` or `graal-gmap` when the first 8 bytes are a known header; never throws. */
export function sniff(head: Uint8Array): Extract<FormatId, 'graal' | 'graal-nw' | 'graal-gmap'> | undefined {
  if (head.length < 8) return undefined;
  const magic = String.fromCharCode(...head.subarray(0, 8));
  if (magic === NW_MAGIC) return 'graal-nw';
  if (magic === GMAP_MAGIC) return 'graal-gmap';
  // Own keys only: a file starting `toString` or `valueOf\0` is not a level.
  if (Object.hasOwn(BINARY_LAYOUTS, magic)) return 'graal';
  return undefined;
}

/** Decodes any Graal level or map by content. Throws DecodeError (BAD_MAGIC when none matches). */
export function decode(bytes: Uint8Array, opts?: DecodeOptions): GraalDecoded {
  switch (sniff(bytes)) {
    case 'graal-nw':
      return decodeNw(bytes, opts);
    case 'graal-gmap':
      return decodeGmap(bytes, opts);
    case 'graal':
      return decodeBinary(bytes, opts);
    default:
      return decodeBinary(bytes, opts); // gives BAD_MAGIC or UNSUPPORTED_VERSION with the header it saw
  }
}

/** Options of graal.encode(): `version` picks the binary header (binary levels only; default: the level's own). */
export type GraalEncodeOptions = BinaryEncodeOptions;

/**
 * Encodes a level in its own format (`graal` → binary with its own header unless `opts.version`
 * says otherwise, `graal-nw` → text) or a map as .gmap. TypeError/RangeError for bad options
 * (an unknown version lists the headers); EncodeError for a value that would not read back the same.
 */
export function encode(model: GraalDecoded, opts?: GraalEncodeOptions): Uint8Array {
  if (opts !== undefined && (opts === null || typeof opts !== 'object')) throw new TypeError('levelkit graal: encode options must be an object');
  for (const key of Object.keys(opts ?? {}))
    if (key !== 'version') throw new TypeError(`levelkit graal: unknown encode option ${JSON.stringify(key)} (known: version)`);
  if (opts?.version !== undefined) binaryLayout(opts.version);
  // One read of the caller's level: what is validated is what is written (core/snapshot.ts).
  const value = snapshot(model);
  const format = value !== null && typeof value === 'object' ? value.format : undefined;
  if (format === 'graal-gmap') return encodeGmap(value as GraalGmap);
  if (format === 'graal-nw') return encodeNw(value as GraalLevel);
  if (format !== 'graal') throw encodeError('graal', 'BAD_VALUE', { path: 'format', expected: '"graal", "graal-nw" or "graal-gmap"', actual: String(format) });
  const level = value as GraalLevel;
  // The level's own header by default, so decode(encode(level)) gives it back.
  if (opts?.version === undefined && !(typeof level.version === 'string' && Object.hasOwn(BINARY_LAYOUTS, level.version))) {
    throw encodeError('graal', 'BAD_VALUE', { path: 'version', expected: Object.keys(BINARY_LAYOUTS).join(', '), actual: JSON.stringify(level.version) });
  }
  return encodeBinary(level, { version: opts?.version ?? level.version });
}

/** The `summary` fields of a level (`graal`, `graal-nw`). */
export interface GraalLevelSummaryFields {
  header: string;
  layers: number;
  links: number;
  baddies: number;
  npcs: number;
  chests: number;
  signs: number;
  /** sha256 (hex) of layer 0's tiles as LE u16. */
  gridDigest: string | null;
}

/** The `summary` fields of a .gmap. */
export interface GraalGmapSummaryFields {
  width: number;
  height: number;
  /** Non-blank cells. */
  levels: number;
}

export type GraalSummary = Summary<string, GraalLevelSummaryFields> | Summary<string, GraalGmapSummaryFields>;

/** Cheap facts (what `levelkit info` prints). */
export function summarize(v: GraalDecoded): GraalSummary {
  if (v.format === 'graal-gmap') {
    return boundSummary({ version: v.version, summary: { width: v.width, height: v.height, levels: v.levels.flat().filter((n) => n.text !== '').length } });
  }
  return boundSummary({
    version: v.version,
    summary: {
      header: v.version,
      layers: v.layers.length,
      links: v.links.length,
      baddies: v.baddies.length,
      npcs: v.npcs.length,
      chests: v.chests.length,
      signs: v.signs.length,
      gridDigest: gridDigest(v),
    },
  });
}

/** Layer 0 of a level (a view); undefined for a .gmap or a level without layer 0. */
export function mainGrid(v: GraalDecoded): MainGrid | undefined {
  if (v.format === 'graal-gmap') return undefined;
  const base = v.layers.find((l) => l.index === 0);
  return base ? { width: LEVEL_SIZE, height: LEVEL_SIZE, cells: base.tiles } : undefined;
}

/** Graal's entry in the format registry: one definition, three format ids. */
export const definition = defineFormat<'graal' | 'graal-nw' | 'graal-gmap', GraalDecoded, GraalSummary, GraalEncodeOptions>({
  ids: ['graal', 'graal-nw', 'graal-gmap'],
  extensions: ['.graal', '.zelda', '.nw', '.gmap'],
  sniff,
  decode,
  encode,
  summarize,
  mainGrid,
  extract,
  indexRows,
  writeRows,
  diff,
});
