// WWD round trip or refuse: levels decoded from the fixtures and a sample of the corpus (absent: a
// visible skip, or a failure under CI), mutated at random with a seeded PRNG, then encoded. Every outcome must be
// an EncodeError or a file that decodes to the same level (roundTripForm: what the encoder
// recomputes left out, named in wwd-content.ts NOT_KEPT). Nothing else may escape.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WwdLevel } from '../../src/formats/wwd/index.js';
import { EncodeError, wwd } from '../../src/index.js';
import { itCorpus } from '../helpers/needs.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';
import { roundTripForm } from './wwd-content.js';

interface Base {
  name: string;
  level: WwdLevel;
  encoding: string;
  places: string[][];
}

/** Strings with newlines, NULs, the format's own words and characters no single-byte code page has. */
const TOKENS = [
  'a',
  'Z',
  '7',
  ' ',
  '\n',
  '\r\n',
  '\0',
  '\t',
  'LEVEL1\\TILES',
  '\\AREA2\\TILEZ',
  '<wm_meta>',
  '</wm_meta>',
  'ACTION',
  'GAME_IMAGES',
  'é',
  '€',
  'Ł',
  'ő',
  'ß',
  '\u0081',
  '\ufffd',
  '漢',
  '😀',
  '\ud800',
  'x'.repeat(70),
  'y'.repeat(300),
];

function randomString(rng: Prng): string {
  let s = '';
  for (let n = rng.int(5); n > 0; n--) s += TOKENS[rng.int(TOKENS.length)];
  return s;
}

/** Numbers at and past the edges of every field kind (u8, i32, u32), NaN and the like. */
function randomNumber(rng: Prng, v: number): unknown {
  const choices = [
    v + 1,
    v - 1,
    0,
    -1,
    1,
    255,
    256,
    0x7fffffff,
    0x80000000,
    -0x80000000,
    -0x80000001,
    0xffffffff,
    0x100000000,
    NaN,
    Infinity,
    0.5,
    v * 2,
    '1',
    undefined,
  ];
  return choices[rng.int(choices.length)];
}

type Container = Record<string | number, unknown>;
interface Slot {
  parent: Container;
  key: string;
  path: string;
}

/** The key path of every place in `v` a value sits (typed arrays are leaves). */
function places(v: unknown, keys: string[], out: string[][]): string[][] {
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return out;
  for (const key of Object.keys(v)) {
    out.push([...keys, key]);
    places((v as Container)[key], [...keys, key], out);
  }
  return out;
}

/** The slot at `keys` in `root`, or undefined when an earlier change removed it. */
function slotAt(root: unknown, keys: string[]): Slot | undefined {
  let v = root,
    path = '';
  for (let i = 0; i < keys.length - 1; i++) {
    if (v === null || typeof v !== 'object') return undefined;
    path += Array.isArray(v) ? `[${keys[i]}]` : `${path ? '.' : ''}${keys[i]}`;
    v = (v as Container)[keys[i]!];
  }
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return undefined;
  const key = keys[keys.length - 1]!;
  return { parent: v as Container, key, path: Array.isArray(v) ? `${path}[${key}]` : `${path}${path ? '.' : ''}${key}` };
}

/** One random change at `s`; returns what it did. */
function mutate(rng: Prng, s: Slot): string {
  const v = s.parent[s.key];
  const set = (x: unknown, what: string) => {
    s.parent[s.key] = x;
    return `${s.path} ${what}`;
  };
  if (rng.int(10) === 0) {
    // Missing fields and values of the wrong kind.
    const r = rng.int(3);
    if (r === 0) {
      delete s.parent[s.key];
      return `${s.path} deleted`;
    }
    return set(r === 1 ? null : 'oops', r === 1 ? '= null' : "= 'oops'");
  }
  if (typeof v === 'number') {
    const x = randomNumber(rng, v);
    return set(x, `= ${String(x)}`);
  }
  if (typeof v === 'boolean') return set(!v, `= ${!v}`);
  if (typeof v === 'string') {
    if (s.key === 'text') {
      const x = randomString(rng);
      return set(x, `= ${JSON.stringify(x)}`);
    }
    const x = ['', 'all', 'summary', 'wwd', 'windows-1250', 'utf-8', 'no-such-code-page'][rng.int(7)];
    return set(x, `= ${JSON.stringify(x)}`);
  }
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const a = v as unknown as Uint32Array;
    const r = rng.int(4);
    if (r === 0 && a.length) return set(a.subarray(0, a.length - 1), 'length − 1');
    if (r === 1) {
      const b = new (a.constructor as Uint32ArrayConstructor)(a.length + 1);
      b.set(a);
      return set(b, 'length + 1');
    }
    if (!a.length) return set([0], 'a plain array [0]');
    const i = rng.int(a.length);
    if (r === 2) {
      const b = a.slice();
      b[i] = rng.int(2) ? 0 : -1;
      return set(b, `[${i}] at an edge of its type`);
    }
    const b: unknown[] = Array.from(a);
    const x = randomNumber(rng, a[i]!);
    b[i] = x;
    return set(b, `as a plain array, [${i}] = ${String(x)}`);
  }
  if (Array.isArray(v)) {
    const r = rng.int(3);
    if (r === 0 && v.length) return set(v.slice(0, -1), 'length − 1');
    if (r === 1 && v.length) return set([...v, structuredClone(v[rng.int(v.length)])], 'length + 1 (a copy of an element)');
    return set([...v, null], 'length + 1 (null)');
  }
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length) {
      const k = keys[rng.int(keys.length)]!;
      delete (v as Container)[k];
      return `${s.path}.${k} deleted`;
    }
  }
  return set(undefined, '= undefined');
}

