// A Graal .gmap drawn as the world it describes: each level it names, decoded with the Graal
// decoder and drawn by render's own code (renderAsCommand: every layer when a tileset draws them),
// placed in its cell of one picture. Levels come from the caller (`find`), so the same code draws
// a folder (the CLI), a zip's members or files dropped on the page. Browser-safe: no node: imports.
//
// Bounded before anything is allocated: the grid's cells (`maxCells`) and the picture's pixels
// (`maxPixels`) are checked first, and an explicit scale that would pass them is refused with a
// RangeError `code: 'LIMIT_EXCEEDED'` naming the option; without a scale the cell size is chosen
// to fit `maxSide` (levels sampled below one pixel per tile when the world is that large).

import type { DecodeOptions } from '../core/limits.js';
import { decode as decodeGraal, mainGrid } from '../formats/graal/index.js';
import { LEVEL_SIZE } from '../formats/graal/level.js';
import type { GraalGmap } from '../formats/graal/types.js';
import { renderAsCommand } from './bundled.js';
import { BACKGROUND, MAX_PREVIEW_PIXELS, type Preview } from './draw.js';
import type { Tileset } from './tilesources.js';

export interface WorldOptions {
  /** The Graal tileset the levels are drawn with (graalTileset() of a decoded pics1.png); without one each tile id is a colour. */
  tileset?: Tileset;
  /**
   * Pixels per tile, a whole number 1…64. Default: the largest up to 16 that keeps the world's
   * longest side within `maxSide`; below 1 (each level sampled to 32, 16 … 1 px) when even 1 would not.
   */
  scale?: number;
  /** Longest side of the picture in pixels when `scale` is not given: a whole number 64…16384, default 4096. */
  maxSide?: number;
  /** Most pixels the picture may have (default MAX_PREVIEW_PIXELS, 64 Mi): checked before allocating. */
  maxPixels?: number;
  /** Most cells (columns × rows) the world may have (default 16,384: a 128 × 128 world). */
  maxCells?: number;
  /** Draw each level's markers (links, NPCs, signs…). Default false: on a world they hide the land. */
  markers?: boolean;
  /** How each level is decoded (limits, encoding, backend). */
  decode?: DecodeOptions;
}

/** One cell of the world, row-major. */
export interface WorldCell {
  /** The level name as the gmap spells it ('' for a blank cell: the gmap names no level there). */
  name: string;
  column: number;
  row: number;
  /** 'missing': `find` did not give it (or the name is not a plain file name, or the cell is blank); 'error': it did not decode. */
  state: 'drawn' | 'missing' | 'error';
  /** Why: the decode error's message, or why a name was not looked up. */
  error?: string;
}

export interface World {
  /** Picture size in pixels: columns × cellSize by rows × cellSize. */
  width: number;
  height: number;
  /** `width × height × 4` bytes, row-major RGBA. */
  rgba: Uint8ClampedArray;
  columns: number;
  rows: number;
  /** Every cell, row-major (columns × rows). */
  cells: WorldCell[];
  /** Side of one level's cell in pixels. */
  cellSize: number;
  /** Pixels per tile (below 1 when levels are sampled). */
  scale: number;
}

/** Default longest side of a world picture without `scale`. */
export const WORLD_MAX_SIDE = 4096;
/** Default most cells of a world (128 × 128 levels). */
export const WORLD_MAX_CELLS = 1 << 14;
const MAX_SIDE_LIMIT = 1 << 14;

/**
 * A missing cell's mark (dark red, crossed in bright red) and an undecodable one's (dark amber,
 * crossed in orange), RGB: each has a channel outside tileColour()'s 72…239, so no tile of a
 * level drawn without a tileset looks like them.
 */
export const WORLD_MARKS = {
  missing: { fill: [48, 12, 16], line: [255, 48, 48] },
  error: { fill: [56, 40, 0], line: [255, 176, 0] },
} as const;

const limitError = (message: string) => Object.assign(new RangeError(`levelkit: render: world: ${message}`), { code: 'LIMIT_EXCEEDED' as const });

/**
 * Draws `gmap` as one picture: each named level `find` gives, decoded and drawn in its cell; a
 * named level `find` does not give is a crossed red cell ('missing'), one that does not decode a
 * crossed amber cell ('error', with its message). A name that is not a plain file name (a path,
 * `..`) is never passed to `find`. Each distinct name is looked up and decoded once. RangeError
 * (`code: 'LIMIT_EXCEEDED'`) when the grid or the picture would pass its limit; `gmap` is not changed.
 */
