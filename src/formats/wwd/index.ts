// WWD (Claw, Gruntz, Get Medieval levels): the public namespace `wwd`. See README.md here.

export { sniff, decode } from './decode.js';
export { encode } from './encode.js';
export { summarize } from './summary.js';
export { objectAt, objectTable, OBJECT_FIELDS } from './objects.js';
export { fixedText } from './header.js';
export { wapworldChecksum, wapmapChecksum } from './checksum.js';
export { detectGame } from './game.js';
export type {
  WwdLevel, WwdHeader, WwdPlane, WwdPlaneFlags, WwdGridStats, WwdObjectTable, WwdObject, WwdObjectColumns, WwdObjectFields,
  WwdTileProperty, WwdText, WwdGame, WwdChecksumClass, WwdContainer, WwdEncodeOptions,
} from './types.js';
export { newLevel, newPlane, type NewLevelOptions, type NewPlaneOptions } from './create.js';
