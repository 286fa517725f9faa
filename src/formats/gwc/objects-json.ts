// objects.json: the object model as plain JSON. Texts are strings, with their encoding only when
// it is not UTF-8 (`{ text, encoding }`, as cartridge.json writes header texts); unknowns stay
// `{ "unknown": why }`, so a value the analysis did not pin down never reads as a number.

import { jsonBytes } from '../../core/json.js';
import type { Text } from '../../core/text.js';
import type { Unknown, WherigoModel } from './analysis/types.js';

/** The model as JSON bytes (UTF-8, indented, ending in a newline); or the reason it could not be made. */
export function objectsJson(model: WherigoModel | Unknown): Uint8Array {
  return jsonBytes(plainValue(model), 'gwc');
}

/** `v` with every Text replaced as objects.json writes it; everything else as it is (the model is plain data). */
export function plainValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (isText(v)) return v.encoding === 'utf-8' ? v.text : { text: v.text, encoding: v.encoding };
  if (Array.isArray(v)) return v.map(plainValue);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = plainValue(x);
  return out;
}

function isText(v: object): v is Text {
  return 'text' in v && 'raw' in v && 'encoding' in v && typeof v.text === 'string' && typeof v.encoding === 'string';
}
