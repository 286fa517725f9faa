// WWD (Claw, Gruntz, Get Medieval levels): the public namespace `wwd`. See README.md here.

import { defineFormat } from '../define.js';
import { decode, sniffWwd } from './decode.js';
import { encode } from './encode.js';
import { mainGrid, summarize, type WwdSummary } from './summary.js';
import type { WwdEncodeOptions, WwdLevel } from './types.js';

export { decode } from './decode.js';
export { encode } from './encode.js';
export { summarize, mainGrid, type WwdSummary, type WwdSummaryFields } from './summary.js';

/** `'wwd'` when `head` starts with the WWD header size 0x5F4; never throws. */
export function sniff(head: Uint8Array): 'wwd' | undefined {
  return sniffWwd(head) ? 'wwd' : undefined;
}

/** WWD's entry in the format registry. */
export const definition = defineFormat<'wwd', WwdLevel, WwdSummary, WwdEncodeOptions>({
  ids: ['wwd'],
  extensions: ['.wwd'],
  sniff, decode, encode, summarize, mainGrid,
});
export { objectAt, objectTable, OBJECT_FIELDS } from './objects.js';
export { fixedText } from './text.js';
export { WWD_LAYOUT_VERSION } from './summary.js';
export type { Text } from '../../core/text.js';
export { wapworldChecksum, wapmapChecksum } from './checksum.js';
export { detectGame } from './game.js';
export type {
  WwdLevel, WwdHeader, WwdPlane, WwdPlaneFlags, WwdGridStats, WwdObjectTable, WwdObject, WwdObjectColumns, WwdObjectFields,
  WwdTileProperty, WwdGame, WwdChecksumClass, WwdContainer, WwdEncodeOptions, WwdWarningCode,
} from './types.js';
export { newLevel, newPlane, type NewLevelOptions, type NewPlaneOptions } from './create.js';
