// levelkit's public surface: detect(), decode(), encode(), summarize(), mainGrid(), the format
// namespaces, errors and options. Everything here is synchronous; init() exists for hosts that
// forbid synchronous WASM compilation.

import { decodeAsyncWith } from './async.js';
import { decodeError } from './core/errors.js';
import type { DecodeOptions } from './core/limits.js';
import { inputBytes } from './core/reader.js';
import { gridSignatureOf } from './core/signature.js';
import { detect } from './detect.js';
import type { Change } from './diff/change.js';
import type { Decoded, ExtractedFile, LevelRows, MainGrid, RowSink, Summary } from './formats/define.js';
import type { GraalDecoded, GraalEncodeOptions, GraalSummary } from './formats/graal/index.js';
import type { GwcAnySummary, GwcCartridge, GwcDecoded, GwcEncodeOptions, GwcSummary, GwzArchive, GwzSummary } from './formats/gwc/index.js';
import { FORMATS, formatById, formatOf } from './formats/registry.js';
import type { EncodeOptions as TeeworldsEncodeOptions, TeeworldsMap } from './formats/teeworlds/index.js';
import type { TeeworldsSummary } from './formats/teeworlds/summary.js';
import type { WdataEncodeOptions, WdataLevel, WdataSummary } from './formats/wdata/index.js';
import type { WwdSummary } from './formats/wwd/summary.js';
import type { WwdEncodeOptions, WwdLevel } from './formats/wwd/types.js';
import { gridSignatureKernel } from './kernels/signature.js';
import { type DrawLevelOptions, drawLevel as drawPicture, renderAsCommand } from './render/bundled.js';
import { type Preview, type RenderOptions, renderPreview } from './render/draw.js';

export { asyncInflater, decodeAsyncWith } from './async.js';
export { detect } from './detect.js';
export type { Change, DiffValue, LineHunk, TooMany } from './diff/change.js';
// The errors, option types, Text and init() every entry shares (levelkit/<format> exports them too).
export * from './entries/common.js';
export type {
  AnyFormat,
  Decoded,
  ExtractedImage,
  FormatDefinition,
  FormatNamespace,
  ImageRow,
  LayerRow,
  LevelRow,
  LevelRows,
  ObjectRow,
  RowSink,
  TextRow,
  TileRow,
} from './formats/define.js';
export * as graal from './formats/graal/index.js';
export * as gwc from './formats/gwc/index.js';
export { FORMAT_IDS, LEVEL_EXTENSIONS } from './formats/registry.js';
export * as teeworlds from './formats/teeworlds/index.js';
export { tileMeaning, withTileMeaning } from './formats/teeworlds/tile-names.js';
export * as wdata from './formats/wdata/index.js';
// Format namespaces (wwd, teeworlds, graal…): one line per format.
export * as wwd from './formats/wwd/index.js';
export { jsKernels } from './kernels/js/index.js';
export { snappyBound } from './kernels/js/snappy.js';
export type { Kernels } from './kernels/types.js';
export { compileWasm, wasmKernels } from './kernels/wasm/index.js';
export {
  type AssetReader,
  type BundledResourceOptions,
  type Canvas2D,
  type DrawLevelOptions,
  decodeBmp,
  decodePng,
  drawWorld,
  ENTITY_ASSETS,
  type EntityLayerKind,
  graalTileset,
  layersOf,
  levelNameMatcher,
  loadBundledResources,
  MAPRES_NAME,
  MARKER_COLOURS,
  MAX_PREVIEW_PIXELS,
  type Marker,
  markerColour,
  markersOf,
  mediaOf,
  type NeededResources,
  type PngDecodeOptions,
  type Preview,
  type PreviewMedia,
  type PreviewRecord,
  type PreviewTable,
  type PreviewText,
  paintPreview,
  type RenderOptions,
  type RenderProgress,
  type RenderResources,
  type RgbaImage,
  resourcesNeeded,
  shrinkPicture,
  type TileRect,
  type Tileset,
  tablesOf,
  textsOf,
  tileColour,
  WORLD_MARKS,
  WORLD_MAX_CELLS,
  WORLD_MAX_SIDE,
  type World,
  type WorldCell,
  type WorldOptions,
} from './render/index.js';

/** What decode() returns: one of the formats' results, discriminated by `format`. */
export type AnyDecoded = ReturnType<(typeof FORMATS)[number]['decode']>;
/** What summarize() returns for any format. */
export type AnySummary = ReturnType<(typeof FORMATS)[number]['summarize']>;
/** Options encode() accepts: each format reads its own and ignores none it does not know. */
export type AnyEncodeOptions = WwdEncodeOptions | TeeworldsEncodeOptions | GraalEncodeOptions | GwcEncodeOptions | WdataEncodeOptions;

/**
 * Detects the format by content and decodes it. Accepts a Uint8Array, Buffer, ArrayBuffer or
 * ArrayBufferView (read, never written). Throws DecodeError (code BAD_MAGIC, format `unknown`)
 * when no format recognises the bytes; TypeError/RangeError for bad options.
 */
export function decode(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, opts?: DecodeOptions): AnyDecoded {
  const view = inputBytes(bytes);
  const id = detect(view);
  const def = id === undefined ? undefined : FORMATS.find((f) => f.owns({ format: id, warnings: [] }));
  if (!def) throw decodeError('unknown', 'BAD_MAGIC', { offset: 0, detail: 'no levelkit format recognises these bytes' });
  return def.decode(view, opts);
}

