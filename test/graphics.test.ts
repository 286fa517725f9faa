// Real graphics (issue 23 item 1): the PNG reader (round trips with fast-png, the encoder
// `levelkit render` writes with, every filter and colour type, damage → DecodeError), drawing with
// the bundled Teeworlds map resources and DDNet entities atlas (pixels of a known tile equal the
// atlas's, and differ from the colour-per-id drawing), quads, a Graal tileset, and `levelkit render`.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { decode as fastPngDecode, encode as fastPngEncode } from 'fast-png';
import { afterAll, describe, expect, it } from 'vitest';
import { DecodeError, decode, decodePng, ENTITY_ASSETS, type RenderResources, render, resourcesNeeded, type Tileset, teeworlds } from '../src/index.js';
import { BACKGROUND } from '../src/render/draw.js';
import { drawQuads } from '../src/render/quads.js';
import { imageThumbnails } from '../src/render/thumbnails.js';
import { atlasCell } from '../src/render/tilesources.js';
import { cli } from './helpers/cli.js';
import { FIXTURES, ROOT, readBytes } from './helpers/paths.js';

const ASSETS = join(ROOT, 'assets/teeworlds');
const OUT = mkdtempSync(join(tmpdir(), 'levelkit-graphics-'));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

// ---- a PNG writer for the cases fast-png does not write (filters 1-4, palettes, damage) ----
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  out.set(
    [...type].map((c) => c.charCodeAt(0)),
    4,
  );
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}
function ihdr(width: number, height: number, depth: number, colourType: number, interlace = 0): Uint8Array {
  const d = new Uint8Array(13);
  const v = new DataView(d.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  d.set([depth, colourType, 0, 0, interlace], 8);
  return d;
}
/** Each row filtered with `filters[y % n]` (the encoder's side of PNG's filters). */
function filtered(px: Uint8Array, width: number, height: number, bpp: number, filters: number[]): Uint8Array {
  const stride = width * bpp;
  const out = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const f = filters[y % filters.length]!;
    out[y * (stride + 1)] = f;
    for (let x = 0; x < stride; x++) {
      const cur = px[y * stride + x]!;
      const a = x >= bpp ? px[y * stride + x - bpp]! : 0;
      const b = y > 0 ? px[(y - 1) * stride + x]! : 0;
      const c = x >= bpp && y > 0 ? px[(y - 1) * stride + x - bpp]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const pred = [0, a, b, (a + b) >> 1, paeth][f]!;
      out[y * (stride + 1) + 1 + x] = (cur - pred) & 0xff;
    }
  }
  return out;
}
function png(parts: Uint8Array[]): Uint8Array {
  const sig = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const out = new Uint8Array(8 + parts.reduce((n, p) => n + p.length, 0));
  out.set(sig);
  let at = 8;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
function seeded(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = s >>> 24;
  }
  return out;
}
const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof DecodeError) return `${e.format}:${e.code}`;
    throw e;
  }
  return 'ok';
};

