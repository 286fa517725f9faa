// `extract` for Graal: level.json (the model) and, for levels, the level as .nw text, the form
// Graal's own tools read and people edit; a .gmap gives map.json only.
import { EncodeError } from '../../core/errors.js';
import { jsonBytes } from '../../core/json.js';
import type { ExtractedFile } from '../define.js';
import { encodeNw } from './nw-encode.js';
import type { GraalGmap, GraalLevel } from './types.js';

export function extract(value: GraalLevel | GraalGmap): ExtractedFile[] {
  if (value.format === 'graal-gmap') return [{ path: 'map.json', bytes: jsonBytes(value, value.format) }];
  let nw: Uint8Array | undefined;
  let nwRefused: string | undefined;
  try {
    nw = encodeNw(value);
  } catch (e) {
    // A binary level can hold what .nw cannot spell (some sign glyphs): say so instead of failing the rest.
    if (!(e instanceof EncodeError)) throw e;
    nwRefused = e.message;
  }
  const files: ExtractedFile[] = [{ path: 'level.json', bytes: jsonBytes(nwRefused ? { ...value, nwRefused } : value, value.format) }];
  if (nw) files.push({ path: 'level.nw', bytes: nw });
  return files;
}
