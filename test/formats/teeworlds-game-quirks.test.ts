// Real maps a game loads that levelkit once refused or misread (issue 38 §1): a layer listed by two
// groups (an MMOTee map), an embedded image of 0 × 0, a speed-up grid stored as old 4-byte records.
// Each decodes as the game plays it, with a warning, and is written back as it was stored.
// Fixtures: fixtures/teeworlds/{shared-layers,empty-image,speedup-4byte}.map (generators).
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { base, group, tileLayer } from '../../fixtures/generators/teeworlds.js';
import type { SpeedupLayer, TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { EncodeError, summarize, teeworlds } from '../../src/index.js';
import { bin, jsonLines } from '../helpers/cli.js';
import { assertBuilt, FIXTURES } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';
import { sameMap } from './teeworlds-helpers.js';

const path = (name: string) => join(FIXTURES, 'teeworlds', name);
const load = (name: string) => new Uint8Array(readFileSync(path(name)));
const codes = (m: TeeworldsMap) => m.warnings.map((w) => w.code);
/** The stored items of one type id, as ints. */
const itemsOf = (bytes: Uint8Array, typeId: number) =>
  teeworlds
    .openDatafile(bytes)
    .items.filter((i) => i.typeId === typeId)
    .map((i) => [...i.data]);

/** decode → encode gives the same bytes, and decodes back to the same map with the same warnings, with either kernel. */
function roundTrips(bytes: Uint8Array): void {
  const m = teeworlds.decode(bytes, { backend: 'js' });
  expect(sameMap(teeworlds.decode(bytes, { backend: 'wasm' }), m)).toBeNull();
  const again = teeworlds.encode(m);
  expect(again).toEqual(bytes);
  const back = teeworlds.decode(again);
  expect(sameMap(back, m)).toBeNull();
  expect(codes(back)).toEqual(codes(m));
}

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-quirks-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a layer listed by two groups (MMOTee: group 1 starts inside group 0)', () => {
  const bytes = load('shared-layers.map');

  it('the fixture reproduces the class: group 1 lists layer item 1, which group 0 lists too', () => {
    expect(itemsOf(bytes, 4).map((g) => [g[5], g[6]])).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(itemsOf(bytes, 5)).toHaveLength(3);
  });

  it('decodes with SHARED_LAYERS: the layer is in each group that lists it, decoded once', () => {
    const m = teeworlds.decode(bytes);
    expect(codes(m)).toEqual(['SHARED_LAYERS']);
    expect(m.warnings[0]).toMatchObject({ path: 'groups[1].layers' });
    expect(m.groups.map((g) => g.layers.map((l) => l.kind))).toEqual([
      ['game', 'tiles'],
      ['tiles', 'quads'],
    ]);
    expect(m.groups[1]!.layers[0]).toBe(m.groups[0]!.layers[1]);
    // The summary counts what the game draws: the shared layer in each group.
    expect(summarize(m).summary).toMatchObject({ layers: 4, layersByKind: { game: 1, tiles: 2, quads: 1 } });
    expect(summarize(teeworlds.decode(bytes, { sections: 'summary' })).summary).toEqual(summarize(m).summary);
  });

  it('the layers all groups list are bounded together (limits.maxRecords), shared ones counted in each group', () => {
    // Four groups listing the same four layers: 9 items, 16 layers listed.
    const rng = new Prng(38);
    const m = base('ddnet');
    const layers = [tileLayer(rng, 'game', 3, 2, 2, 'Game'), ...[1, 2, 3].map((k) => tileLayer(rng, 'tiles', 3, 2, 2, `T${k}`))];
    m.groups = [0, 1, 2, 3].map(() => group(2, '', layers));
    const many = teeworlds.encode(m);
    expect(itemsOf(many, 5)).toHaveLength(4);
    expect(teeworlds.decode(many, { limits: { maxRecords: 16 } }).groups.flatMap((g) => g.layers)).toHaveLength(16);
    expect(() => teeworlds.decode(many, { limits: { maxRecords: 10 } })).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED', path: 'groups[2].layers' }));
  });

  it('encode writes the same group ranges and the shared layer once: the same bytes', () => {
    roundTrips(bytes);
  });

  it('layers two groups cannot list as ranges are refused, not written otherwise', () => {
    const m = teeworlds.decode(bytes);
    // Group 1 now lists the shared layer after one of its own: no range of items gives that.
    m.groups[1]!.layers.reverse();
    expect(() => teeworlds.encode(m)).toThrow(EncodeError);
    expect(() => teeworlds.encode(m)).toThrow(/groups\[1\]\.layers\[1\]/);
  });
});

