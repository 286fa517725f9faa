// The preview of a level as a plain RGBA buffer: tile grids (a stable colour per tile id, or the
// real tiles of a Teeworlds tileset) with markers on top. The page puts the same buffer on its
// canvas (canvas.ts) and `levelkit render` encodes it as PNG, so both show the same picture.

import type { MainGrid } from '../formats/define.js';
import { layersOf, type Marker, markersOf, type PreviewLayer, previewGrid } from './adapters.js';
import { blendTexel, drawPlacedLayer, tileTexel } from './placed-tiles.js';
import { drawQuads } from './quads.js';
import { atlasCell, type RenderResources, type Tileset } from './tilesources.js';
import { WDATA_MARKER_KINDS } from './wdata.js';

export interface RenderOptions {
  /** Pixels per tile (a whole number 1…64, and at most MAX_PREVIEW_PIXELS in all). Default: as large as keeps the picture within `maxSide`, at most 16. */
  scale?: number;
  /** Which grid: 'main' (default), 'all' (every layer composited in order), an index into `layers`, or a list of indexes (those layers composited in order: a viewer with layers hidden). */
  layer?: 'main' | 'all' | number | readonly number[];
  /** Draw markers (default true). */
  markers?: boolean;
  /** Longest side of the picture in pixels when `scale` is not given (a whole number 1…8192, default 2048); larger grids are sampled. */
  maxSide?: number;
  /** Pictures from outside the level to draw with (Teeworlds map resources and entities atlas, a Graal tileset); see resourcesNeeded(). */
  resources?: RenderResources;
  /**
   * Draw only this rectangle of the grid, in tiles (whole numbers; clipped to the grid, which it
   * must overlap): a viewer zoomed in asks for the part in sight at full tile resolution. The
   * picture is the rectangle's, `scale` (or `maxSide`) applies to it, and `region` on the result
   * says what was drawn. Markers stay in grid tiles.
   */
  region?: TileRect;
  /**
   * With `layer: 'all'`, also draw Teeworlds physics layers (game, front, tele, speedup, switch,
   * tune) with DDNet's editor atlases, as an editor shows them. Default: only when the map has no
   * other layer to draw, since players never see them (a DDNet map's unhookable filler would
   * cover the picture).
   */
  physics?: boolean;
  /**
   * How opaque each drawn layer is, by its index in `layers`: 0 (hidden) … 1 (as drawn, the
   * default). A layer at 0.5 is mixed half-way between the picture without it and with it, as an
   * editor's layer opacity shows it.
   */
  opacity?: Readonly<Record<number, number>>;
  /**
   * The moment animated parts are drawn at, in seconds from the map's start (default 0): Teeworlds
   * quads moved, turned and tinted by their envelopes, layer colours by theirs. A finite number ≥ 0.
   */
  time?: number;
  /** Called after each layer is drawn (`done` of `total`), so a viewer can show how far a slow picture is. */
  onProgress?: (progress: RenderProgress) => void;
}

/** A rectangle of a grid in tiles. */
export interface TileRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How far renderPreview is: `done` of `total` layers drawn. */
export interface RenderProgress {
  stage: 'draw';
  done: number;
  total: number;
}

export interface Preview {
  /** Picture size in pixels (0 × 0 when there is no grid). */
  width: number;
  height: number;
  /** `width × height × 4` bytes, row-major RGBA. */
  rgba: Uint8ClampedArray;
  /** Grid size in tiles. */
  tilesWide: number;
  tilesHigh: number;
  /** Pixels per tile; below 1 when a huge grid is sampled (then every `1/scale`th tile is drawn). */
  scale: number;
  /** Every layer the value has (what `layer` indexes). */
  /** `physics`: a Teeworlds physics layer (left out of `layer: 'all'` unless `physics: true`). `overlay`: a Teeworlds layer fixed to the screen in front of the map (a HUD), left out of `layer: 'all'`. */
  layers: { name: string; width: number; height: number; main: boolean; tileset: boolean; overlay?: boolean; physics?: boolean }[];
  /** The layers drawn, by index. */
  drawn: number[];
  /** Markers in tile units (draw at `x * scale`). */
  markers: Marker[];
  /** Each marker kind drawn, its colour and how many, in order of first appearance. */
  legend: { kind: string; rgb: [number, number, number]; count: number }[];
  /** Why the picture is empty, when it is. */
  empty?: string;
  /** The rectangle drawn, in tiles (the grid's, or `region` clipped to it); the picture's pixel (0, 0) is its corner. */
  region: TileRect;
}

