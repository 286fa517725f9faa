// Graal Online levels: public surface of the format (binary .zelda/.graal, text .nw, .gmap).
// decode() picks the codec by content; encode() by the value's `format`. See README.md.
import type { FormatId } from '../../core/errors.js';
import type { DecodeOptions } from '../../core/limits.js';
import { decodeBinary } from './binary.js';
import { encodeBinary } from './binary-encode.js';
import { decodeGmap, encodeGmap } from './gmap.js';
import { BINARY_LAYOUTS, GMAP_MAGIC, NW_MAGIC } from './level.js';
import { decodeNw } from './nw.js';
import { encodeNw } from './nw-encode.js';
import type { GraalGmap, GraalLevel } from './types.js';

export type { GraalBaddy, GraalChest, GraalGmap, GraalLayer, GraalLevel, GraalLink, GraalNpc, GraalSign } from './types.js';
export { decodeBinary } from './binary.js';
export { encodeBinary, encodeTileStream, binaryVersionFor, type BinaryEncodeOptions } from './binary-encode.js';
export { decodeNw } from './nw.js';
export { encodeNw } from './nw-encode.js';
export { decodeGmap, encodeGmap } from './gmap.js';
export { decodeSign, encodeSign } from './signs.js';
export { BADDY_NAMES, BINARY_LAYOUTS, CHEST_ITEMS, NO_TILE, TILE_COUNT, blankLevel, emptyLayer, gridDigest, tileToTileset, tilesetToTile } from './level.js';

/** Everything the Graal codecs return. */
export type GraalDecoded = GraalLevel | GraalGmap;

/** `graal`, `graal-nw` or `graal-gmap` when the first 8 bytes are a known header; never throws. */
export function sniff(head: Uint8Array): Extract<FormatId, 'graal' | 'graal-nw' | 'graal-gmap'> | undefined {
  if (head.length < 8) return undefined;
  const magic = String.fromCharCode(...head.subarray(0, 8));
  if (magic === NW_MAGIC) return 'graal-nw';
  if (magic === GMAP_MAGIC) return 'graal-gmap';
  if (magic in BINARY_LAYOUTS) return 'graal';
  return undefined;
}

/** Decodes any Graal level or map by content. Throws DecodeError (BAD_MAGIC when none matches). */
export function decode(bytes: Uint8Array, opts?: DecodeOptions): GraalDecoded {
  switch (sniff(bytes)) {
    case 'graal-nw': return decodeNw(bytes, opts);
    case 'graal-gmap': return decodeGmap(bytes, opts);
    case 'graal': return decodeBinary(bytes, opts);
    default: return decodeBinary(bytes, opts); // gives BAD_MAGIC or UNSUPPORTED_VERSION with the header it saw
  }
}

/** Encodes a level in its own format (`graal` → binary, `graal-nw` → text) or a map as .gmap. */
export function encode(value: GraalDecoded): Uint8Array {
  if (value.format === 'graal-gmap') return encodeGmap(value);
  return value.format === 'graal' ? encodeBinary(value) : encodeNw(value);
}
