// A tiny bitmap font of our own (3 × 5 pixels a glyph, drawn GLYPH_SCALE times as large), so a
// picture levelkit writes can say what it shows: the contact sheet's file names (sheet.ts), the
// legend of `levelkit diff --png` (diff-png.ts).
import { printable } from '../scan/names.js';
import type { Picture } from './render-level.js';

/** Glyph pixels are drawn as GLYPH_SCALE × GLYPH_SCALE squares. */
export const GLYPH_SCALE = 2;
const GLYPH_WIDE = 3;
export const GLYPH_HIGH = 5;
/** Horizontal step from one character to the next, in picture pixels. */
export const ADVANCE = (GLYPH_WIDE + 1) * GLYPH_SCALE;
/** Height of a line of text, in picture pixels. */
export const TEXT_HIGH = GLYPH_HIGH * GLYPH_SCALE;
const INK: readonly [number, number, number] = [32, 32, 32];

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
 * `text` as the font draws it: control characters escaped (`\x0a`), lower case as upper case,
 * anything else it has no glyph for as `?`; at most `max` characters — a longer text keeps its end
 * (where a file's name and extension are) after `~`, or with `keep: 'start'` its start before `~`.
 */
export function glyphText(text: string, max: number, keep: 'start' | 'end' = 'end'): string {
  const t = [...printable(text)].map((c) => (GLYPHS[c.toUpperCase()] ? c.toUpperCase() : '?')).join('');
  if (t.length <= max) return t;
  return keep === 'end' ? `~${t.slice(t.length - max + 1)}` : `${t.slice(0, max - 1)}~`;
}

/** Draws `text` (glyphText's) with its top left at (x0, y0) in `ink`, clipped to the picture. */
export function drawText(p: Picture, text: string, x0: number, y0: number, ink: readonly [number, number, number] = INK): void {
  for (let i = 0; i < text.length; i++) {
    const rows = GLYPHS[text[i]!] ?? GLYPHS['?']!;
    for (let gy = 0; gy < GLYPH_HIGH; gy++)
      for (let gx = 0; gx < GLYPH_WIDE; gx++) {
        if (!((Number(rows[gy]) >> (GLYPH_WIDE - 1 - gx)) & 1)) continue;
        for (let dy = 0; dy < GLYPH_SCALE; dy++)
          for (let dx = 0; dx < GLYPH_SCALE; dx++) {
            const x = x0 + i * ADVANCE + gx * GLYPH_SCALE + dx;
            const y = y0 + gy * GLYPH_SCALE + dy;
            if (x < 0 || y < 0 || x >= p.width || y >= p.height) continue;
            const o = (y * p.width + x) * 4;
            p.rgba[o] = ink[0];
            p.rgba[o + 1] = ink[1];
            p.rgba[o + 2] = ink[2];
            p.rgba[o + 3] = 255;
          }
      }
  }
}