export function drawWorld(gmap: GraalGmap, find: (levelName: string) => Uint8Array | undefined, options: WorldOptions = {}): World {
  // Names past WIDTH or HEIGHT (a GRID_SIZE warning) are drawn too; a reduce, as a spread of a huge grid's rows would overflow the stack.
  const columns = gmap.levels.reduce((n, r) => Math.max(n, r.length), gmap.width);
  const rows = Math.max(gmap.height, gmap.levels.length);
  const maxCells = whole(options.maxCells ?? WORLD_MAX_CELLS, 1, Number.MAX_SAFE_INTEGER, 'maxCells');
  const maxPixels = whole(options.maxPixels ?? MAX_PREVIEW_PIXELS, 1, Number.MAX_SAFE_INTEGER, 'maxPixels');
  if (columns * rows > maxCells) throw limitError(`the gmap is ${columns} × ${rows} levels, over the ${maxCells} cells a world may have (maxCells)`);
  const { cellSize, scale } = cellSizeOf(columns, rows, maxPixels, options);
  const width = columns * cellSize;
  const height = rows * cellSize;
  const rgba = new Uint8ClampedArray(width * height * 4);
  fill(rgba, width, 0, 0, width, height, BACKGROUND);

  const counts = new Map<string, number>();
  for (const row of gmap.levels) for (const n of row) counts.set(n.text, (counts.get(n.text) ?? 0) + 1);
  // Levels named more than once are drawn once and copied; the rest are drawn straight into the world.
  const drawnOnce = new Map<string, Preview | { error: string } | undefined>();
  const cells: WorldCell[] = [];
  for (let row = 0; row < rows; row++)
    for (let column = 0; column < columns; column++) {
      const name = gmap.levels[row]?.[column]?.text ?? '';
      const cell: WorldCell = { name, column, row, state: 'missing' };
      cells.push(cell);
      if (name.trim() === '') continue;
      const x0 = column * cellSize;
      const y0 = row * cellSize;
      const unsafe = notAFileName(name);
      let got = unsafe ? undefined : drawnOnce.get(name);
      if (!unsafe && !drawnOnce.has(name)) {
        got = drawLevel(find(name), cellSize, scale, options);
        if ((counts.get(name) ?? 0) > 1) drawnOnce.set(name, got);
      }
      if (got === undefined) {
        if (unsafe) cell.error = unsafe;
        mark(rgba, width, x0, y0, cellSize, WORLD_MARKS.missing);
      } else if ('error' in got) {
        cell.state = 'error';
        cell.error = got.error;
        mark(rgba, width, x0, y0, cellSize, WORLD_MARKS.error);
      } else {
        cell.state = 'drawn';
        blit(rgba, width, got, x0, y0, cellSize);
      }
    }
  return { width, height, rgba, columns, rows, cells, cellSize, scale };
}

/** Why `name` is not looked up (a path, `.`/`..`, a control character), or undefined for a plain file name. */
function notAFileName(name: string): string | undefined {
  // Graal servers index levels by file name alone (a name with a folder is never found there), so a
  // path in a gmap names nothing; not asking for it keeps every lookup inside the caller's folder or zip.
  if (/[/\\]/.test(name)) return 'not a plain file name (it has a path); not looked up';
  if (name === '.' || name === '..') return 'not a file name; not looked up';
  if ([...name].some((c) => c.charCodeAt(0) < 0x20)) return 'has a control character; not looked up';
  return undefined;
}

