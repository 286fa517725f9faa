// A WWD object's `fields` (objects.fields, JSON text) holds the animation when there is one, then
// every fixed number of the object that is not 0, in file order (the string lengths left out).
// Pinned against that rule read straight from the object table, column by column and object by
// object, so a shortcut in writeRows (it reads only the columns some object of the plane needs)
// must give the same text.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ObjectRow, RowSink } from '../../src/formats/define.js';
import { OBJECT_FIELDS, objectAt, objectStrings, objectTable } from '../../src/formats/wwd/objects.js';
import type { WwdLevel } from '../../src/formats/wwd/types.js';
import { wwd } from '../../src/index.js';
import { corpus, itWith } from '../helpers/needs.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

/** The fields text of object `i` of a plane's table, by the rule, from every column. */
function expectedFields(t: WwdLevel['planes'][number]['objects'], i: number, animation: string): string {
  const parts: string[] = animation ? [`"animation":${JSON.stringify(animation)}`] : [];
  for (const [name] of OBJECT_FIELDS) {
    if (name.endsWith('Length')) continue;
    const v = (t[name] as ArrayLike<number>)[i]!;
    if (v !== 0) parts.push(`${JSON.stringify(name)}:${v}`);
  }
  return `{${parts.join(',')}}`;
}

/** Every object's fields text as writeRows gives it, and as the rule gives it; the number of objects. */
function bothWays(level: WwdLevel): { given: string[]; expected: string[] } {
  const given: string[] = [];
  const ignore = () => {};
  const sink: RowSink = {
    layer: ignore,
    tiles: ignore,
    text: ignore,
    image: ignore,
    level: ignore,
    object: (_r: ObjectRow, json?: string) => void given.push(json ?? ''),
  };
  wwd.writeRows(level, sink);
  const expected: string[] = [];
  for (const p of level.planes) {
    const animation = objectStrings(p.objects)[3]!;
    for (let i = 0; i < p.objects.count; i++) expected.push(expectedFields(p.objects, i, animation[i]!));
  }
  return { given, expected };
}

function check(paths: string[]): number {
  let objects = 0;
  for (const path of paths) {
    let level: WwdLevel;
    try {
      level = wwd.decode(readBytes(path));
    } catch {
      continue;
    }
    const { given, expected } = bothWays(level);
    expect(given, path).toEqual(expected);
    objects += given.length;
  }
  return objects;
}

it("WWD objects' fields: the animation, then every number that is not 0, for the fixtures' levels", () => {
  expect(check(listFiles(join(FIXTURES, 'wwd'), /\.wwd$/).filter((p) => !p.includes('/bad/')))).toBeGreaterThan(0);
});

it("WWD objects' fields: a number that is 0 in a plane's first objects and not in a later one", () => {
  const level = wwd.decode(readBytes(join(FIXTURES, 'wwd', 'gruntz-compressed.wwd')));
  const plane = level.planes.find((p) => p.objects.count > 0)!;
  const first = objectAt(plane.objects, 0);
  plane.objects = objectTable([
    { ...first, score: 0, user8: 0, moveResY: 0 },
    { ...first, score: 7, user8: 0, moveResY: 0 },
    { ...first, score: 0, user8: -3, moveResY: 2 },
  ]);
  const { given, expected } = bothWays(level);
  expect(given).toEqual(expected);
  expect(given.filter((t) => t.includes('"score":7') || t.includes('"user8":-3'))).toHaveLength(2);
});

itWith(
  corpus('wwd'),
  "WWD objects' fields: the same rule for every object of the corpus' levels",
  (dir) => {
    const paths = readdirSync(dir)
      .filter((n) => n.endsWith('.wwd'))
      .map((n) => join(dir, n));
    expect(check(paths)).toBeGreaterThan(100_000);
  },
  120_000,
);
