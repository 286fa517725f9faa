// Previews in Node: render() on every fixture (sizes, the known-tile colour, markers where the
// format has them), and `levelkit render` writing PNGs (fast-png decodes them to the expected
// size with the expected pixel), contact sheets, and an empty grid that says so.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode as decodePng } from 'fast-png';
import { afterAll, describe, expect, it } from 'vitest';
import { decode, mainGrid, render, tileColour } from '../src/index.js';
import { cli, jsonLines } from './helpers/cli.js';
import { FIXTURES, listFiles, readBytes } from './helpers/paths.js';

const FILES = listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap)$/i).filter((p) => !p.includes('/bad/'));
const OUT = mkdtempSync(join(tmpdir(), 'levelkit-render-'));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

/** The first cell of the main grid that holds a tile id, with its pixel position at `scale` (centre of the cell). */
function firstUsedCell(path: string, scale: number) {
  const value = decode(readBytes(path));
  const grid = mainGrid(value)!;
  const markers = render(value).markers;
  for (let i = 0; i < grid.cells.length; i++) {
    const id = grid.cells[i]! >>> 0;
    const tx = i % grid.width;
    const ty = Math.floor(i / grid.width);
    if (id === 0 || id === 0xffffffff || markers.some((m) => Math.abs(m.x - tx) < 2 && Math.abs(m.y - ty) < 2)) continue;
    return { id, x: Math.floor((tx + 0.5) * scale), y: Math.floor((ty + 0.5) * scale), grid };
  }
  throw new Error(`${path}: no used cell`);
}

describe('render()', () => {
  it.each(FILES.map((p) => [p.slice(FIXTURES.length + 1), p]))('%s', (_rel, path) => {
    const value = decode(readBytes(path));
    const grid = mainGrid(value);
    const p = render(value, { scale: 3 });
    if (!grid || grid.width * grid.height === 0) {
      expect(p.empty).toBeTruthy();
      expect([p.width, p.height, p.rgba.length]).toEqual([0, 0, 0]);
      return;
    }
    expect([p.width, p.height]).toEqual([grid.width * 3, grid.height * 3]);
    expect(p.rgba.length).toBe(p.width * p.height * 4);
    if (value.format === 'wwd') expect(p.markers.length).toBe(value.planes[value.mainPlane]!.objects.count);
    if (value.format === 'graal')
      expect(p.markers.length).toBe(value.links.length + value.npcs.length + value.chests.length + value.signs.length + value.baddies.length);
  });

  it('gives a tile the colour of its id, the same on every run', () => {
    const path = `${FIXTURES}/wwd/claw-compressed.wwd`;
    const cell = firstUsedCell(path, 4);
    const p = render(decode(readBytes(path)), { scale: 4 });
    const o = (cell.y * p.width + cell.x) * 4;
    expect([...p.rgba.subarray(o, o + 3)]).toEqual(tileColour(cell.id));
    expect(tileColour(cell.id)).toEqual(tileColour(cell.id));
    expect(tileColour(1)).not.toEqual(tileColour(2));
  });

  it('draws a list of layers on the grid of every layer: the list of all is the composite, a list without one hides it, an empty list is blank', () => {
    const value = decode(readBytes(`${FIXTURES}/teeworlds/real/ddnet-coverage.map`));
    const all = render(value, { layer: 'all', physics: true });
    const every = all.layers.map((_, i) => i);
    expect(Buffer.from(render(value, { layer: every }).rgba).equals(Buffer.from(all.rgba))).toBe(true);
    const main = all.layers.findIndex((l) => l.main);
    const without = render(value, { layer: every.filter((i) => i !== main) });
    expect([without.width, without.height, without.drawn]).toEqual([all.width, all.height, every.filter((i) => i !== main)]);
    expect(Buffer.from(without.rgba).equals(Buffer.from(all.rgba))).toBe(false);
    const none = render(value, { layer: [], markers: false });
    expect([none.width, none.height, none.empty]).toEqual([all.width, all.height, undefined]);
    expect(new Set(Array.from(none.rgba.subarray(0, 400))).size).toBeLessThanOrEqual(4);
    expect(() => render(value, { layer: [every.length] })).toThrow(/layer list names layer/);
  });

  it('samples huge grids and refuses bad options', () => {
    const value = decode(readBytes(`${FIXTURES}/graal/gr-v103.graal`));
    expect(render(value, { maxSide: 32 }).width).toBe(32);
    expect(() => render(value, { scale: 0 })).toThrow(RangeError);
    expect(() => render(value, { layer: 9 })).toThrow(/layer 9 does not exist/);
  });
});

