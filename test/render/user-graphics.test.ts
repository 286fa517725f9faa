// Real graphics where the user has them (issue 31): the BMP reader (8-bit palettised, 24- and
// 32-bit, both row orders; damage is a typed DecodeError), WWD planes drawn with tile images found
// by their image-set names, `levelkit render --graphics` (a folder, any case) and `--tileset` for
// Graal levels. Every image here is synthetic: no game graphics are committed.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode as fastPngDecode, encode as fastPngEncode } from 'fast-png';
import { afterAll, describe, expect, it } from 'vitest';
import { DecodeError, decode, decodeBmp, render, resourcesNeeded, type Tileset } from '../../src/index.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

const OUT = mkdtempSync(join(tmpdir(), 'levelkit-user-graphics-'));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

/** A BMP: `rows` top row first, each pixel [r, g, b(, a)] or a palette index; `bits` 8, 24 or 32. */
function bmp(
  width: number,
  rows: number[][][] | number[][],
  bits: 8 | 24 | 32,
  opts: { palette?: number[][]; topDown?: boolean; bitfields?: boolean } = {},
): Uint8Array {
  const height = rows.length;
  const stride = Math.ceil((width * bits) / 32) * 4;
  const header = opts.bitfields ? 56 : 40;
  const palette = bits === 8 ? (opts.palette ?? []) : [];
  const dataOffset = 14 + header + palette.length * 4;
  const out = new Uint8Array(dataOffset + stride * height);
  const v = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  v.setUint32(2, out.length, true);
  v.setUint32(10, dataOffset, true);
  v.setUint32(14, header, true);
  v.setInt32(18, width, true);
  v.setInt32(22, opts.topDown ? -height : height, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, bits, true);
  v.setUint32(30, opts.bitfields ? 3 : 0, true);
  v.setUint32(46, palette.length, true);
  if (opts.bitfields) [0xff, 0xff00, 0xff0000, 0xff000000].forEach((m, k) => v.setUint32(54 + k * 4, m, true));
  palette.forEach(([r, g, b], i) => out.set([b!, g!, r!, 0], 14 + header + i * 4));
  rows.forEach((row, y) => {
    const at = dataOffset + (opts.topDown ? y : height - 1 - y) * stride;
    (row as (number | number[])[]).forEach((p, x) => {
      if (typeof p === 'number') out[at + x] = p;
      else if (opts.bitfields) out.set([p[0]!, p[1]!, p[2]!, p[3]!], at + x * 4);
      else out.set([p[2]!, p[1]!, p[0]!, ...(bits === 32 ? [0] : [])], at + x * (bits / 8));
    });
  });
  return out;
}

const px = (img: { pixels: Uint8Array; width: number }, x: number, y: number) => [...img.pixels.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)];

