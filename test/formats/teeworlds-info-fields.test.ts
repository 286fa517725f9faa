// A bad info field costs the field, not the map (issue 28 §1): a real map's INFO item points
// `author` at a 10 MB tileset and its other strings at image names; the game never reads them and
// the map plays. The field reads as null with warning BAD_INFO_FIELD naming it, the string cap still
// holds (nothing is inflated for it), and `strict` keeps it an error.
import { describe, expect, it } from 'vitest';
import { base, group, tileLayer } from '../../fixtures/generators/teeworlds.js';
import { textFrom } from '../../src/core/text.js';
import { IMAGE, INFO, ITEM, TILEMAP } from '../../src/formats/teeworlds/items.js';
import type { TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { DecodeError, teeworlds } from '../../src/index.js';
import { Prng } from '../helpers/prng.js';
import { firstDifference } from './teeworlds-helpers.js';

const txt = (s: string) => textFrom(s, 'utf-8');

/**
 * A map with a 512×512 RGBA tileset (1 MiB; the real map's is 10 MB) and an external image, whose INFO item
 * is re-pointed: author → the tileset's pixels, mapVersion → its name, credits → a block that is
 * not there, settings → the external image's name; license keeps its own string.
 */
function corruptInfoMap(): { bytes: Uint8Array; pixelsAt: number; declaredTotal: number } {
  const m: TeeworldsMap = base('ddnet');
  m.info = { version: 1, author: txt('me'), mapVersion: txt('1'), credits: txt('you'), license: txt('CC0'), settings: [txt('sv_team 1')] };
  m.images = [
    { version: 1, width: 512, height: 512, name: txt('big_tileset'), external: false, pixels: new Uint8Array(512 * 512 * 4).fill(7) },
    { version: 1, width: 4, height: 4, name: txt('grass_main'), external: true },
  ];
  m.groups = [group(1, 'Game', [tileLayer(new Prng(5), 'game', 3, 8, 6, 'Game')])];
  const df = teeworlds.openDatafile(teeworlds.encode(m));
  const items = df.items;
  const images = items.filter((it) => it.typeId === ITEM.IMAGE);
  const info = items.find((it) => it.typeId === ITEM.INFO)!;
  info.data[INFO.author] = images[0]!.data[IMAGE.data]!;
  info.data[INFO.mapVersion] = images[0]!.data[IMAGE.name]!;
  info.data[INFO.credits] = df.blocks.length + 5;
  info.data[INFO.settings] = images[1]!.data[IMAGE.name]!;
  const blocks = df.blocks.map((_, i) => df.readData(i, `data[${i}]`));
  const bytes = teeworlds.writeDatafile(items, blocks);
  const written = teeworlds.openDatafile(bytes);
  // Every block read, once each (the images' names and pixels, the game grid, the license): what
  // a decode may inflate at most.
  const layer = items.find((it) => it.typeId === ITEM.LAYER)!;
  const read = new Set([...images.flatMap((it) => [it.data[IMAGE.name]!, it.data[IMAGE.data]!]), layer.data[TILEMAP.data]!, info.data[INFO.license]!]);
  const declaredTotal = written.blocks.reduce((n, b, i) => n + (read.has(i) ? b.byteLength : 0), 0);
  return { bytes, pixelsAt: written.blocks[info.data[INFO.author]!]!.offset, declaredTotal };
}

describe('teeworlds: a bad info field is a warning, the field null', () => {
  const { bytes, pixelsAt, declaredTotal } = corruptInfoMap();

  it.each(['all', 'summary'] as const)(
    'sections %s: the map decodes; author, mapVersion, credits and settings are null, each named by a warning',
    (sections) => {
      for (const backend of ['js', 'wasm'] as const) {
        // The budget is every block the sections read, inflated once: a 1 MiB author string (or a
        // second read of the tileset) would exceed it.
        const m = teeworlds.decode(bytes, { backend, sections, limits: { maxTotalInflatedBytes: declaredTotal } });
        expect(m.info).toMatchObject({ author: null, mapVersion: null, credits: null, settings: null });
        expect(m.info!.license!.text).toBe('CC0');
        const bad = m.warnings.filter((w) => w.code === 'BAD_INFO_FIELD');
        expect(bad.map((w) => w.path)).toEqual(['info.author', 'info.mapVersion', 'info.credits', 'info.settings']);
        expect(bad[0]!.offset).toBe(pixelsAt);
        expect(bad[0]!.message).toMatch(/declares 1048576 bytes, more than the field holds \(≤ 1024\)/);
        expect(bad[1]!.message).toMatch(/already used by images\[0\]\.name/);
        expect(bad[2]!.message).toMatch(/names no block/);
        // The images the game reads keep their blocks.
        expect(m.images.map((i) => i.name.text)).toEqual(['big_tileset', 'grass_main']);
        if (sections === 'all') expect(m.images[0]!.pixels!.length).toBe(512 * 512 * 4);
      }
    },
  );

  it('the decoded map encodes, and reads back with the same info', () => {
    const m = teeworlds.decode(bytes);
    const again = teeworlds.decode(teeworlds.encode(m));
    expect(again.info).toEqual(m.info);
    expect(again.warnings).toEqual([]);
  });

  it("layers: 'lazy' gives the same map and warnings", () => {
    expect(firstDifference(teeworlds.decode(bytes, { layers: 'lazy' }), teeworlds.decode(bytes))).toBeNull();
  });

  it('strict: true refuses it, naming the field and the warning', () => {
    let err: unknown;
    try {
      teeworlds.decode(bytes, { strict: true });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DecodeError);
    expect(err).toMatchObject({ code: 'STRICT', warning: 'BAD_INFO_FIELD', path: 'info.author', offset: pixelsAt });
  });
});
