// Progress for big files (issue 23 §3): decode's `onProgress` option, shared by every format and
// validated like the others, reports each inflated block; render's `onProgress` reports each layer
// drawn; render's `region` draws a rectangle of the grid at full resolution, the same pixels as that
// rectangle of the whole picture.
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/formats/registry.js';
import { type DecodeOptions, type DecodeProgress, decode, type RenderProgress, render, teeworlds } from '../../src/index.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

const FILES = listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap|gwc|gwz|wdata)$/).filter((f) => !f.includes('/bad/'));

describe("decode's onProgress", () => {
  it('is refused by every format when it is not a function, naming the option', () => {
    for (const def of FORMATS) {
      const bytes = readBytes(FILES.find((f) => def.owns(decode(readBytes(f))))!);
      for (const bad of [1, 'x', null, {}]) {
        expect(() => def.decode(bytes, { onProgress: bad } as unknown as DecodeOptions), def.ids.join()).toThrow(TypeError);
        expect(() => def.decode(bytes, { onProgress: bad } as unknown as DecodeOptions), def.ids.join()).toThrow(/option 'onProgress' must be a function/);
      }
    }
  });

  it('reports every inflated block of every fixture: done grows within the file, inflated bytes add up, the value is unchanged', () => {
    let withBlocks = 0;
    const formatsWithBlocks = new Set<string>();
    for (const path of FILES) {
      const bytes = readBytes(path);
      const calls: DecodeProgress[] = [];
      const value = decode(bytes, { onProgress: (p) => calls.push(p) });
      expect(value, path).toEqual(decode(bytes));
      let done = 0;
      let inflated = 0;
      for (const c of calls) {
        expect(c.stage).toBe('inflate');
        expect(c.total, path).toBe(bytes.length);
        expect(c.done, path).toBeGreaterThan(done);
        expect(c.done, path).toBeLessThanOrEqual(bytes.length);
        expect(c.inflatedBytes, path).toBeGreaterThan(inflated);
        done = c.done;
        inflated = c.inflatedBytes;
      }
      if (calls.length) {
        withBlocks++;
        formatsWithBlocks.add(value.format);
      }
    }
    expect(withBlocks).toBeGreaterThan(5);
    // Every format that stores zlib blocks reports them.
    expect([...formatsWithBlocks].sort()).toEqual(expect.arrayContaining(['teeworlds', 'wwd']));
  });

  it('with lazy layers, reports a grid inflated when it is first read, after decode returned', () => {
    const bytes = readBytes(`${FIXTURES}/teeworlds/ddnet-all-items.map`);
    const calls: DecodeProgress[] = [];
    const map = teeworlds.decode(bytes, { layers: 'lazy', onProgress: (p) => calls.push(p) });
    const atDecode = calls.length;
    const layer = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tiles')!;
    expect(layer.kind === 'tiles' && layer.tiles!.index.length).toBeGreaterThan(0);
    expect(calls.length).toBeGreaterThan(atDecode);
  });

  it('an error thrown by the callback comes out of decode', () => {
    const bytes = readBytes(`${FIXTURES}/wwd/claw-compressed.wwd`);
    expect(() =>
      decode(bytes, {
        onProgress: () => {
          throw new Error('stop');
        },
      }),
    ).toThrow('stop');
  });
});

describe("render's region and onProgress", () => {
  const map = decode(readBytes(`${FIXTURES}/teeworlds/real/ddnet-coverage.map`));

  /** The rectangle (x, y, w, h) of an RGBA picture `width` pixels wide. */
  function crop(rgba: Uint8ClampedArray, width: number, x: number, y: number, w: number, h: number): Uint8ClampedArray {
    const out = new Uint8ClampedArray(w * h * 4);
    for (let r = 0; r < h; r++) out.set(rgba.subarray(((y + r) * width + x) * 4, ((y + r) * width + x + w) * 4), r * w * 4);
    return out;
  }

  it('a region is that rectangle of the whole picture, pixel for pixel (every layer composited, and one layer), clipped to the grid', () => {
    for (const layer of ['all', 'main'] as const) {
      const scale = 4;
      const whole = render(map, { layer, scale, markers: false });
      const region = { x: 3, y: 2, width: 11, height: 7 };
      const part = render(map, { layer, scale, markers: false, region });
      expect(part.region).toEqual(region);
      expect([part.width, part.height]).toEqual([11 * scale, 7 * scale]);
      expect(part.rgba).toEqual(crop(whole.rgba, whole.width, 3 * scale, 2 * scale, 11 * scale, 7 * scale));
      // Past the grid's edge: clipped.
      const edge = render(map, { layer, scale, markers: false, region: { x: whole.tilesWide - 2, y: 0, width: 64, height: 64 } });
      expect(edge.region).toEqual({ x: whole.tilesWide - 2, y: 0, width: 2, height: Math.min(64, whole.tilesHigh) });
      expect(edge.rgba).toEqual(crop(whole.rgba, whole.width, (whole.tilesWide - 2) * scale, 0, 2 * scale, edge.region.height * scale));
    }
  });

  it("draws markers at their place in the region (the region with markers is that rectangle of the whole picture with markers); the whole picture's region is the grid", () => {
    const scale = 8;
    const whole = render(map, { scale });
    expect(whole.region).toEqual({ x: 0, y: 0, width: whole.tilesWide, height: whole.tilesHigh });
    const m = whole.markers.find((k) => k.x >= 3 && k.y >= 1)!;
    const region = { x: Math.floor(m.x) - 3, y: Math.floor(m.y) - 1, width: 9, height: 6 };
    const part = render(map, { scale, region });
    expect(part.rgba).toEqual(crop(whole.rgba, whole.width, region.x * scale, region.y * scale, region.width * scale, region.height * scale));
    expect(part.markers).toEqual(whole.markers);
  });

  it('refuses a region that is not whole tiles or lies outside the grid, naming it', () => {
    for (const region of [
      { x: -1, y: 0, width: 2, height: 2 },
      { x: 0, y: 0, width: 0, height: 2 },
      { x: 1.5, y: 0, width: 2, height: 2 },
      { x: 100000, y: 0, width: 2, height: 2 },
    ])
      expect(() => render(map, { region }), JSON.stringify(region)).toThrow(/render: region/);
    expect(() => render(map, { onProgress: 3 as unknown as () => void })).toThrow(/onProgress must be a function/);
  });

  it('reports each layer drawn, done of total', () => {
    const calls: RenderProgress[] = [];
    const p = render(map, { layer: 'all', onProgress: (c) => calls.push(c) });
    expect(p.drawn.length).toBeGreaterThan(1);
    expect(calls).toEqual(p.drawn.map((_, k) => ({ stage: 'draw', done: k + 1, total: p.drawn.length })));
  });
});
