// A Teeworlds map's game layer gives one `entity` object row per cell holding an entity (index
// 192 and up), in cell order, at its cell (x, y), named by its index, with the index in its fields.
// Pinned against the game grid read here directly, for the fixtures' maps and the corpus' (up to 1 MB).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { teeworlds } from '../../src/index.js';
import { corpus, itWith } from '../helpers/needs.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

/** Teeworlds' names of the first entity indices (192 on); the others are `entity-<n>`. */
const NAMES = [
  'spawn',
  'spawn-red',
  'spawn-blue',
  'flagstand-red',
  'flagstand-blue',
  'armor',
  'health',
  'weapon-shotgun',
  'weapon-grenade',
  'powerup-ninja',
  'weapon-laser',
];

function expectedEntities(map: TeeworldsMap): unknown[] {
  const out: unknown[] = [];
  for (const g of map.groups)
    for (const l of g.layers) {
      if (l.kind !== 'game' || !l.tiles) continue;
      l.tiles.index.forEach((t, i) => {
        if (t >= 192) out.push({ name: NAMES[t - 192] ?? `entity-${t - 191}`, x: i % l.width, y: Math.floor(i / l.width), fields: { tile: t } });
      });
    }
  return out;
}

function check(paths: string[]): number {
  let entities = 0;
  for (const path of paths) {
    let map: TeeworldsMap;
    try {
      map = teeworlds.decode(readBytes(path));
    } catch {
      continue;
    }
    const given = teeworlds
      .indexRows(map)
      .objects.filter((o) => o.kind === 'entity')
      .map(({ name, x, y, fields }) => ({ name, x, y, fields }));
    expect(given, path).toEqual(expectedEntities(map));
    entities += given.length;
  }
  return entities;
}

it("Teeworlds entity rows: every game cell from index 192, in order, for the fixtures' maps", () => {
  expect(check(listFiles(join(FIXTURES, 'teeworlds'), /\.map$/).filter((p) => !p.includes('/bad/')))).toBeGreaterThan(0);
});

itWith(
  corpus('teeworlds'),
  "Teeworlds entity rows: the same for the corpus' maps",
  // The maps up to 1 MB (most of them): the largest take seconds each to decode whole.
  (dir) => expect(check(listFiles(dir, /\.map$/).filter((p) => statSync(p).size <= 1 << 20))).toBeGreaterThan(1000),
  300_000,
);
