// `levelkit diff --png`: the new level drawn as `levelkit render` draws it, with the rectangles of
// changed cells tinted and outlined, so a reviewer sees where a map was edited.

import { type AnyDecoded, type Change, render } from '../index.js';
import type { Picture } from './render-level.js';

/** Side of a Graal board in tiles. */
const LEVEL_SIZE = 64;

const TINT: readonly [number, number, number] = [255, 40, 40];

/**
 * The picture of `level` with each `tile` change on a grid of the drawn size highlighted (other
 * layers of another size, WWD's planes with their own tiles, would land in the wrong place). The
 * number of rectangles drawn is returned with it.
 */
export function highlightedPicture(level: AnyDecoded, changes: readonly Change[]): { picture: Picture; highlighted: number; empty?: string } {
  const preview = render(level, { markers: false });
  const picture = { width: preview.width, height: preview.height, rgba: preview.rgba };
  if (preview.empty) return { picture, highlighted: 0, empty: preview.empty };
  let highlighted = 0;
  for (const c of changes) {
    if (c.kind !== 'tile' || c.x === undefined || c.y === undefined) continue;
    const size = c.layer === undefined ? undefined : layerSize(level, c.layer);
    if (!size || size.width !== preview.tilesWide || size.height !== preview.tilesHigh) continue;
    const s = preview.scale;
    const x0 = Math.floor((c.x - preview.region.x) * s);
    const y0 = Math.floor((c.y - preview.region.y) * s);
    const x1 = Math.max(x0 + 1, Math.ceil((c.x + (c.w ?? 1) - preview.region.x) * s));
    const y1 = Math.max(y0 + 1, Math.ceil((c.y + (c.h ?? 1) - preview.region.y) * s));
    mark(picture, x0, y0, x1, y1);
    highlighted++;
  }
  return { picture, highlighted };
}

/** The grid size of layer `index` as diff() numbers layers (Teeworlds: across groups in file order; WWD: planes; Graal: boards). */
function layerSize(level: AnyDecoded, index: number): { width: number; height: number } | undefined {
  if (level.format === 'teeworlds') {
    const l = level.groups.flatMap((g) => g.layers)[index];
    return l && 'width' in l ? { width: l.width, height: l.height } : undefined;
  }
  if (level.format === 'wwd') {
    const p = level.planes[index];
    return p && { width: p.tilesWide, height: p.tilesHigh };
  }
  if (level.format === 'graal' || level.format === 'graal-nw') return { width: LEVEL_SIZE, height: LEVEL_SIZE };
  return undefined;
}

/** Tints [x0, x1) × [y0, y1) half-way to TINT and draws its border in TINT. */
function mark(p: Picture, x0: number, y0: number, x1: number, y1: number): void {
  const left = Math.max(0, x0);
  const top = Math.max(0, y0);
  const right = Math.min(p.width, x1);
  const bottom = Math.min(p.height, y1);
  for (let y = top; y < bottom; y++)
    for (let x = left; x < right; x++) {
      const at = (y * p.width + x) * 4;
      const edge = x === x0 || y === y0 || x === x1 - 1 || y === y1 - 1;
      for (let k = 0; k < 3; k++) p.rgba[at + k] = edge ? TINT[k]! : (p.rgba[at + k]! + TINT[k]!) >> 1;
      p.rgba[at + 3] = 255;
    }
}
