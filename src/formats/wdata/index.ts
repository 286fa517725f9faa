// Rusty Hearts .wdata (map data: EventBoxes, AniBG, ItemBox, Gimmick, triggers, scenes): the public
// namespace `wdata`. See README.md here.

import { defineFormat } from '../define.js';
import { decode, sniffWdata } from './decode.js';
import { diff } from './diff.js';
import { encode } from './encode.js';
import { indexRows, writeRows } from './index-rows.js';
import { mainGrid, summarize, type WdataSummary } from './summary.js';
import type { WdataEncodeOptions, WdataLevel } from './types.js';

export { decode, MAX_EVENTBOX_VERSION, MAX_MAIN_VERSION, SIGNATURE } from './decode.js';
export { diff } from './diff.js';
export { encode } from './encode.js';
export { indexRows, writeRows } from './index-rows.js';
export { type BoxKind, boxAt, extract, levelRows, type WdataBox } from './rows.js';
export { mainGrid, summarize, type WdataSummary, type WdataSummaryFields } from './summary.js';

import { extract } from './rows.js';

export { ANIBG_FIELDS, EVENT_BOX_FIELDS, type FieldKind, type FieldSpec, fieldsAt, GIMMICK_FIELDS, ITEMBOX_FIELDS, OBB_COLUMNS, typeName } from './layout.js';
export type {
  BoxTypeName,
  Column,
  WdataBoxTable,
  WdataCameraInfo,
  WdataCameraLists,
  WdataCounts,
  WdataEncodeOptions,
  WdataEntry,
  WdataEventBoxes,
  WdataLevel,
  WdataScene,
  WdataSceneExtra,
  WdataScenePath,
  WdataSceneResource,
  WdataSoundBlock,
  WdataTrigger,
  WdataTriggers,
  WdataWarningCode,
  WString,
} from './types.js';
export { BOX_TYPE_NAMES } from './types.js';
export { isNoPath, NO_PATH, wstring } from './wstring.js';

/** `'wdata'` when `head` starts with the counted UTF-16LE `stairwaygames.` signature; never throws. */
export function sniff(head: Uint8Array): 'wdata' | undefined {
  return sniffWdata(head) ? 'wdata' : undefined;
}

/** .wdata's entry in the format registry. */
export const definition = defineFormat<'wdata', WdataLevel, WdataSummary, WdataEncodeOptions>({
  ids: ['wdata'],
  extensions: ['.wdata'],
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
