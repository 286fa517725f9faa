// levelkit's public surface: detect(), decode(), per-format namespaces, errors and options.
// Everything here is synchronous; init() exists for hosts that forbid sync WASM compilation.

import { DecodeError } from './core/errors.js';
import type { DecodeOptions } from './core/limits.js';
import { detect } from './detect.js';
import { FORMATS, type Decoded, type MainGrid, type Summary } from './formats/registry.js';
import type { WwdLevel } from './formats/wwd/types.js';
import type { TeeworldsMap } from './formats/teeworlds/types.js';
import type { GraalGmap, GraalLevel } from './formats/graal/types.js';

export { detect } from './detect.js';
export { DecodeError, type ErrorCode, type FormatId, type DecodeWarning } from './core/errors.js';
export type { DecodeOptions, Backend, InflaterChoice, Limits } from './core/limits.js';
export { DEFAULT_LIMITS } from './core/limits.js';
export type { Kernels } from './kernels/types.js';
export { jsKernels } from './kernels/js/index.js';
export { wasmKernels, wasmAvailable, init } from './kernels/wasm/index.js';
export type { Summary, MainGrid } from './formats/registry.js';
// Format namespaces (wwd, teeworlds, graal…): one line per format.
export * as wwd from './formats/wwd/index.js';
export * as teeworlds from './formats/teeworlds/index.js';
export * as graal from './formats/graal/index.js';

/** What decode() returns: one of the formats' results, discriminated by `format`. */
export type AnyDecoded = WwdLevel | TeeworldsMap | GraalLevel | GraalGmap;

/**
 * Detects the format by content and decodes it.
 * Throws DecodeError (code BAD_MAGIC) when no format recognises the bytes.
 */
export function decode(bytes: Uint8Array, opts?: DecodeOptions): AnyDecoded {
  const entry = entryFor(bytes);
  return entry.decode(bytes, opts) as AnyDecoded;
}

/** Cheap facts about a decoded value (what `levelkit info` prints). */
export function summarize(value: Decoded): Summary {
  const entry = FORMATS.find((f) => f.ids.includes(value.format));
  if (!entry) throw new TypeError(`levelkit: unknown format ${String(value.format)}`);
  return entry.summarize(value);
}

/** The main tile grid of a decoded value (what `gridDigest` hashes), or undefined when it has none. */
export function mainGrid(value: Decoded): MainGrid | undefined {
  return FORMATS.find((f) => f.ids.includes(value.format))?.mainGrid?.(value);
}

/** Encodes a decoded value back to its format (dispatching on `value.format`). */
export function encode(value: Decoded): Uint8Array {
  const entry = FORMATS.find((f) => f.ids.includes(value.format));
  if (!entry?.encode) throw new TypeError(`levelkit: no encoder for format ${String(value.format)}`);
  return entry.encode(value);
}

function entryFor(bytes: Uint8Array) {
  const id = detect(bytes);
  const entry = id && FORMATS.find((f) => f.ids.includes(id));
  if (!entry) {
    throw new DecodeError('unknown', 'BAD_MAGIC', { offset: 0, detail: 'no levelkit format recognises these bytes' });
  }
  return entry;
}
