// The list of formats detect(), decode() and the CLI know, in sniffing order. Formats never
// import this module; each declares itself with defineFormat() in its own index.ts.

import type { FormatId } from '../core/errors.js';
import type { AnyFormat, Decoded } from './define.js';
import { definition as graal } from './graal/index.js';
import { definition as gwc } from './gwc/index.js';
import { definition as teeworlds } from './teeworlds/index.js';
import { definition as wdata } from './wdata/index.js';
import { definition as wwd } from './wwd/index.js';

/** Every format's definition, precisely typed; one line per format, in sniffing order. */
export const FORMATS = [wwd, teeworlds, graal, gwc, wdata] as const;

/** The same list, each widened to AnyFormat (sound only behind `owns()`, see FormatDefinition). */
const ANY: readonly AnyFormat[] = FORMATS;

/** The definition that produced `value`; TypeError for a value no format owns. */
export function formatOf(value: Decoded): AnyFormat {
  const def = ANY.find((f) => f.owns(value));
  if (!def) throw new TypeError(`levelkit: not a decoded levelkit value (format ${JSON.stringify((value as { format?: unknown } | null)?.format)})`);
  return def;
}

/** The definition whose ids include `id`. */
export function formatById(id: FormatId): AnyFormat | undefined {
  return ANY.find((f) => f.ids.includes(id));
}

/** Every format id, in sniffing order. */
export const FORMAT_IDS: readonly FormatId[] = ANY.flatMap((f) => f.ids);

/** Level-file extensions of every format (lower case, with the dot). */
export const LEVEL_EXTENSIONS: readonly string[] = ANY.flatMap((f) => f.extensions);
