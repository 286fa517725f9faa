// teeworlds.diff on a real map (the corpus' Smile, a DDNet map with tele, speedup and switch layers,
// quads and embedded images) and on the all-items fixture: one edit through the library, written
// back with encode() and decoded again, and diff names exactly that edit.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withTileMeaning } from '../../src/formats/teeworlds/tile-names.js';
import type { MapLayer, TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { type Change, teeworlds, textFrom } from '../../src/index.js';
import { describeCorpus } from '../helpers/needs.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

const SMILE = 'teeworlds__teeworlds/data__maps__Smile@a025e254.map';

/** The map `bytes` decodes to, edited by `edit` and read back from its encoding. */
function edited(bytes: Uint8Array, edit: (m: TeeworldsMap) => void): TeeworldsMap {
  const m = teeworlds.decode(bytes);
  edit(m);
  return teeworlds.decode(teeworlds.encode(m));
}

function layers(m: TeeworldsMap): MapLayer[] {
  return m.groups.flatMap((g) => g.layers);
}

/** Where layer `i` of `m` is, as its changes name it: the group it is in and its name as the editor lists them. */
function named(m: TeeworldsMap, i: number) {
  const group = m.groups.findIndex((g) => g.layers.includes(layers(m)[i]!));
  return { layerName: expect.any(String), group, groupName: expect.stringMatching(new RegExp(`^#${group}( |$)`)) };
}

/** Layer `kind` of `m` with its index across groups. */
function layerOf<K extends MapLayer['kind']>(m: TeeworldsMap, kind: K): [number, Extract<MapLayer, { kind: K }>] {
  const i = layers(m).findIndex((l) => l.kind === kind);
  expect(i, `a ${kind} layer`).toBeGreaterThanOrEqual(0);
  return [i, layers(m)[i] as Extract<MapLayer, { kind: K }>];
}

function suite(name: string, bytesOf: () => Uint8Array) {
  describe(name, () => {
    const diffWith = (edit: (m: TeeworldsMap) => void): Change[] => teeworlds.diff(teeworlds.decode(bytesOf()), edited(bytesOf(), edit));

    it('diff a a and diff a encode(a) are empty', () => {
      const a = teeworlds.decode(bytesOf());
      expect(teeworlds.diff(a, a)).toEqual([]);
      expect(diffWith(() => {})).toEqual([]);
    });

    it('a game-layer cell', () => {
      const a = teeworlds.decode(bytesOf());
      const [i, game] = layerOf(a, 'game');
      const at = game.width * 3 + 4;
      const old = game.tiles!.index[at]!;
      const changes = diffWith((m) => {
        layerOf(m, 'game')[1].tiles!.index[at] = old === 1 ? 2 : 1;
      });
      expect(changes).toEqual([
        {
          kind: 'tile',
          layer: i,
          layerKind: 'game',
          ...named(a, i),
          layerName: 'Game',
          x: 4,
          y: 3,
          w: 1,
          h: 1,
          cells: 1,
          from: { index: old },
          to: { index: old === 1 ? 2 : 1 },
        },
      ]);
    });

    it('a block of tele numbers, as one rectangle', () => {
      const [i] = layerOf(teeworlds.decode(bytesOf()), 'tele');
      const changes = diffWith((m) => {
        const t = layerOf(m, 'tele')[1];
        for (const y of [1, 2]) for (const x of [5, 6, 7]) t.tele!.number[y * t.width + x] = 200;
      });
      expect(changes.map((c) => [c.kind, c.layer, c.x, c.y, c.w, c.h, (c.to as { number: number }).number])).toEqual([['tile', i, 5, 1, 3, 2, 200]]);
      expect(Object.keys(changes[0]!.to as object)).toEqual(['number']);
    });

    it("a speedup cell's angle", () => {
      const a = teeworlds.decode(bytesOf());
      const [i, speedup] = layerOf(a, 'speedup');
      const old = speedup.speedup!.angle[0]!;
      const changes = diffWith((m) => {
        const s = layerOf(m, 'speedup')[1].speedup!;
        s.angle[0] = old + 90;
      });
      expect(changes).toEqual([
        { kind: 'tile', layer: i, layerKind: 'speedup', ...named(a, i), x: 0, y: 0, w: 1, h: 1, cells: 1, from: { angle: old }, to: { angle: old + 90 } },
      ]);
    });

    it("an embedded image's pixel; the same pixels re-embedded are no change", () => {
      const a = teeworlds.decode(bytesOf());
      const img = a.images.find((x) => !x.external && x.pixels)!;
      const changes = diffWith((m) => {
        const target = m.images.find((x) => x.name.text === img.name.text)!;
        target.pixels![0] = (target.pixels![0]! + 1) & 255;
      });
      expect(changes.map((c) => [c.kind, c.id, c.field])).toEqual([['image-changed', img.name.text, 'rgbaSha256']]);
      expect(
        diffWith((m) => {
          const target = m.images.find((x) => x.name.text === img.name.text)!;
          target.pixels = target.pixels!.slice();
        }),
      ).toEqual([]);
    });

    it("a quad's point", () => {
      const a = teeworlds.decode(bytesOf());
      const i = layers(a).findIndex((l) => l.kind === 'quads' && (l.quads?.count ?? 0) > 0);
      const q = (layers(a)[i] as Extract<MapLayer, { kind: 'quads' }>).quads!;
      const changes = diffWith((m) => {
        (layers(m)[i] as Extract<MapLayer, { kind: 'quads' }>).quads!.points[2]! += 1024;
      });
      const from = Array.from(q.points.subarray(0, 10));
      const to = from.slice();
      to[2]! += 1024;
      expect(changes).toEqual([{ kind: 'quad-changed', layer: i, layerKind: 'quads', ...named(a, i), id: 0, field: 'points', from, to }]);
    });

    it("a tile layer's colour", () => {
      const a = teeworlds.decode(bytesOf());
      const [i, tiles] = layerOf(a, 'tiles');
      const alpha = tiles.color.a;
      expect(
        diffWith((m) => {
          layerOf(m, 'tiles')[1].color.a = alpha === 255 ? 128 : 255;
        }),
      ).toEqual([{ kind: 'layer-changed', layer: i, layerKind: 'tiles', ...named(a, i), field: 'color.a', from: alpha, to: alpha === 255 ? 128 : 255 }]);
    });

    it('a server setting', () => {
      const a = teeworlds.decode(bytesOf());
      const before = (a.info?.settings ?? []).map((t) => t.text);
      const changes = diffWith((m) => {
        m.info = { ...(m.info ?? { version: 1, author: null, mapVersion: null, credits: null, license: null, settings: null }) };
        m.info.settings = [...(m.info.settings ?? []), textFrom('sv_test 1', 'utf-8')];
      });
      // A map without an INFO item gains one: that is the one change.
      if (!a.info) expect(changes.map((c) => c.kind)).toEqual(['info-added']);
      else
        expect(changes).toEqual([
          { kind: 'settings', field: 'settings', hunks: [{ fromLine: before.length + 1, toLine: before.length + 1, removed: [], added: ['sv_test 1'] }] },
        ]);
    });
  });
}

suite('teeworlds.diff: the all-items fixture', () => readBytes(join(FIXTURES, 'teeworlds/ddnet-all-items.map')));
describeCorpus('teeworlds', 'teeworlds.diff: a real DDNet map', (dir) => suite(SMILE, () => readBytes(join(dir, SMILE))));

describe('teeworlds.diff: layers moved, added and removed', () => {
  const bytes = () => readBytes(join(FIXTURES, 'teeworlds/ddnet-all-items.map'));
  it('two layers swapped within their group are two moves and nothing else', () => {
    const a = teeworlds.decode(bytes());
    const g = a.groups.findIndex((x) => x.layers.length >= 2 && x.layers[0]!.name.text !== x.layers[1]!.name.text);
    const b = edited(bytes(), (m) => {
      const l = m.groups[g]!.layers;
      [l[0], l[1]] = [l[1]!, l[0]!];
    });
    const kinds = teeworlds.diff(a, b).map((c) => c.kind);
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(['layer-moved']));
  });
  it('a layer removed is one layer-removed', () => {
    const a = teeworlds.decode(bytes());
    const g = a.groups.findIndex((x) => x.layers.some((l) => l.kind === 'tiles'));
    const li = a.groups[g]!.layers.findIndex((l) => l.kind === 'tiles');
    const b = edited(bytes(), (m) => {
      m.groups[g]!.layers.splice(li, 1);
    });
    expect(teeworlds.diff(a, b).map((c) => [c.kind, c.layerKind])).toEqual([['layer-removed', 'tiles']]);
  });
});

