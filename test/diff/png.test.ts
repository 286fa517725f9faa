// `levelkit diff --png`'s picture (src/cli/diff-png.ts): each changed rectangle outlined in the
// colour of its layer, and a legend below the level saying which layer each colour is, what it
// counts, and what the picture leaves out.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { highlightedPicture, LAYER_COLOURS } from '../../src/cli/diff-png.js';
import type { Picture } from '../../src/cli/render-level.js';
import type { TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { type Change, render, teeworlds } from '../../src/index.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

const MAP = join(FIXTURES, 'teeworlds/ddnet-all-items.map');

/** The map with one cell of its game layer and one of its front layer changed, and a tile layer's colour, and the changes. */
function edited(): { map: TeeworldsMap; changes: Change[] } {
  const a = teeworlds.decode(readBytes(MAP));
  const m = teeworlds.decode(readBytes(MAP));
  for (const l of m.groups.flatMap((g) => g.layers)) {
    if (l.kind === 'game') l.tiles!.index[0] = l.tiles!.index[0] === 9 ? 2 : 9;
    if (l.kind === 'front') l.tiles!.index[l.width * 4 + 6] = l.tiles!.index[l.width * 4 + 6] === 9 ? 2 : 9;
    // A change with no cells: not drawn, and the legend says so.
    if (l.kind === 'tiles') l.color.a = l.color.a === 255 ? 128 : 255;
  }
  const b = teeworlds.decode(teeworlds.encode(m));
  return { map: b, changes: teeworlds.diff(a, b) };
}

/** Rows [y0, y1) of `p` hold a pixel of exactly `rgb`. */
function hasColour(p: Picture, rgb: readonly number[], y0: number, y1: number): boolean {
  for (let y = y0; y < y1; y++)
    for (let x = 0; x < p.width; x++) {
      const o = (y * p.width + x) * 4;
      if (p.rgba[o] === rgb[0] && p.rgba[o + 1] === rgb[1] && p.rgba[o + 2] === rgb[2]) return true;
    }
  return false;
}

describe('highlightedPicture', () => {
  it('outlines each layer in its own colour and keys the colours in a legend below the level', () => {
    const { map, changes } = edited();
    const level = render(map, { markers: false });
    const { picture, levelHeight, highlighted, key } = highlightedPicture(map, changes);
    expect(levelHeight).toBe(level.height);
    expect(highlighted).toBe(2);
    // The legend is below the level: a title line, one line per layer, one for what is not drawn.
    expect(picture.height).toBeGreaterThan(level.height + 3 * 10);
    expect(picture.width).toBeGreaterThanOrEqual(level.width);
    expect(key.map((k) => [k.label, k.drawn, k.notDrawn])).toEqual([
      ['layer 1 (game) "Game" in group "#1 Game"', 1, 0],
      ['layer 3 (front) "Front" in group "#1 Game"', 1, 0],
    ]);
    expect(key[0]!.colour).not.toEqual(key[1]!.colour);
    expect(key.map((k) => k.colour)).toEqual([LAYER_COLOURS[0], LAYER_COLOURS[1]]);
    // Each cell's border is in its layer's colour (the game cell at 0,0; the front cell at 6,4, 16 px a tile) …
    const at = (x: number, y: number) => Array.from(picture.rgba.subarray((y * picture.width + x) * 4, (y * picture.width + x) * 4 + 3));
    expect(at(0, 0)).toEqual([...key[0]!.colour]);
    expect(at(6 * level.scale, 4 * level.scale)).toEqual([...key[1]!.colour]);
    // … and each colour is in the legend (its swatch), which is white elsewhere and has ink.
    for (const k of key) expect(hasColour(picture, k.colour, levelHeight, picture.height)).toBe(true);
    expect(hasColour(picture, [32, 32, 32], levelHeight, picture.height)).toBe(true);
    expect(at(picture.width - 1, picture.height - 1)).toEqual([255, 255, 255]);
  });

  it('counts changes on a layer of another size as not drawn', () => {
    const { map, changes } = edited();
    const moved = changes.map((c) => (c.layerKind === 'front' ? { ...c, layer: 0 } : c));
    const { highlighted, key } = highlightedPicture(map, moved);
    expect(highlighted).toBe(1);
    expect(key.map((k) => [k.layer, k.drawn, k.notDrawn])).toEqual([
      [0, 0, 1],
      [1, 1, 0],
    ]);
  });

  it('two same levels: the level and a legend saying there are no changes', () => {
    const map = teeworlds.decode(readBytes(MAP));
    const { picture, levelHeight, key } = highlightedPicture(map, []);
    expect(key).toEqual([]);
    expect(picture.height).toBeGreaterThan(levelHeight);
    expect(hasColour(picture, [32, 32, 32], levelHeight, picture.height)).toBe(true);
  });
});
