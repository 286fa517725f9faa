// wwd.diff and graal.diff on real levels (the corpus' Bushy.wwd, a Graal .nw with links, NPCs,
// chests and signs) and the fixtures: one edit through the library, written back with encode() and
// decoded again, and diff names exactly that edit.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GraalLevel } from '../../src/formats/graal/types.js';
import type { WwdLevel } from '../../src/formats/wwd/types.js';
import { graal, textFrom, wwd } from '../../src/index.js';
import { describeCorpus } from '../helpers/needs.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';
import { editing } from './edited.js';

function wwdSuite(name: string, bytesOf: () => Uint8Array) {
  describe(name, () => {
    const { diffWith } = editing<WwdLevel>(wwd, bytesOf);
    it('a tile cell of the main plane', () => {
      const a = wwd.decode(bytesOf());
      const p = a.mainPlane;
      const at = a.planes[p]!.tilesWide * 2 + 1;
      const old = a.planes[p]!.tiles[at]!;
      expect(
        diffWith((l) => {
          l.planes[p]!.tiles[at] = old + 1;
        }),
      ).toEqual([
        { kind: 'tile', layer: p, layerKind: 'plane', layerName: a.planes[p]!.name.text, x: 1, y: 2, w: 1, h: 1, cells: 1, from: old, to: (old + 1) >>> 0 },
      ]);
    });
    it("an object's field, by its id", () => {
      const a = wwd.decode(bytesOf());
      const p = a.planes.findIndex((x) => x.objects.count > 0);
      const id = a.planes[p]!.objects.id[0]!;
      const score = a.planes[p]!.objects.score[0]!;
      expect(
        diffWith((l) => {
          l.planes[p]!.objects.score[0] = score + 7;
        }),
      ).toEqual([{ kind: 'object-changed', layer: p, layerKind: 'plane', layerName: a.planes[p]!.name.text, id, field: 'score', from: score, to: score + 7 }]);
    });
    it("an object's logic name", () => {
      const a = wwd.decode(bytesOf());
      const p = a.planes.findIndex((x) => x.objects.count > 0);
      const id = a.planes[p]!.objects.id[0]!;
      const logic = a.planes[p]!.objects.logic[0]!;
      const changes = diffWith((l) => {
        l.planes[p]!.objects.logic[0] = { ...logic, text: 'TreasurePowerup' };
      });
      expect(changes).toEqual([
        {
          kind: 'object-changed',
          layer: p,
          layerKind: 'plane',
          layerName: a.planes[p]!.name.text,
          id,
          field: 'logic',
          from: logic.text,
          to: 'TreasurePowerup',
        },
      ]);
    });
    it('a header field', () => {
      const a = wwd.decode(bytesOf());
      expect(
        diffWith((l) => {
          l.header.startX += 32;
        }),
      ).toEqual([{ kind: 'header', field: 'startX', from: a.header.startX, to: a.header.startX + 32 }]);
    });
  });
}

wwdSuite('wwd.diff: the Claw fixture', () => readBytes(join(FIXTURES, 'wwd/claw-compressed.wwd')));
describeCorpus('wwd', 'wwd.diff: a real Claw level', (dir) => wwdSuite('Bushy.wwd', () => readBytes(join(dir, 'libwap32__Bushy.wwd'))));

const NW = '2dadventureclient/bin__data__world__onlinestartlocal.nw';

function graalSuite(name: string, bytesOf: () => Uint8Array) {
  describe(name, () => {
    const { fresh: level, diffWith } = editing<GraalLevel>(graal, bytesOf);
    it('a board cell', () => {
      const old = level().layers[0]!.tiles[64 * 10 + 3]!;
      expect(
        diffWith((l) => {
          l.layers[0]!.tiles[64 * 10 + 3] = old === 5 ? 6 : 5;
        }),
      ).toEqual([{ kind: 'tile', layer: 0, layerKind: 'board', layerName: 'base', x: 3, y: 10, w: 1, h: 1, cells: 1, from: old, to: old === 5 ? 6 : 5 }]);
    });
    it("a link's destination", () => {
      const link = level().links[0]!;
      expect(
        diffWith((l) => {
          l.links[0]!.level = textFrom('elsewhere.nw');
        }),
      ).toEqual([{ kind: 'link-changed', id: 0, field: 'level', from: link.level.text, to: 'elsewhere.nw' }]);
    });
    it('a chest moved', () => {
      const chest = level().chests[0]!;
      expect(
        diffWith((l) => {
          l.chests[0]!.x = chest.x + 1;
        }),
      ).toEqual([{ kind: 'chest-changed', id: 0, field: 'x', from: chest.x, to: chest.x + 1 }]);
    });
    it("a line of an NPC's script, as a line diff", () => {
      const npcs = level().npcs;
      const n = npcs.findIndex((x) => x.script.text.split('\n').length > 3);
      const lines = npcs[n]!.script.text.split('\n');
      const changes = diffWith((l) => {
        const edited = lines.slice();
        edited[1] = '// changed by the test';
        l.npcs[n]!.script = textFrom(edited.join('\n'));
      });
      expect(changes).toEqual([
        {
          kind: 'npc-script',
          id: n,
          x: npcs[n]!.x,
          y: npcs[n]!.y,
          field: 'script',
          hunks: [{ fromLine: 2, toLine: 2, removed: [lines[1]], added: ['// changed by the test'] }],
        },
      ]);
    });
    it('an NPC added is one npc-added', () => {
      const changes = diffWith((l) => {
        l.npcs.push({ x: 1, y: 2, image: textFrom(''), script: textFrom('// new') });
      });
      expect(changes.map((c) => [c.kind, c.x, c.y])).toEqual([['npc-added', 1, 2]]);
    });
  });
}

describeCorpus('graal', 'graal.diff: a real .nw level', (dir) => graalSuite(NW, () => readBytes(join(dir, NW))));

describe('graal.diff: the binary fixture', () => {
  it('a baddy changed and a board cell changed, nothing else', () => {
    const bytes = readBytes(join(FIXTURES, 'graal/z3-v103-baddies.zelda'));
    const a = graal.decode(bytes) as GraalLevel;
    const b = graal.decode(bytes) as GraalLevel;
    b.baddies[0]!.type = (a.baddies[0]!.type + 1) % 10;
    b.layers[0]!.tiles[0] = (a.layers[0]!.tiles[0]! + 1) % 2048;
    const c = graal.decode(graal.encode(b)) as GraalLevel;
    expect(graal.diff(a, c).map((x) => [x.kind, x.field ?? null])).toEqual([
      ['tile', null],
      ['baddy-changed', 'type'],
    ]);
  });
});

describe('graal.diff: board layers by name', () => {
  it("a layer named by a LAYERNAME line is called so; the others 'base' and 'overlay n'", () => {
    const bytes = readBytes(join(FIXTURES, 'graal/layers.nw'));
    const named = () => {
      const l = graal.decode(bytes) as GraalLevel;
      l.unknownLines.push(textFrom('LAYERNAME 1 roof tops'));
      return l;
    };
    const a = named();
    const b = named();
    expect(b.layers.map((l) => l.index)).toEqual(expect.arrayContaining([0, 1]));
    for (const l of b.layers) l.tiles[0] = (l.tiles[0]! + 1) % 2048;
    const names = graal.diff(a, b).map((c) => [c.layer, c.layerName]);
    expect(names.slice(0, 2)).toEqual([
      [0, 'base'],
      [1, 'roof tops'],
    ]);
    expect(names.slice(2).every(([i, n]) => n === `overlay ${i}`)).toBe(true);
  });
});
