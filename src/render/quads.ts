// Teeworlds quads in a preview: each quad is two triangles over its four corners (order: top-left,
// top-right, bottom-left, bottom-right), colours blended across them, textured from its layer's
// image when that is known (embedded, or a bundled external one), where its group's parallax puts
// it and as its envelopes make it at the time asked for.

import { defineLazy } from '../core/lazy.js';
import type { MapEnvelope, QuadsLayer, TeeworldsMap } from '../formats/teeworlds/index.js';
import { envelopeAt } from './envelopes.js';
import { type GroupView, groupView } from './tee-camera.js';
import type { Tileset } from './tilesources.js';

/** The quads of one layer in tile units (32 world pixels), ready to draw. */
export interface PreviewQuads {
  count: number;
  /** 8 per quad: x, y of the 4 corners, in tiles. */
  corners: Float64Array;
  /** 16 per quad: r, g, b, a (0…255) of the 4 corners. */
  colours: Uint8ClampedArray;
  /** 8 per quad: u, v of the 4 corners (1 = the image's width or height; repeats outside 0…1). */
  uv: Float64Array;
  /** The layer's image, when its pixels are known. */
  image?: Tileset;
}

/** Quad point coordinates, envelope offsets and texture coordinates are 22.10 fixed point. */
const FIXED = 1024;

/**
 * A quads layer as PreviewQuads (read when first drawn): each quad moved, turned and tinted by its
 * envelopes at `timeMs`, then placed by its group's view (tee-camera.ts: parallax, offset and
 * parallax zoom as a camera covering the map shows them).
 */
export function quadsOf(
  layer: QuadsLayer,
  view: GroupView,
  image: Tileset | undefined,
  envelopes: readonly MapEnvelope[],
  timeMs: number,
): PreviewQuads | undefined {
  const q = layer.quads;
  if (!q || q.count === 0) return undefined;
  const corners = new Float64Array(q.count * 8);
  const colours = new Uint8ClampedArray(q.count * 16);
  for (let i = 0; i < q.colors.length && i < colours.length; i++) colours[i] = q.colors[i]!;
  for (let i = 0; i < q.count; i++) {
    const pos = envelopeAt(envelopes[q.posEnv[i]!], timeMs + (q.posEnvOffset[i] ?? 0));
    const [dx, dy, degrees] = pos ?? [0, 0, 0];
    const [cos, sin] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
    // Point 4 is the quad's pivot: a position envelope turns the corners about it.
    const [cx, cy] = [q.points[i * 10 + 8]! / FIXED, q.points[i * 10 + 9]! / FIXED];
    for (let k = 0; k < 4; k++) {
      let x = q.points[i * 10 + k * 2]! / FIXED;
      let y = q.points[i * 10 + k * 2 + 1]! / FIXED;
      if (degrees !== 0) [x, y] = [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos];
      corners[i * 8 + k * 2] = (x + dx) * view.scaleX + view.offsetX;
      corners[i * 8 + k * 2 + 1] = (y + dy) * view.scaleY + view.offsetY;
    }
    const colour = envelopeAt(envelopes[q.colorEnv[i]!], timeMs + (q.colorEnvOffset[i] ?? 0));
    if (colour) for (let k = 0; k < 16; k++) colours[i * 16 + k] = colours[i * 16 + k]! * colour[k & 3]!;
  }
  const uv = new Float64Array(q.count * 8);
  for (let i = 0; i < uv.length; i++) uv[i] = q.texcoords[i]! / FIXED;
  return { count: q.count, corners, colours, uv, ...(image ? { image } : {}) };
}

/** A quads layer's entry for layersOf(): its grid size is the map's, its quads read when drawn. */
export function quadLayerOf(
  map: TeeworldsMap,
  gi: number,
  li: number,
  image: Tileset | undefined,
  size: { width: number; height: number },
  timeMs: number,
): { name: string; width: number; height: number; cells: Uint8Array; main: false; quads?: PreviewQuads } {
  const group = map.groups[gi]!;
  const layer = group.layers[li] as QuadsLayer;
  const out = {
    name: `${gi}.${li} quads${layer.name.text ? ` ${layer.name.text}` : ''}`,
    width: size.width,
    height: size.height,
    cells: new Uint8Array(0),
    main: false as const,
  };
  defineLazy(out as { quads?: PreviewQuads }, 'quads', () => quadsOf(layer, groupView(group, size), image, map.envelopes, timeMs));
  return out;
}

