// The page's target: the preview's RGBA buffer put on a canvas (the same pixels PNG gets).

import type { Preview } from './draw.js';

/** The parts of a 2D canvas context this needs (structural, so src/ builds without the DOM typings). */
export interface Canvas2D {
  canvas: { width: number; height: number };
  createImageData(width: number, height: number): { data: Uint8ClampedArray };
  putImageData(image: { data: Uint8ClampedArray }, x: number, y: number): void;
}

/** Sizes the context's canvas to the preview and puts its pixels on it. */
export function paintPreview(ctx: Canvas2D, preview: Preview): void {
  ctx.canvas.width = Math.max(1, preview.width);
  ctx.canvas.height = Math.max(1, preview.height);
  if (!preview.width || !preview.height) return;
  const img = ctx.createImageData(preview.width, preview.height);
  img.data.set(preview.rgba);
  ctx.putImageData(img, 0, 0);
}
