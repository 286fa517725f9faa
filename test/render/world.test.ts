// drawWorld over synthetic worlds: tiny .nw levels made with the library's encoder and gmap text.
// Each level lands in its cell (pixel checks with a colour per tile id), a name the gmap lists but
// `find` does not give is a marked 'missing' cell, an undecodable one an 'error' cell with its
// message; hostile gmaps (huge WIDTH/HEIGHT, paths, a gmap naming itself) are refused or bounded.
import { describe, expect, it } from 'vitest';
import { drawWorld, graal, graalTileset, levelNameMatcher, tileColour, WORLD_MARKS, type World } from '../../src/index.js';

/** A .nw level whose every layer-0 tile is `tile`. */
function level(tile: number): Uint8Array {
  const l = graal.blankLevel('graal-nw');
  l.layers[0]!.tiles.fill(tile);
  return graal.encodeNw(l);
}

const gmapOf = (rows: string[][], width = rows[0]?.length ?? 0, height = rows.length) =>
  graal.decodeGmap(
    new TextEncoder().encode(
      `GRMAP001\nWIDTH ${width}\nHEIGHT ${height}\nLEVELNAMES\n${rows.map((r) => r.map((n) => `"${n}"`).join(',')).join('\n')}\nLEVELNAMESEND\n`,
    ),
  );

const finder = (files: Record<string, Uint8Array>) => {
  const asked: string[] = [];
  const find = (name: string) => {
    asked.push(name);
    return Object.hasOwn(files, name) ? files[name] : undefined;
  };
  return { find, asked };
};

const pixel = (w: World, x: number, y: number) => [...w.rgba.subarray((y * w.width + x) * 4, (y * w.width + x) * 4 + 3)];

