// Teeworlds / DDNet maps on the committed fixtures: contents, round-trip, WASM-vs-TS parity,
// v3/ATAD equivalence, warnings and strict mode, names and UUIDs (malformed files: test/bad-files.test.ts).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textFrom } from '../../src/core/text.js';
import { ITEM, TILEMAP } from '../../src/formats/teeworlds/items.js';
import { packName, unpackName } from '../../src/formats/teeworlds/names.js';
import type { TeeworldsMap, TileLayer } from '../../src/formats/teeworlds/types.js';
import { UUID, uuidFromInts, uuidToInts } from '../../src/formats/teeworlds/uuid.js';
import { DecodeError, decode, summarize, teeworlds } from '../../src/index.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';
import { sameMap } from './teeworlds-helpers.js';

const DIR = join(FIXTURES, 'teeworlds');
const good = listFiles(DIR, /\.map$/).filter((p) => !p.includes('/bad/'));
const load = (rel: string) => readBytes(join(DIR, rel));
const layers = (m: TeeworldsMap) => m.groups.flatMap((g) => g.layers);

describe('teeworlds int-packed names', () => {
  it('packs "Game" as the game does (+128 bias, big-endian, raw terminator)', () => {
    const d = new Int32Array(3);
    packName(new TextEncoder().encode('Game'), d, 0, 3);
    expect(Array.from(d, (v) => (v >>> 0).toString(16))).toEqual(['c7e1ede5', '80808080', '80808000']);
    expect(new TextDecoder().decode(unpackName(d, 0, 3))).toBe('Game');
  });
  it('keeps at most 4·n−1 bytes and round-trips UTF-8 bytes exactly', () => {
    const long = new TextEncoder().encode('abcdefghijklmnop');
    const d = new Int32Array(3);
    packName(long, d, 0, 3);
    expect(new TextDecoder().decode(unpackName(d, 0, 3))).toBe('abcdefghijk');
    const utf = new TextEncoder().encode('ä✓');
    const e = new Int32Array(8);
    packName(utf, e, 0, 8);
    expect(unpackName(e, 0, 8)).toEqual(utf);
  });
});

describe('teeworlds UUIDs', () => {
  it('round-trip through the 4 big-endian ints of an EX item', () => {
    for (const u of Object.values(UUID)) expect(uuidFromInts(uuidToInts(u))).toBe(u);
    expect(uuidToInts(UUID.AUTOMAPPER_CONFIG)[0]! >>> 0).toBe(0x3e1b2716);
  });
});