/** Cheap facts about a decoded value (what `levelkit info` prints). TypeError for a value no format owns. */
export function summarize(value: WwdLevel): WwdSummary;
export function summarize(value: TeeworldsMap): TeeworldsSummary;
export function summarize(value: GraalDecoded): GraalSummary;
export function summarize(value: GwcCartridge): GwcSummary;
export function summarize(value: GwzArchive): GwzSummary;
export function summarize(value: GwcDecoded): GwcAnySummary;
export function summarize(value: WdataLevel): WdataSummary;
export function summarize(value: AnyDecoded): AnySummary;
export function summarize(value: Decoded): Summary {
  return formatOf(value).summarize(value);
}

/** The main tile grid of a decoded value (what `gridDigest` hashes), or undefined when it has none. */
export function mainGrid(value: AnyDecoded): MainGrid | undefined {
  return formatOf(value).mainGrid(value);
}

/**
 * The similarity signature of the level's main grid, as the archive index keeps it
 * (levels.grid_signature: base64 of 128 bytes, a MinHash of the grid's non-uniform 4×4 windows),
 * which its families of versions are found by; null without a main grid, or for one under 4×4
 * cells or whose every window is one value. `backend` as decode's (`kernels`: its set's name).
 */
export function gridSignature(value: AnyDecoded, opts?: Pick<DecodeOptions, 'backend' | 'kernels'>): string | null {
  const grid = mainGrid(value);
  return grid ? gridSignatureOf(grid, gridSignatureKernel(opts?.kernels?.name ?? opts?.backend ?? 'auto')) : null;
}

/** Encodes a decoded value back to its format (dispatching on `value.format`). EncodeError when it cannot round-trip. */
export function encode(value: WwdLevel, opts?: WwdEncodeOptions): Uint8Array;
export function encode(value: TeeworldsMap, opts?: TeeworldsEncodeOptions): Uint8Array;
export function encode(value: GraalDecoded, opts?: GraalEncodeOptions): Uint8Array;
export function encode(value: GwcDecoded, opts?: GwcEncodeOptions): Uint8Array;
export function encode(value: WdataLevel, opts?: WdataEncodeOptions): Uint8Array;
export function encode(value: AnyDecoded, opts?: AnyEncodeOptions): Uint8Array;
export function encode(value: Decoded, opts?: object): Uint8Array {
  return formatOf(value).encode(value, opts);
}

/**
 * The value as files (`levelkit extract`): a JSON of the model plus the files the format embeds.
 * Images come as pixels for the caller to encode (the library carries no image encoder).
 */
export function extract(value: AnyDecoded): ExtractedFile[] {
  return formatOf(value).extract(value);
}

/**
 * What a level contributes to an archive index (layers, tile histograms, objects, texts, images;
 * `levelkit scan --index`). TypeError for a value decoded with `sections: 'summary'`.
 */
export function indexRows(value: AnyDecoded): LevelRows {
  return formatOf(value).indexRows(value);
}

/** indexRows() as calls on `sink`, one per row, the level's own row last (define.ts RowSink). */
export function writeRows(value: AnyDecoded, sink: RowSink): void {
  formatOf(value).writeRows(value, sink);
}

/**
 * decode() for hosts whose fast inflater is asynchronous: where decode() would inflate with pako
 * (no WebAssembly, or `inflate: 'pako'`), zlib blocks of 64 KiB and more are inflated by
 * DecompressionStream('deflate') (native) first, then the level is decoded synchronously as
 * decode() does, to the same result. Where decode() has node:zlib (Node) or the WASM inflater
 * (browsers, by default), it is decode(): those are as fast as the stream, without its set-up.
 */
export function decodeAsync(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, opts?: DecodeOptions): Promise<AnyDecoded> {
  return decodeAsyncWith(decode, bytes, opts);
}

/**
 * Draws `value`'s preview (the main grid, or the layer asked for, with markers) into an RGBA
 * buffer: what `levelkit render` writes as PNG and the web page shows on its canvas.
 */
export function render(value: AnyDecoded, opts?: RenderOptions): Preview {
  return renderPreview(value, mainGrid(value), opts);
}

/**
 * The picture `levelkit render` draws with the `resources` given: the layer asked for, else the
 * main grid, or every layer when some layer has real tiles. drawLevel() loads the resources too.
 */
export function renderPicture(value: AnyDecoded, opts: RenderOptions = {}): Preview {
  return renderAsCommand(value, mainGrid(value), opts);
}

/**
 * What `levelkit render` draws, in one call: loads the package's bundled pictures the level needs
 * (Teeworlds map resources and DDNet's editor atlases, fetched or read once each), draws every
 * layer when some have real tiles (else the main grid, or `layer`), and paints the picture on
 * `canvas` (a 2D context) when given. `assets`: where assets/teeworlds/ is, when not beside the module.
 */
export function drawLevel(value: AnyDecoded, opts?: DrawLevelOptions): Promise<Preview> {
  return drawPicture(value, mainGrid(value), opts);
}

/** The definition of a format id (ids, extensions and its namespace members). */
export { formatById };

/**
 * What changed from `a` to `b`, two decoded levels of one format (full decodes): one Change per
 * difference, empty when they are the same (see each format's `diff`). TypeError for values of
 * different formats (a binary Graal level and its .nw form count as one format).
 */
export function diff(a: AnyDecoded, b: AnyDecoded): Change[] {
  const def = formatOf(a);
  if (!def.owns(b)) throw new TypeError(`levelkit: cannot diff a ${a.format} value against a ${b.format} value`);
  return def.diff(a, b);
}
