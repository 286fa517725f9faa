// Small pictures of a level's embedded images for the page's images table: each scaled down
// (nearest pixel) to fit a square, as RGBA, so a map with many large images sends little.

import { isPending } from '../core/lazy.js';
import type { TeeworldsMap } from '../formats/teeworlds/index.js';

/** One image's thumbnail: `index` into the level's images, `width × height × 4` RGBA bytes. */
export interface ImageThumbnail {
  index: number;
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
}

/** At most this many thumbnails per level. */
export const MAX_THUMBNAILS = 256;

/** Thumbnails (at most `side` pixels a side) of `value`'s embedded images with pixels; empty for formats without such images. */
export function imageThumbnails(value: { format: string }, side = 64): ImageThumbnail[] {
  if (value.format !== 'teeworlds') return [];
  const out: ImageThumbnail[] = [];
  (value as TeeworldsMap).images.forEach((img, index) => {
    if (out.length >= MAX_THUMBNAILS || img.external || !(img.pixels || isPending(img, 'pixels')) || !img.width || !img.height) return;
    const pixels = img.pixels;
    const channels = img.format === 0 ? 3 : 4;
    if (!pixels || pixels.length < img.width * img.height * channels) return;
    out.push({ index, ...shrinkPicture(pixels, img.width, img.height, channels, side) });
  });
  return out;
}

/**
 * A picture (`channels` 3 or 4 bytes per pixel, row-major) scaled down by nearest pixel to fit a
 * `side`-pixel square (never scaled up), as RGBA: the page's image thumbnails and the CLI's contact
 * sheet cells.
 */
export function shrinkPicture(
  pixels: ArrayLike<number>,
  width: number,
  height: number,
  channels: 3 | 4,
  side: number,
): { width: number; height: number; rgba: Uint8ClampedArray } {
  const k = Math.min(1, side / Math.max(width, height));
  const w = Math.max(1, Math.round(width * k));
  const h = Math.max(1, Math.round(height * k));
  const rgba = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(height - 1, Math.floor(y / k));
    for (let x = 0; x < w; x++) {
      const s = (sy * width + Math.min(width - 1, Math.floor(x / k))) * channels;
      const o = (y * w + x) * 4;
      rgba[o] = pixels[s]!;
      rgba[o + 1] = pixels[s + 1]!;
      rgba[o + 2] = pixels[s + 2]!;
      rgba[o + 3] = channels === 4 ? pixels[s + 3]! : 255;
    }
  }
  return { width: w, height: h, rgba };
}