describe('an embedded image of 0 × 0 with an empty pixel block', () => {
  const bytes = load('empty-image.map');

  it('the fixture reproduces the class: image 0 is embedded, 0 × 0, its block empty', () => {
    const [img] = itemsOf(bytes, 2);
    expect(img!.slice(0, 4)).toEqual([1, 0, 0, 0]);
    expect(teeworlds.openDatafile(bytes).blocks[img![5]!]!.byteLength).toBe(0);
  });

  it('decodes as an empty image with EMPTY_IMAGE, at both depths', () => {
    const m = teeworlds.decode(bytes);
    expect(codes(m)).toEqual(['ZERO_SIZE_DATA', 'EMPTY_IMAGE']);
    expect(m.images[0]).toMatchObject({ width: 0, height: 0, external: false, pixels: new Uint8Array(0) });
    expect(m.images[1]!.pixels).toHaveLength(4 * 2 * 4);
    const cheap = teeworlds.decode(bytes, { sections: 'summary' });
    expect(codes(cheap)).toEqual(codes(m));
    expect(summarize(cheap).summary).toEqual(summarize(m).summary);
    expect(summarize(m).summary).toMatchObject({ images: 2, embeddedImages: 2 });
    const lazy = teeworlds.decode(bytes, { layers: 'lazy' });
    expect(lazy.images[0]!.pixels).toEqual(new Uint8Array(0));
  });

  it('encode writes it back as it was', () => {
    roundTrips(bytes);
  });

  it('render, extract and scan --index take the map (the empty image has no picture, and no row fails)', () => {
    const png = join(tmp, 'empty.png');
    assertBuilt(['dist/cli.mjs']);
    const r = bin(tmp, 'render', path('empty-image.map'), '-o', png);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    const out = join(tmp, 'extracted');
    const x = bin(tmp, 'extract', path('empty-image.map'), '-o', out);
    expect(x.status, x.stderr).toBe(0);
    expect(readdirSync(join(out, 'images'))).toEqual(['1-grass.png']);
    const json = JSON.parse(readFileSync(join(out, 'map.json'), 'utf8'));
    expect(json.images[0]).toMatchObject({ width: 0, height: 0 });
    expect(json.images[0]).not.toHaveProperty('file');
    const records = join(tmp, 'records.jsonl');
    const s = bin(tmp, 'scan', path('empty-image.map'), '--index', join(tmp, 'index'), '--out', records, '--quiet');
    expect(s.status, s.stderr).toBe(0);
    const [rec] = jsonLines(readFileSync(records, 'utf8'));
    expect(rec).toMatchObject({ format: 'teeworlds' });
    expect(rec!.error).toBeUndefined();
    expect(rec!.warnings.map((w: { code: string }) => w.code)).toEqual(['ZERO_SIZE_DATA', 'EMPTY_IMAGE']);
    // The index holds the map's rows, its images table included.
    const q = bin(tmp, 'query', join(tmp, 'index'), 'SELECT image, width, height, pixels_sha256 FROM images ORDER BY image', '--json');
    expect(q.status, q.stderr).toBe(0);
    const rows = jsonLines(q.stdout);
    expect(rows).toHaveLength(2);
    // The empty image's row: 0 × 0, the digest of no bytes.
    expect(rows[0]).toEqual({ image: 0, width: 0, height: 0, pixels_sha256: createHash('sha256').digest('hex') });
  }, 60_000);
});