/** Most pixels a preview may have (64 Mi, 256 MiB of RGBA): an explicit `scale` that would draw more is refused (RangeError, `code: 'LIMIT_EXCEEDED'`). */
export const MAX_PREVIEW_PIXELS = 1 << 26;
/** Largest `time` (seconds): a day, far past any envelope's loop. */
const MAX_TIME_S = 86_400;
/** Largest `maxSide`: a square of it stays within MAX_PREVIEW_PIXELS. */
const MAX_PREVIEW_SIDE = 1 << 13;

/** Background of cells with nothing in them (tile id 0, WWD's invisible 0xFFFFFFFF). */
export const BACKGROUND: readonly [number, number, number] = [24, 28, 34];
/** WWD's "filled" cell 0xEEEEEEEE. */
const FILLED: readonly [number, number, number] = [120, 130, 140];

/** The colour of tile id `v` when no tileset draws it: stable across runs, neighbouring ids far apart. */
export function tileColour(v: number): [number, number, number] {
  v >>>= 0;
  if (v === 0 || v === 0xffffffff) return [BACKGROUND[0], BACKGROUND[1], BACKGROUND[2]];
  if (v === 0xeeeeeeee) return [FILLED[0], FILLED[1], FILLED[2]];
  const h = Math.imul(v ^ (v >>> 16), 0x9e3779b1) >>> 0;
  return [72 + ((h & 0xb7) % 168), 72 + (((h >>> 8) & 0xff) % 168), 72 + (((h >>> 16) & 0xff) % 168)];
}

/** Marker colours by kind (RGB). */
export const MARKER_COLOURS: Record<string, [number, number, number]> = {
  object: [255, 214, 10],
  link: [64, 200, 255],
  npc: [255, 105, 180],
  chest: [255, 160, 40],
  sign: [240, 240, 240],
  baddy: [255, 60, 60],
  spawn: [80, 255, 120],
  flag: [255, 80, 200],
  tele: [170, 120, 255],
};

/**
 * The colour of markers of `kind`: MARKER_COLOURS's, else (.wdata box types and any other kind)
 * hues a golden angle apart in WDATA_MARKER_KINDS's order, so neighbouring kinds differ.
 */
export function markerColour(kind: string): [number, number, number] {
  if (Object.hasOwn(MARKER_COLOURS, kind)) return MARKER_COLOURS[kind]!;
  let i = WDATA_MARKER_KINDS.indexOf(kind);
  if (i < 0) for (const c of kind) i = (Math.imul(i ^ c.charCodeAt(0), 0x9e3779b1) >>> 0) % 1000;
  return hsl((i * 137.508) % 360, 0.8, 0.6);
}

function hsl(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
  return [f(0), f(8), f(4)];
}

