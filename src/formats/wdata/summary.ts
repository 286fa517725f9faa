// Rusty Hearts .wdata cheap facts for `levelkit info` and bulk scans (fields fixed by issue 14).

import { dictionary } from '../../core/record.js';
import { boundSummary, type MainGrid, type Summary } from '../define.js';
import { typeName } from './layout.js';
import type { WdataLevel } from './types.js';
import { isNoPath } from './wstring.js';

/** The `summary` fields of a .wdata. */
export interface WdataSummaryFields {
  mainVersion: number;
  /** Null below main version 7 (no EventBox section). */
  eventBoxVersion: number | null;
  aniBGVersion: number | null;
  itemBoxVersion: number | null;
  gimmickVersion: number | null;
  /** The .mmp model path, null for `.\` (none). */
  modelPath: string | null;
  /** `{ "<type name>": count }` for every type with boxes. */
  boxesByType: Record<string, number>;
  aniBGs: number;
  itemBoxes: number;
  gimmicks: number;
  scenes: number;
  sceneResources: number;
  /** sha256 (hex) of the stored box records (EventBox groups with type and count, then AniBG, ItemBox, Gimmick). */
  contentDigest: string;
}

/** What summarize() gives for a .wdata: `version` is the main version. */
export type WdataSummary = Summary<number, WdataSummaryFields>;

/** Counts come from the stored counts, so a `sections: 'summary'` decode gives the same values as a full one. */
export function summarize(level: WdataLevel): WdataSummary {
  const boxesByType = dictionary<number>();
  level.counts.boxesByType.forEach((n, t) => {
    if (n > 0) boxesByType[typeName(t)] = n;
  });
  return boundSummary({
    version: level.mainVersion,
    summary: {
      mainVersion: level.mainVersion,
      eventBoxVersion: level.eventBoxVersion,
      aniBGVersion: level.aniBGVersion,
      itemBoxVersion: level.itemBoxVersion,
      gimmickVersion: level.gimmickVersion,
      modelPath: isNoPath(level.modelPath) ? null : level.modelPath.text,
      boxesByType,
      aniBGs: level.counts.aniBGs,
      itemBoxes: level.counts.itemBoxes,
      gimmicks: level.counts.gimmicks,
      scenes: level.counts.scenes,
      sceneResources: level.counts.sceneResources,
      contentDigest: level.contentDigest,
    },
  });
}

/** .wdata has no tile grid. */
export function mainGrid(_level: WdataLevel): MainGrid | undefined {
  return undefined;
}
