// Rusty Hearts .wdata: the decoded model. Box tables are struct-of-arrays (one column per field);
// everything else is plain rows. See README.md here for the layout and the version gates.

import type { Text } from '../../core/text.js';
import type { Decoded } from '../define.js';

/**
 * A stored UTF-16LE string: `raw` is the stored code units (a copy, including a counted trailing
 * NUL), `text` the string without that NUL, `nul` whether the stored length counted one. Game files
 * count the NUL, the RustyHearts-Toolkit writer does not; the encoder writes each string back the
 * way it was read (or, for a changed `text`, with `nul` as given).
 */
export interface WString extends Text {
  nul: boolean;
}

/** The warning codes a .wdata decode can raise (kept, with their code, by `strict`). */
export type WdataWarningCode =
  /** Bytes after the last section; kept in `trailing` and written back. */
  | 'TRAILING_BYTES'
  /** The EventBox groups do not follow the offset table back to back; the encoder writes them so. */
  | 'EVENTBOX_LAYOUT';

/** EventBox type ids (the index of the group in the offset table). */
export const BOX_TYPE_NAMES = [
  'camera',
  'respawn',
  'startPoint',
  'trigger',
  'skid',
  'eventHit',
  'npc',
  'portal',
  'selectMapPortal',
  'inArea',
  'etc',
  'cameraBlock',
  'cutoff',
  'cameraTarget',
  'unused',
  'miniMapIcon',
  'environmentReverb',
  'waypoint',
  'obstacle',
] as const;
export type BoxTypeName = (typeof BOX_TYPE_NAMES)[number];

/** A column of a box table: one entry per box. */
export type Column = Int32Array | Uint32Array | Float32Array | WString[] | Float32Array[] | Int32Array[] | (WString | null)[] | WdataCameraInfo[][];

/**
 * One kind of box as struct-of-arrays: the oriented-bounding-box header as Float32Array columns
 * (copies owned by the table), the name column, then the kind's own fields in `fields` (see
 * `boxFields(kind, version)` for the names present at a version). Booleans are stored int32 and kept
 * as Int32Array (the raw value); `boxAt` turns them into `boolean`.
 */
export interface WdataBoxTable {
  /** `event:<type name>`, `aniBG`, `itemBox` or `gimmick`. */
  kind: string;
  count: number;
  name: WString[];
  posX: Float32Array;
  posY: Float32Array;
  posZ: Float32Array;
  scaleX: Float32Array;
  scaleY: Float32Array;
  scaleZ: Float32Array;
  rotX: Float32Array;
  rotY: Float32Array;
  rotZ: Float32Array;
  rotW: Float32Array;
  extX: Float32Array;
  extY: Float32Array;
  extZ: Float32Array;
  fields: Record<string, Column>;
}

/** A render/no-render list entry: `category` is null where the version stores none. */
export interface WdataEntry {
  category: number | null;
  key: WString;
}

/** One of a CameraBox's four camera settings. */
export interface WdataCameraInfo {
  /** Null where the EventBox version stores none (infos 1–3 below version 3). */
  target: WString | null;
  name: WString;
  /** 21 floats: position xyz, rotation xyz, fov, 14 frustum values. */
  params: Float32Array;
  /** uint32 flag (EventBox version ≥ 5), else null. */
  buildPVS: number | null;
  /** The PVS and render lists (EventBox version ≥ 4), else null. */
  lists: WdataCameraLists | null;
}

export interface WdataCameraLists {
  pvsBg: Uint32Array;
  /** EventBox version < 6: ids; else null. */
  pvsEventBoxIds: Uint32Array | null;
  /** EventBox version ≥ 6: category + name pairs; else null. */
  pvsEventBoxes: { category: number; name: WString }[] | null;
  /** Render BG, AniBG, Item, Gimmick, then NoRender BG, AniBG, Item, Gimmick (category from main version 22). */
  render: WdataEntry[][];
  /** x, y, z per build position. */
  buildPos: Float32Array;
}

export interface WdataEventBoxes {
  /** Entries in the offset table as stored (usually 19). */
  typeCount: number;
  /** Offsets as stored; the encoder recomputes them for non-empty groups and keeps them for empty ones. */
  offsets: Uint32Array;
  /** Types of the non-empty groups in file order (the encoder writes them in this order). */
  order: number[];
  /** One table per type index 0 … typeCount-1 (empty in a `sections: 'summary'` decode). */
  tables: WdataBoxTable[];
}

export interface WdataTrigger {
  name: WString;
  comment: WString;
  events: WString[];
  conditions: WString[];
  actions: WString[];
}

