// The list of formats detect(), decode() and the CLI know. Each format exports one `entry`
// (src/formats/<fmt>/entry.ts) adapting it to this shape; the array order is the sniffing order.

import type { FormatId, DecodeWarning } from '../core/errors.js';
import type { DecodeOptions } from '../core/limits.js';
import { entry as wwd } from './wwd/entry.js';
import { entry as teeworlds } from './teeworlds/entry.js';
import { entry as graal } from './graal/entry.js';

/** Cheap facts for `levelkit info` and bulk scans. */
export interface Summary {
  version: string | number;
  summary: Record<string, unknown>;
}

/** Anything a decoder returns: it names its format and carries the tolerated faults. */
export interface Decoded {
  format: FormatId;
  warnings: DecodeWarning[];
}

export interface FormatEntry {
  /** The format ids this entry can produce. */
  ids: readonly FormatId[];
  /** The format id when `head` (the first ≤ 64 bytes) is this format; never throws. */
  sniff(head: Uint8Array): FormatId | undefined;
  decode(bytes: Uint8Array, opts?: DecodeOptions): Decoded;
  summarize(value: Decoded): Summary;
  /** Writes a decoded value back to bytes (formats with an encoder). */
  encode?(value: Decoded): Uint8Array;
  /** The main tile grid (the one `gridDigest` hashes), when the value has one and it was decoded. */
  mainGrid?(value: Decoded): MainGrid | undefined;
}

/** A row-major grid of tile ids: WWD's main plane (u32), Teeworlds' game layer index bytes, Graal's layer 0 (u16). */
export interface MainGrid {
  width: number;
  height: number;
  /** A view into the decoded value (not a copy). */
  cells: Uint8Array | Uint16Array | Uint32Array;
}

// One line per format; the array order is the sniffing order.
export const FORMATS: readonly FormatEntry[] = [
  wwd,
  teeworlds,
  graal,
];
