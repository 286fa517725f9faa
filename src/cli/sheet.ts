// The contact sheet of `levelkit render --sheet`: each level's picture shrunk into a square cell,
// cells in a square-ish grid in input order, the file name under each cell in a tiny bitmap font
// of our own (glyphs.ts), so a sheet says which level is which without the list on stderr.
import { MAX_PREVIEW_PIXELS } from '../index.js';
import { ADVANCE, drawText, GLYPH_SCALE, glyphText, TEXT_HIGH } from './glyphs.js';
import { type Picture, SHEET_CELL } from './render-level.js';

const SHEET_GAP = 8;
/** Height of the caption band under each cell. */
const CAPTION = TEXT_HIGH + 6;
/** Characters that fit under a cell. */
const CAPTION_CHARS = Math.floor(SHEET_CELL / ADVANCE);

/** Most levels on one sheet: a square of cells within the pixels a preview may have. */
export const MAX_SHEET_LEVELS = Math.floor((Math.sqrt(MAX_PREVIEW_PIXELS) - SHEET_GAP) / (SHEET_CELL + CAPTION + SHEET_GAP)) ** 2;

/**
 * A name as the caption draws it: control characters escaped (`\x0a`), then at most
 * CAPTION_CHARS characters — a longer one keeps its end (where the name and extension are) after `~`.
 */
export function captionText(name: string): string {
  return glyphText(name, CAPTION_CHARS);
}

/** Lays the cells out in a square-ish grid, each with its caption under it. */
export function contactSheet(cells: readonly { name: string; thumb: Picture }[]): Picture & { columns: number } {
  const columns = Math.max(1, Math.ceil(Math.sqrt(cells.length)));
  const rows = Math.max(1, Math.ceil(cells.length / columns));
  const pitchY = SHEET_CELL + CAPTION + SHEET_GAP;
  const width = columns * (SHEET_CELL + SHEET_GAP) + SHEET_GAP;
  const height = rows * pitchY + SHEET_GAP;
  const sheet: Picture = { width, height, rgba: new Uint8ClampedArray(width * height * 4).fill(255) };
  cells.forEach(({ name, thumb: t }, i) => {
    const cellX = SHEET_GAP + (i % columns) * (SHEET_CELL + SHEET_GAP);
    const cellY = SHEET_GAP + Math.floor(i / columns) * pitchY;
    const x0 = cellX + ((SHEET_CELL - t.width) >> 1);
    const y0 = cellY + ((SHEET_CELL - t.height) >> 1);
    for (let y = 0; y < t.height; y++) sheet.rgba.set(t.rgba.subarray(y * t.width * 4, (y + 1) * t.width * 4), ((y0 + y) * width + x0) * 4);
    const text = captionText(name);
    drawText(sheet, text, cellX + ((SHEET_CELL - text.length * ADVANCE + GLYPH_SCALE) >> 1), cellY + SHEET_CELL + 3);
  });
  return { ...sheet, columns };
}