/** The fixtures as decoded. */
function fixtureBases(): Base[] {
  return listFiles(join(FIXTURES, 'wwd'), /\.wwd$/)
    .filter((p) => !p.includes('/bad/'))
    .map((p) => withPlaces({ name: p.slice(FIXTURES.length + 1), level: wwd.decode(readBytes(p)), encoding: 'windows-1252', places: [] }));
}

/** The smallest corpus files and Bushy (its plane name is Windows-1250, read so), written uncompressed (deflate time is not what this tests). */
function corpusBases(dir: string): Base[] {
  const files = listFiles(dir, /\.wwd$/i)
    .filter((p) => !p.includes('badsig'))
    .map((p) => ({ p, bytes: readBytes(p) }))
    .sort((a, b) => a.bytes.length - b.bytes.length);
  return [...files.slice(0, 4), ...files.filter((f) => f.p.includes('Bushy'))].map(({ p, bytes }) => {
    const encoding = p.includes('Bushy') ? 'windows-1250' : 'windows-1252';
    const l = wwd.decode(bytes, { encoding });
    const level: WwdLevel = {
      ...l,
      header: { ...l.header, flags: l.header.flags & ~2, compressed: false },
      container: { ...l.container, trailing: new Uint8Array(0) },
    };
    return withPlaces({ name: p.slice(dir.length + 1), level, encoding, places: [] });
  });
}

function withPlaces(b: Base): Base {
  places(b.level, [], b.places);
  return b;
}

/**
 * Mutates levels of `bases` `cases` times and checks every outcome. A fixed count, not a time box:
 * what is checked must not depend on how loaded the machine is.
 */
function roundTripOrRefuse(what: string, all: Base[], seed: number, count: number): void {
  const rng = new Prng(seed);
  const outcomes: Record<string, number> = {};
  const failures: string[] = [];
  for (const b of all) expect(roundTripForm(wwd.decode(wwd.encode(b.level), { encoding: b.encoding })), b.name).toBe(roundTripForm(b.level));
  const started = performance.now();
  let cases = 0;
  while (cases < count) {
    cases++;
    const base = all[rng.int(all.length)]!;
    const level = structuredClone(base.level);
    const done: string[] = [];
    for (let n = 1 + rng.int(3), tries = 0; n > 0 && tries < 20; tries++) {
      const slot = slotAt(level, base.places[rng.int(base.places.length)]!);
      if (slot) {
        done.push(mutate(rng, slot));
        n--;
      }
    }
    const label = `case ${cases} (seed ${seed}) ${base.name}: ${done.join('; ')}`;
    let bytes: Uint8Array;
    try {
      bytes = wwd.encode(level, { level: 1 });
    } catch (e) {
      if (e instanceof EncodeError && e.format === 'wwd') outcomes[e.code] = (outcomes[e.code] ?? 0) + 1;
      else failures.push(`${label}: threw ${String(e)}`);
      continue;
    }
    try {
      const back = wwd.decode(bytes, { encoding: base.encoding });
      if (roundTripForm(back) !== roundTripForm(level)) failures.push(`${label}: reads back differently`);
      else outcomes['round trip'] = (outcomes['round trip'] ?? 0) + 1;
    } catch (e) {
      failures.push(`${label}: the written file does not decode: ${String(e)}`);
    }
  }
  console.log(
    `wwd round trip or refuse, ${what} (seed ${seed}, ${all.length} levels): ${cases} cases in ${Math.round(performance.now() - started)} ms, ${JSON.stringify(outcomes)}`,
  );
  expect(failures.slice(0, 5)).toEqual([]);
  expect(outcomes['round trip'], 'accepted edits').toBeGreaterThan(0);
  expect(cases - (outcomes['round trip'] ?? 0), 'refusals').toBeGreaterThan(0);
}

describe('wwd: round trip or refuse (seeded mutations of decoded levels)', () => {
  it('fixtures: every mutated level encodes to one that decodes back the same, or throws EncodeError', () => {
    roundTripOrRefuse('fixtures', fixtureBases(), 20261124, 2000);
  }, 60_000);
  // Corpus levels are 100× larger than the fixtures (a case takes ~20 ms, a fixture case ~1).
  itCorpus(
    'wwd',
    'a corpus sample: every mutated level encodes to one that decodes back the same, or throws EncodeError',
    (dir) => {
      roundTripOrRefuse('corpus sample', corpusBases(dir), 20261125, 120);
    },
    60_000,
  );
});
