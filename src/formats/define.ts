// The shape every format shares, and defineFormat() through which each declares itself. Formats
// import this module (never the registry, never each other); formats/registry.ts lists them.

import type { DecodeWarning, FormatId } from '../core/errors.js';
import type { DecodeOptions } from '../core/limits.js';
import type { Change } from '../diff/change.js';

export type { Text } from '../core/text.js';
export { boundSummary, MAX_SUMMARY_STRING, MAX_SUMMARY_UNITS, type SummaryBounds, type SummaryWarningCode } from './summary-bound.js';

import type { SummaryWarningCode } from './summary-bound.js';

/** Anything a decoder returns: it names its format and carries the tolerated faults. */
export interface Decoded {
  format: FormatId;
  warnings: DecodeWarning[];
  /**
   * Codes of warnings a `sections: 'summary'` decode did not check (their checks need what it
   * skipped), so a full decode may give them; absent or empty when every check ran. The scan
   * records them as `unchecked`, so a cheap scan never counts them as absent.
   */
  uncheckedWarnings?: string[];
}

/**
 * Cheap facts for `levelkit info` and bulk scans: a version and the format's own summary fields,
 * bounded by boundSummary() (each string at most MAX_SUMMARY_STRING units); `warnings` says which
 * fields it cut and is absent when it cut none.
 */
export interface Summary<V extends string | number = string | number, S extends object = object> {
  version: V;
  summary: S;
  warnings?: DecodeWarning<SummaryWarningCode>[];
}

/**
 * One file extract() gives: bytes to write as they are, or an image (8-bit RGB or RGBA, row-major)
 * for the caller to encode (the CLI writes PNG; the library carries no image encoder). `path` is
 * relative, `/`-separated, with no `..`.
 */
export type ExtractedFile = { path: string; bytes: Uint8Array } | { path: string; image: ExtractedImage };

export interface ExtractedImage {
  width: number;
  height: number;
  channels: 3 | 4;
  pixels: Uint8Array;
}

/** A row-major grid of tile ids: WWD's main plane (u32), Teeworlds' game layer index bytes, Graal's layer 0 (u16). */
export interface MainGrid {
  width: number;
  height: number;
  /** A view into the decoded value (not a copy). */
  cells: Uint8Array | Uint16Array | Uint32Array;
}

/**
 * The members every format namespace exports, with the same signatures (checked by a type test:
 * `wwd satisfies FormatNamespace<…>`). Methods, not function properties: see FormatDefinition.
 */
export interface FormatNamespace<Id extends FormatId, Value extends Decoded, S extends Summary, EncodeOpts extends object> {
  /** The format id when `head` (the first ≤ 64 bytes) is this format; never throws. */
  sniff(head: Uint8Array): Id | undefined;
  /** Decodes a whole file; DecodeError for bad input, TypeError/RangeError for bad options. */
  decode(bytes: Uint8Array, opts?: DecodeOptions): Value;
  /** Writes `value` back; EncodeError (before writing anything) when it cannot be written to read back the same. */
  encode(value: Value, opts?: EncodeOpts): Uint8Array;
  /** Cheap facts (what `levelkit info` prints). */
  summarize(value: Value): S;
  /** The main tile grid (what `gridDigest` hashes), when the value has one and it was decoded. */
  mainGrid(value: Value): MainGrid | undefined;
  /**
   * The value as files for people and other tools (`levelkit extract`): a JSON of the model plus
   * the embedded files the format holds (images, sounds, media, scripts). TypeError for a value
   * decoded with `sections: 'summary'` when that left out what extract needs.
   */
  extract(value: Value): ExtractedFile[];
  /**
   * What the level contributes to an archive index (`levelkit scan --index`): its layers, tile
   * histograms, objects, texts and images as rows (see rows.ts). Needs a full decode: TypeError for
   * a value decoded with `sections: 'summary'`.
   */
  indexRows(value: Value): LevelRows;
  /**
   * indexRows() as calls on `sink`, one per row (tile rows one call per layer), the level's own
   * row last: what the index's builder takes, writing each row into its columns as it comes, so a
   * level of a hundred thousand objects is never held as row objects. The sink must not keep a
   * layer, object or level row it is given (the caller may reuse it for the next call); image rows
   * are each the writer's own, and may be kept.
   */
  writeRows(value: Value, sink: RowSink): void;
  /**
   * What changed from `a` to `b` (`levelkit diff`), in the level's own terms: one Change per
   * difference (a rectangle of cells, an object's field, an image …), empty when they are the same.
   * Needs full decodes of both: TypeError for a value decoded with `sections: 'summary'`.
   */
  diff(a: Value, b: Value): Change[];
}

/** A level's own facts for the index's `levels` table (null where the format has no such field). */
export interface LevelRow {
  name: string | null;
  title: string | null;
  author: string | null;
  /** Teeworlds' flavour (ddnet, teeworlds07 …), Graal's text or binary form, GWC's builder. */
  flavour: string | null;
  /** The game the level is for, where the format tells (claw, gruntz …). */
  game: string | null;
  /** The main grid's size in tiles (WWD's main plane, Teeworlds' game layer, Graal's board). */
  width: number | null;
  height: number | null;
}

/** A layer, plane or board. `layer` is its index in the level (Teeworlds: across groups, in file order). */
export interface LayerRow {
  layer: number;
  group: number | null;
  kind: string;
  name: string | null;
  width: number | null;
  height: number | null;
  /** The image or image set it draws with, by name. */
  image: string | null;
}

/** How many cells of `layer` hold tile value `tile` (only values that occur). */
export interface TileRow {
  layer: number;
  kind: string;
  tile: number;
  count: number;
}

