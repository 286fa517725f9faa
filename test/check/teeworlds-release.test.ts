// DDNet's release rules (src/check/teeworlds-release.ts) against DDNet's coverage map with the
// defect planted through the library; and an external image added twice to dm1 (tw/duplicate-image).
import { describe, expect, it } from 'vitest';
import { corpus, describeWith } from '../helpers/needs.js';
import { expectPlanted, findingsOf, load } from './plant.js';
import { changed, cleanCoverage, DM1, gameLayer, layerOf, type TwMap } from './teeworlds-maps.js';

const need = corpus('teeworlds');

/** Sets every game and front tile `from(index)` says to replace to 0. */
function clearTiles(m: TwMap, from: (index: number) => boolean): void {
  for (const g of m.groups)
    for (const l of g.layers)
      if ((l.kind === 'game' || l.kind === 'front') && l.tiles) {
        const index = l.tiles.index;
        for (let i = 0; i < index.length; i++) if (from(index[i]!)) index[i] = 0;
      }
}

describeWith(need, 'DDNet release rules on real maps', (dir) => {
  it('tw/no-time-checkpoint: every time checkpoint removed from a race map', () => {
    const map = cleanCoverage(dir);
    const planted = changed(map, (m) => clearTiles(m, (t) => t >= 35 && t <= 59));
    expectPlanted('tw/no-time-checkpoint', map, planted, /no time checkpoint/);
  });

  it('tw/single-spawn: all spawns but one removed, and a solo map is left alone', () => {
    const map = cleanCoverage(dir);
    let kept = false;
    const planted = changed(map, (m) =>
      clearTiles(m, (t) => {
        if (t < 192 || t > 194) return false;
        if (kept) return true;
        kept = true;
        return false;
      }),
    );
    expectPlanted('tw/single-spawn', map, planted, /single spawn tile/);
    const solo = changed(planted, (m) => m.info!.settings!.push({ ...m.info!.settings![0]!, text: 'sv_solo_server 1' }));
    expect(findingsOf(solo, 'tw/single-spawn')).toEqual([]);
  });

  it('tw/external-image: an external image DDNet does not ship', () => {
    const map = cleanCoverage(dir);
    const planted = changed(map, (m) => {
      const image = structuredClone(m.images[0]!);
      m.images.push({ ...image, external: true, pixels: undefined, name: { ...image.name, text: 'my_tileset' } });
    });
    expectPlanted('tw/external-image', map, planted, /'my_tileset' is external but not an image DDNet ships/);
  });

  it('tw/hookthrough-placement: a hook-through tile over air', () => {
    const map = cleanCoverage(dir);
    const planted = changed(map, (m) => {
      const game = gameLayer(m).tiles!.index;
      const front = layerOf(m, 'front').tiles!;
      const air = game.findIndex((t, i) => t === 0 && front.index[i] === 0);
      front.index[air] = 66;
    });
    const [found] = expectPlanted('tw/hookthrough-placement', map, planted, /1 hook-through tile over no hookable or unhookable tile/);
    expect(found!.where.layer).toBeGreaterThanOrEqual(0);
  });

  it('tw/duplicate-image: one external image added twice', () => {
    const map = load<TwMap>(`${dir}/${DM1}`);
    const planted = changed(map, (m) => m.images.push(structuredClone(m.images.find((i) => i.external)!)));
    expectPlanted('tw/duplicate-image', map, planted, /external image \d+ '.+' is the same file as image \d+/);
  });
});

describe('DDNet release rules', () => {
  it('the corpus suite runs or says why not', () => {
    if (!need.ok) console.log(`[levelkit] DDNet release rule tests skipped: ${need.missing}`);
  });
});
