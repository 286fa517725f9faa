// `levelkit render world.gmap -o world.png`: the levels beside the gmap (its folder, or its folder
// in the same zip) drawn in their cells, names matched as a Graal server matches them, each
// missing level one line on stderr and in the --json record, nothing read outside the folder or
// zip (paths in names, links not followed), hostile gmaps refused in one line; and a corpus world.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode as decodePng } from 'fast-png';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { decode, graal, render, tileColour, WORLD_MARKS } from '../../src/index.js';
import { bin, cli, jsonLines } from '../helpers/cli.js';
import { itCorpus } from '../helpers/needs.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'levelkit-world-'));

function level(tile: number): Uint8Array {
  const l = graal.blankLevel('graal-nw');
  l.layers[0]!.tiles.fill(tile);
  return graal.encodeNw(l);
}

const gmapText = (rows: string[][]) =>
  `GRMAP001\nWIDTH ${rows[0]!.length}\nHEIGHT ${rows.length}\nLEVELNAMES\n${rows.map((r) => r.map((n) => `"${n}"`).join(',')).join('\n')}\nLEVELNAMESEND\n`;

/** The RGB of pixel (x, y) of a PNG file. */
function pngPixel(path: string, x: number, y: number): { width: number; height: number; rgb: number[] } {
  const png = decodePng(readFileSync(path));
  const o = (y * png.width + x) * png.channels;
  return { width: png.width, height: png.height, rgb: [...png.data.subarray(o, o + 3)] };
}

describe('render of a .gmap: its world', () => {
  it('draws the levels beside it in their cells and lists the missing ones, reading nothing outside its folder', () => {
    const root = tmp();
    const dir = join(root, 'world');
    writeFileSync(join(root, 'outside.nw'), level(7));
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.nw'), level(1));
    writeFileSync(join(dir, 'b.nw'), level(2)); // named B.NW in the gmap: found as a server finds it
    symlinkSync(join(root, 'outside.nw'), join(dir, 'link.nw')); // a link out of the folder: not followed
    writeFileSync(
      join(dir, 'world.gmap'),
      gmapText([
        ['a.nw', 'B.NW', 'gone.nw'],
        ['../outside.nw', 'link.nw', 'world.gmap'],
      ]),
    );
    const out = join(root, 'world.png');
    const r = cli('render', join(dir, 'world.gmap'), '-o', out, '--scale', '1', '--json');
    expect(r.status, r.stderr).toBe(0);
    const [rec] = jsonLines(r.stdout);
    expect(rec).toMatchObject({ format: 'graal-gmap', columns: 3, rows: 2, width: 192, height: 128 });
    expect(rec!.missing.map((m: { name: string }) => m.name)).toEqual(['gone.nw', '../outside.nw', 'link.nw']);
    expect(rec!.missing[1].why).toMatch(/not a plain file name/);
    expect(rec!.errors).toMatchObject([{ name: 'world.gmap', column: 2, row: 1, error: expect.stringMatching(/gmap, not a level/) }]);
    // One line per missing level on stderr.
    expect(r.stderr).toMatch(/world\.gmap: missing level gone\.nw \(column 2, row 0\)\n/);
    expect(r.stderr).toMatch(/missing level \.\.\/outside\.nw \(column 0, row 1\): not a plain file name/);
    expect(r.stderr).toMatch(/missing level link\.nw \(column 1, row 1\)/);
    expect(pngPixel(out, 10, 10)).toEqual({ width: 192, height: 128, rgb: tileColour(1) });
    expect(pngPixel(out, 64 + 10, 10).rgb).toEqual(tileColour(2));
    // Tile 7 (the file outside the folder) is drawn nowhere.
    const png = decodePng(readFileSync(out));
    const seven = tileColour(7);
    for (let i = 0; i < png.data.length; i += png.channels) expect([png.data[i], png.data[i + 1], png.data[i + 2]]).not.toEqual(seven);
  }, 30_000);

  it('finds the levels of a zip member in its folder of the same zip', () => {
    const dir = tmp();
    const zip = join(dir, 'worlds.zip');
    // A name with a terminal escape: never looked up, and printed escaped.
    const gmap = new TextEncoder().encode(gmapText([['a.nw', 'b.nw', '\x1b[2Jx.nw']]));
    writeFileSync(zip, zipSync({ 'maps/world.gmap': gmap, 'maps/a.nw': level(1), 'other/b.nw': level(2) }));
    const out = join(dir, 'world.png');
    const r = cli('render', `${zip}::maps/world.gmap`, '-o', out, '--scale', '1');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/worlds\.zip::maps\/world\.gmap: missing level b\.nw \(column 1, row 0\)/);
    expect(r.stderr).toMatch(/missing level .*\[2Jx\.nw \(column 2, row 0\): has a control character/);
    expect(r.stderr).not.toContain('\x1b');
    expect(pngPixel(out, 5, 5).rgb).toEqual(tileColour(1));
  }, 30_000);

  it('refuses a gmap too large to draw in one line, writing nothing', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'huge.gmap'), 'GRMAP001\nWIDTH 9000000\nHEIGHT 9000000\nLEVELNAMES\n"a.nw"\nLEVELNAMESEND\n');
    const r = cli('render', join(dir, 'huge.gmap'), '-o', join(dir, 'huge.png'));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/LIMIT_EXCEEDED.*maxCells/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(() => readFileSync(join(dir, 'huge.png'))).toThrow();
  }, 30_000);
});