/** Marker kinds, their colours and counts, in order of first appearance. */
function legendOf(markers: Marker[]): Preview['legend'] {
  const counts = new Map<string, number>();
  for (const m of markers) counts.set(m.kind, (counts.get(m.kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => ({ kind, rgb: markerColour(kind), count }));
}

/**
 * Draws `value`'s preview (any decoded level) into a new RGBA buffer. RangeError for a bad
 * `scale`, `maxSide` or `layer`, and (with `code: 'LIMIT_EXCEEDED'`) for a `scale` that would
 * draw more than MAX_PREVIEW_PIXELS.
 */
export function renderPreview(value: { format: string }, main: MainGrid | undefined, opts: RenderOptions = {}): Preview {
  const time = opts.time ?? 0;
  if (typeof time !== 'number' || !Number.isFinite(time) || time < 0 || time > MAX_TIME_S)
    throw new RangeError(`levelkit: render: time must be a number of seconds 0…${MAX_TIME_S}, got ${String(time)}`);
  const layers = layersOf(value, main, opts.resources, time * 1000);
  const info = layers.map((l) => ({
    name: l.name,
    width: l.width,
    height: l.height,
    main: l.main,
    tileset: !!l.tileset,
    ...(l.overlay ? { overlay: true } : {}),
    ...(l.physics ? { physics: true } : {}),
  }));
  const which = opts.layer ?? 'main';
  let drawn: number[];
  if (which === 'all') drawn = wholeMap(layers, opts.physics);
  else if (which === 'main') drawn = layers.findIndex((l) => l.main) >= 0 ? [layers.findIndex((l) => l.main)] : [];
  else if (Array.isArray(which)) {
    const bad = which.find((i) => !Number.isInteger(i) || i < 0 || i >= layers.length);
    if (bad !== undefined) throw new RangeError(`levelkit: render: layer list names layer ${bad}, which does not exist (this level has ${layers.length})`);
    drawn = [...which];
  } else {
    if (typeof which !== 'number' || !Number.isInteger(which) || which < 0 || which >= layers.length) {
      throw new RangeError(
        `levelkit: render: layer ${which} does not exist (this level has ${layers.length} layer${layers.length === 1 ? '' : 's'}: 0…${layers.length - 1}, 'main' or 'all')`,
      );
    }
    drawn = [which];
  }
  // A list keeps the grid of every layer, so hiding the largest layer does not shrink the picture.
  const sized = Array.isArray(which) ? layers : drawn.map((i) => layers[i]!);
  const tilesWide = Math.max(0, ...sized.map((l) => l.width));
  const tilesHigh = Math.max(0, ...sized.map((l) => l.height));
  const markers = opts.markers === false ? [] : markersOf(value);
  const legend = legendOf(markers);
  const none = (empty: string): Preview => ({
    width: 0,
    height: 0,
    rgba: new Uint8ClampedArray(0),
    tilesWide,
    tilesHigh,
    scale: 1,
    layers: info,
    drawn,
    markers,
    legend,
    empty,
    region: { x: 0, y: 0, width: tilesWide, height: tilesHigh },
  });
  if (drawn.length === 0 && !Array.isArray(which)) return none(layers.length ? 'no main grid (pick a layer)' : 'this level has no tile grid');
  if (tilesWide === 0 || tilesHigh === 0) return none(`the grid is empty (${tilesWide} × ${tilesHigh} tiles)`);
  const region = regionOf(opts.region, tilesWide, tilesHigh);
  if (opts.onProgress !== undefined && typeof opts.onProgress !== 'function')
    throw new TypeError(`levelkit: render: onProgress must be a function, got ${typeof opts.onProgress}`);

  let scale: number;
  if (opts.scale !== undefined) {
    if (!Number.isInteger(opts.scale) || opts.scale < 1 || opts.scale > 64)
      throw new RangeError(`levelkit: render: scale must be a whole number 1…64, got ${opts.scale}`);
    scale = opts.scale;
    // Checked before allocating: an engine's "Invalid typed array length" tells no one which option to change.
    const pixels = region.width * region.height * scale * scale;
    if (pixels > MAX_PREVIEW_PIXELS) {
      const fits = Math.floor(Math.sqrt(MAX_PREVIEW_PIXELS / (region.width * region.height)));
      throw Object.assign(
        new RangeError(
          `levelkit: render: scale ${scale} would draw ${region.width * scale} × ${region.height * scale} px, over the ${MAX_PREVIEW_PIXELS} pixels a preview may have; for this ${region.width} × ${region.height}-tile ${opts.region ? 'region' : 'grid'} ${fits >= 1 ? `use scale ≤ ${fits}` : 'leave scale out (the grid is then sampled to fit)'}`,
        ),
        { code: 'LIMIT_EXCEEDED' as const },
      );
    }
  } else {
    const maxSide = opts.maxSide ?? 2048;
    if (!Number.isInteger(maxSide) || maxSide < 1 || maxSide > MAX_PREVIEW_SIDE)
      throw new RangeError(`levelkit: render: maxSide must be a whole number 1…${MAX_PREVIEW_SIDE}, got ${maxSide}`);
    const side = Math.max(region.width, region.height);
    scale = side <= maxSide ? Math.max(1, Math.min(16, Math.floor(maxSide / side))) : 1 / Math.ceil(side / maxSide);
  }
  const step = scale < 1 ? Math.round(1 / scale) : 1;
  const px = scale < 1 ? 1 : scale;
  const width = Math.ceil(region.width / step) * px;
  const height = Math.ceil(region.height / step) * px;
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < rgba.length; i += 4) {
    rgba[i] = BACKGROUND[0];
    rgba[i + 1] = BACKGROUND[1];
    rgba[i + 2] = BACKGROUND[2];
    rgba[i + 3] = 255;
  }
  const composite = drawn.length > 1 || Array.isArray(which);
  const opacity = opacityOf(opts.opacity, layers.length);
  drawn.forEach((i, k) => {
    const o = opacity[i] ?? 1;
    const before = o < 1 ? rgba.slice() : null;
    if (o > 0) drawLayer(rgba, width, layers[i]!, step, px, composite, region);
    if (before) mix(rgba, before, o);
    opts.onProgress?.({ stage: 'draw', done: k + 1, total: drawn.length });
  });
  for (const m of markers) drawMarker(rgba, width, height, { ...m, x: m.x - region.x, y: m.y - region.y }, px / step);
  return { width, height, rgba, tilesWide, tilesHigh, scale: px / step, layers: info, drawn, markers, legend, region };
}

/** `opacity` checked: keys are layer indexes, values numbers 0…1; RangeError naming the option otherwise. */
function opacityOf(opacity: RenderOptions['opacity'], layers: number): Readonly<Record<number, number>> {
  if (opacity === undefined) return {};
  if (typeof opacity !== 'object' || opacity === null) throw new TypeError('levelkit: render: opacity must be an object of layer index → 0…1');
  for (const [k, v] of Object.entries(opacity)) {
    const i = Number(k);
    if (!Number.isInteger(i) || i < 0 || i >= layers)
      throw new RangeError(`levelkit: render: opacity names layer ${k}, which does not exist (this level has ${layers})`);
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) throw new RangeError(`levelkit: render: opacity of layer ${k} must be a number 0…1, got ${String(v)}`);
  }
  return opacity;
}