describe('levelkit render', () => {
  it('writes a PNG of the expected size whose known tile has its colour', () => {
    const path = `${FIXTURES}/wwd/claw-compressed.wwd`;
    const out = join(OUT, 'claw.png');
    const r = cli('render', path, '-o', out, '--scale', '4', '--json');
    expect(r.status, r.stderr).toBe(0);
    const png = decodePng(readFileSync(out));
    const cell = firstUsedCell(path, 4);
    expect([png.width, png.height, png.channels]).toEqual([cell.grid.width * 4, cell.grid.height * 4, 4]);
    const o = (cell.y * png.width + cell.x) * 4;
    expect([...png.data.subarray(o, o + 3)]).toEqual(tileColour(cell.id));
    expect(jsonLines(r.stdout)[0]).toMatchObject({ format: 'wwd', width: png.width, height: png.height, output: out });
    // Never overwrites without --force.
    const again = cli('render', path, '-o', out);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('already exists');
  });

  it('renders a folder into a mirrored tree, a contact sheet of all, and says which level has nothing to draw', () => {
    const dir = join(OUT, 'tree');
    const sheet = join(OUT, 'sheet.png');
    // One worker: from source each worker loads tsx first, which a loaded machine pays for twice.
    const r = cli('render', ...FILES.filter((p) => p.includes('/graal/')), '-o', dir, '--sheet', sheet, '--json', '--workers', '1');
    expect(r.status, r.stderr).toBe(0);
    const records = jsonLines(r.stdout);
    // A gmap is drawn as its world (test/render/world-cli.test.ts); one that names no levels has nothing to draw.
    const world = records.find((x) => x.file.endsWith('world.gmap'))!;
    expect(world).toMatchObject({ columns: 3, rows: 2 });
    expect(existsSync(join(dir, 'world.gmap.png'))).toBe(true);
    const generated = records.find((x) => x.file.endsWith('generated.gmap'))!;
    expect(generated.empty).toMatch(/generated map/);
    expect(existsSync(join(dir, 'generated.gmap.png'))).toBe(false);
    const drawn = records.filter((x) => !x.empty);
    expect(drawn.length).toBeGreaterThan(5);
    for (const x of drawn) expect(decodePng(readFileSync(x.output)).width).toBe(x.width);
    const png = decodePng(readFileSync(sheet));
    const columns = Math.ceil(Math.sqrt(drawn.length));
    expect(png.width).toBe(columns * (256 + 8) + 8);
    expect(r.stderr).toContain(`${drawn.length} levels`);
  });

  it('draws a chosen layer and refuses a missing one', () => {
    const path = `${FIXTURES}/teeworlds/real/ddnet-coverage.map`;
    const ok = cli('render', path, '-o', join(OUT, 'layer.png'), '--layer', 'all', '--json');
    expect(ok.status, ok.stderr).toBe(0);
    expect(jsonLines(ok.stdout)[0]!.layers.length).toBeGreaterThan(1);
    const bad = cli('render', path, '-o', join(OUT, 'missing.png'), '--layer', '99');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('layer 99 does not exist');
    expect(cli('render', path, '-o', join(OUT, 'x.png'), '--scale', 'big').status).toBe(1);
  });
});