itCorpus(
  'graal',
  'render draws a corpus world: its levels found beside it, each in its cell as render draws it alone',
  (dir) => {
    const world = join(dir, 'graal-reborn/classiciphone.gmap');
    const out = join(tmp(), 'classiciphone.png');
    const r = bin(tmp(), 'render', world, '-o', out, '--scale', '1', '--json');
    expect(r.status, r.stderr).toBe(0);
    const [rec] = jsonLines(r.stdout);
    const gmap = graal.decodeGmap(readFileSync(world));
    expect(rec).toMatchObject({ columns: 26, rows: 23, width: 26 * 64, height: 23 * 64, errors: [] });
    // 289 of its 598 levels are not in the corpus; each is one stderr line.
    expect(rec!.missing).toHaveLength(289);
    expect(r.stderr.match(/: missing level /g)).toHaveLength(289);
    // A level that is there, drawn alone at one pixel per tile without markers, is the world's cell.
    const png = decodePng(readFileSync(out));
    const named = gmap.levels.flatMap((r, row) => r.map((n, column) => ({ name: n.text, column, row })));
    const there = named.filter((c) => existsSync(join(dir, 'graal-reborn', c.name)));
    expect(there).toHaveLength(598 - 289);
    // The first, the middle and the last level there.
    const cells = [there[0]!, there[there.length >> 1]!, there.at(-1)!].map((c) => [c.column, c.row] as const);
    for (const [column, row] of cells) {
      const name = gmap.levels[row]![column]!.text;
      const alone = render(decode(readFileSync(join(dir, 'graal-reborn', name))), { scale: 1, markers: false });
      for (const [x, y] of [
        [0, 0],
        [31, 17],
        [63, 63],
      ]) {
        const o = ((row * 64 + y!) * png.width + column * 64 + x!) * png.channels;
        const a = (y! * 64 + x!) * 4;
        expect([...png.data.subarray(o, o + 3)], `${name} at ${x},${y}`).toEqual([...alone.rgba.subarray(a, a + 3)]);
      }
    }
    // A missing level's cell is crossed.
    const gone = named.find((c) => !existsSync(join(dir, 'graal-reborn', c.name)))!;
    const o = ((gone.row * 64 + 32) * png.width + gone.column * 64 + 32) * png.channels;
    expect([...png.data.subarray(o, o + 3)]).toEqual(WORLD_MARKS.missing.line);
  },
  60_000,
);