describe('decodePng', () => {
  it.each([1, 2, 3, 4])('round-trips fast-png output with %i channel(s)', (channels) => {
    const [w, h] = [37, 23];
    const data = seeded(w * h * channels, channels);
    const image = decodePng(fastPngEncode({ width: w, height: h, data, channels, depth: 8 }));
    expect([image.width, image.height, image.channels]).toEqual([w, h, 4]);
    for (let i = 0; i < w * h; i++) {
      const src = data.subarray(i * channels, (i + 1) * channels);
      const rgba = channels >= 3 ? [src[0], src[1], src[2], channels === 4 ? src[3] : 255] : [src[0], src[0], src[0], channels === 2 ? src[1] : 255];
      expect([...image.pixels.subarray(i * 4, i * 4 + 4)]).toEqual(rgba);
    }
  });

  it('undoes every filter (0-4) and reads palette images with transparency', () => {
    const [w, h] = [19, 10];
    const rgba = seeded(w * h * 4, 7);
    const file = png([chunk('IHDR', ihdr(w, h, 8, 6)), chunk('IDAT', deflateSync(filtered(rgba, w, h, 4, [0, 1, 2, 3, 4]))), chunk('IEND', new Uint8Array())]);
    expect(decodePng(file).pixels).toEqual(rgba);
    // Split IDAT chunks are one zlib stream.
    const z = deflateSync(filtered(rgba, w, h, 4, [4, 3, 2, 1]));
    const split = png([chunk('IHDR', ihdr(w, h, 8, 6)), chunk('IDAT', z.subarray(0, 10)), chunk('IDAT', z.subarray(10)), chunk('IEND', new Uint8Array())]);
    expect(decodePng(split).pixels).toEqual(rgba);
    const indices = new Uint8Array(w * h).map((_, i) => i % 3);
    const pal = png([
      chunk('IHDR', ihdr(w, h, 8, 3)),
      chunk('PLTE', new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255])),
      chunk('tRNS', new Uint8Array([128])),
      chunk('IDAT', deflateSync(filtered(indices, w, h, 1, [1, 2]))),
      chunk('IEND', new Uint8Array()),
    ]);
    const p = decodePng(pal).pixels;
    expect([...p.subarray(0, 12)]).toEqual([255, 0, 0, 128, 0, 255, 0, 255, 0, 0, 255, 255]);
  });

  it('reads every bundled asset (and a few as fast-png does, pixel for pixel)', () => {
    const files = [...Object.values(ENTITY_ASSETS), ...readdirSync(join(ASSETS, 'mapres')).map((f) => `mapres/${f}`)];
    expect(files.length).toBeGreaterThan(40);
    for (const f of files) {
      const bytes = readFileSync(join(ASSETS, f));
      const mine = decodePng(bytes);
      const v = new DataView(bytes.buffer, bytes.byteOffset);
      expect([mine.width, mine.height, mine.pixels.length], f).toEqual([v.getUint32(16), v.getUint32(20), v.getUint32(16) * v.getUint32(20) * 4]);
      // fast-png is slow: three files of different sizes stand for the rest.
      if (['entities/ddnet.png', 'mapres/grass_main.png', 'mapres/snow.png'].includes(f)) {
        const ref = fastPngDecode(bytes);
        expect(ref.channels, f).toBe(4);
        expect(Buffer.from(mine.pixels).equals(Buffer.from(ref.data as Uint8Array)), f).toBe(true);
      }
    }
  });

  it('gives damaged and unsupported files a typed error', () => {
    const [w, h] = [8, 8];
    const good = png([
      chunk('IHDR', ihdr(w, h, 8, 6)),
      chunk('IDAT', deflateSync(filtered(seeded(w * h * 4, 3), w, h, 4, [0]))),
      chunk('IEND', new Uint8Array()),
    ]);
    const idat = (raw: Uint8Array, header = ihdr(w, h, 8, 6)) => png([chunk('IHDR', header), chunk('IDAT', raw), chunk('IEND', new Uint8Array())]);
    const badCrc = good.slice();
    badCrc[8 + 12 + 13 - 1]! ^= 1;
    const badFilter = filtered(seeded(w * h * 4, 3), w, h, 4, [0]);
    badFilter[(w * 4 + 1) * 3] = 9;
    expect(codeOf(() => decodePng(new Uint8Array([1, 2, 3])))).toBe('png:BAD_MAGIC');
    expect(codeOf(() => decodePng(good.subarray(0, 40)))).toBe('png:TRUNCATED');
    expect(codeOf(() => decodePng(badCrc))).toBe('png:CORRUPT');
    expect(codeOf(() => decodePng(idat(deflateSync(badFilter))))).toBe('png:CORRUPT');
    expect(codeOf(() => decodePng(idat(new Uint8Array([0x78, 0x9c, 1, 2, 3, 4, 5, 6]))))).toBe('png:CORRUPT_COMPRESSED');
    expect(codeOf(() => decodePng(idat(deflateSync(new Uint8Array(10)))))).toBe('png:CORRUPT_COMPRESSED');
    expect(codeOf(() => decodePng(idat(deflateSync(new Uint8Array(1)), ihdr(w, h, 16, 6))))).toBe('png:UNSUPPORTED_VERSION');
    expect(codeOf(() => decodePng(idat(deflateSync(new Uint8Array(1)), ihdr(w, h, 8, 6, 1))))).toBe('png:UNSUPPORTED_VERSION');
    expect(codeOf(() => decodePng(idat(deflateSync(new Uint8Array(1)), ihdr(w, h, 8, 5))))).toBe('png:CORRUPT');
    expect(codeOf(() => decodePng(idat(deflateSync(new Uint8Array(1)), ihdr(100_000, 100_000, 8, 6))))).toBe('png:LIMIT_EXCEEDED');
    expect(codeOf(() => decodePng(idat(deflateSync(new Uint8Array(1)), ihdr(w, h, 8, 3))))).toBe('png:CORRUPT'); // palette image without PLTE
    // Every prefix and every single-byte change: a result or a DecodeError, never another exception.
    for (let n = 0; n < good.length; n++) codeOf(() => decodePng(good.subarray(0, n)));
    for (let i = 0; i < good.length; i++) {
      const b = good.slice();
      b[i]! ^= 0x5a;
      codeOf(() => decodePng(b));
    }
    expect(() => decodePng(good, { maxPixels: 0 })).toThrow(/maxPixels/);
  });
});

