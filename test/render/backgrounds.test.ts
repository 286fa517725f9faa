// Teeworlds maps drawn as players see them (issue 31, "Drawn right"): background groups placed by
// their parallax as a camera covering the whole map shows them (a parallax-0 sky covers the
// picture), never at 1:1 over the playable layers; screen-fixed foreground groups (a minimap HUD)
// left out of the whole-map picture; quads at the envelope time asked for.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { base, group } from '../../fixtures/generators/teeworlds.js';
import { textFrom } from '../../src/core/text.js';
import type { MapEnvelope, MapGroup, MapLayer, TeeworldsMap } from '../../src/formats/teeworlds/index.js';
import { decode, render } from '../../src/index.js';
import { envelopeAt } from '../../src/render/envelopes.js';
import { groupView } from '../../src/render/tee-camera.js';
import { cli } from '../helpers/cli.js';
import { itCorpus } from '../helpers/needs.js';
import { readBytes } from '../helpers/paths.js';

const txt = (s: string) => textFrom(s, 'utf-8');
const [W, H] = [120, 80];

/** One quad (corners in world pixels: x0, y0, x1, y1) of one colour. */
function quad(x0: number, y0: number, x1: number, y1: number, rgba: number[], env: { pos?: number; colour?: number } = {}): MapLayer {
  const f = (v: number) => Math.round(v * 1024);
  return {
    kind: 'quads',
    name: txt('q'),
    detail: false,
    quadsVersion: 2,
    image: -1,
    quads: {
      count: 1,
      points: Int32Array.of(f(x0), f(y0), f(x1), f(y0), f(x0), f(y1), f(x1), f(y1), f((x0 + x1) / 2), f((y0 + y1) / 2)),
      colors: Int32Array.from({ length: 16 }, (_, i) => rgba[i % 4]!),
      texcoords: new Int32Array(8),
      posEnv: Int32Array.of(env.pos ?? -1),
      posEnvOffset: Int32Array.of(0),
      colorEnv: Int32Array.of(env.colour ?? -1),
      colorEnvOffset: Int32Array.of(0),
    },
  } as MapLayer;
}

/** A W × H layer of `kind` whose left half holds tile 1. */
function tiles(kind: 'game' | 'tiles'): MapLayer {
  const index = Uint8Array.from({ length: W * H }, (_, i) => (i % W < W / 2 ? 1 : 0));
  return {
    kind,
    name: txt(kind),
    detail: false,
    tilemapVersion: 3,
    width: W,
    height: H,
    flags: kind === 'game' ? 1 : 0,
    color: { r: 255, g: 255, b: 255, a: 255 },
    colorEnv: -1,
    colorEnvOffset: 0,
    image: -1,
    tiles: { index, flags: new Uint8Array(W * H), skip: new Uint8Array(W * H), reserved: new Uint8Array(W * H) },
  } as unknown as MapLayer;
}

function withParallax(g: MapGroup, px: number, py = px, offsetX = 0, offsetY = 0): MapGroup {
  return { ...g, parallaxX: px, parallaxY: py, offsetX, offsetY };
}

/** A map: `before` groups, the game group (game layer + a design layer), `after` groups. */
function mapWith(before: MapGroup[], after: MapGroup[], envelopes: MapEnvelope[] = []): TeeworldsMap {
  const m = base('ddnet');
  m.groups = [...before, group(3, 'Game', [tiles('game'), tiles('tiles')]), ...after];
  m.envelopes = envelopes;
  return m;
}

const RED = [255, 0, 0, 160];
/** Pixels (of a whole-tile picture at `scale`) whose colour leans to red, as a fraction. */
function redFraction(p: { rgba: Uint8ClampedArray }): number {
  let red = 0;
  for (let i = 0; i < p.rgba.length; i += 4) if (p.rgba[i]! > p.rgba[i + 1]! + 60 && p.rgba[i]! > p.rgba[i + 2]! + 60) red++;
  return red / (p.rgba.length / 4);
}
const pixel = (p: { rgba: Uint8ClampedArray; width: number }, x: number, y: number) => [...p.rgba.subarray((y * p.width + x) * 4, (y * p.width + x) * 4 + 3)];

/** The unzoomed screen of a 120 × 80-tile map (aspect 1.5) in world pixels: 1150 × 1000 px² at that aspect. */
const SCREEN = { w: Math.sqrt(1_150_000 * 1.5), h: Math.sqrt(1_150_000 / 1.5) };