/** `rgba` ← before + (rgba − before) × o: the layer just drawn, at opacity o. */
function mix(rgba: Uint8ClampedArray, before: Uint8ClampedArray, o: number): void {
  for (let i = 0; i < rgba.length; i++) rgba[i] = before[i]! + (rgba[i]! - before[i]!) * o;
}

/**
 * The layers of a whole-map picture, as a player sees the map: not the screen-fixed foreground
 * layers (HUDs), which zoomed to the map would hide it, nor the physics layers unless asked for
 * or there is nothing else.
 */
function wholeMap(layers: PreviewLayer[], physics: boolean | undefined): number[] {
  if (physics !== undefined && typeof physics !== 'boolean') throw new TypeError(`levelkit: render: physics must be true or false, got ${typeof physics}`);
  const shown = layers.flatMap((l, i) => (l.overlay ? [] : [i]));
  const seen = shown.filter((i) => !layers[i]!.physics);
  return physics || seen.length === 0 ? shown : seen;
}

/** The grid's rectangle, or `region` checked (whole numbers, overlapping the grid) and clipped to it; RangeError naming `region` otherwise. */
function regionOf(region: TileRect | undefined, tilesWide: number, tilesHigh: number): TileRect {
  if (region === undefined) return { x: 0, y: 0, width: tilesWide, height: tilesHigh };
  const whole = (v: unknown) => Number.isSafeInteger(v);
  if (typeof region !== 'object' || region === null || ![region.x, region.y, region.width, region.height].every(whole))
    throw new RangeError('levelkit: render: region must be { x, y, width, height } in whole tiles');
  const { x, y, width, height } = region;
  if (x < 0 || y < 0 || width < 1 || height < 1 || x >= tilesWide || y >= tilesHigh)
    throw new RangeError(
      `levelkit: render: region ${width} × ${height} at ${x}, ${y} is outside the ${tilesWide} × ${tilesHigh}-tile grid (x, y ≥ 0 and inside it; width, height ≥ 1)`,
    );
  return { x, y, width: Math.min(width, tilesWide - x), height: Math.min(height, tilesHigh - y) };
}

