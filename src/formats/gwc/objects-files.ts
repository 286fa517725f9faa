// The object model as the files `extract` adds (README.md § Objects): objects.json,
// zones.geojson, zones.gpx and messages.txt. A cartridge whose analysis fails still extracts:
// objects.json and messages.txt say why, and the files that would only hold places are left out.

import { DecodeError } from '../../core/errors.js';
import { jsonBytes } from '../../core/json.js';
import type { ExtractedFile } from '../define.js';
import { objectModel } from './analysis/index.js';
import { isUnknown, type Unknown, type WherigoModel } from './analysis/types.js';
import { zonesGeoJson } from './objects-geojson.js';
import { zonesGpx } from './objects-gpx.js';
import { objectsJson } from './objects-json.js';
import { messagesText } from './objects-messages.js';
import type { GwcDecoded } from './types.js';

/**
 * The cartridge's object model, or why the analysis could not make it: a DecodeError (a chunk
 * that does not decode, a limit passed) says what; anything else is a levelkit bug in the
 * analysis, said as one. Either way the caller still has the rest of the file to show: the
 * analysis is the newest and largest reader of a cartridge, and its failure must not cost the
 * header, media and bytecode that were read.
 */
export function modelOrWhy(value: GwcDecoded): WherigoModel | Unknown {
  try {
    return objectModel(value);
  } catch (e) {
    if (e instanceof DecodeError) return { unknown: `the cartridge's objects could not be analysed: ${e.message}` };
    return { unknown: `levelkit bug in the object analysis: ${String((e as Error)?.message ?? e)}` };
  }
}

/** The files for `model` (or for the reason there is none); `title` names the cartridge where the model does not. */
export function objectFiles(model: WherigoModel | Unknown, title: string): ExtractedFile[] {
  const utf8 = (s: string) => new TextEncoder().encode(s);
  if (isUnknown(model))
    return [
      { path: 'objects.json', bytes: objectsJson(model) },
      { path: 'messages.txt', bytes: utf8(`${model.unknown}\n`) },
    ];
  const name = cartridgeName(model) ?? title;
  return [
    { path: 'objects.json', bytes: objectsJson(model) },
    { path: 'zones.geojson', bytes: jsonBytes(zonesGeoJson(model), 'gwc') },
    { path: 'zones.gpx', bytes: utf8(zonesGpx(model, name)) },
    { path: 'messages.txt', bytes: utf8(messagesText(model, name)) },
  ];
}

/** The name the cartridge's own `ZCartridge` object gives, when known. */
function cartridgeName(model: WherigoModel): string | undefined {
  const c = model.objects.find((o) => o.kind === 'cartridge');
  return c && c.name !== null && !isUnknown(c.name) && c.name.text !== '' ? c.name.text : undefined;
}
