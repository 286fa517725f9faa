// The WWD position rules (src/check/wwd-positions.ts) against a retail Claw level with the start
// position or a warp's destination moved off the main plane through the library.
import { describe, it } from 'vitest';
import type { wwd } from '../../src/index.js';
import { corpus, describeWith } from '../helpers/needs.js';
import { expectPlanted, load, written } from './plant.js';

type Level = wwd.WwdLevel;
const need = corpus('wwd');

function changed(level: Level, change: (l: Level) => void): Level {
  const copy = structuredClone(level);
  change(copy);
  return written(copy);
}

describeWith(need, 'WWD position rules on real levels', (dir) => {
  const retail = () => load<Level>(`${dir}/libwap32__RETAIL01.WWD`);

  it('wwd/start-outside-plane: the start position moved below the action plane', () => {
    const level = retail();
    const planted = changed(level, (l) => {
      l.header.startY = l.planes[l.mainPlane]!.heightPx + 500;
    });
    expectPlanted('wwd/start-outside-plane', level, planted, /start position \(689, \d+\) is outside plane 'Action'/);
  });

  it('wwd/warp-destination: a warp leading past the action plane’s right edge', () => {
    const level = retail();
    const planted = changed(level, (l) => {
      const o = l.planes[l.mainPlane]!.objects;
      const warp = o.imageSet.findIndex((s, i) => s.text === 'GAME_WARP' && o.logic[i]!.text === 'SpecialPowerup');
      o.speedX[warp] = l.planes[l.mainPlane]!.widthPx + 1000;
    });
    expectPlanted('wwd/warp-destination', level, planted, /warp \d+ \(SpecialPowerup\) leads to \(\d+, \d+\), outside plane 'Action'/);
  });
});

describe('WWD position rules', () => {
  it('the corpus suite runs or says why not', () => {
    if (!need.ok) console.log(`[levelkit] WWD position rule tests skipped: ${need.missing}`);
  });
});