// ---- drawing -------------------------------------------------------------------------------
const asset = (rel: string): Tileset => decodePng(readFileSync(join(ASSETS, rel)));
/** The resources resourcesNeeded() names for `value`, read from assets/ as `levelkit render` does. */
function resourcesOf(value: { format: string }): RenderResources {
  const need = resourcesNeeded(value);
  const images = new Map(need.images.map((n) => [n, asset(`mapres/${n}.png`)] as const));
  return { images, entities: Object.fromEntries(need.entities.map((k) => [k, asset(ENTITY_ASSETS[k])])) };
}

/**
 * The first cell of `cells` holding a tile with no flags whose atlas cell is at least a tenth
 * opaque (those pixels are drawn exactly as the atlas has them, whatever is below).
 */
function opaqueTile(cells: Uint8Array, flags: Uint8Array | undefined, atlas: Tileset): number {
  for (let i = 0; i < cells.length; i++) {
    if (!cells[i] || flags?.[i]) continue;
    const c = atlasCell(atlas, cells[i]!)!;
    let opaque = 0;
    for (let y = 0; y < c.th; y++) for (let x = 0; x < c.tw; x++) if (atlas.pixels[((c.sy0 + y) * atlas.width + c.sx0 + x) * 4 + 3] === 255) opaque++;
    if (opaque >= c.tw * c.th * 0.1) return i;
  }
  throw new Error('no opaque tile');
}

/** Compares a drawn px × px cell with its atlas cell (64-px cells, so picture pixel d samples atlas pixel floor((d + 0.5) · 64 / px)) where the atlas is opaque. */
function expectCellIsAtlas(rgba: Uint8Array | Uint8ClampedArray, width: number, cellX: number, cellY: number, px: number, atlas: Tileset, index: number): void {
  const c = atlasCell(atlas, index)!;
  let compared = 0;
  for (let dy = 0; dy < px; dy++)
    for (let dx = 0; dx < px; dx++) {
      const s = ((c.sy0 + Math.floor(((dy + 0.5) * c.th) / px)) * atlas.width + c.sx0 + Math.floor(((dx + 0.5) * c.tw) / px)) * 4;
      if (atlas.pixels[s + 3] !== 255) continue;
      const o = ((cellY * px + dy) * width + cellX * px + dx) * 4;
      expect([rgba[o], rgba[o + 1], rgba[o + 2]]).toEqual([atlas.pixels[s], atlas.pixels[s + 1], atlas.pixels[s + 2]]);
      compared++;
    }
  expect(compared).toBeGreaterThan(16);
}

const DM1 = `${FIXTURES}/teeworlds/real/tw07-dm1.map`;
const COVERAGE = `${FIXTURES}/teeworlds/real/ddnet-coverage.map`;