/**
 * An object of any kind: WWD objects, Graal links/baddies/NPCs/chests/signs, Teeworlds quads,
 * sound sources and entities, wdata boxes, GWC media. Columns a format needs beyond these are
 * in `fields` (a plain object of numbers and strings, stored as JSON).
 */
export interface ObjectRow {
  kind: string;
  /** Its index among the level's objects of its kind (a stable position, not the format's id). */
  index: number;
  layer: number | null;
  name: string | null;
  /** The WWD object's logic; null where a format has none. */
  logic: string | null;
  image: string | null;
  x: number | null;
  y: number | null;
  width: number | null;
  height: number | null;
  /** What it points at: a Graal link's level, a chest's item, a tele number … */
  target: string | null;
  fields: Record<string, string | number | boolean | null> | null;
}

/** A piece of text of the level: `source` says where (`sign`, `npc`, `settings`, `info.author`, `lua-string`, `media-name` …). */
export interface TextRow {
  source: string;
  text: string;
  /** The object it belongs to (its ObjectRow's `index`: a sign's text, an NPC's script, a baddy's verse); null for the level's own texts. */
  object: number | null;
}

/** An image the level uses: embedded ones with their RGBA pixels (the index hashes them), external ones by name. */
export interface ImageRow {
  index: number;
  name: string | null;
  width: number | null;
  height: number | null;
  external: boolean;
  /**
   * RGBA pixels of an embedded image the format stores as pixels (a view, not a copy); null otherwise.
   * Of a map decoded with `layers: 'lazy'` whose pixels are still deflated, a getter inflating them
   * on each read (not kept): read it once.
   */
  pixels: Uint8Array | null;
  /** For pixels still deflated (a lazy map): `use` gets the RGBA pixels, valid only while it runs; where the WASM inflater holds them no array is made (a digest allocates nothing). */
  withPixels?<T>(use: (pixels: Uint8Array) => T): T;
  /**
   * Bytes that determine `pixels` entirely and are cheaper to hash (the stored compressed block,
   * then the image's shape), when the format knows them: the index keeps pixel digests under their
   * digest, so an image embedded in many levels is hashed as pixels once.
   */
  pixelsKey?: Uint8Array;
  /** The stored bytes of an embedded image file (a cartridge's PNG, JPEG …; a view); absent when it has none. */
  data?: Uint8Array;
}

/**
 * Where writeRows() puts a level's rows. `object`'s `fieldsJson`, when given, is the JSON text of
 * the row's fields (then `row.fields` is null): a format with many objects of many fields writes
 * them as text once instead of building an object per row to be turned into text.
 */
export interface RowSink {
  layer(row: LayerRow): void;
  /** A layer's histogram: `counts[i]` cells hold `tiles[i]`, tiles ascending, only those present. */
  tiles(layer: number, kind: string, tiles: ArrayLike<number>, counts: ArrayLike<number>): void;
  object(row: ObjectRow, fieldsJson?: string): void;
  /** `object`: the `index` of the level's object row the text belongs to (texts.object = objects.object); absent for the level's own texts. */
  text(source: string, text: string, object?: number): void;
  image(row: ImageRow): void;
  /**
   * A warning about the level's rows that leaves them standing (a GWC whose object model could not
   * be made keeps its header, media and strings): a `warnings` row of the level. Optional: a sink
   * without it drops such warnings.
   */
  warning?(code: string, message: string, offset: number | null): void;
  /** Last, once. */
  level(row: LevelRow): void;
}

/** Everything indexRows() gives for one level. */
export interface LevelRows {
  level: LevelRow;
  layers: LayerRow[];
  tiles: TileRow[];
  objects: ObjectRow[];
  texts: TextRow[];
  images: ImageRow[];
  /** What `RowSink.warning` was told. */
  warnings: WarningRow[];
}

/** A warning about a level's rows (the index's `warnings` table). */
export interface WarningRow {
  code: string;
  message: string;
  offset: number | null;
}

/**
 * One format as the registry, detect(), decode() and the CLI see it. Declared with method syntax
 * on purpose: TypeScript compares method parameters bivariantly, so every format's definition is
 * assignable to `AnyFormat` without a cast. That widening is only sound behind `owns()`, which is
 * why the registry checks it before handing a value to a definition.
 */
export interface FormatDefinition<Id extends FormatId, Value extends Decoded, S extends Summary, EncodeOpts extends object>
  extends FormatNamespace<Id, Value, S, EncodeOpts> {
  /** The format ids this definition can produce (a value's `format` is one of them). */
  readonly ids: readonly Id[];
  /** File-name extensions of this format's files (lower case, with the dot), for walks and the CLI. */
  readonly extensions: readonly string[];
  /** True when `value` is one of this format's results (its `format` is one of `ids`). */
  owns(value: Decoded): value is Value;
}

/** Any format's definition, as the registry holds them. */
export type AnyFormat = FormatDefinition<FormatId, Decoded, Summary, object>;

/**
 * Declares a format: its namespace members plus ids and extensions; `owns` is derived from `ids`.
 * Marked free of side effects so bundlers drop an unused definition, and with it the encoder
 * and extractor it names, from an app that imports only a format's decode (levelkit/<format>).
 */
/*#__NO_SIDE_EFFECTS__*/
export function defineFormat<Id extends FormatId, Value extends Decoded, S extends Summary, EncodeOpts extends object>(
  spec: Omit<FormatDefinition<Id, Value, S, EncodeOpts>, 'owns'>,
): FormatDefinition<Id, Value, S, EncodeOpts> {
  const ids: readonly FormatId[] = spec.ids;
  const owns = (value: Decoded): value is Value => value !== null && typeof value === 'object' && ids.includes(value.format);
  return Object.freeze({ ...spec, owns });
}
