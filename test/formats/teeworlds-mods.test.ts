// Mod layers (issue 19 §1): InfClass's entity and zone layers decode as their own kinds; a tile
// layer no game or confirmed mod places for certain is kept opaque, summarised, rendered as a plain
// grid and written back. Fixtures: fixtures/teeworlds/{infclass,opaque}-layers.map (generators).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { OpaqueLayer, TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { EncodeError, summarize, teeworlds } from '../../src/index.js';
import { layersOf, renderPreview } from '../../src/render/index.js';
import { FIXTURES } from '../helpers/paths.js';
import { sameMap } from './teeworlds-helpers.js';

const load = (name: string) => new Uint8Array(readFileSync(`${FIXTURES}/teeworlds/${name}`));
const layers = (m: TeeworldsMap) => m.groups.flatMap((g) => g.layers);
/** The LAYER items of the file as stored: [ints, tilemap flags]. */
const layerItems = (bytes: Uint8Array) =>
  teeworlds
    .openDatafile(bytes)
    .items.filter((i) => i.typeId === 5)
    .map((i) => [i.data.length, i.data[6]] as const);

describe('InfClass layers (flags 2 and 4 without a DDNet extension)', () => {
  const bytes = load('infclass-layers.map');

  it('the fixture reproduces the class: 18-int v3 items with flags 2 and 4, no tele or speedup index', () => {
    expect(layerItems(bytes)).toEqual([
      [23, 1],
      [18, 2],
      [18, 4],
      [23, 0],
    ]);
  });

  it('decodes at both depths as infclassEntities / infclassZones, flavour and summary say infclass', () => {
    const full = teeworlds.decode(bytes);
    const cheap = teeworlds.decode(bytes, { sections: 'summary' });
    expect(full.flavour).toBe('infclass');
    expect(layers(full).map((l) => l.kind)).toEqual(['game', 'infclassEntities', 'infclassZones', 'tiles']);
    const ent = layers(full)[1]!;
    expect(ent.kind === 'infclassEntities' && ent.tiles?.index.length).toBe(12 * 8);
    // The cheap decode reads no grid but the game's, and agrees on the summary.
    expect(layers(cheap)[1]).not.toHaveProperty('tiles');
    expect(cheap.blocksNotInflated).toBe(3);
    const s = summarize(full).summary;
    expect(summarize(cheap).summary).toEqual(s);
    expect(s).toMatchObject({ flavour: 'infclass', mod: 'infclass', opaqueLayers: 0, layersByKind: { infclassEntities: 1, infclassZones: 1 } });
  });

  it('round-trips: decode(encode(map)) is the map, in the same item layout, and js/wasm agree', () => {
    const m = teeworlds.decode(bytes, { backend: 'js' });
    expect(sameMap(teeworlds.decode(bytes, { backend: 'wasm' }), m)).toBeNull();
    const again = teeworlds.encode(m);
    expect(layerItems(again)).toEqual(layerItems(bytes));
    expect(sameMap(teeworlds.decode(again), m)).toBeNull();
  });

  it('renders its grids as preview layers', () => {
    const m = teeworlds.decode(bytes);
    const names = layersOf(m, teeworlds.mainGrid(m)).map((l) => l.name);
    expect(names).toEqual(expect.arrayContaining(['0.1 infclassEntities Entities', '0.2 infclassZones Zones']));
  });

  it('the encoder refuses an InfClass layer in a layout InfClass does not write', () => {
    const m = teeworlds.decode(bytes);
    const ent = layers(m)[1]!;
    if (ent.kind !== 'infclassEntities') throw new Error('fixture changed');
    ent.tilemapVersion = 2;
    expect(() => teeworlds.encode(m)).toThrow(expect.objectContaining({ code: 'BAD_VALUE', path: 'groups[0].layers[1].tilemapVersion' }));
  });

  it('a #Zones group of plain tile layers (infclassR) is named as InfClass in the summary only', () => {
    const m = teeworlds.decode(bytes);
    m.groups[0]!.layers = m.groups[0]!.layers.slice(0, 1);
    m.flavour = 'ddnet';
    const back = teeworlds.decode(teeworlds.encode(m));
    expect(back.flavour).toBe('ddnet');
    expect(summarize(back).summary).toMatchObject({ mod: 'infclass' });
  });
});