function drawLayer(rgba: Uint8ClampedArray, width: number, layer: PreviewLayer, step: number, px: number, composite: boolean, region: TileRect): void {
  // (Not `layer.cells`: on a lazy layer that getter keeps the grid in the map; previewGrid below does not.)
  if (layer.quads !== undefined) {
    drawQuads(rgba, width, rgba.length / 4 / width, layer.quads, px / step, region.x, region.y);
    return;
  }
  if (layer.view !== undefined) {
    const grid = previewGrid(layer);
    if (grid.cells.length === 0) return;
    drawPlacedLayer(rgba, width, rgba.length / 4 / width, layer, layer.view, grid, { scale: px / step, originX: region.x, originY: region.y }, tileColour);
    return;
  }
  // A plain copy of the tileset's fields: a lazy one (Teeworlds `layers: 'lazy'`) has been
  // redefined in place, and drawTile reads these per tile.
  const tileset = layer.tileset && {
    width: layer.tileset.width,
    height: layer.tileset.height,
    channels: layer.tileset.channels,
    pixels: layer.tileset.pixels,
    ...(layer.tileset.layout ? { layout: layer.tileset.layout } : {}),
  };
  // Read once per layer, without keeping a lazy grid in the level: each is dropped after drawing.
  const { cells, flags } = previewGrid(layer);
  if (cells.length === 0) return;
  // The cells of this layer inside the region (a layer may be smaller than the grid).
  const cw = Math.ceil(Math.min(region.width, layer.width - region.x) / step);
  const ch = Math.ceil(Math.min(region.height, layer.height - region.y) / step);
  for (let ty = 0; ty < ch; ty++) {
    for (let tx = 0; tx < cw; tx++) {
      const at = (region.y + ty * step) * layer.width + region.x + tx * step;
      const v = cells[at]! >>> 0;
      // In a composite, empty cells let the layers below show through. Graal's tile 0 is a real tile of its atlas.
      if ((v === 0 && tileset?.layout !== 'graal') || v === 0xffffffff) {
        if (!composite) continue;
        continue;
      }
      const image = layer.tileImage?.(v);
      if (image) drawTile(rgba, width, tx * px, ty * px, px, image, { sx0: 0, sy0: 0, tw: image.width, th: image.height }, 0, undefined);
      else if (tileset) drawTile(rgba, width, tx * px, ty * px, px, tileset, atlasCell(tileset, v), flags?.[at] ?? 0, layer.tint);
      else fillCell(rgba, width, tx * px, ty * px, px, tileColour(v));
    }
  }
}

function fillCell(rgba: Uint8ClampedArray, width: number, x0: number, y0: number, px: number, [r, g, b]: [number, number, number]): void {
  for (let y = y0; y < y0 + px; y++) {
    let o = (y * width + x0) * 4;
    for (let x = 0; x < px; x++, o += 4) {
      rgba[o] = r;
      rgba[o + 1] = g;
      rgba[o + 2] = b;
      rgba[o + 3] = 255;
    }
  }
}

/** Draws a cell of a tileset (nothing when the atlas has no such cell) into a px × px cell, sampling the tile's centres, alpha-blended over what is there. */
function drawTile(
  rgba: Uint8ClampedArray,
  width: number,
  x0: number,
  y0: number,
  px: number,
  ts: Tileset,
  cell: ReturnType<typeof atlasCell>,
  flags: number,
  tint: [number, number, number, number] | undefined,
): void {
  if (!cell) return;
  const t = tint ?? [255, 255, 255, 255];
  for (let dy = 0; dy < px; dy++)
    for (let dx = 0; dx < px; dx++) blendTexel(rgba, ((y0 + dy) * width + x0 + dx) * 4, ts, tileTexel(ts, cell, flags, (dx + 0.5) / px, (dy + 0.5) / px), t);
}

/** A marker: an outlined rectangle for areas, a filled square with a dark rim for points. */
function drawMarker(rgba: Uint8ClampedArray, width: number, height: number, m: Marker, scale: number): void {
  const [r, g, b] = markerColour(m.kind);
  const set = (x: number, y: number, c: readonly number[]) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const o = (y * width + x) * 4;
    rgba[o] = c[0]!;
    rgba[o + 1] = c[1]!;
    rgba[o + 2] = c[2]!;
    rgba[o + 3] = 255;
  };
  const x0 = Math.floor(m.x * scale);
  const y0 = Math.floor(m.y * scale);
  if (m.w > 0 && m.h > 0) {
    const x1 = Math.max(x0, Math.ceil((m.x + m.w) * scale) - 1);
    const y1 = Math.max(y0, Math.ceil((m.y + m.h) * scale) - 1);
    for (let x = x0; x <= x1; x++) {
      set(x, y0, [r, g, b]);
      set(x, y1, [r, g, b]);
    }
    for (let y = y0; y <= y1; y++) {
      set(x0, y, [r, g, b]);
      set(x1, y, [r, g, b]);
    }
    return;
  }
  const rad = Math.max(1, Math.min(6, Math.round(scale / 3)));
  for (let y = -rad - 1; y <= rad + 1; y++) {
    for (let x = -rad - 1; x <= rad + 1; x++) {
      const rim = Math.abs(x) > rad || Math.abs(y) > rad;
      set(x0 + x, y0 + y, rim ? [0, 0, 0] : [r, g, b]);
    }
  }
}
