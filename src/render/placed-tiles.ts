// A Teeworlds tile layer of a parallax group, drawn where its group's view puts it (tee-camera.ts):
// each picture pixel looks up the layer cell under it, so the layer is scaled and shifted as the
// game's camera would show it. Also the one texel rule both tile drawings share.

import type { PreviewLayer } from './adapters.js';
import type { GroupView } from './tee-camera.js';
import { atlasCell, type Tileset } from './tilesources.js';

/** Teeworlds tile flags: mirror horizontally, vertically, rotate 90° clockwise. */
const XFLIP = 1,
  YFLIP = 2,
  ROTATE = 8;

/** The byte offset in `ts.pixels` of the texel at (u, v) (0…1 across the cell) of a cell, after the tile's flips and turn. */
export function tileTexel(ts: Tileset, cell: { sx0: number; sy0: number; tw: number; th: number }, flags: number, u: number, v: number): number {
  if (flags & ROTATE) [u, v] = [v, 1 - u];
  if (flags & XFLIP) u = 1 - u;
  if (flags & YFLIP) v = 1 - v;
  const sx = cell.sx0 + Math.min(cell.tw - 1, Math.max(0, Math.floor(u * cell.tw)));
  const sy = cell.sy0 + Math.min(cell.th - 1, Math.max(0, Math.floor(v * cell.th)));
  return (sy * ts.width + sx) * ts.channels;
}

/** Blends texel `s` of `ts`, tinted, over pixel `o` of `rgba`. */
export function blendTexel(rgba: Uint8ClampedArray, o: number, ts: Tileset, s: number, tint: readonly number[]): void {
  const a = ((ts.channels === 4 ? ts.pixels[s + 3]! : 255) * tint[3]!) / (255 * 255);
  if (a <= 0) return;
  rgba[o] = rgba[o]! * (1 - a) + ((ts.pixels[s]! * tint[0]!) / 255) * a;
  rgba[o + 1] = rgba[o + 1]! * (1 - a) + ((ts.pixels[s + 1]! * tint[1]!) / 255) * a;
  rgba[o + 2] = rgba[o + 2]! * (1 - a) + ((ts.pixels[s + 2]! * tint[2]!) / 255) * a;
  rgba[o + 3] = 255;
}

/**
 * Draws a placed layer into `rgba` (width × height pixels showing the picture's tiles from
 * (originX, originY) at `scale` pixels per tile). Cells are coloured by `colour` when there is no
 * tileset; empty cells (id 0) draw nothing.
 */
export function drawPlacedLayer(
  rgba: Uint8ClampedArray,
  width: number,
  height: number,
  layer: PreviewLayer,
  view: GroupView,
  grid: { cells: ArrayLike<number>; flags?: Uint8Array | undefined },
  picture: { scale: number; originX: number; originY: number },
  colour: (id: number) => [number, number, number],
): void {
  // A plain copy: a lazy tileset's pixels are a getter, read once here, not per pixel.
  const ts: Tileset | undefined = layer.tileset && {
    width: layer.tileset.width,
    height: layer.tileset.height,
    channels: layer.tileset.channels,
    pixels: layer.tileset.pixels,
    ...(layer.tileset.layout ? { layout: layer.tileset.layout } : {}),
  };
  const tint = layer.tint ?? [255, 255, 255, 255];
  // Picture tile → layer tile: world pixel = (tile − offset) / scale, 32 world pixels a tile.
  const toLayer = (p: number, origin: number, s: number, o: number) => (origin + (p + 0.5) / picture.scale - o) / s / 32;
  for (let y = 0; y < height; y++) {
    const ly = toLayer(y, picture.originY, view.scaleY, view.offsetY);
    const cy = Math.floor(ly);
    if (cy < 0 || cy >= layer.height) continue;
    for (let x = 0; x < width; x++) {
      const lx = toLayer(x, picture.originX, view.scaleX, view.offsetX);
      const cx = Math.floor(lx);
      if (cx < 0 || cx >= layer.width) continue;
      const at = cy * layer.width + cx;
      const id = grid.cells[at]! >>> 0;
      if (id === 0) continue;
      const o = (y * width + x) * 4;
      if (ts) {
        const cell = atlasCell(ts, id);
        if (cell) blendTexel(rgba, o, ts, tileTexel(ts, cell, grid.flags?.[at] ?? 0, lx - cx, ly - cy), tint);
        continue;
      }
      const [r, g, b] = colour(id);
      rgba[o] = r;
      rgba[o + 1] = g;
      rgba[o + 2] = b;
      rgba[o + 3] = 255;
    }
  }
}