describe('decodeBmp', () => {
  it('reads 8-bit palettised (bottom-up, padded rows), 24-bit top-down and 32-bit bitfields with alpha', () => {
    const pal = bmp(
      3,
      [
        [0, 1, 2],
        [2, 1, 0],
      ],
      8,
      {
        palette: [
          [255, 0, 0],
          [0, 255, 0],
          [0, 0, 255],
        ],
      },
    );
    const a = decodeBmp(pal);
    expect([a.width, a.height]).toEqual([3, 2]);
    expect(px(a, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(px(a, 2, 0)).toEqual([0, 0, 255, 255]);
    expect(px(a, 0, 1)).toEqual([0, 0, 255, 255]);
    const rgb = decodeBmp(
      bmp(
        3,
        [
          [
            [1, 2, 3],
            [4, 5, 6],
            [7, 8, 9],
          ],
          [
            [10, 11, 12],
            [13, 14, 15],
            [16, 17, 18],
          ],
        ],
        24,
        { topDown: true },
      ),
    );
    expect(px(rgb, 1, 0)).toEqual([4, 5, 6, 255]);
    expect(px(rgb, 2, 1)).toEqual([16, 17, 18, 255]);
    const rgba = decodeBmp(bmp(1, [[[9, 8, 7, 128]]], 32, { bitfields: true }));
    expect(px(rgba, 0, 0)).toEqual([9, 8, 7, 128]);
    expect(px(decodeBmp(bmp(1, [[[9, 8, 7]]], 32)), 0, 0)).toEqual([9, 8, 7, 255]);
  });

  it('gives damaged and unsupported files a typed error, never a crash', () => {
    const good = bmp(
      2,
      [
        [0, 1],
        [1, 0],
      ],
      8,
      {
        palette: [
          [0, 0, 0],
          [255, 255, 255],
        ],
      },
    );
    const fails = (bytes: Uint8Array, code: string) => {
      let e: unknown;
      try {
        decodeBmp(bytes);
      } catch (x) {
        e = x;
      }
      expect(e).toBeInstanceOf(DecodeError);
      expect(e).toMatchObject({ code, format: 'bmp' });
    };
    fails(new Uint8Array([0x89, 0x50]), 'BAD_MAGIC');
    fails(good.subarray(0, 30), 'TRUNCATED');
    fails(good.subarray(0, good.length - 3), 'TRUNCATED');
    const badIndex = good.slice();
    badIndex[14 + 40 + 2 * 4] = 7; // the first pixel: a 2-colour palette has no entry 7
    fails(badIndex, 'CORRUPT');
    const fourBit = good.slice();
    new DataView(fourBit.buffer).setUint16(28, 4, true);
    fails(fourBit, 'UNSUPPORTED_VERSION');
    const rle = good.slice();
    new DataView(rle.buffer).setUint32(30, 1, true);
    fails(rle, 'UNSUPPORTED_VERSION');
    const huge = good.slice();
    new DataView(huge.buffer).setInt32(18, 60_000, true);
    new DataView(huge.buffer).setInt32(22, 60_000, true);
    fails(huge, 'LIMIT_EXCEEDED');
    const zero = good.slice();
    new DataView(zero.buffer).setInt32(18, 0, true);
    fails(zero, 'CORRUPT');
    // Every truncation is a DecodeError.
    for (let n = 0; n < good.length; n++) expect(() => decodeBmp(good.subarray(0, n))).toThrow(DecodeError);
  });
});

const WWD = `${FIXTURES}/wwd/claw-compressed.wwd`;
/** The main plane's cell (0, 5) holds tile 2 of image set ACTION (the fixture's own). */
const CELL = { x: 0, y: 5, set: 'ACTION', id: 2 };
const GREEN = [10, 200, 30];

describe('WWD planes with the user’s tile images', () => {
  it('lists the image sets and tile ids a level uses, and draws a tile from its image', () => {
    const level = decode(readBytes(WWD));
    const need = resourcesNeeded(level).wwdTiles;
    expect(need.find((n) => n.imageSet === CELL.set)?.ids).toContain(CELL.id);
    const tile: Tileset = { width: 4, height: 4, channels: 4, pixels: Uint8Array.from({ length: 64 }, (_, i) => [...GREEN, 255][i % 4]!) };
    const p = render(level, { scale: 8, markers: false, resources: { wwdTiles: new Map([[CELL.set, new Map([[CELL.id, tile]])]]) } });
    const at = ((CELL.y * 8 + 4) * p.width + CELL.x * 8 + 4) * 4;
    expect([...p.rgba.subarray(at, at + 3)]).toEqual(GREEN);
    const plain = render(level, { scale: 8, markers: false });
    expect([...plain.rgba.subarray(at, at + 3)]).not.toEqual(GREEN);
  });

  it('levelkit render --graphics finds the set’s folder in any case and draws the BMP; a missing folder names the option', () => {
    const root = join(OUT, 'claw');
    mkdirSync(join(root, 'Level1', 'Tiles', 'action'), { recursive: true });
    const rows = Array.from({ length: 4 }, () => [1, 1, 1, 1]);
    writeFileSync(join(root, 'Level1', 'Tiles', 'action', '002.BMP'), bmp(4, rows, 8, { palette: [[0, 0, 0], GREEN] }));
    const out = join(OUT, 'claw.png');
    const r = cli('render', WWD, '-o', out, '--scale', '8', '--graphics', root);
    expect(r.status, r.stderr).toBe(0);
    const img = fastPngDecode(readFileSync(out));
    const at = ((CELL.y * 8 + 4) * img.width + CELL.x * 8 + 4) * img.channels;
    expect([...(img.data as Uint8Array).subarray(at, at + 3)]).toEqual(GREEN);
    const bad = cli('render', WWD, '-o', join(OUT, 'x.png'), '--graphics', join(OUT, 'nowhere'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--graphics must name a folder/);
  });
});

describe('levelkit render --tileset (Graal)', () => {
  it('draws a Graal level with the tileset given, the same rule the page uses; an unreadable file names the option', () => {
    const level = decode(readBytes(`${FIXTURES}/graal/gr-v103.graal`)) as unknown as { layers: { tiles: Uint16Array }[] };
    const id = level.layers[0]!.tiles[0]!;
    const col = (id % 16) + 16 * Math.floor(id / 512);
    const row = Math.floor(id / 16) % 32;
    // A 2048 × 512 atlas: the tile of the level's first cell is magenta, everything else grey.
    const data = new Uint8Array(2048 * 512 * 4);
    for (let y = 0; y < 512; y++)
      for (let x = 0; x < 2048; x++) {
        const mine = Math.floor(x / 16) === col && Math.floor(y / 16) === row;
        data.set(mine ? [255, 0, 255, 255] : [90, 90, 90, 255], (y * 2048 + x) * 4);
      }
    const tileset = join(OUT, 'pics1.png');
    writeFileSync(tileset, fastPngEncode({ width: 2048, height: 512, data, channels: 4, depth: 8 }));
    const out = join(OUT, 'graal.png');
    const r = cli('render', `${FIXTURES}/graal/gr-v103.graal`, '-o', out, '--scale', '16', '--tileset', tileset);
    expect(r.status, r.stderr).toBe(0);
    const img = fastPngDecode(readFileSync(out));
    expect([...(img.data as Uint8Array).subarray((8 * img.width + 8) * img.channels, (8 * img.width + 8) * img.channels + 3)]).toEqual([255, 0, 255]);
    writeFileSync(join(OUT, 'not.png'), 'not a picture');
    const bad = cli('render', `${FIXTURES}/graal/gr-v103.graal`, '-o', join(OUT, 'y.png'), '--tileset', join(OUT, 'not.png'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--tileset .*not\.png/);
  });
});