describe('drawing with bundled pictures', () => {
  it('draws external images with the bundled map resource of their name', () => {
    const map = teeworlds.decode(readBytes(DM1));
    const need = resourcesNeeded(map);
    expect(need.images).toContain('grass_main');
    expect(need.entities).toContain('game');
    const resources = resourcesOf(map);
    const plain = render(map, { layer: 'all', scale: 4 });
    const real = render(map, { layer: 'all', scale: 4, resources });
    expect(real.layers.filter((l) => l.tileset).length).toBeGreaterThan(3);
    expect(Buffer.from(real.rgba).equals(Buffer.from(plain.rgba))).toBe(false);
    // One layer using grass_main, drawn alone: a known tile's pixels are the atlas's.
    const at = real.layers.findIndex((l, i) => {
      const [g, li] = l.name.split(' ')[0]!.split('.').map(Number);
      const layer = map.groups[g!]?.layers[li!];
      // In a parallax-100 group: drawn cell for cell (a parallax group's layer is placed by the camera).
      return i >= 0 && layer?.kind === 'tiles' && map.images[layer.image]?.name.text === 'grass_main' && map.groups[g!]!.parallaxX === 100;
    });
    expect(at).toBeGreaterThanOrEqual(0);
    const [g, li] = real.layers[at]!.name.split(' ')[0]!.split('.').map(Number);
    const layer = map.groups[g!]!.layers[li!] as teeworlds.TilesLayer;
    const atlas = resources.images!.get('grass_main')!;
    const i = opaqueTile(layer.tiles!.index, layer.tiles!.flags, atlas);
    const one = render(map, { layer: at, scale: 16, resources, markers: false });
    expectCellIsAtlas(one.rgba, one.width, i % layer.width, Math.floor(i / layer.width), 16, atlas, layer.tiles!.index[i]!);
  });

  it('draws game and DDNet physics layers with the editor atlases (a tele by its type, from tele.png)', () => {
    const map = teeworlds.decode(readBytes(COVERAGE));
    const resources = resourcesOf(map);
    const entities = resources.entities!.game!;
    const kinds = new Set(map.groups.flatMap((g) => g.layers.map((l) => l.kind)));
    expect([...kinds]).toEqual(expect.arrayContaining(['game', 'tele']));
    const main = render(map, { scale: 16, resources, markers: false });
    expect(main.layers[main.drawn[0]!]!.tileset).toBe(true);
    expect(Buffer.from(main.rgba).equals(Buffer.from(render(map, { scale: 16, markers: false }).rgba))).toBe(false);
    const game = map.groups.flatMap((gr) => gr.layers).find((l) => l.kind === 'game') as teeworlds.GameLayer;
    const i = opaqueTile(game.tiles!.index, game.tiles!.flags, entities);
    expectCellIsAtlas(main.rgba, main.width, i % game.width, Math.floor(i / game.width), 16, entities, game.tiles!.index[i]!);
    const teleAt = main.layers.findIndex((l) => l.name.includes(' tele'));
    const tele = map.groups.flatMap((gr) => gr.layers).find((l) => l.kind === 'tele') as teeworlds.TeleLayer;
    const teleAtlas = resources.entities!.tele!;
    const t = opaqueTile(tele.tele!.type, undefined, teleAtlas);
    const p = render(map, { layer: teeAt(teleAt), scale: 16, resources, markers: false });
    expectCellIsAtlas(p.rgba, p.width, t % tele.width, Math.floor(t / tele.width), 16, teleAtlas, tele.tele!.type[t]!);
  });

  it('draws quads: solid colours blended across corners, textured from the image', () => {
    const [w, h] = [40, 40];
    const rgba = new Uint8ClampedArray(w * h * 4);
    // A red quad over tiles 1…3 (scale 10 px per tile), then a textured one over tiles 0…1 of a 2 × 2 blue/green checker.
    drawQuads(
      rgba,
      w,
      h,
      {
        count: 1,
        corners: new Float64Array([1, 1, 3, 1, 1, 3, 3, 3]),
        colours: new Uint8ClampedArray(16).fill(255).map((v, i) => (i % 4 === 1 || i % 4 === 2 ? 0 : v)),
        uv: new Float64Array(8),
      },
      10,
    );
    expect([...rgba.subarray((15 * w + 15) * 4, (15 * w + 15) * 4 + 4)]).toEqual([255, 0, 0, 255]);
    expect([...rgba.subarray((29 * w + 29) * 4, (29 * w + 29) * 4 + 4)]).toEqual([255, 0, 0, 255]);
    expect(rgba[(31 * w + 31) * 4 + 3]).toBe(0);
    expect(rgba[(5 * w + 5) * 4 + 3]).toBe(0);
    const checker: Tileset = { width: 2, height: 2, channels: 4, pixels: new Uint8Array([0, 0, 255, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255]) };
    drawQuads(
      rgba,
      w,
      h,
      {
        count: 1,
        corners: new Float64Array([0, 0, 2, 0, 0, 2, 2, 2]),
        colours: new Uint8ClampedArray(16).fill(255),
        uv: new Float64Array([0, 0, 1, 0, 0, 1, 1, 1]),
        image: checker,
      },
      10,
    );
    expect([...rgba.subarray((2 * w + 2) * 4, (2 * w + 2) * 4 + 3)]).toEqual([0, 0, 255]);
    expect([...rgba.subarray((2 * w + 17) * 4, (2 * w + 17) * 4 + 3)]).toEqual([0, 255, 0]);
    expect([...rgba.subarray((17 * w + 17) * 4, (17 * w + 17) * 4 + 3)]).toEqual([0, 0, 255]);
    // A real map's quads layers are listed and drawn.
    const map = teeworlds.decode(readBytes(DM1));
    const p = render(map, { layer: 'all', scale: 2, resources: resourcesOf(map) });
    const quadLayers = p.layers.map((l, i) => [l, i] as const).filter(([l]) => l.name.includes(' quads'));
    expect(quadLayers.length).toBeGreaterThan(0);
    const only = render(map, { layer: quadLayers[0]![1], scale: 2, resources: resourcesOf(map), markers: false });
    // Something other than the background is drawn (the picture starts as BACKGROUND everywhere).
    expect(only.rgba.some((v, i) => i % 4 !== 3 && v !== BACKGROUND[i % 4])).toBe(true);
  });

  it('draws a Graal level with a tileset by the pics1.png rule', () => {
    expect(atlasCell({ width: 2048, height: 512, channels: 4, pixels: new Uint8Array(0), layout: 'graal' }, 17)).toEqual({ sx0: 16, sy0: 16, tw: 16, th: 16 });
    expect(atlasCell({ width: 2048, height: 512, channels: 4, pixels: new Uint8Array(0), layout: 'graal' }, 512 + 3)).toEqual({
      sx0: 19 * 16,
      sy0: 0,
      tw: 16,
      th: 16,
    });
    expect(atlasCell({ width: 1856, height: 512, channels: 4, pixels: new Uint8Array(0), layout: 'graal' }, 4095)).toBeUndefined();
    const value = decode(readBytes(`${FIXTURES}/graal/gr-v103.graal`));
    expect(resourcesNeeded(value).graalTileset).toBe(true);
    const tiles = new Uint8Array(2048 * 512 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 7) & 255));
    const graalTileset: Tileset = { width: 2048, height: 512, channels: 4, pixels: tiles, layout: 'graal' };
    const withTiles = render(value, { scale: 16, resources: { graalTileset }, markers: false });
    const id = (value as { layers: { tiles: Uint16Array }[] }).layers[0]!.tiles[0]!;
    expectCellIsAtlas(withTiles.rgba, withTiles.width, 0, 0, 16, { ...graalTileset }, id);
  });

  it('makes capped thumbnails of embedded images', () => {
    const map = teeworlds.decode(readBytes(`${FIXTURES}/teeworlds/ddnet-all-items.map`));
    const thumbs = imageThumbnails(map, 8);
    const embedded = map.images.filter((m) => !m.external && m.pixels);
    expect(thumbs.length).toBe(embedded.length);
    for (const t of thumbs) {
      expect(Math.max(t.width, t.height)).toBeLessThanOrEqual(8);
      expect(t.rgba.length).toBe(t.width * t.height * 4);
    }
  });
});