describe('an embedded image whose block is shorter than its pixels (an InfClass map: 3-byte pixels in a v1 item)', () => {
  const bytes = load('short-image.map');

  it('decodes without the image, with SHORT_IMAGE_DATA, the stored bytes kept; written back as it was', () => {
    const m = teeworlds.decode(bytes);
    expect(codes(m)).toEqual(['SHORT_IMAGE_DATA']);
    expect(m.images[0]).not.toHaveProperty('pixels');
    expect(m.images[0]!.storedPixels).toHaveLength(4 * 2 * 3);
    expect(codes(teeworlds.decode(bytes, { sections: 'summary' }))).toEqual(['SHORT_IMAGE_DATA']);
    expect(teeworlds.decode(bytes, { layers: 'lazy' }).images[0]!.storedPixels).toEqual(m.images[0]!.storedPixels);
    roundTrips(bytes);
  });

  it('pixels set beside the kept bytes are refused (one of them would be lost)', () => {
    const m = teeworlds.decode(bytes);
    m.images[0]!.pixels = new Uint8Array(4 * 2 * 4);
    expect(() => teeworlds.encode(m)).toThrow(/images\[0\]\.pixels/);
  });
});

describe('a speed-up grid stored as width × height × 4 bytes (old 4-byte records)', () => {
  const bytes = load('speedup-4byte.map');
  const speedupOf = (m: TeeworldsMap) => m.groups[0]!.layers[1] as SpeedupLayer;

  it('the fixture reproduces the class: the speed-up block is 4 bytes a cell, its records non-zero', () => {
    const df = teeworlds.openDatafile(bytes);
    const layer = itemsOf(bytes, 5)[1]!;
    const block = df.readData(layer[18 + 1]!, 'speedup');
    expect(block).toHaveLength(6 * 4 * 4);
    expect(block.some((b) => b !== 0)).toBe(true);
  });

  it('is ignored as DDNet ignores it: an empty grid, warning UNDERSIZED_TILES, the stored bytes kept', () => {
    for (const layers of ['eager', 'lazy'] as const) {
      const m = teeworlds.decode(bytes, { layers });
      expect(codes(m)).toEqual(['UNDERSIZED_TILES']);
      expect(m.warnings[0]!.message).toMatch(/ignored/);
      const s = speedupOf(m);
      for (const col of [s.speedup!.force, s.speedup!.maxSpeed, s.speedup!.type, s.speedup!.angle]) {
        expect(col).toHaveLength(24);
        expect(col.every((v) => v === 0)).toBe(true);
      }
      expect(s.ignoredGrid).toHaveLength(96);
    }
    expect(codes(teeworlds.decode(bytes, { sections: 'summary' }))).toEqual(['UNDERSIZED_TILES']);
  });

  it('encode writes the stored bytes back as they were', () => {
    roundTrips(bytes);
  });

  it('a huge layer over a short block is refused by the per-file budget before its empty grid is allocated', () => {
    const df = teeworlds.openDatafile(bytes);
    const items = df.items.map((i) => ({ ...i, data: i.data.slice() }));
    const speedup = items.filter((i) => i.typeId === 5)[1]!.data;
    speedup[4] = 20_000; // width (layer header 3 ints, tilemap version, then width and height)
    speedup[5] = 20_000;
    const huge = teeworlds.writeDatafile(
      items,
      df.blocks.map((_, i) => df.readData(i, `data[${i}]`)),
    );
    expect(() => teeworlds.decode(huge)).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED', path: 'groups[0].layers[1].speedup' }));
  });

  it('a grid set while the ignored bytes are kept is refused (they would be written instead)', () => {
    const m = teeworlds.decode(bytes);
    speedupOf(m).speedup!.force[3] = 7;
    expect(() => teeworlds.encode(m)).toThrow(/speedup\.force/);
    delete speedupOf(m).ignoredGrid;
    const written = teeworlds.decode(teeworlds.encode(m));
    expect(codes(written)).toEqual([]);
    expect(speedupOf(written).speedup!.force[3]).toBe(7);
  });
});
