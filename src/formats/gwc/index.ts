// Wherigo cartridges: the public namespace `gwc` for compiled `.gwc` files and `.gwz` source
// zips. decode() picks the codec by content, encode() by the value's `format`. See README.md.

import type { DecodeOptions } from '../../core/limits.js';
import { defineFormat } from '../define.js';
import { decodeGwc, sniffGwc } from './decode.js';
import { diff } from './diff.js';
import { encode as encodeGwc } from './encode.js';
import { decodeGwz, encodeGwz, sniffZip } from './gwz.js';
import { type GwcSummary, type GwzSummary, mainGrid, summarize } from './summary.js';
import type { GwcDecoded, GwcEncodeOptions } from './types.js';

export { decodeGwc, GWC_EPOCH_MS, gwcDate, sniffGwc } from './decode.js';
export { diff } from './diff.js';
export { gwcSeconds } from './encode.js';
export { extract, safeName } from './extract.js';
export { compareGwz, decodeGwz, encodeGwz, type GwzComparison, isRootLua } from './gwz.js';
export { indexRows, writeRows } from './index-rows.js';

import { extract } from './extract.js';
import { indexRows, writeRows } from './index-rows.js';

export { type AnalysisOptions, objectModel } from './analysis/index.js';
export type {
  AbstractFunction,
  AbstractHeap,
  AbstractTable,
  AbstractValue,
  Maybe,
  ObjectFacts,
  ObjectRef,
  StringDecoderInfo,
  StringDecoders,
  Unknown,
  WherigoHandler,
  WherigoKind,
  WherigoModel,
  WherigoObject,
  ZonePoint,
} from './analysis/types.js';
export { isUnknown } from './analysis/types.js';
export { isUtf8 } from './lua.js';
export { decodeLua, decodeLuaChunk, LUA_MAX_DEPTH, luaCounts } from './lua-chunk.js';
export { encodeLuaChunk } from './lua-encode.js';
export { luaListing } from './lua-listing.js';
export { bx, LUA_MAXARG_SBX, LUA_OPCODES, LUA_RK_CONSTANT, LuaOp, type LuaOpcodeName, type LuaOpMode, luaOpMode, sbx } from './lua-opcodes.js';
export type { LuaChunk, LuaChunkCounts, LuaCode, LuaConstant, LuaLocVar, LuaProto } from './lua-types.js';
export { MEDIA_TYPES, mediaTypeName, mediaTypeNumber, sniffMedia } from './media.js';
export { modelOrWhy, objectFiles } from './objects-files.js';
export { MIN_ZONE_POINTS, zonesGeoJson } from './objects-geojson.js';
export { zonesGpx } from './objects-gpx.js';
export { objectsJson } from './objects-json.js';
export { messagesText } from './objects-messages.js';
export { type ObjectsSummary, objectLabel, objectsSummary, WHERIGO_KINDS, type ZoneSummary } from './objects-summary.js';
export { type GwcSummary, type GwcSummaryFields, type GwzSummary, type GwzSummaryFields, mainGrid, summarize } from './summary.js';
export type {
  GwcCartridge,
  GwcDecoded,
  GwcEncodeOptions,
  GwcHeader,
  GwcLua,
  GwcMedia,
  GwcTableRow,
  GwcWarningCode,
  GwzArchive,
  GwzMember,
  LuaHeader,
} from './types.js';
export { type LatLon, zoneCentre, zoneOutline } from './zone-geometry.js';

/** What summarize() gives for either kind. */
export type GwcAnySummary = GwcSummary | GwzSummary;

/**
 * `gwc` for a GWC signature; `gwz` for anything that starts like a zip (`PK 03 04`). The second is
 * provisional: whether the zip holds a Lua file at its root is in the central directory at the
 * end of the file, beyond a 64-byte head, so decode() checks it (BAD_MAGIC for other zips). Never throws.
 */
export function sniff(head: Uint8Array): 'gwc' | 'gwz' | undefined {
  if (sniffGwc(head)) return 'gwc';
  if (sniffZip(head)) return 'gwz';
  return undefined;
}

/** Decodes a `.gwc` or a `.gwz` by content (see decodeGwc, decodeGwz). DecodeError BAD_MAGIC for anything else. */
export function decode(bytes: Uint8Array, opts?: DecodeOptions): GwcDecoded {
  return sniffZip(bytes) ? decodeGwz(bytes, opts) : decodeGwc(bytes, opts);
}

/** Encodes a cartridge as `.gwc` or an archive as `.gwz` (see the encoders); EncodeError when it would not read back the same. */
export function encode(value: GwcDecoded, _opts?: GwcEncodeOptions): Uint8Array {
  return value.format === 'gwz' ? encodeGwz(value) : encodeGwc(value);
}

/** The `readGwz` of issue 12: decodes a GWZ (Lua source text and media members). */
export function readGwz(bytes: Uint8Array, opts?: DecodeOptions) {
  return decodeGwz(bytes, opts);
}

/** GWC's entry in the format registry (ids `gwc` and `gwz`). */
export const definition = defineFormat<'gwc' | 'gwz', GwcDecoded, GwcAnySummary, GwcEncodeOptions>({
  ids: ['gwc', 'gwz'],
  extensions: ['.gwc', '.gwz'],
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
