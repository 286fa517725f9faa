// `levelkit diff --png`: the new level drawn as `levelkit render` draws it, with the rectangles of
// changed cells tinted and outlined in the colour of their layer, and a legend below it (glyphs.ts)
// saying what each colour is (the layer by number, name and group, as the text diff names it) and
// what the picture leaves out, so a reviewer sees where a map was edited and on which layer.

import { type AnyDecoded, type Change, render } from '../index.js';
import { layerText } from './diff-text.js';
import { ADVANCE, drawText, glyphText, TEXT_HIGH } from './glyphs.js';
import type { Picture } from './render-level.js';

/** Side of a Graal board in tiles. */
const LEVEL_SIZE = 64;

type Rgb = readonly [number, number, number];

/** One colour per layer with changes, in layer order; far apart in hue so neighbours never look alike (repeated past eight layers). */
export const LAYER_COLOURS: readonly Rgb[] = [
  [255, 40, 40],
  [30, 100, 255],
  [0, 190, 60],
  [255, 150, 0],
  [200, 0, 220],
  [0, 200, 210],
  [150, 90, 20],
  [255, 0, 140],
];

/** Legend lines: a margin around them, a line's height, the most characters and layers listed. */
const MARGIN = 8;
const LINE = TEXT_HIGH + 6;
const SWATCH = TEXT_HIGH;
const MAX_CHARS = 96;
const MAX_KEY_LAYERS = 32;
const WHITE = 255;

/** A layer with tile changes, as the legend lists it. */
export interface KeyEntry {
  layer: number;
  colour: Rgb;
  /** `LAYER 3 (TELE) "TELE" IN GROUP "#1 GAME"` as the text diff names it. */
  label: string;
  /** Rectangles drawn, and those left out (a layer of another size than the grid drawn). */
  drawn: number;
  notDrawn: number;
}

export interface DiffPicture {
  /** The level's picture with the legend below it (the legend as wide as it needs). */
  picture: Picture;
  /** Height of the level's picture above the legend. */
  levelHeight: number;
  /** Rectangles drawn on the level. */
  highlighted: number;
  key: KeyEntry[];
  /** Why nothing could be drawn (then no legend either). */
  empty?: string;
}

/**
 * The picture of `level` with each `tile` change on a grid of the drawn size highlighted in its
 * layer's colour (other layers of another size, WWD's planes with their own tiles, would land in
 * the wrong place: the legend counts them as not drawn), then the legend.
 */
export function highlightedPicture(level: AnyDecoded, changes: readonly Change[]): DiffPicture {
  const preview = render(level, { markers: false });
  const drawnLevel: Picture = { width: preview.width, height: preview.height, rgba: preview.rgba };
  if (preview.empty) return { picture: drawnLevel, levelHeight: preview.height, highlighted: 0, key: [], empty: preview.empty };
  const key = new Map<number, KeyEntry>();
  let other = 0;
  const marks: { entry: KeyEntry; box: [number, number, number, number] }[] = [];
  for (const c of changes) {
    if (c.kind !== 'tile' || c.x === undefined || c.y === undefined || c.layer === undefined) {
      other++;
      continue;
    }
    let entry = key.get(c.layer);
    if (!entry) {
      entry = { layer: c.layer, colour: [0, 0, 0], label: layerText(c), drawn: 0, notDrawn: 0 };
      key.set(c.layer, entry);
    }
    const size = layerSize(level, c.layer);
    if (!size || size.width !== preview.tilesWide || size.height !== preview.tilesHigh) {
      entry.notDrawn++;
      continue;
    }
    const s = preview.scale;
    const x0 = Math.floor((c.x - preview.region.x) * s);
    const y0 = Math.floor((c.y - preview.region.y) * s);
    const x1 = Math.max(x0 + 1, Math.ceil((c.x + (c.w ?? 1) - preview.region.x) * s));
    const y1 = Math.max(y0 + 1, Math.ceil((c.y + (c.h ?? 1) - preview.region.y) * s));
    marks.push({ entry, box: [x0, y0, x1, y1] });
    entry.drawn++;
  }
  const entries = [...key.values()].sort((p, q) => p.layer - q.layer);
  entries.forEach((e, k) => {
    e.colour = LAYER_COLOURS[k % LAYER_COLOURS.length]!;
  });
  for (const { entry, box } of marks) mark(drawnLevel, ...box, entry.colour);
  const picture = withLegend(drawnLevel, legendLines(entries, other));
  return { picture, levelHeight: preview.height, highlighted: marks.length, key: entries };
}