describe('whole-map pictures of Teeworlds maps', () => {
  it('leaves a screen-fixed foreground quad (a minimap HUD) out: no red over the playable layers', () => {
    // A translucent red quad in the screen's top-right corner, in front of the game group.
    const hud = withParallax(group(3, 'hud', [quad(200, -400, 600, -100, RED)]), 0);
    const p = render(mapWith([], [hud]), { layer: 'all', scale: 4, markers: false });
    expect(redFraction(p)).toBe(0);
    expect(p.layers.find((l) => l.overlay)?.name).toMatch(/^1\.0 quads/);
    // Still drawn when asked for alone.
    expect(redFraction(render(mapWith([], [hud]), { layer: 2, scale: 4, markers: false }))).toBeGreaterThan(0);
  });

  it('leaves the physics layers out of the whole-map picture (players never see them) unless asked, or when there is nothing else', () => {
    const m = mapWith([], []);
    const p = render(m, { layer: 'all', scale: 1, markers: false });
    const game = p.layers.findIndex((l) => l.name.startsWith('0.0 game'));
    expect(p.layers[game]?.physics).toBe(true);
    expect(p.drawn).not.toContain(game);
    expect(render(m, { layer: 'all', scale: 1, markers: false, physics: true }).drawn).toContain(game);
    const onlyGame = { ...m, groups: [group(3, 'Game', [tiles('game')])] };
    expect(render(onlyGame, { layer: 'all', scale: 1, markers: false }).drawn).toEqual([0]);
  });

  it('puts a parallax-0 background behind the playable layers, covering the picture as the screen does', () => {
    const sky = withParallax(group(3, 'sky', [quad(-SCREEN.w / 2, -SCREEN.h / 2, SCREEN.w / 2, SCREEN.h / 2, [0, 0, 255, 255])]), 0);
    const p = render(mapWith([sky], []), { layer: 'all', scale: 4, markers: false });
    // Every empty cell (right half) shows the sky, corners included; the design tiles (left half) are over it.
    for (const [x, y] of [
      [p.width - 1, 0],
      [p.width - 1, p.height - 1],
      [p.width / 2 + 1, p.height / 2],
    ] as const)
      expect(pixel(p, x, y)).toEqual([0, 0, 255]);
    expect(pixel(p, 2, 2)).not.toEqual([0, 0, 255]);
    // A quad a tenth smaller than the screen leaves the picture's corners bare.
    const small = withParallax(group(3, 'sky', [quad(-SCREEN.w * 0.45, -SCREEN.h * 0.45, SCREEN.w * 0.45, SCREEN.h * 0.45, [0, 0, 255, 255])]), 0);
    const q = render(mapWith([small], []), { layer: 'all', scale: 4, markers: false });
    expect(pixel(q, q.width - 1, 0)).not.toEqual([0, 0, 255]);
    expect(pixel(q, q.width / 2 + 4, q.height / 2)).toEqual([0, 0, 255]);
  });

  it('places groups by parallax and offset: 100 is 1:1 less the offset, 50 follows the camera half way and zooms less', () => {
    const same = groupView({ parallaxX: 100, parallaxY: 100, offsetX: 0, offsetY: 0 }, { width: W, height: H });
    expect([same.scaleX, same.scaleY, same.offsetX + 0, same.offsetY + 0].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([1 / 32, 1 / 32, 0, 0]);
    const shifted = groupView({ parallaxX: 100, parallaxY: 100, offsetX: 64, offsetY: 0 }, { width: W, height: H });
    expect(shifted.scaleX).toBeCloseTo(1 / 32);
    expect(shifted.offsetX).toBeCloseTo(-2);
    // Parallax 50: the map's centre seen from the centre is the group's point at half the centre, drawn at the picture's centre.
    const half = groupView({ parallaxX: 50, parallaxY: 50, offsetX: 0, offsetY: 0 }, { width: W, height: H });
    expect(((W * 32) / 4) * half.scaleX + half.offsetX).toBeCloseTo(W / 2);
    expect(half.scaleX).toBeGreaterThan(1 / 32);
    // And drawn there: a 64-px quad at the group's (w/4, h/4) lands on the picture's centre, not at 1:1 (a quarter in).
    const g = withParallax(group(3, 'hills', [quad(W * 8 - 32, H * 8 - 32, W * 8 + 32, H * 8 + 32, [0, 255, 0, 255])]), 50);
    const p = render(mapWith([g], []), { layer: 'all', scale: 4, markers: false });
    expect(pixel(p, p.width / 2 + 2, p.height / 2)).toEqual([0, 255, 0]);
    expect(pixel(p, (W * 4) / 4 + 40, (H * 4) / 4)).not.toEqual([0, 255, 0]);
  });

  it('draws quads at the envelope time asked for: moved by the position envelope, faded by the colour envelope', () => {
    const points = (time: number[], values: number[][]) => ({
      time: Int32Array.from(time),
      curve: Int32Array.from(time.map(() => 1)),
      values: Int32Array.from(values.flat().map((v) => Math.round(v * 1024))),
    });
    const move: MapEnvelope = {
      version: 2,
      channels: 3,
      name: txt('move'),
      synchronized: false,
      points: points(
        [0, 2000],
        [
          [0, 0, 0, 0],
          [320, 0, 0, 0],
        ],
      ),
    };
    const fade: MapEnvelope = {
      version: 2,
      channels: 4,
      name: txt('fade'),
      synchronized: false,
      points: points(
        [0, 1000, 4000],
        [
          [1, 1, 1, 0],
          [1, 1, 1, 1],
          [1, 1, 1, 1],
        ],
      ),
    };
    const g = withParallax(group(3, 'fg', [quad(W * 16 + 64, 64, W * 16 + 128, 128, [255, 255, 0, 255], { pos: 0, colour: 1 })]), 100);
    const m = mapWith([], [g], [move, fade]);
    const at = (time: number) => render(m, { layer: 'all', scale: 4, markers: false, time });
    const yellow = [255, 255, 0];
    // t = 0: transparent. t = 1 s: opaque, moved 160 px = 5 tiles right (20 px at 4 px a tile) of its points.
    expect(pixel(at(0), (W / 2 + 2) * 4 + 20 + 2, 2 * 4 + 2)).not.toEqual(yellow);
    expect(pixel(at(1), (W / 2 + 2) * 4 + 20 + 2, 2 * 4 + 2)).toEqual(yellow);
    expect(pixel(at(1), (W / 2 + 2) * 4 + 2, 2 * 4 + 2)).not.toEqual(yellow);
    expect(() => at(-1)).toThrow(/time must be a number of seconds/);
    expect(() => render(m, { layer: 'all', time: Number.NaN })).toThrow(/time/);
  });

  it('evaluates envelopes: step, linear, looping after the last point', () => {
    const env: MapEnvelope = {
      version: 2,
      channels: 4,
      name: txt(''),
      synchronized: false,
      points: { time: Int32Array.of(0, 100, 200), curve: Int32Array.of(1, 0, 1), values: Int32Array.of(0, 0, 0, 0, 1024, 2048, 0, 0, 0, 0, 0, 0) },
    };
    expect(envelopeAt(env, 50)).toEqual([0.5, 1, 0, 0]);
    expect(envelopeAt(env, 150)).toEqual([1, 2, 0, 0]);
    expect(envelopeAt(env, 250)).toEqual([0.5, 1, 0, 0]);
    expect(envelopeAt(undefined, 0)).toBeUndefined();
  });

  it('levelkit render --time is validated and names the option', () => {
    const r = cli('render', join('fixtures', 'teeworlds', 'real', 'tw07-dm1.map'), '-o', '/dev/null', '--time', 'soon');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--time must be a number of seconds/);
  });
});

describe('ChillBlock5 (DDNet) as players see it', () => {
  itCorpus(
    'teeworlds',
    'no minimap oval over the map: the game area is not tinted by the screen-fixed foreground quad',
    (dir) => {
      const map = decode(readBytes(join(dir, 'fokkonaut__F-DDrace/datasrc__maps__ChillBlock5@6bdfd5a7.map')), { layers: 'lazy' }) as TeeworldsMap;
      const all = render(map, { layer: 'all', maxSide: 256, markers: false });
      const hud = all.layers.findIndex((l) => l.name === '7.0 quads minimap');
      expect(all.layers[hud]?.overlay).toBe(true);
      expect(all.drawn).not.toContain(hud);
      // The picture is the map's without the minimap group, pixel for pixel (stretched over the map, it tinted most of it).
      const without = render({ ...map, groups: map.groups.filter((_, i) => i !== 7) }, { layer: 'all', maxSide: 256, markers: false });
      expect([without.width, without.height]).toEqual([all.width, all.height]);
      let differ = 0;
      for (let i = 0; i < all.rgba.length; i++) if (all.rgba[i] !== without.rgba[i]) differ++;
      expect(differ).toBe(0);
    },
    120_000,
  );
});
