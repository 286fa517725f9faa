// WWD cheap facts for `levelkit info` and bulk scans (the summary fields are fixed by issue 2).

import { gridDigestOf } from '../../core/digest.js';
import { boundSummary, type MainGrid, type Summary } from '../define.js';
import { TILE_TABLE_COUNT_WORD } from './tile-properties.js';
import { treasureTotals } from './treasure.js';
import type { WwdLevel } from './types.js';

/**
 * `{ version, summary: { name, author, game, compressed, planes, objects, tileProperties,
 * checksum, gridDigest, treasure } }`. Counts come from the stored headers, so a `sections: 'summary'`
 * decode gives the same values as a full one. gridDigest: gridDigestOf mainGrid(level) (its size
 * and cells as LE u32), null when there is none (no plane is main) or every cell is invisible
 * (0xFFFFFFFF, what a new plane holds). `version` is WWD_LAYOUT_VERSION.
 */
/** The `summary` fields of a WWD (see the README's table). */
export interface WwdSummaryFields {
  name: string;
  author: string;
  game: WwdLevel['game'];
  compressed: boolean;
  planes: number;
  objects: number;
  tileProperties: number;
  checksum: WwdLevel['container']['checksum']['class'];
  /** sha256 (hex) of the main plane's size and cells as LE u32 (gridDigestOf); null without a main plane or for a blank one (every cell invisible). */
  gridDigest: string | null;
  /** Treasure objects per kind (`{ coins: 12, rings_red: 2 }`), as WapMap's statistics count them; `{}` when none (treasure.ts). */
  treasure: Record<string, number>;
}

/**
 * WWD files carry no version: every file any tool writes or reads has the one layout (a 1524-byte
 * header, 160-byte plane headers, 284-byte objects), which gruntz-decomp documents as WWD v1. The
 * header-size field that looks like a version is the signature (anything but 1524 is BAD_MAGIC),
 * so it cannot vary. `version` names that layout: 1.
 */
export const WWD_LAYOUT_VERSION = 1;

/** The cell of a plane with no tile (what create.ts fills a new plane with): a main plane of nothing else is blank. */
const INVISIBLE = 0xffffffff;

/** What summarize() gives for a WWD: `version` is WWD_LAYOUT_VERSION (1). */
export type WwdSummary = Summary<typeof WWD_LAYOUT_VERSION, WwdSummaryFields>;

export function summarize(level: WwdLevel): WwdSummary {
  const grid = mainGrid(level);
  return boundSummary({
    version: WWD_LAYOUT_VERSION,
    summary: {
      name: level.header.name.text,
      author: level.header.author.text,
      game: level.game,
      compressed: level.header.compressed,
      planes: level.planes.length,
      objects: level.planes.reduce((n, p) => n + p.objectCount, 0),
      tileProperties: level.tilePropertiesHeader[TILE_TABLE_COUNT_WORD] ?? 0,
      checksum: level.container.checksum.class,
      gridDigest: grid ? gridDigestOf(grid.width, grid.height, grid.cells, INVISIBLE) : null,
      treasure: level.sections === 'summary' ? (level.treasure ?? {}) : treasureTotals(level.planes.map((p) => p.objects)),
    },
  });
}

/**
 * The main plane's grid (a view of its `tiles`, not a copy), or undefined when no plane is main or
 * its cells do not fill it. summarize() hashes exactly this, so gridDigest and mainGrid() always
 * describe the same grid (a 0×0 main plane is a grid too, with no cells).
 */
export function mainGrid(level: WwdLevel): MainGrid | undefined {
  const plane = level.planes[level.mainPlane];
  if (!plane || plane.tiles.length !== plane.tilesWide * plane.tilesHigh) return undefined;
  return { width: plane.tilesWide, height: plane.tilesHigh, cells: plane.tiles };
}