/** Corner triples of a quad's two triangles (corners: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right). */
const TRIANGLES = [
  [0, 1, 2],
  [1, 3, 2],
] as const;

/**
 * Draws quads into `rgba` (width × height pixels, `scale` pixels per tile): each pixel whose centre
 * lies in the quad (in its first triangle, else its second, so the shared edge is drawn once) gets
 * the interpolated colour, times the texture's texel (nearest, repeating) when there is an image,
 * alpha-blended over what is there.
 */
export function drawQuads(rgba: Uint8ClampedArray, width: number, height: number, quads: PreviewQuads, scale: number, originX = 0, originY = 0): void {
  const img = quads.image;
  // Read once: a lazy tileset's pixels are a getter until first read.
  const pixels = img?.pixels;
  const { colours, uv } = quads;
  for (let q = 0; q < quads.count; q++) {
    // Pixel (0, 0) is tile (originX, originY): a region's corner.
    const p = Array.from(quads.corners.subarray(q * 8, q * 8 + 8), (v, k) => (v - (k & 1 ? originY : originX)) * scale);
    if (!p.every(Number.isFinite)) continue;
    const xs = [p[0]!, p[2]!, p[4]!, p[6]!];
    const ys = [p[1]!, p[3]!, p[5]!, p[7]!];
    const xMin = Math.max(0, Math.floor(Math.min(...xs)));
    const xMax = Math.min(width - 1, Math.ceil(Math.max(...xs)));
    const yMin = Math.max(0, Math.floor(Math.min(...ys)));
    const yMax = Math.min(height - 1, Math.ceil(Math.max(...ys)));
    const areas = TRIANGLES.map(([a, b, d]) => (xs[b]! - xs[a]!) * (ys[d]! - ys[a]!) - (ys[b]! - ys[a]!) * (xs[d]! - xs[a]!));
    for (let y = yMin; y <= yMax; y++) {
      const py = y + 0.5;
      for (let x = xMin; x <= xMax; x++) {
        const px = x + 0.5;
        for (let t = 0; t < 2; t++) {
          const area = areas[t]!;
          if (area === 0) continue;
          const [a, b, d] = TRIANGLES[t]!;
          // Barycentric weights of the pixel centre (dividing by the signed area covers either winding).
          const wb = ((px - xs[a]!) * (ys[d]! - ys[a]!) - (py - ys[a]!) * (xs[d]! - xs[a]!)) / area;
          const wd = ((xs[b]! - xs[a]!) * (py - ys[a]!) - (ys[b]! - ys[a]!) * (px - xs[a]!)) / area;
          const wa = 1 - wb - wd;
          if (wa < 0 || wb < 0 || wd < 0) continue;
          const at = (k: number) => wa * colours[q * 16 + a * 4 + k]! + wb * colours[q * 16 + b * 4 + k]! + wd * colours[q * 16 + d * 4 + k]!;
          let [r, g, bl, al] = [at(0), at(1), at(2), at(3)];
          if (img && pixels) {
            const u = wa * uv[q * 8 + a * 2]! + wb * uv[q * 8 + b * 2]! + wd * uv[q * 8 + d * 2]!;
            const v = wa * uv[q * 8 + a * 2 + 1]! + wb * uv[q * 8 + b * 2 + 1]! + wd * uv[q * 8 + d * 2 + 1]!;
            const sx = Math.min(img.width - 1, Math.floor((u - Math.floor(u)) * img.width));
            const sy = Math.min(img.height - 1, Math.floor((v - Math.floor(v)) * img.height));
            const s = (sy * img.width + sx) * img.channels;
            r = (r * pixels[s]!) / 255;
            g = (g * pixels[s + 1]!) / 255;
            bl = (bl * pixels[s + 2]!) / 255;
            if (img.channels === 4) al = (al * pixels[s + 3]!) / 255;
          }
          const alpha = al / 255;
          if (alpha > 0) {
            const o = (y * width + x) * 4;
            rgba[o] = rgba[o]! * (1 - alpha) + r * alpha;
            rgba[o + 1] = rgba[o + 1]! * (1 - alpha) + g * alpha;
            rgba[o + 2] = rgba[o + 2]! * (1 - alpha) + bl * alpha;
            rgba[o + 3] = 255;
          }
          break;
        }
      }
    }
  }
}