/** A line of the legend: its text, and the colour of the swatch before it (none for a line of prose). */
interface LegendLine {
  text: string;
  swatch?: Rgb;
}

function legendLines(entries: KeyEntry[], other: number): LegendLine[] {
  const lines: LegendLine[] = [];
  if (!entries.length) lines.push({ text: other ? 'no cells changed' : 'no changes' });
  else lines.push({ text: 'changed cells, outlined in the colour of their layer:' });
  for (const e of entries.slice(0, MAX_KEY_LAYERS)) {
    const counts = [`${e.drawn} rectangle${e.drawn === 1 ? '' : 's'}`];
    if (e.notDrawn) counts.push(`${e.notDrawn} not drawn (another grid size)`);
    lines.push({ text: `${e.label}: ${counts.join(', ')}`, swatch: e.colour });
  }
  if (entries.length > MAX_KEY_LAYERS) lines.push({ text: `... and ${entries.length - MAX_KEY_LAYERS} more layers (colours repeat)` });
  if (other) lines.push({ text: `not drawn: ${other} other change${other === 1 ? '' : 's'} (objects, properties...: see the text diff)` });
  return lines;
}

/** `level` with the legend's lines below it, on white; as wide as the wider of the two. */
function withLegend(level: Picture, lines: LegendLine[]): Picture {
  const texts = lines.map((l) => glyphText(l.text, MAX_CHARS, 'start'));
  const indent = SWATCH + ADVANCE;
  const textWidth = Math.max(...texts.map((t, i) => (lines[i]!.swatch ? indent : 0) + t.length * ADVANCE));
  const width = Math.max(level.width, textWidth + 2 * MARGIN);
  const height = level.height + 2 * MARGIN + lines.length * LINE;
  const p: Picture = { width, height, rgba: new Uint8ClampedArray(width * height * 4).fill(WHITE) };
  for (let y = 0; y < level.height; y++) p.rgba.set(level.rgba.subarray(y * level.width * 4, (y + 1) * level.width * 4), y * width * 4);
  lines.forEach((l, i) => {
    const y = level.height + MARGIN + i * LINE;
    let x = MARGIN;
    if (l.swatch) {
      // Drawn as the cells are marked, so the swatch looks like what it explains.
      mark(p, x, y, x + SWATCH, y + SWATCH, l.swatch);
      x += indent;
    }
    drawText(p, texts[i]!, x, y);
  });
  return p;
}

/** The grid size of layer `index` as diff() numbers layers (Teeworlds: across groups in file order; WWD: planes; Graal: boards). */
function layerSize(level: AnyDecoded, index: number): { width: number; height: number } | undefined {
  if (level.format === 'teeworlds') {
    const l = level.groups.flatMap((g) => g.layers)[index];
    return l && 'width' in l ? { width: l.width, height: l.height } : undefined;
  }
  if (level.format === 'wwd') {
    const p = level.planes[index];
    return p && { width: p.tilesWide, height: p.tilesHigh };
  }
  if (level.format === 'graal' || level.format === 'graal-nw') return { width: LEVEL_SIZE, height: LEVEL_SIZE };
  return undefined;
}

/** Tints [x0, x1) × [y0, y1) half-way to `colour` and draws its border in `colour`. */
function mark(p: Picture, x0: number, y0: number, x1: number, y1: number, colour: Rgb): void {
  const left = Math.max(0, x0);
  const top = Math.max(0, y0);
  const right = Math.min(p.width, x1);
  const bottom = Math.min(p.height, y1);
  for (let y = top; y < bottom; y++)
    for (let x = left; x < right; x++) {
      const at = (y * p.width + x) * 4;
      const edge = x === x0 || y === y0 || x === x1 - 1 || y === y1 - 1;
      for (let k = 0; k < 3; k++) p.rgba[at + k] = edge ? colour[k]! : (p.rgba[at + k]! + colour[k]!) >> 1;
      p.rgba[at + 3] = 255;
    }
}