describe('opaque layers (a tile layer that cannot be placed for certain)', () => {
  const bytes = load('opaque-layers.map');

  it('never fails the map: each is kept with its item ints, the reason and its blocks', () => {
    const m = teeworlds.decode(bytes);
    const opaque = layers(m).filter((l): l is OpaqueLayer => l.kind === 'opaque');
    expect(opaque.map((l) => [l.name.text, l.flags, l.tilemapVersion, l.reason])).toEqual([
      ['Mystery', 64, 3, 'tilemap flags 64 (no known game or mod gives them this layout)'],
      ['Tele', 2, 3, 'tele flag, but the item names no tele grid'],
      ['', 3, 3, 'tilemap flags 3 (no known game or mod gives them this layout)'],
      ['', 0, 7, 'tilemap version 7 (2, 3 or 4 known)'],
    ]);
    expect(opaque.map((l) => l.blocks?.map((b) => [b.slot, b.bytes.length]))).toEqual([[[11, 120]], [[11, 120]], [[11, 120]], [[11, 24]]]);
    expect(opaque[0]!.item.length).toBe(20);
    // Block slots read as −1 (the file's numbering is the encoder's to redo).
    expect([opaque[0]!.item[11], ...opaque[0]!.item.slice(15)]).toEqual([-1, -1, -1, -1, -1, -1]);
    expect(opaque[3]!.item.length).toBe(12);
  });

  it('summary at both depths counts them; the cheap decode keeps no blocks', () => {
    const full = teeworlds.decode(bytes);
    const cheap = teeworlds.decode(bytes, { sections: 'summary' });
    expect(summarize(cheap).summary).toEqual(summarize(full).summary);
    expect(summarize(full).summary).toMatchObject({ flavour: 'ddnet', opaqueLayers: 4, mod: null });
    expect(layers(cheap).every((l) => l.kind !== 'opaque' || l.blocks === undefined)).toBe(true);
  });

  it('renders a plain grid from the block holding width × height records', () => {
    const m = teeworlds.decode(bytes);
    const mystery = layers(m)[1] as OpaqueLayer;
    const preview = layersOf(m, teeworlds.mainGrid(m)).find((l) => l.name === '0.1 opaque Mystery')!;
    expect([preview.width, preview.height]).toEqual([6, 5]);
    // Byte 0 of each 4-byte record.
    expect(Array.from(preview.cells)).toEqual(Array.from({ length: 30 }, (_, i) => mystery.blocks![0]!.bytes[i * 4]));
    const index = layersOf(m, teeworlds.mainGrid(m)).findIndex((l) => l.name === preview.name);
    const drawn = renderPreview(m, teeworlds.mainGrid(m), { layer: index });
    expect([drawn.tilesWide, drawn.tilesHigh, drawn.width > 0]).toEqual([6, 5, true]);
  });

  it('written back unchanged: same item ints, blocks re-pointed, and the map decodes the same (js and wasm)', () => {
    const m = teeworlds.decode(bytes, { backend: 'wasm' });
    expect(sameMap(teeworlds.decode(bytes, { backend: 'js' }), m)).toBeNull();
    const again = teeworlds.encode(m);
    expect(layerItems(again)).toEqual(layerItems(bytes));
    const back = teeworlds.decode(again);
    expect(sameMap(back, m)).toBeNull();
    expect(teeworlds.encode(back)).toEqual(again);
  });

  it('the encoder refuses a changed size or name, a block in no slot, and a summary decode', () => {
    const tweak = (f: (l: OpaqueLayer) => void) => {
      const m = teeworlds.decode(bytes);
      f(layers(m)[1] as OpaqueLayer);
      return () => teeworlds.encode(m);
    };
    expect(
      tweak((l) => {
        l.width = 9;
      }),
    ).toThrow(expect.objectContaining({ code: 'BAD_VALUE', path: 'groups[0].layers[1].width' }));
    expect(
      tweak((l) => {
        l.name = { ...l.name, text: 'Other', raw: new TextEncoder().encode('Other') };
      }),
    ).toThrow(expect.objectContaining({ code: 'BAD_VALUE', path: 'groups[0].layers[1].name' }));
    expect(
      tweak((l) => {
        l.blocks![0]!.slot = 2;
      }),
    ).toThrow(expect.objectContaining({ code: 'BAD_VALUE', path: 'groups[0].layers[1].blocks[0].slot' }));
    expect(
      tweak((l) => {
        l.reason = 'something else';
      }),
    ).toThrow(expect.objectContaining({ code: 'BAD_VALUE', path: 'groups[0].layers[1].reason' }));
    // An item that would read back as a placed layer (flags 0: tiles) is not opaque any more.
    expect(
      tweak((l) => {
        l.item[3] = 0;
        l.flags = 0;
      }),
    ).toThrow(expect.objectContaining({ code: 'BAD_VALUE', path: 'groups[0].layers[1].item' }));
    // Block slots are the encoder's: a value there would be lost.
    expect(
      tweak((l) => {
        l.item[11] = 3;
      }),
    ).toThrow(expect.objectContaining({ code: 'BAD_VALUE', path: 'groups[0].layers[1].item' }));
    expect(() => teeworlds.encode(teeworlds.decode(bytes, { sections: 'summary' }))).toThrow(EncodeError);
  });

  it('a slot naming a block another section reads is not taken from it (written back as −1)', () => {
    // The tele-flag layer's data slot re-pointed at the game layer's block: the game keeps it.
    const copy = bytes.slice();
    const df = teeworlds.openDatafile(copy);
    const items = df.items.filter((i) => i.typeId === 5);
    const gameData = items[0]!.data[14]!;
    const teleAt = df.itemOffsets[df.items.indexOf(items[2]!)]!;
    new DataView(copy.buffer).setInt32(teleAt + 14 * 4, gameData, true);
    const m = teeworlds.decode(copy);
    const tele = layers(m)[2] as OpaqueLayer;
    expect(tele.blocks).toEqual([]);
    expect(layers(m)[0]!.kind).toBe('game');
    const back = teeworlds.openDatafile(teeworlds.encode(m)).items.filter((i) => i.typeId === 5)[2]!;
    expect(back.data[14]).toBe(-1);
  });
});
