// Teeworlds / DDNet maps: the public namespace (`teeworlds.decode`, `encode`, `sniff`, types).
// Container in datafile.ts / datafile-write.ts, semantics in map.ts / map-encode.ts; see README.md.

import type { DecodeOptions } from '../../core/limits.js';
import { startDecode } from '../decode-context.js';
import { defineFormat } from '../define.js';
import { sniffDatafile } from './datafile.js';
import { diff } from './diff.js';
import { extract } from './extract.js';
import { indexRows, writeRows } from './index-rows.js';
import { decodeMap } from './map.js';
import { type EncodeOptions, encodeMap } from './map-encode.js';
import { mainGrid, summarize, type TeeworldsSummary } from './summary.js';

export { diff } from './diff.js';
export { extract } from './extract.js';
export { indexRows, writeRows } from './index-rows.js';

import type { TeeworldsMap, TeeworldsWarningCode } from './types.js';

export type { DecodeOptions } from '../../core/limits.js';
export { type Datafile, openDatafile } from './datafile.js';
export { type DatafileWriteOptions, writeDatafile } from './datafile-write.js';
export { flavourOf } from './flavour.js';
export { MAX_SETTINGS_BYTES, MAX_STRING_BYTES } from './items.js';
export { type EncodeOptions, encodeMap as encode } from './map-encode.js';
export { gameLayer, mainGrid, summarize, type TeeworldsInfoSummary, type TeeworldsSummary, type TeeworldsSummaryFields } from './summary.js';
export type * from './types.js';

/** `'teeworlds'` when `head` (≥ 8 bytes) starts a datafile (DATA/ATAD, version 3 or 4); never throws. */
export function sniff(head: Uint8Array): 'teeworlds' | undefined {
  return sniffDatafile(head) ? 'teeworlds' : undefined;
}

/**
 * Decodes a Teeworlds/DDNet map (datafile v3/v4). Synchronous; throws DecodeError on damaged
 * input. With `sections: 'summary'` only the game layer's grid is read (no other grids, pixels,
 * sounds, quads or sources). All arrays in the result are copies owned by it.
 */
export function decode(bytes: Uint8Array, opts: DecodeOptions = {}): TeeworldsMap {
  const start = startDecode<TeeworldsWarningCode>('teeworlds', bytes, opts);
  return decodeMap(start.bytes, start.ctx, start.ctx.summaryOnly);
}

/** Teeworlds' entry in the format registry. */
export const definition = defineFormat<'teeworlds', TeeworldsMap, TeeworldsSummary, EncodeOptions>({
  ids: ['teeworlds'],
  extensions: ['.map'],
  sniff,
  decode,
  encode: encodeMap,
  summarize,
  mainGrid,
  extract,
  indexRows,
  writeRows,
  diff,
});