describe('teeworlds fixtures', () => {
  it('the DDNet map holds every item and layer kind', () => {
    const m = teeworlds.decode(load('ddnet-all-items.map'));
    expect(m.flavour).toBe('ddnet');
    expect(m.warnings).toEqual([]);
    expect(m.info?.settings?.map((s) => s.text)).toEqual(['sv_team 1', 'tune gravity 0.4']);
    expect(m.images.map((i) => [i.name.text, i.external, i.pixels?.length])).toEqual([
      ['grass_main', true, undefined],
      ['embedded', false, 32],
    ]);
    expect(m.envelopes.map((e) => [e.version, e.name.text, e.synchronized, e.points.time.length, !!e.points.bezier])).toEqual([
      [1, 'move', false, 2, true],
      [2, 'colour ✓', true, 3, true],
      [2, 'volume', true, 1, true],
    ]);
    expect(m.groups.map((g) => [g.version, g.name.text, g.clipping.enabled])).toEqual([
      [1, '', false],
      [3, 'Game', true],
      [2, '', true],
    ]);
    expect(layers(m).map((l) => l.kind)).toEqual([
      'quads',
      'game',
      'tiles',
      'front',
      'tele',
      'speedup',
      'switch',
      'tune',
      'quads',
      'quads',
      'sounds',
      'sounds',
      'unknown',
    ]);
    // The layer union narrows on `kind`: no cast to reach a physics layer's columns.
    const sp = layers(m).find((l) => l.kind === 'speedup');
    if (sp?.kind !== 'speedup') throw new Error('no speedup layer');
    expect(sp.speedup!.angle.length).toBe(63);
    expect(Math.min(...sp.speedup!.angle)).toBeLessThan(0);
    const oldSounds = layers(m)[11]!;
    expect(oldSounds.kind === 'sounds' && oldSounds.deprecated && Array.from(oldSounds.sources!.pan)).toEqual([1, 1]);
    expect(m.sounds[0]!.data!.length).toBeGreaterThan(0);
    expect(m.automapperConfigs).toEqual([{ version: 1, group: 1, layer: 1, config: 0, seed: 12345, flags: 1 }]);
    expect(m.extraItems.map((x) => x.uuid ?? x.typeId)).toEqual([0x4000, '4a26ca1f-64bd-30e3-907a-707eacd1f080', '01234567-89ab-cdef-0123-456789abcdef']);
  });

  it('the 0.7 map keeps v2 images (RGB too), v3 envelopes and tile-skip layers', () => {
    const m = teeworlds.decode(load('tw07-skip.map'));
    expect(m.flavour).toBe('teeworlds07');
    expect(m.images.map((i) => [i.format, i.pixels?.length])).toEqual([
      [1, undefined],
      [1, 32],
      [0, 24],
    ]);
    expect(m.envelopes.every((e) => e.version === 3 && e.points.bezier)).toBe(true);
    const game = layers(m)[0]!;
    expect(game.kind).toBe('game');
    if (game.kind === 'game') expect([game.tilemapVersion, game.tiles!.index.length]).toEqual([4, 1200]);
    expect(teeworlds.summarize(m).summary).toMatchObject({
      flavour: 'teeworlds07',
      images: 3,
      embeddedImages: 2,
      envelopes: 2,
      groups: 2,
      layers: 3,
      layersByKind: { game: 1, tiles: 1, quads: 1 },
      gameLayer: { width: 40, height: 30 },
    });
  });

  it("the summary carries the map's INFO (author, version, credits, licence, settings), the same from a summary decode", () => {
    const full = teeworlds.summarize(teeworlds.decode(load('ddnet-all-items.map'))).summary.info;
    expect(full).toEqual({ author: 'levelkit', version: '1.0', credits: 'generated', license: 'CC-BY-SA 3.0', settings: ['sv_team 1', 'tune gravity 0.4'] });
    expect(teeworlds.summarize(teeworlds.decode(load('ddnet-all-items.map'), { sections: 'summary' })).summary.info).toEqual(full);
    // A 5-int INFO (no settings field), a map without INFO, and a 2007 map.
    expect(teeworlds.summarize(teeworlds.decode(load('tw07-skip.map'))).summary.info).toEqual({
      author: 'levelkit',
      version: null,
      credits: null,
      license: 'CC-BY-SA 3.0',
      settings: null,
    });
    expect(teeworlds.summarize(teeworlds.decode(load('ddrace-v2.map'))).summary.info).toBeNull();
    expect(teeworlds.summarize(teeworlds.decode(load('legacy-2007.map'))).summary.info).toBeNull();
  });

  it('DDRace v2 tile layers read their grids through the extension indices', () => {
    const m = teeworlds.decode(load('ddrace-v2.map'));
    expect(layers(m).map((l) => [l.kind, (l as TileLayer).tilemapVersion])).toEqual([
      ['game', 2],
      ['tele', 2],
      ['switch', 2],
    ]);
    const tele = layers(m)[1]!;
    expect(tele.kind === 'tele' && tele.tele!.number.length).toBe(30);
  });

  it('the 2007 legacy map comes back as flavour legacy with its raw items', () => {
    const m = teeworlds.decode(load('legacy-2007.map'));
    expect(m.flavour).toBe('legacy');
    expect(m.legacy!.items.map((i) => i.typeId)).toEqual([1, 0x8001, 0x8002, 0x8003]);
    expect(m.legacy!.data!.length).toBe(3);
    expect(summarize(m).summary).toMatchObject({ flavour: 'legacy', layers: 1, gameLayer: null });
  });

  it('v3 and ATAD variants decode to the same map as the v4 file', () => {
    const v4 = teeworlds.decode(load('ddnet-all-items.map'));
    const v3 = teeworlds.decode(load('ddnet-all-items.v3.map'));
    const atad = teeworlds.decode(load('ddnet-all-items.atad.map'));
    expect([v3.datafileVersion, atad.magic]).toEqual([3, 'ATAD']);
    expect(sameMap(v3, v4)).toBeNull();
    expect(sameMap(atad, v4)).toBeNull();
  });

  it('the pre-2010 header-size bug loads with a warning, and fails in strict mode', () => {
    const b = load('header-size-bug.map');
    expect(teeworlds.decode(b).warnings.map((w) => w.code)).toEqual(['HEADER_SIZE_BUG']);
    expect(() => teeworlds.decode(b, { strict: true })).toThrow(expect.objectContaining({ code: 'STRICT' }));
  });

  it.each(good.map((p) => [p.slice(DIR.length + 1), p]))('%s: round-trips, and js/wasm decodes agree', (_n, p) => {
    const bytes = readBytes(p);
    const copy = bytes.slice();
    const js = teeworlds.decode(bytes, { backend: 'js' });
    const wasm = teeworlds.decode(bytes, { backend: 'wasm' });
    expect(wasm).toEqual(js);
    expect(sameMap(teeworlds.decode(teeworlds.encode(js)), js)).toBeNull();
    expect(sameMap(teeworlds.decode(teeworlds.encode(js, { version: 3 })), js)).toBeNull();
    expect(bytes).toEqual(copy);
    // The summary decode gives the same summary as the full one.
    expect(summarize(teeworlds.decode(bytes, { sections: 'summary' }))).toEqual(summarize(js));
    // Results own their arrays: scribbling over the input changes nothing already decoded.
    const again = teeworlds.decode(copy);
    copy.fill(0x55);
    expect(sameMap(again, js)).toBeNull();
  });

  it('the real maps decode through detect() as teeworlds', () => {
    const m = decode(load('real/ddnet-coverage.map'));
    expect(m.format).toBe('teeworlds');
    expect(summarize(m).summary).toMatchObject({ flavour: 'ddnet' });
    expect(summarize(decode(load('real/tw07-dm1.map'))).summary).toMatchObject({ flavour: 'teeworlds07' });
  });

  it('encoding a summary decode is refused, not silently lossy', () => {
    const m = teeworlds.decode(load('ddnet-all-items.map'), { sections: 'summary' });
    expect(() => teeworlds.encode(m)).toThrow(expect.objectContaining({ name: 'EncodeError', code: 'BAD_VALUE' }));
  });

  it('limits are checked before allocating', () => {
    expect(() => teeworlds.decode(load('tw07-skip.map'), { limits: { maxGridCells: 1000 } })).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }));
  });

  it('tile layers share one maxGridCells budget: two grids that each fit can be too many together', () => {
    // tw07-skip.map: a 40×30 and a 300×2 tile layer (1,800 cells).
    expect(teeworlds.decode(load('tw07-skip.map'), { limits: { maxGridCells: 1800 } }).groups.length).toBe(2);
    expect(() => teeworlds.decode(load('tw07-skip.map'), { limits: { maxGridCells: 1500 } })).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }));
  });
});