/** Layer indices of the preview are its own; this keeps the call sites readable. */
function teeAt(i: number): number {
  expect(i).toBeGreaterThanOrEqual(0);
  return i;
}

describe('levelkit render with the bundled pictures', () => {
  it('draws real tiles of a map with external images: pixels differ from the colour-per-id drawing, a known tile is the atlas', () => {
    const out = join(OUT, 'dm1.png');
    const r = cli('render', DM1, '-o', out, '--scale', '4');
    expect(r.status, r.stderr).toBe(0);
    const file = fastPngDecode(readFileSync(out));
    const plain = render(decode(readBytes(DM1)), { scale: 4, layer: 'all' });
    expect([file.width, file.height]).toEqual([plain.width, plain.height]);
    let differ = 0;
    for (let i = 0; i < plain.rgba.length; i++) if (plain.rgba[i] !== (file.data as Uint8Array)[i]) differ++;
    expect(differ).toBeGreaterThan(plain.rgba.length / 4);
    // One design layer alone, from the CLI: its known tile is grass_main's cell.
    const map = teeworlds.decode(readBytes(DM1));
    const preview = render(map, { resources: resourcesOf(map) });
    let at = -1;
    let layer: teeworlds.TilesLayer | undefined;
    preview.layers.forEach((l, i) => {
      const [g, li] = l.name.split(' ')[0]!.split('.').map(Number);
      const x = map.groups[g!]?.layers[li!];
      if (at < 0 && x?.kind === 'tiles' && map.images[x.image]?.name.text === 'grass_main' && map.groups[g!]!.parallaxX === 100) [at, layer] = [i, x];
    });
    const one = join(OUT, 'dm1-layer.png');
    expect(cli('render', DM1, '-o', one, '--scale', '16', '--layer', String(at)).status).toBe(0);
    const img = fastPngDecode(readFileSync(one));
    const atlas = asset('mapres/grass_main.png');
    const i = opaqueTile(layer!.tiles!.index, layer!.tiles!.flags, atlas);
    expectCellIsAtlas(img.data as Uint8Array, img.width, i % layer!.width, Math.floor(i / layer!.width), 16, atlas, layer!.tiles!.index[i]!);
  });
});