export interface WdataTriggers {
  reserved0: number;
  scriptDir: WString;
  reserved1: number;
  mainScript: WString;
  /** Main version < 9: the trigger list; else null. */
  triggers: WdataTrigger[] | null;
  /** Main version ≥ 9: the event, condition and action script paths; else null. */
  scripts: { events: WString[]; conditions: WString[]; actions: WString[] } | null;
}

export interface WdataScene {
  file: WString;
  fadeInPreview: number;
  fadeHoldPreview: number;
  fadeOutPreview: number;
  /** Main version ≥ 15: category and [sceneFadeIn, sceneFadeHold, sceneFadeOut, blendTime, fogNear, fogFar]; else null. */
  category: number | null;
  fades: number[] | null;
  /** Main version ≥ 19: [posX, posY, posZ, rotX, rotY, rotZ, fov, aspect]; else null. */
  camera: number[] | null;
  /** Main version ≥ 20: the second pass; else null. */
  extra: WdataSceneExtra | null;
}

export interface WdataSceneExtra {
  /** Main version ≥ 21, else null. */
  name: WString | null;
  indices: Uint32Array;
  events: { category: number; key: WString }[];
  /** RenderBg, RenderAni, RenderItem, RenderGimmick, NoRender… (category from main version 22). */
  lists: WdataEntry[][];
}

export interface WdataScenePath {
  model: WString;
  motion: WString;
  name: WString;
  eventName: WString;
  /** Main version ≥ 10, else null. */
  time: number | null;
  hold: number | null;
  /** Blend into the next path; null for the last one. */
  blendTime: number | null;
}

export interface WdataSceneResource {
  key: WString;
  aliases: WString[];
  /** Present when there are paths, else null. */
  delay: number | null;
  paths: WdataScenePath[];
  /** Main version ≥ 11, else null. */
  cues: { delay: number; name: WString; id: number; start: number }[] | null;
  /** Main version ≥ 12, else null. */
  sounds: WdataSoundBlock | null;
  /** Main version ≥ 17, else null. */
  ambients: { start: number; path: WString; playOnStart: number; loop: number }[] | null;
}

export interface WdataSoundBlock {
  /** `fadeIn`…`volMin` are null below main version 16. */
  sounds: { start: number; fadeIn: number | null; fadeOut: number | null; volMax: number | null; volMin: number | null; path: WString }[];
  /** Main version ≥ 13, else null. */
  unk1: number | null;
  unk2: number;
  unk3: number;
  unk4: number;
  /** Main version ≤ 14: seven int32 the game ignores; else null. */
  legacyInts: Int32Array | null;
  /** Main version ≤ 13: two strings the game ignores; else null. */
  legacyStrings: WString[] | null;
}

/** Section counts (filled in every decode, also `sections: 'summary'`). */
export interface WdataCounts {
  boxesByType: number[];
  aniBGs: number;
  itemBoxes: number;
  gimmicks: number;
  scenes: number;
  sceneResources: number;
}

export interface WdataLevel extends Decoded {
  format: 'wdata';
  signature: WString;
  mainVersion: number;
  /** Main version ≥ 7, else null. */
  eventBoxVersion: number | null;
  aniBGVersion: number | null;
  itemBoxVersion: number | null;
  /** Main version ≥ 8, else null. */
  gimmickVersion: number | null;
  /** The header words at main versions 9, 16 and 18 (spec: reserved; Toolkit: script counts), raw. */
  reserved9: number | null;
  reserved16: number | null;
  reserved18: [number, number] | null;
  modelPath: WString;
  navMeshPath: WString;
  /** Main version ≥ 2, else null. */
  navHeightPath: WString | null;
  eventBoxPath: WString;
  /** Main version ≥ 7, else null. */
  eventBoxes: WdataEventBoxes | null;
  aniBGs: WdataBoxTable;
  itemBoxes: WdataBoxTable;
  gimmicks: WdataBoxTable;
  /** Main version ≥ 2, else null. */
  obstaclePath: WString | null;
  mocPath: WString;
  aniBGPath: WString;
  triggers: WdataTriggers;
  scenes: WdataScene[];
  sceneResources: WdataSceneResource[];
  /** Bytes after the last section (warned as TRAILING_BYTES), written back by the encoder. */
  trailing: Uint8Array;
  counts: WdataCounts;
  /** True for a `sections: 'summary'` decode: box tables are empty, the encoder refuses the value. */
  summaryOnly: boolean;
  /** sha256 (hex) of the stored bytes of every box record, group by group (see README). */
  contentDigest: string;
}

export interface WdataEncodeOptions {
  /**
   * For strings whose `text` changed: count a trailing NUL (`true`, as game files do), or not
   * (`false`, as the RustyHearts-Toolkit writes). Default: each string's own `nul` flag.
   */
  nul?: boolean;
}