describe('teeworlds data blocks shared between sections', () => {
  /** 50 tile layers of 200×200, re-pointed at the first layer's one data block. */
  function sharedGridMap(): { file: Uint8Array; declared: number; shared: { offset: number } } {
    const cells = 200 * 200;
    const layer = (k: number): TileLayer => ({
      kind: 'tiles',
      name: textFrom(`L${k}`, 'utf-8'),
      detail: false,
      tilemapVersion: 3,
      width: 200,
      height: 200,
      color: { r: 255, g: 255, b: 255, a: 255 },
      colorEnv: -1,
      colorEnvOffset: 0,
      image: -1,
      tiles: { index: new Uint8Array(cells).fill(1), flags: new Uint8Array(cells) },
    });
    const m = teeworlds.decode(load('ddrace-v2.map'));
    m.groups[0]!.layers.push(...Array.from({ length: 50 }, (_, k) => layer(k)));
    const df = teeworlds.openDatafile(teeworlds.encode(m));
    const blocks = df.blocks.map((_, i) => df.readData(i, `data[${i}]`));
    const tiles = df.items.filter((it) => it.typeId === ITEM.LAYER && it.data[TILEMAP.flags] === 0 && it.data.length > TILEMAP.data);
    const target = tiles[0]!.data[TILEMAP.data]!;
    for (const it of tiles) {
      // The layer's own grid block is left unreferenced: shrink it so only the shared one counts.
      if (it.data[TILEMAP.data] !== target) blocks[it.data[TILEMAP.data]!] = Uint8Array.of(0);
      it.data[TILEMAP.data] = target;
    }
    const file = teeworlds.writeDatafile(df.items, blocks);
    const written = teeworlds.openDatafile(file).blocks;
    return { file, declared: written.reduce((n, b) => n + b.byteLength, 0), shared: written[target]! };
  }

  it('many layers pointing at one block cannot multiply the output: the second layer to claim it is CORRUPT', () => {
    const { file, declared, shared } = sharedGridMap();
    expect(file.length).toBeLessThan(declared / 4); // the data compresses well: the file is small
    for (const backend of ['js', 'wasm'] as const) {
      let err: unknown;
      try {
        teeworlds.decode(file, { backend });
      } catch (e) {
        err = e;
      }
      // A block belongs to one section (as in DDNet): the first added layer owns it, the next one fails.
      expect(err, backend).toBeInstanceOf(DecodeError);
      expect({ code: (err as DecodeError).code, offset: (err as DecodeError).offset, path: (err as DecodeError).path }, backend).toEqual({
        code: 'CORRUPT',
        offset: shared.offset,
        path: 'groups[0].layers[4].tiles',
      });
      expect((err as DecodeError).message, backend).toMatch(/already used by groups\[0\]\.layers\[3\]/);
    }
  });
});

