// WWD (Claw, Gruntz, Get Medieval levels): the public namespace `wwd`. See README.md here.

import { defineFormat } from '../define.js';
import { diff } from './diff.js';
import { extract } from './extract.js';

export { extract } from './extract.js';

import { decode, sniffWwd } from './decode.js';
import { encode } from './encode.js';
import { indexRows, writeRows } from './index-rows.js';
import { mainGrid, summarize, type WwdSummary } from './summary.js';
import type { WwdEncodeOptions, WwdLevel } from './types.js';

export { decode } from './decode.js';
export { diff } from './diff.js';
export { encode } from './encode.js';
export { indexRows, writeRows } from './index-rows.js';
export { mainGrid, summarize, type WwdSummary, type WwdSummaryFields } from './summary.js';

/** `'wwd'` when `head` starts with the WWD header size 0x5F4; never throws. */
export function sniff(head: Uint8Array): 'wwd' | undefined {
  return sniffWwd(head) ? 'wwd' : undefined;
}

/** WWD's entry in the format registry. */
export const definition = defineFormat<'wwd', WwdLevel, WwdSummary, WwdEncodeOptions>({
  ids: ['wwd'],
  extensions: ['.wwd'],
  sniff,
  decode,
  encode,
  summarize,
  mainGrid,
  extract,
  indexRows,
  writeRows,
  diff,
});
export type { Text } from '../../core/text.js';
export { wapmapChecksum, wapworldChecksum } from './checksum.js';
export { type NewLevelOptions, type NewPlaneOptions, newLevel, newPlane } from './create.js';
export { detectGame } from './game.js';
export { OBJECT_FIELDS, OBJECT_STRINGS, objectAt, objectStrings, objectTable } from './objects.js';
export { WWD_LAYOUT_VERSION } from './summary.js';
export { fixedText } from './text.js';
export type {
  WwdChecksumClass,
  WwdContainer,
  WwdEncodeOptions,
  WwdGame,
  WwdGridStats,
  WwdHeader,
  WwdLevel,
  WwdObject,
  WwdObjectColumns,
  WwdObjectFields,
  WwdObjectTable,
  WwdPlane,
  WwdPlaneFlags,
  WwdTileProperty,
  WwdWarningCode,
} from './types.js';