describe('teeworlds.diff: envelopes', () => {
  it("one envelope point's value, as that point and nothing else", () => {
    const bytes = readBytes(join(FIXTURES, 'teeworlds/ddnet-all-items.map'));
    const a = teeworlds.decode(bytes);
    const e = a.envelopes.findIndex((x) => x.points.time.length > 1);
    const b = edited(bytes, (m) => {
      m.envelopes[e]!.points.values[4]! += 1024;
    });
    const changes = teeworlds.diff(a, b);
    expect(changes.map((c) => [c.kind, c.id, c.field])).toEqual([['envelope-changed', e, 'points.1']]);
    expect((changes[0]!.to as number[])[2]).toBe(a.envelopes[e]!.points.values[4]! + 1024);
  });
});

describe('teeworlds.diff: layers and physics tiles named as a mapper knows them', () => {
  const bytes = () => readBytes(join(FIXTURES, 'teeworlds/ddnet-all-items.map'));
  /** Row 0's first three cells of the game layer and the first cell of the tele and switch layers, set by `set`. */
  const physics = (from: Uint8Array, set: { game: number[]; teleType: number; switchType: number }) =>
    edited(from, (m) => {
      const game = layerOf(m, 'game')[1].tiles!;
      set.game.forEach((v, x) => {
        game.index[x] = v;
        game.flags[x] = 0;
      });
      const tele = layerOf(m, 'tele')[1].tele!;
      tele.type[0] = set.teleType;
      tele.number[0] = set.teleType ? 1 : 0;
      const sw = layerOf(m, 'switch')[1].switch!;
      sw.type[0] = set.switchType;
      sw.number[0] = set.switchType ? 1 : 0;
    });

  it('group and layer names as the editor lists them; game, tele and switch tiles by what they mean (as levelkit diff adds it)', () => {
    const a = physics(bytes(), { game: [0, 0, 0], teleType: 0, switchType: 0 });
    const b = physics(teeworlds.encode(a), { game: [3, 9, 2], teleType: 26, switchType: 22 });
    const tiles = teeworlds
      .diff(a, b)
      .filter((c) => c.kind === 'tile')
      .map(withTileMeaning);
    const pick = (c: Change) => [c.layerName, c.group, c.groupName, c.fromMeaning, c.toMeaning];
    expect(tiles.map(pick)).toEqual([
      ['Game', 1, '#1 Game', 'air', ['unhookable', 'freeze', 'death']],
      ['Tele', 1, '#1 Game', 'air', 'tele in'],
      // 22 is solo off on the game layer, a timed switch on the switch layer.
      ['Switch', 1, '#1 Game', 'air', 'switch timed open'],
    ]);
    expect(tiles[0]).toMatchObject({ from: { index: 0 }, to: { index: [3, 9, 2] } });
  });

  it('an unnamed layer by its type, an unnamed group by its number', () => {
    const a = teeworlds.decode(bytes());
    const b = edited(bytes(), (m) => {
      m.groups[0]!.layers[0]!.detail = !m.groups[0]!.layers[0]!.detail;
    });
    expect(a.groups[0]!.name.text).toBe('');
    expect(teeworlds.diff(a, b).map((c) => [c.kind, c.layerName, c.group, c.groupName])).toEqual([['layer-changed', 'Quads', 0, '#0']]);
  });
});