describe('teeworlds encoder output the decoder reads back', () => {
  it('settings: [] round-trips as −1 (what DDNet writes), and null stays a 5-int INFO', () => {
    const m = teeworlds.decode(load('ddnet-all-items.map'));
    m.info!.settings = [];
    const again = teeworlds.decode(teeworlds.encode(m));
    expect(again.info!.settings).toEqual([]);
    expect(sameMap(again, m)).toBeNull();
    m.info!.settings = null;
    expect(teeworlds.decode(teeworlds.encode(m)).info!.settings).toBeNull();
    m.info!.settings = [textFrom('', 'utf-8')];
    expect(teeworlds.decode(teeworlds.encode(m)).info!.settings).toEqual([textFrom('', 'utf-8')]);
  });
  it('an embedded sound or image with no bytes is refused with an EncodeError naming it', () => {
    const m = teeworlds.decode(load('ddnet-all-items.map'));
    m.sounds[0]!.data = new Uint8Array(0);
    expect(() => teeworlds.encode(m)).toThrow(expect.objectContaining({ name: 'EncodeError', code: 'BAD_LENGTH', path: 'sounds[0].data' }));
    const n = teeworlds.decode(load('ddnet-all-items.map'));
    n.images[1]!.pixels = new Uint8Array(0);
    expect(() => teeworlds.encode(n)).toThrow(expect.objectContaining({ name: 'EncodeError', code: 'BAD_LENGTH', path: 'images[1].pixels' }));
  });
});

describe('teeworlds warnings and error offsets', () => {
  it('warnings carry the typed code union, and offsets are real or absent', () => {
    const m = teeworlds.decode(load('header-size-bug.map'));
    const codes: teeworlds.TeeworldsWarningCode[] = m.warnings.map((w) => w.code);
    expect(codes).toEqual(['HEADER_SIZE_BUG']);
    expect(m.warnings[0]!.offset).toBe(8);
    // strict mode keeps the code as the error's `warning`, and the offset.
    expect(() => teeworlds.decode(load('header-size-bug.map'), { strict: true })).toThrow(
      expect.objectContaining({ code: 'STRICT', warning: 'HEADER_SIZE_BUG', offset: 8 }),
    );
  });
  it('a fault with no single place has no offset (not a placeholder 0)', () => {
    let err: unknown;
    try {
      teeworlds.decode(load('bad/no-version-item.map'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DecodeError);
    expect((err as DecodeError).offset).toBeUndefined();
    const df = teeworlds.openDatafile(load('ddrace-v2.map'));
    expect(() => df.readData(999, 'x')).toThrow(expect.objectContaining({ code: 'BAD_INDEX', offset: undefined }));
  });
});