describe('drawWorld', () => {
  const files = { 'a.nw': level(1), 'b.nw': level(2), 'c.nw': level(3), 'bad.nw': new TextEncoder().encode('GR-V1.03\x01\x02') /* a binary level cut short */ };

  it('places each level in its cell, marks and lists the missing one, reports the undecodable one', () => {
    const gmap = gmapOf([
      ['a.nw', 'b.nw', 'c.nw'],
      ['gone.nw', 'bad.nw', ''],
    ]);
    const before = structuredClone(gmap);
    const { find } = finder(files);
    const w = drawWorld(gmap, find, { scale: 1 });
    expect(gmap).toEqual(before);
    expect([w.width, w.height, w.columns, w.rows, w.cellSize, w.scale]).toEqual([192, 128, 3, 2, 64, 1]);
    expect(w.rgba.length).toBe(192 * 128 * 4);
    expect(w.cells.map((c) => [c.name, c.column, c.row, c.state])).toEqual([
      ['a.nw', 0, 0, 'drawn'],
      ['b.nw', 1, 0, 'drawn'],
      ['c.nw', 2, 0, 'drawn'],
      ['gone.nw', 0, 1, 'missing'],
      ['bad.nw', 1, 1, 'error'],
      ['', 2, 1, 'missing'],
    ]);
    expect(w.cells[4]!.error).toMatch(/^graal: .*truncated/i);
    // Each level's tiles fill its own cell, corner to corner.
    for (const [i, tile] of [1, 2, 3].entries())
      for (const [dx, dy] of [
        [0, 0],
        [63, 63],
        [32, 10],
      ])
        expect(pixel(w, i * 64 + dx!, dy!)).toEqual(tileColour(tile));
    // The missing cell is crossed: a line on its diagonal, its fill beside it; the error cell likewise in its colours.
    expect(pixel(w, 32, 64 + 32)).toEqual(WORLD_MARKS.missing.line);
    expect(pixel(w, 10, 64 + 40)).toEqual(WORLD_MARKS.missing.fill);
    expect(pixel(w, 64 + 32, 64 + 32)).toEqual(WORLD_MARKS.error.line);
    expect(pixel(w, 64 + 10, 64 + 40)).toEqual(WORLD_MARKS.error.fill);
    // A blank cell names nothing: it is not marked.
    expect(pixel(w, 128 + 32, 64 + 32)).not.toEqual(WORLD_MARKS.missing.line);
  });

  it('draws with a tileset when given one, as render does', () => {
    // A 32 × 32-tile tileset whose tile 1 (column 1, row 0) is pure green.
    const pixels = new Uint8Array(512 * 512 * 4);
    for (let y = 0; y < 16; y++) for (let x = 16; x < 32; x++) pixels.set([0, 255, 0, 255], (y * 512 + x) * 4);
    const w = drawWorld(gmapOf([['a.nw']]), finder(files).find, { scale: 1, tileset: graalTileset({ width: 512, height: 512, pixels }) });
    expect(pixel(w, 5, 5)).toEqual([0, 255, 0]);
  });

  it('chooses a cell size that fits maxSide, sampling levels below a pixel per tile', () => {
    const gmap = gmapOf([['a.nw', 'b.nw']]);
    expect(drawWorld(gmap, finder(files).find).cellSize).toBe(16 * 64); // small worlds: 16 px per tile
    const small = drawWorld(gmap, finder(files).find, { maxSide: 64 });
    expect([small.width, small.height, small.cellSize, small.scale]).toEqual([64, 32, 32, 0.5]);
    expect(pixel(small, 40, 20)).toEqual(tileColour(2));
  });

  it('looks each distinct name up once and never asks for a path', () => {
    const gmap = gmapOf([['a.nw', 'a.nw', '../secret.nw', 'x/a.nw', '..']]);
    const { find, asked } = finder({ ...files, '../secret.nw': level(9), 'x/a.nw': level(9) });
    const w = drawWorld(gmap, find, { scale: 1 });
    expect(asked).toEqual(['a.nw']);
    expect(w.cells.map((c) => c.state)).toEqual(['drawn', 'drawn', 'missing', 'missing', 'missing']);
    expect(w.cells[2]!.error).toMatch(/not a plain file name/);
    expect(pixel(w, 64 + 5, 5)).toEqual(tileColour(1));
  });

  it('a gmap naming itself (or any gmap) is an error cell, not a nested world', () => {
    const text = 'GRMAP001\nWIDTH 1\nHEIGHT 1\nLEVELNAMES\n"world.gmap"\nLEVELNAMESEND\n';
    const bytes = new TextEncoder().encode(text);
    const w = drawWorld(graal.decodeGmap(bytes), (n) => (n === 'world.gmap' ? bytes : undefined), { scale: 1 });
    expect(w.cells[0]).toMatchObject({ state: 'error', error: expect.stringMatching(/gmap, not a level/) });
  });

  it('refuses a world past its limits before allocating, naming the option', () => {
    const huge = graal.decodeGmap(new TextEncoder().encode('GRMAP001\nWIDTH 16000000\nHEIGHT 16000000\nLEVELNAMES\n"a.nw"\nLEVELNAMESEND\n'));
    const refused = (f: () => unknown, option: RegExp) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(RangeError);
        expect((e as { code?: string }).code).toBe('LIMIT_EXCEEDED');
        expect((e as Error).message).toMatch(option);
        return;
      }
      throw new Error('not refused');
    };
    refused(() => drawWorld(huge, () => undefined), /maxCells/);
    const wide = gmapOf([Array.from({ length: 100 }, () => 'a.nw')]);
    refused(() => drawWorld(wide, finder(files).find, { scale: 64 }), /maxPixels.*scale ≤ 12/);
    refused(() => drawWorld(wide, finder(files).find, { maxSide: 64 }), /maxSide 64/);
    expect(() => drawWorld(wide, finder(files).find, { scale: 0 })).toThrow(/scale must be a whole number/);
  });
});

describe('levelNameMatcher', () => {
  it('prefers the name as spelt, else the same name in another case', () => {
    const match = levelNameMatcher(['A1.nw', 'a1.NW', 'b1.nw', 'World.gmap']);
    expect(match('a1.NW')).toBe('a1.NW');
    expect(match('a1.nw')).toBe('A1.nw');
    expect(match('B1.NW')).toBe('b1.nw');
    expect(match('c1.nw')).toBeUndefined();
  });
});
