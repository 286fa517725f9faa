// Each Graal rule against real levels with the defect planted through the library; the link rule
// over files checked together.
import { expect, it } from 'vitest';
import { checkArchive, checkLevel } from '../../src/check/run.js';
import type { graal } from '../../src/index.js';
import { corpus, describeWith } from '../helpers/needs.js';
import { expectPlanted, load, written } from './plant.js';

type Level = graal.GraalLevel;
const DIR = 'graal-reborn';

function changed(level: Level, change: (l: Level) => void): Level {
  const copy = structuredClone(level);
  change(copy);
  return written(copy);
}

describeWith(corpus('graal'), 'Graal rules on real levels', (dir) => {
  // A level with chests, signs and links, none of them off the board.
  const level = () => load<Level>(`${dir}/${DIR}/onnettown_inside_townhall_02.nw`);

  it('graal/chest-sign: a chest pointing past the signs', () => {
    const base = changed(level(), (l) => {
      l.signs.push({ x: 1, y: 1, text: 'hello' });
      for (const c of l.chests) c.signIndex = 0;
    });
    const planted = changed(base, (l) => {
      l.chests[0]!.signIndex = l.signs.length + 3;
    });
    expectPlanted('graal/chest-sign', base, planted, /shows sign \d+, but the level has 1 sign$/);
  });

  it('graal/object-outside-board: a sign moved off the board', () => {
    const base = changed(level(), (l) => l.signs.push({ x: 1, y: 1, text: 'hello' }));
    const planted = changed(base, (l) => {
      l.signs[0]!.x = 70;
    });
    expectPlanted('graal/object-outside-board', base, planted, /sign 0 is off the board/);
  });

  it('graal/link-target: a link to a level not among the files checked', () => {
    const a = changed(level(), (l) => {
      l.links.splice(1);
      l.links[0]!.level = { ...l.links[0]!.level, text: 'b.nw' };
    });
    const facts = (l: Level, path: string) => ({ path, member: null, facts: checkLevel(l).facts });
    const b = changed(level(), (l) => l.links.splice(0));
    expect(checkArchive([facts(a, 'world/a.nw'), facts(b, 'world/b.nw')])).toEqual([]);
    const moved = changed(a, (l) => {
      l.links[0]!.level = { ...l.links[0]!.level, text: 'c.nw' };
    });
    const found = checkArchive([facts(moved, 'world/a.nw'), facts(b, 'world/b.nw')]);
    expect(found.map((f) => [f.rule, f.path, f.message])).toEqual([
      ['graal/link-target', 'world/a.nw', "link 0 leads to 'c.nw', which is not among the files checked"],
    ]);
  });
});