/** The cell's picture, the decode or draw error, or undefined when there are no bytes. */
function drawLevel(bytes: Uint8Array | undefined, cellSize: number, scale: number, o: WorldOptions): Preview | { error: string } | undefined {
  if (bytes === undefined) return undefined;
  try {
    const value = decodeGraal(bytes, o.decode);
    if (value.format === 'graal-gmap') return { error: 'a .gmap, not a level (worlds are not nested)' };
    const size = scale >= 1 ? { scale } : { maxSide: cellSize };
    return renderAsCommand(value, mainGrid(value), { ...size, markers: o.markers === true, ...(o.tileset ? { resources: { graalTileset: o.tileset } } : {}) });
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** The cell size and pixels per tile: `scale`'s, checked against `maxPixels`, else the largest that fits `maxSide` and `maxPixels`. */
function cellSizeOf(columns: number, rows: number, maxPixels: number, o: WorldOptions): { cellSize: number; scale: number } {
  const cells = columns * rows;
  if (o.scale !== undefined) {
    const scale = whole(o.scale, 1, 64, 'scale');
    const side = LEVEL_SIZE * scale;
    if (cells * side * side > maxPixels) {
      const fits = Math.floor(Math.sqrt(maxPixels / cells) / LEVEL_SIZE);
      throw limitError(
        `scale ${scale} would draw ${columns * side} × ${rows * side} px, over the ${maxPixels} pixels a world may have (maxPixels); ${fits >= 1 ? `use scale ≤ ${fits}` : 'leave scale out (levels are then sampled to fit)'}`,
      );
    }
    return { cellSize: side, scale };
  }
  const maxSide = whole(o.maxSide ?? WORLD_MAX_SIDE, LEVEL_SIZE, MAX_SIDE_LIMIT, 'maxSide');
  const longest = Math.max(columns, rows, 1);
  // Whole pixels per tile (up to 16), else a level sampled to a power-of-two side (32 … 1 px), so every tile step is whole.
  for (const cellSize of [...Array.from({ length: 16 }, (_, i) => LEVEL_SIZE * (16 - i)), 32, 16, 8, 4, 2, 1]) {
    if (longest * cellSize <= maxSide && cells * cellSize * cellSize <= maxPixels) return { cellSize, scale: cellSize / LEVEL_SIZE };
  }
  throw limitError(`the gmap is ${columns} × ${rows} levels: even at 1 px a level it is wider than maxSide ${maxSide} or over maxPixels ${maxPixels}`);
}

function whole(v: unknown, min: number, max: number, name: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw new RangeError(`levelkit: render: world: ${name} must be a whole number ${min}…${max}, got ${String(v)}`);
  return v;
}

function fill(rgba: Uint8ClampedArray, width: number, x0: number, y0: number, w: number, h: number, [r, g, b]: readonly number[]): void {
  for (let y = y0; y < y0 + h; y++)
    for (let o = (y * width + x0) * 4, end = o + w * 4; o < end; o += 4) {
      rgba[o] = r!;
      rgba[o + 1] = g!;
      rgba[o + 2] = b!;
      rgba[o + 3] = 255;
    }
}

/** A cell filled and crossed corner to corner, with a border: seen at any zoom. */
function mark(rgba: Uint8ClampedArray, width: number, x0: number, y0: number, size: number, m: (typeof WORLD_MARKS)[keyof typeof WORLD_MARKS]): void {
  fill(rgba, width, x0, y0, size, size, m.fill);
  const t = Math.max(1, Math.round(size / 64));
  for (let i = 0; i < size; i++)
    for (let d = 0; d < t && i + d < size; d++) {
      fill(rgba, width, x0 + i + d, y0 + i, 1, 1, m.line);
      fill(rgba, width, x0 + size - 1 - i - d, y0 + i, 1, 1, m.line);
    }
  fill(rgba, width, x0, y0, size, t, m.line);
  fill(rgba, width, x0, y0 + size - t, size, t, m.line);
  fill(rgba, width, x0, y0, t, size, m.line);
  fill(rgba, width, x0 + size - t, y0, t, size, m.line);
}

/** A level's picture copied into its cell, cut to the cell (a level is 64 × 64 tiles; a larger picture is clipped). */
function blit(rgba: Uint8ClampedArray, width: number, p: Preview, x0: number, y0: number, size: number): void {
  const w = Math.min(p.width, size);
  const h = Math.min(p.height, size);
  for (let y = 0; y < h; y++) rgba.set(p.rgba.subarray(y * p.width * 4, (y * p.width + w) * 4), ((y0 + y) * width + x0) * 4);
}

/**
 * How a Graal server finds a gmap's level among `fileNames` (the files beside the gmap): the name
 * as spelt, else the same name in another case (GServer lowercases a gmap's names, and levels
 * are made on case-insensitive systems), the first in code-unit order when several differ only
 * by case. Returns the file name, or undefined.
 */
export function levelNameMatcher(fileNames: Iterable<string>): (levelName: string) => string | undefined {
  const exact = new Set<string>();
  const folded = new Map<string, string>();
  for (const n of [...fileNames].sort()) {
    exact.add(n);
    const k = n.toLowerCase();
    if (!folded.has(k)) folded.set(k, n);
  }
  return (levelName) => (exact.has(levelName) ? levelName : folded.get(levelName.toLowerCase()));
}
