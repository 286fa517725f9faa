// Teeworlds / DDNet maps: the public namespace (`teeworlds.decode`, `encode`, `sniff`, types).
// Container in datafile.ts / datafile-write.ts, semantics in map.ts / map-encode.ts; see README.md.
import { startDecode } from '../decode-context.js';
import type { DecodeOptions } from '../../core/limits.js';
import { sniffDatafile } from './datafile.js';
import { decodeMap } from './map.js';
import { encodeMap, type EncodeOptions } from './map-encode.js';
import { mainGrid, summarize, type TeeworldsSummary } from './summary.js';
import { defineFormat } from '../define.js';
import type { TeeworldsMap, TeeworldsWarningCode } from './types.js';

export type * from './types.js';
export { flavourOf } from './flavour.js';
export { MAX_STRING_BYTES, MAX_SETTINGS_BYTES } from './items.js';
export { summarize, mainGrid, gameLayer, type TeeworldsSummary, type TeeworldsSummaryFields } from './summary.js';
export { encodeMap as encode, type EncodeOptions } from './map-encode.js';
export { openDatafile, type Datafile } from './datafile.js';
export { writeDatafile, type DatafileWriteOptions } from './datafile-write.js';
export type { DecodeOptions } from '../../core/limits.js';

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
  sniff, decode, encode: encodeMap, summarize, mainGrid,
});
