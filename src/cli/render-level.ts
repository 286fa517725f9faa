// One level drawn for `levelkit render`, the same code on the main thread (a single level) and in
// a render worker (render-worker.ts, a folder or a zip): decode with lazy layers, draw, encode the
// PNG and shrink the contact-sheet cell. So a level rendered alone and in a folder gives the same bytes.
import { type DecodeOptions, decode, type ErrorRecord, type Preview, type RenderOptions, renderPicture, shrinkPicture } from '../index.js';
import { errorOf } from '../scan/record.js';
import type { BundledAssets, UserGraphics } from './assets.js';
import type { PngEncode } from './png.js';
import type { WorldRecord } from './render-world.js';

/** Side of one contact-sheet cell, in pixels (a preview is scaled down to fit, never up). */
export const SHEET_CELL = 256;

/** What every level of a run is drawn with. */
export interface RenderJob {
  decode: DecodeOptions;
  render: RenderOptions;
  /** Encode the picture as PNG (there is an output file for it). */
  png: boolean;
  /** Shrink the picture into a contact-sheet cell (--sheet). */
  thumb: boolean;
  /** The user's graphics (--tileset, --graphics), read by each worker's BundledAssets. */
  user?: UserGraphics;
  /** Also encode the picture shrunk to fit each of these sides as PNG (`levelkit site`'s thumbnails), in the worker that drew it. */
  sizes?: readonly number[];
}

/** A picture as RGBA bytes, row-major. */
export interface Picture {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
}

/** What drawing one level gave. */
export interface Drawn {
  format: string;
  warnings: number;
  /** Names of the layers drawn. */
  layers: string[];
  markers: number;
  width: number;
  height: number;
  tilesWide: number;
  tilesHigh: number;
  /** Why nothing was drawn (then no png and no thumb). */
  empty?: string;
  png?: Uint8Array;
  thumb?: Picture;
  /** The PNGs of RenderJob.sizes, in its order. */
  sized?: Uint8Array[];
  /** A .gmap drawn as its world (render-world.ts): its grid and the cells not drawn. */
  world?: WorldRecord;
}

/** A level's answer; `notes`: things said once about the run (a bundled asset missing), from a worker. */
export type RenderAnswer = ({ drawn: Drawn } | { error: ErrorRecord }) & { notes?: string[] };

/** Draws one level; never throws (a level the decoder or the drawing refuses is its error). */
export function renderLevel(bytes: Uint8Array, job: RenderJob, assets: BundledAssets, encodePng: PngEncode): RenderAnswer {
  try {
    // Lazy layers: only the grids drawn are inflated, one at a time (each dropped after drawing), so
    // a big map's preview never holds every layer at once. A damaged grid not drawn is not reported.
    const value = decode(bytes, { ...job.decode, layers: 'lazy' });
    const resources = assets.resourcesFor(value);
    const with_ = (o: RenderOptions): RenderOptions => (resources ? { ...o, resources } : o);
    // As the page and drawLevel() do: a level whose layers have real tiles looks like the game with every layer drawn.
    const preview = renderPicture(value, with_(job.render));
    const drawn: Drawn = {
      format: value.format,
      warnings: value.warnings.length,
      layers: preview.drawn.map((i) => preview.layers[i]!.name),
      markers: preview.markers.length,
      width: preview.width,
      height: preview.height,
      tilesWide: preview.tilesWide,
      tilesHigh: preview.tilesHigh,
    };
    if (preview.empty) return { drawn: { ...drawn, empty: preview.empty } };
    return { drawn: { ...drawn, ...pictureOutputs(preview, job, encodePng) } };
  } catch (e) {
    return { error: e instanceof RangeError ? renderRefusal(e) : errorOf(e) };
  }
}

/** What the run wants of a picture: its PNG (an output file) and its contact-sheet cell (--sheet). */
export function pictureOutputs(p: Picture, job: RenderJob, encodePng: PngEncode): Pick<Drawn, 'png' | 'thumb' | 'sized'> {
  return {
    ...(job.png ? { png: pngOf(p, encodePng) } : {}),
    ...(job.thumb ? { thumb: shrinkPicture(p.rgba, p.width, p.height, 4, SHEET_CELL) } : {}),
    ...(job.sizes ? { sized: job.sizes.map((side) => pngOf(shrinkPicture(p.rgba, p.width, p.height, 4, side), encodePng)) } : {}),
  };
}

/** A level render() refuses: LIMIT_EXCEEDED when --scale would draw too many pixels (the message says which scale fits), else NOT_SUPPORTED. */
export function renderRefusal(e: RangeError): ErrorRecord {
  const message = e.message.replace(/^levelkit: render: /, '').replace(/\bscale\b/g, '--scale');
  return { code: (e as { code?: string }).code === 'LIMIT_EXCEEDED' ? 'LIMIT_EXCEEDED' : 'NOT_SUPPORTED', offset: null, path: '', message };
}

/** A picture as PNG bytes. */
export function pngOf(p: Picture | Preview, encodePng: PngEncode): Uint8Array {
  return encodePng({ width: p.width, height: p.height, data: new Uint8Array(p.rgba.buffer, p.rgba.byteOffset, p.rgba.byteLength), channels: 4, depth: 8 });
}
