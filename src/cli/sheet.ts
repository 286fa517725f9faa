// The contact sheet of `levelkit render --sheet`: each level's picture shrunk into a square cell,
// cells in a square-ish grid in input order, the file name under each cell in a tiny bitmap font
// of our own (3 × 5 pixels a glyph, drawn twice as large), so a sheet says which level is which
// without the list on stderr.
import { MAX_PREVIEW_PIXELS } from '../index.js';
import { printable } from '../scan/names.js';
import { type Picture, SHEET_CELL } from './render-level.js';

const SHEET_GAP = 8;
/** Glyph pixels are drawn as GLYPH_SCALE × GLYPH_SCALE squares. */
const GLYPH_SCALE = 2;
const GLYPH_WIDE = 3;
const GLYPH_HIGH = 5;
/** Horizontal step from one character to the next, in sheet pixels. */
const ADVANCE = (GLYPH_WIDE + 1) * GLYPH_SCALE;
/** Height of the caption band under each cell. */
const CAPTION = GLYPH_HIGH * GLYPH_SCALE + 6;
/** Characters that fit under a cell. */
const CAPTION_CHARS = Math.floor(SHEET_CELL / ADVANCE);
const INK = 32;

/** Most levels on one sheet: a square of cells within the pixels a preview may have. */
export const MAX_SHEET_LEVELS = Math.floor((Math.sqrt(MAX_PREVIEW_PIXELS) - SHEET_GAP) / (SHEET_CELL + CAPTION + SHEET_GAP)) ** 2;

/**
 * The glyphs: five rows of three pixels, each row one octal digit (4 = left, 2 = middle, 1 =
 * right). Upper case only; lower case is drawn as upper case, anything else outside ASCII as `?`.
 */
// biome-ignore format: one glyph per entry, read as a table
const GLYPHS: Record<string, string> = {
  A: '25755', B: '65656', C: '34443', D: '65556', E: '74647', F: '74644', G: '34553', H: '55755', I: '72227',
  J: '11152', K: '55655', L: '44447', M: '57755', N: '65555', O: '25552', P: '65644', Q: '25563', R: '65655',
  S: '34216', T: '72222', U: '55557', V: '55552', W: '55775', X: '55255', Y: '55222', Z: '71247',
  '0': '75557', '1': '26227', '2': '61247', '3': '61216', '4': '55711', '5': '74616', '6': '34757', '7': '71222',
  '8': '75757', '9': '75716', ' ': '00000', '.': '00002', ',': '00024', '-': '00700', _: '00007', '/': '11244',
  '\\': '44211', '(': '12221', ')': '42224', '[': '32223', ']': '62226', '+': '02720', '#': '57575', '!': '22202',
  "'": '22000', '"': '55000', ':': '02020', ';': '02024', '~': '03600', '?': '61202', '=': '07070', '@': '25743',
  '&': '25253', '%': '51245', $: '36236', '*': '52725', '<': '12421', '>': '42124', '^': '25000', '`': '42000',
  '{': '32623', '}': '62326', '|': '22222',
};

/**
 * A name as the caption draws it: control characters escaped (`\x0a`), then at most
 * CAPTION_CHARS characters — a longer one keeps its end (where the name and extension are) after `~`.
 */
export function captionText(name: string): string {
  const text = [...printable(name)].map((c) => (GLYPHS[c.toUpperCase()] ? c.toUpperCase() : '?')).join('');
  return text.length <= CAPTION_CHARS ? text : `~${text.slice(text.length - CAPTION_CHARS + 1)}`;
}

/** Draws `text` (captionText's) with its top left at (x0, y0), clipped to the picture. */
function drawText(sheet: Picture, text: string, x0: number, y0: number): void {
  for (let i = 0; i < text.length; i++) {
    const rows = GLYPHS[text[i]!]!;
    for (let gy = 0; gy < GLYPH_HIGH; gy++)
      for (let gx = 0; gx < GLYPH_WIDE; gx++) {
        if (!((Number(rows[gy]) >> (GLYPH_WIDE - 1 - gx)) & 1)) continue;
        for (let dy = 0; dy < GLYPH_SCALE; dy++)
          for (let dx = 0; dx < GLYPH_SCALE; dx++) {
            const x = x0 + i * ADVANCE + gx * GLYPH_SCALE + dx;
            const y = y0 + gy * GLYPH_SCALE + dy;
            if (x < 0 || y < 0 || x >= sheet.width || y >= sheet.height) continue;
            const o = (y * sheet.width + x) * 4;
            sheet.rgba[o] = sheet.rgba[o + 1] = sheet.rgba[o + 2] = INK;
          }
      }
  }
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