describe('adapters for formats not on this branch yet', () => {
  it("lists a GWC cartridge's header and media, and hands out its images and sounds", async () => {
    const { mediaOf, renderPreview, tablesOf } = await import('../src/render/index.js');
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const cartridge = {
      format: 'gwc',
      warnings: [],
      header: { latitude: 52.5, longitude: 13.4, altitude: 0, createdSeconds: 5n, name: { text: 'Tour', raw: new Uint8Array() } },
      media: [
        { id: 1, type: 2, data: png, length: 4 },
        { id: 2, type: null, data: new Uint8Array(), length: 0 },
        { id: 3, type: 49, data: new Uint8Array(3), length: 3 },
      ],
    };
    const [header, media] = tablesOf(cartridge);
    expect(header!.rows).toContainEqual(['name', 'Tour']);
    expect(header!.rows).toContainEqual(['createdSeconds', '5']);
    expect(media!.rows).toEqual([
      [1, 'image/png', 4],
      [2, 'deleted', 0],
      [3, 'type 49', 3],
    ]);
    expect(mediaOf(cartridge)).toEqual([{ id: 1, mime: 'image/png', bytes: png }]);
    expect(renderPreview(cartridge, undefined).empty).toBe('this level has no tile grid');
  });

  it("lists a GWZ's members, hands out its images and sounds by extension (a name like 'x.constructor' is no media), and its Lua source", async () => {
    const { mediaOf, tablesOf, textsOf } = await import('../src/render/index.js');
    const { gwc } = await import('../src/index.js');
    const { zipSync } = await import('fflate');
    const lua = 'require "Wherigo"\n';
    const bytes = zipSync({
      '_cartridge.lua': new TextEncoder().encode(lua),
      'a.PNG': new Uint8Array([1]),
      'b.ogg': new Uint8Array([2, 3]),
      'c.constructor': new Uint8Array([4]),
      'sub/d.png': new Uint8Array([5]),
    });
    const archive = gwc.decode(bytes);
    expect(archive.format).toBe('gwz');
    expect(textsOf(archive)).toEqual([{ name: '_cartridge.lua', text: lua }]);
    expect(mediaOf(archive)).toEqual([
      { id: 0, name: 'a.PNG', mime: 'image/png', bytes: new Uint8Array([1]) },
      { id: 1, name: 'b.ogg', mime: 'audio/ogg', bytes: new Uint8Array([2, 3]) },
    ]);
    expect(tablesOf(archive)).toEqual([
      {
        name: 'members',
        columns: ['name', 'kind', 'bytes'],
        rows: [
          ['_cartridge.lua', 'Lua source', lua.length],
          ['a.PNG', 'image/png', 1],
          ['b.ogg', 'audio/ogg', 2],
          ['c.constructor', 'media', 1],
          ['sub/d.png', 'other', 1],
        ],
      },
    ]);
  });

  it('a .wdata level: one table per non-empty box table (every field in its records), and one plot marker per box, linked to its row', async () => {
    const { markersOf, tablesOf, renderPreview } = await import('../src/render/index.js');
    const { decode } = await import('../src/index.js');
    const level = decode(readBytes(join(FIXTURES, 'wdata/main-v22.wdata')));
    if (level.format !== 'wdata') throw new Error('not wdata');
    const tables = tablesOf(level);
    const boxTables = tables.filter((t) => t.records && t.name !== 'scenes');
    const total = Object.values(level.counts.boxesByType).reduce((a, b) => a + b, 0) + level.counts.aniBGs + level.counts.itemBoxes + level.counts.gimmicks;
    expect(boxTables.reduce((n, t) => n + t.rows.length, 0)).toBe(total);
    const markers = markersOf(level);
    expect(markers).toHaveLength(total);
    for (const m of markers) {
      const t = tables.find((x) => x.name === m.ref?.table)!;
      expect(t.records![m.ref!.row]!.name, m.label).toBe(t.rows[m.ref!.row]![1]);
    }
    const picture = renderPreview(level, undefined);
    expect(picture.empty).toBeUndefined();
    expect(picture.legend.map((l) => l.count).reduce((a, b) => a + b, 0)).toBe(total);
    // A summary decode has no boxes: no tables of boxes, nothing to plot.
    const cheap = decode(readBytes(join(FIXTURES, 'wdata/main-v22.wdata')), { sections: 'summary' });
    expect(markersOf(cheap)).toEqual([]);
    expect(renderPreview(cheap, undefined).empty).toBe('this level has no tile grid');
  });
});
