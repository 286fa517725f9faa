// Each WWD rule against real Claw and Gruntz levels with the defect planted through the library.

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { RULE_IDS } from '../../src/check/registry.js';
import { checkLevel } from '../../src/check/run.js';
import { decode, encode, wwd } from '../../src/index.js';
import { corpus, describeWith } from '../helpers/needs.js';
import { expectPlanted, load, written } from './plant.js';

type Level = wwd.WwdLevel;

function changed(level: Level, change: (l: Level) => void): Level {
  const copy = structuredClone(level);
  change(copy);
  return written(copy);
}

describeWith(corpus('wwd'), 'WWD rules on real levels', (dir) => {
  const retail = () => load<Level>(`${dir}/libwap32__RETAIL01.WWD`);
  const main = (l: Level) => l.planes[l.mainPlane]!.objects;

  it('wwd/object-outside-plane: an object moved past its plane’s right edge', () => {
    const level = retail();
    const planted = changed(level, (l) => {
      main(l).x[0] = l.planes[l.mainPlane]!.widthPx + 100;
    });
    expectPlanted('wwd/object-outside-plane', level, planted, /is outside plane 'Action'/);
  });

  it('wwd/unknown-logic: a misspelt logic', () => {
    const level = retail();
    const planted = changed(level, (l) => {
      const logic = main(l).logic;
      logic[0] = { ...logic[0]!, text: 'AniCycel' };
    });
    expectPlanted('wwd/unknown-logic', level, planted, /has logic 'AniCycel'/);
  });

  it('wwd/checksum-mismatch: a checksum changed in the written file', () => {
    const level = retail();
    const bytes = encode(level);
    // The high byte: WapWorld's own checksums differ from its formula in the low byte only.
    bytes[0x2ef] = bytes[0x2ef]! ^ 0x40;
    expectPlanted('wwd/checksum-mismatch', level, decode(bytes), /matches neither WapWorld's/);
  });

  it('treasure totals are facts in the summary (full and summary decodes alike), not findings of check', () => {
    const gruntz = load<Level>(`${dir}/libwap32__RockySwitch.wwd`);
    const planted = changed(gruntz, (l) => {
      const o = l.planes[l.mainPlane]!.objects;
      o.imageSet[0] = { ...o.imageSet[0]!, text: 'GAME_TREASURE_COINS' };
    });
    expect({ ...wwd.summarize(gruntz).summary.treasure }).toEqual({});
    expect({ ...wwd.summarize(planted).summary.treasure }).toEqual({ coins: 1 });
    const bytes = readFileSync(`${dir}/libwap32__RETAIL01.WWD`);
    const full = wwd.summarize(wwd.decode(bytes)).summary.treasure;
    expect(full.coins).toBeGreaterThan(100);
    expect(full.rings_red).toBeGreaterThan(0);
    expect(wwd.summarize(wwd.decode(bytes, { sections: 'summary' })).summary.treasure).toEqual(full);
    // No rule reports them any more: the retail level checks clean.
    expect(RULE_IDS).not.toContain('wwd/treasure-totals');
    expect(checkLevel(retail()).findings).toEqual([]);
  });
});
