// The shape every format shares, and defineFormat() through which each declares itself. Formats
// import this module (never the registry, never each other); formats/registry.ts lists them.

import type { DecodeWarning, FormatId } from '../core/errors.js';
import type { DecodeOptions } from '../core/limits.js';

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
