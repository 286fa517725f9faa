// Each Teeworlds/DDNet rule against real maps with the defect planted through the library.
import { describe, it } from 'vitest';
import { corpus, describeWith } from '../helpers/needs.js';
import { expectPlanted, load } from './plant.js';
import { changed, cleanCoverage, DM1, gameLayer, layerOf, type TwMap } from './teeworlds-maps.js';

const need = corpus('teeworlds');

describeWith(need, 'Teeworlds rules on real maps', (dir) => {
  const dm1 = () => load<TwMap>(`${dir}/${DM1}`);

  it('tw/unused-image and tw/duplicate-image: a copy of an image no layer uses', () => {
    const clean = dm1();
    // dm1's images are external; an embedded one comes from the fixture of every item.
    const source = load<TwMap>('fixtures/teeworlds/ddnet-all-items.map').images.find((i) => !i.external)!;
    const withOne = changed(clean, (m) => {
      m.images.push(structuredClone(source));
      // A second tile layer shows it, so every image of the map is in use.
      const layer = structuredClone(layerOf(m, 'tiles'));
      layer.image = m.images.length - 1;
      m.groups[0]!.layers.push(layer);
    });
    expectPlanted(
      'tw/unused-image',
      withOne,
      changed(withOne, (m) => m.images.push(structuredClone(source))),
      /is not used by any layer/,
    );
    expectPlanted(
      'tw/duplicate-image',
      withOne,
      changed(withOne, (m) => m.images.push(structuredClone(source))),
      /has the same pixels as image/,
    );
  });

  it('tw/unused-envelope: an envelope nothing animates with', () => {
    const map = dm1();
    expectPlanted(
      'tw/unused-envelope',
      map,
      changed(map, (m) => m.envelopes.push(structuredClone(m.envelopes[0]!))),
      /envelope 5 .* is not used/,
    );
  });

  it('tw/empty-layer: a tile layer cleared', () => {
    const map = dm1();
    expectPlanted(
      'tw/empty-layer',
      map,
      changed(map, (m) => layerOf(m, 'tiles').tiles!.index.fill(0)),
      /tiles layer .* is empty/,
    );
  });

  it('tw/empty-group: a group with no layers', () => {
    const map = dm1();
    expectPlanted(
      'tw/empty-group',
      map,
      changed(map, (m) => m.groups.push({ ...structuredClone(m.groups[0]!), layers: [] })),
      /has no layers/,
    );
  });

  it('tw/unpaired-teleporter: an entry with no exit, and an exit with no entry', () => {
    const map = cleanCoverage(dir);
    const plant = (type: number) =>
      changed(map, (m) => {
        const tele = layerOf(m, 'tele').tele!;
        const at = tele.type.indexOf(0);
        tele.type[at] = type;
        tele.number[at] = 200;
      });
    expectPlanted('tw/unpaired-teleporter', map, plant(26), /teleporter 200 has an entry but no exit/);
    expectPlanted('tw/unpaired-teleporter', map, plant(27), /teleporter 200 has an exit but no entry/);
  });

  it('tw/unpaired-switch: a switch number only one side uses', () => {
    const map = cleanCoverage(dir);
    const plant = (type: number) =>
      changed(map, (m) => {
        const sw = layerOf(m, 'switch').switch!;
        const at = sw.type.indexOf(0);
        sw.type[at] = type;
        sw.number[at] = 200;
      });
    expectPlanted('tw/unpaired-switch', map, plant(24), /switch 200 is turned on or off but no tile listens/);
    expectPlanted('tw/unpaired-switch', map, plant(9), /switch 200 is listened to but nothing turns it/);
  });

  it('tw/meaningless-rotation: a solid tile rotated', () => {
    const map = dm1();
    const planted = changed(map, (m) => {
      const t = gameLayer(m).tiles!;
      t.flags[t.index.indexOf(1)] = 8;
    });
    expectPlanted('tw/meaningless-rotation', map, planted, /1 game tile rotated or flipped/);
  });

  it('tw/no-spawn: every spawn removed', () => {
    const map = dm1();
    const planted = changed(map, (m) => {
      const t = gameLayer(m).tiles!;
      for (let i = 0; i < t.index.length; i++) if (t.index[i]! >= 192 && t.index[i]! <= 194) t.index[i] = 0;
    });
    expectPlanted('tw/no-spawn', map, planted, /no spawn tile/);
  });

  it('tw/race-start-finish: a race map whose finish line is removed', () => {
    const map = cleanCoverage(dir);
    const planted = changed(map, (m) => {
      for (const g of m.groups)
        for (const l of g.layers)
          if ((l.kind === 'game' || l.kind === 'front') && l.tiles) {
            const index = l.tiles.index;
            for (let i = 0; i < index.length; i++) if (index[i] === 34) index[i] = 0;
          }
    });
    expectPlanted('tw/race-start-finish', map, planted, /start line but no finish line/);
  });

  it('tw/unknown-setting: a misspelt setting, with the command meant', () => {
    const map = cleanCoverage(dir);
    const planted = changed(map, (m) => m.info!.settings!.push({ ...m.info!.settings![0]!, text: 'sv_tema 1' }));
    expectPlanted('tw/unknown-setting', map, planted, /'sv_tema 1' is not a DDNet map command \(did you mean 'sv_team'\?\)/);
  });

  it('tw/unknown-item: an item of a type no game reads', () => {
    const map = dm1();
    const planted = changed(map, (m) => m.extraItems.push({ typeId: 4000, id: 0, data: Int32Array.of(1, 2) }));
    expectPlanted('tw/unknown-item', map, planted, /item of unknown type 4000/);
  });
});

describe('Teeworlds rules', () => {
  it('the corpus suite runs or says why not', () => {
    if (!need.ok) console.log(`[levelkit] Teeworlds rule tests skipped: ${need.missing}`);
  });
});
