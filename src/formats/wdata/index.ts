// Rusty Hearts .wdata (map data: EventBoxes, AniBG, ItemBox, Gimmick, triggers, scenes): the public
// namespace `wdata`. See README.md here.

import { defineFormat } from '../define.js';
import { decode, sniffWdata } from './decode.js';
import { encode } from './encode.js';
import { mainGrid, summarize, type WdataSummary } from './summary.js';
import type { WdataEncodeOptions, WdataLevel } from './types.js';

export { decode, SIGNATURE, MAX_MAIN_VERSION, MAX_EVENTBOX_VERSION } from './decode.js';
export { encode } from './encode.js';
export { summarize, mainGrid, type WdataSummary, type WdataSummaryFields } from './summary.js';
export { boxAt, extract, levelRows, type BoxKind, type WdataBox } from './rows.js';
import { extract } from './rows.js';
export { wstring, isNoPath, NO_PATH } from './wstring.js';
export { EVENT_BOX_FIELDS, ANIBG_FIELDS, ITEMBOX_FIELDS, GIMMICK_FIELDS, OBB_COLUMNS, fieldsAt, typeName, type FieldSpec, type FieldKind } from './layout.js';
export { BOX_TYPE_NAMES } from './types.js';
export type {
  WdataLevel, WString, WdataWarningCode, WdataBoxTable, Column, WdataEntry, WdataCameraInfo, WdataCameraLists, WdataEventBoxes,
  WdataTrigger, WdataTriggers, WdataScene, WdataSceneExtra, WdataScenePath, WdataSceneResource, WdataSoundBlock, WdataCounts,
  WdataEncodeOptions, BoxTypeName,
} from './types.js';

/** `'wdata'` when `head` starts with the counted UTF-16LE `stairwaygames.` signature; never throws. */
export function sniff(head: Uint8Array): 'wdata' | undefined {
  return sniffWdata(head) ? 'wdata' : undefined;
}

/** .wdata's entry in the format registry. */
export const definition = defineFormat<'wdata', WdataLevel, WdataSummary, WdataEncodeOptions>({
  ids: ['wdata'],
  extensions: ['.wdata'],
  sniff, decode, encode, summarize, mainGrid, extract,
});
