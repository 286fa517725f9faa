// Round-trip or refuse: maps decoded from the fixtures and a sample of corpus maps, mutated at
// random (seeded) at every kind of field — numbers at and past their range, NaN, columns and lists
// of the wrong length or type, strings with NULs, newlines, keywords and unencodable characters,
// missing fields — then encoded. Every outcome must be an EncodeError, or a file that decodes to
// the mutated map (compared by sameMap: warnings, datafileVersion and magic aside, and texts edited
// without their raw bytes as asWritten() says: README §Encoder).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeText, encodeText, type Text } from '../../src/core/text.js';
import type { TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { EncodeError, teeworlds } from '../../src/index.js';
import { itCorpus } from '../helpers/needs.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';
import { asWritten, sameMap } from './teeworlds-helpers.js';

const SEED = 20261124;
const MAX_CASES = 3000;
const TIME_BOX_MS = 4000;

/** One place a mutation can land: a container and a key in it. */
interface Site {
  parent: Record<string | number, unknown>;
  key: string | number;
  path: string;
}

const isText = (v: unknown): v is Text => !!v && typeof v === 'object' && 'raw' in v && 'text' in v && 'encoding' in v;

/** Every field of the map (the container fields the encoder ignores left out). */
function sites(map: TeeworldsMap): Site[] {
  const out: Site[] = [];
  const walk = (v: unknown, path: string) => {
    if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v) || isText(v)) return;
    const o = v as Record<string | number, unknown>;
    for (const key of Array.isArray(v) ? v.keys() : Object.keys(o)) {
      if (path === '' && (key === 'warnings' || key === 'datafileVersion' || key === 'magic')) continue;
      const p = Array.isArray(v) ? `${path}[${key}]` : path ? `${path}.${key}` : String(key);
      out.push({ parent: o, key, path: p });
      walk(o[key], p);
    }
  };
  walk(map, '');
  return out;
}

const STRINGS = [
  '',
  'Game',
  'line\nbreak',
  'nul\0inside',
  'tab\there',
  'sv_team 1',
  'tune gravity 0.4',
  'DATA',
  '#',
  ' ',
  '✓ é ß',
  '😀',
  'lone \ud800 surrogate',
  '\udc00',
  'x'.repeat(11),
  'x'.repeat(12),
  'x'.repeat(31),
  'x'.repeat(32),
  'y'.repeat(1023),
  'y'.repeat(1024),
  '\x7f\x7f\x7f\x7f',
];
const NUMBERS = [
  0,
  1,
  -1,
  2,
  3,
  4,
  5,
  255,
  256,
  -129,
  0x7fff,
  0x8000,
  0xffff,
  0x10000,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  NaN,
  Infinity,
  0.5,
  1e300,
];

function randomText(rng: Prng, old: Text): Text | unknown {
  switch (rng.int(5)) {
    case 0: {
      // a user's edit: a new string, with its UTF-8 bytes when it has some
      const text = STRINGS[rng.int(STRINGS.length)]!;
      return { text, raw: encodeText(text, 'utf-8') ?? old.raw, encoding: old.encoding };
    }
    case 1: {
      // stored bytes that are not UTF-8, as a decoder would give them
      const raw = rng.bytes(1 + rng.int(12));
      return { text: decodeText(raw, 'utf-8'), raw, encoding: 'utf-8' };
    }
    case 2:
      return { ...old, text: old.text + STRINGS[rng.int(STRINGS.length)] }; // edited text, stale raw
    case 3:
      return rng.int(3) === 0 ? { ...old, encoding: 'windows-1252' } : rng.int(2) ? null : old.text; // another code page, or not a Text at all
    default:
      return undefined;
  }
}

function resized(rng: Prng, a: ArrayBufferView & ArrayLike<number>): unknown {
  const ctor = a.constructor as { new (n: number): ArrayLike<number> & { set(s: ArrayLike<number>): void } };
  switch (rng.int(4)) {
    case 0: {
      const b = new ctor(a.length + 1);
      b.set(a);
      return b;
    }
    case 1:
      return a.length > 0 ? (a as unknown as Int32Array).slice(0, a.length - 1) : new ctor(1);
    case 2: {
      const b = Array.from(a);
      if (b.length) b[rng.int(b.length)] = NUMBERS[rng.int(NUMBERS.length)]!;
      return b;
    }
    default:
      return new Float64Array(a.length).fill(NaN);
  }
}

/** Applies one random mutation at a random site. */
function mutate(rng: Prng, map: TeeworldsMap): string {
  const all = sites(map);
  const s = all[rng.int(all.length)]!;
  const v = s.parent[s.key];
  let next: unknown;
  if (rng.int(12) === 0) {
    if (Array.isArray(s.parent)) next = undefined;
    else {
      delete s.parent[s.key];
      return `${s.path}: deleted`;
    }
  } else if (typeof v === 'number') {
    const r = rng.int(3);
    next = r === 0 ? v + 1 : r === 1 ? v - 1 : NUMBERS[rng.int(NUMBERS.length)];
  } else if (typeof v === 'boolean') next = rng.int(3) ? !v : 1;
  else if (typeof v === 'string') next = rng.int(2) ? v.toUpperCase() : STRINGS[rng.int(STRINGS.length)];
  else if (isText(v)) next = randomText(rng, v);
  else if (ArrayBuffer.isView(v)) next = resized(rng, v as ArrayBufferView & ArrayLike<number>);
  else if (Array.isArray(v)) {
    const copy = v.slice();
    const r = rng.int(4);
    if (r === 0 && copy.length) copy.pop();
    else if (r === 1 && copy.length) copy.push(structuredClone(copy[rng.int(copy.length)]));
    else if (r === 2 && copy.length > 1) copy.reverse();
    else copy.unshift(r === 3 ? {} : 7);
    next = copy;
  } else if (v === null) next = rng.int(2) ? {} : 0;
  else if (v === undefined) next = null;
  else next = rng.int(2) ? null : [];
  s.parent[s.key] = next;
  return `${s.path}: ${show(v)} → ${show(next)}`;
}

function show(v: unknown): string {
  if (isText(v)) return `Text(${JSON.stringify(v.text)})`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${(v as unknown as ArrayLike<number>).length})`;
  if (Array.isArray(v)) return `Array(${v.length})`;
  if (typeof v === 'object' && v !== null) return 'object';
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

function fixtureMaps(): { name: string; map: TeeworldsMap }[] {
  const dir = join(FIXTURES, 'teeworlds');
  return listFiles(dir, /\.map$/)
    .filter((p) => !p.includes('/bad/'))
    .map((p) => ({ name: p.slice(dir.length + 1), map: teeworlds.decode(readBytes(p)) }));
}

/**
 * A sample of small corpus maps (each flavour, legacy ones, old layouts), small enough decoded
 * (grids and pixels) that thousands of encodes fit the time box: every 2nd of those under 40 KB.
 */
function corpusMaps(corpus: string): { name: string; map: TeeworldsMap }[] {
  const small = listFiles(corpus, /\.map$/)
    .filter((p) => readBytes(p).length < 40_000)
    .map((p) => ({ name: p.slice(corpus.length + 1), map: teeworlds.decode(readBytes(p)) }))
    .filter(({ map }) => weight(map) <= 30_000);
  return small.filter((_, i) => i % 2 === 0);
}

/** Roughly what one encode costs: grid cells plus pixel and sound bytes / 4. */
function weight(m: TeeworldsMap): number {
  const cells = m.groups.flatMap((g) => g.layers).reduce((n, l) => n + ('width' in l ? l.width * l.height : 0), 0);
  const bytes =
    m.images.reduce((n, i) => n + (i.pixels?.length ?? 0), 0) +
    m.sounds.reduce((n, s) => n + (s.data?.length ?? 0), 0) +
    (m.legacy?.data ?? []).reduce((n, d) => n + d.length, 0);
  return cells + bytes / 4;
}

/** Mutates maps from `maps` at random until MAX_CASES or the time box, and checks every outcome. */
function roundTripOrRefuse(label: string, maps: { name: string; map: TeeworldsMap }[], seed: number): void {
  const rng = new Prng(seed);
  const codes: Record<string, number> = {};
  const failures: string[] = [];
  let cases = 0,
    written = 0;
  const t0 = performance.now();
  while (cases < MAX_CASES && performance.now() - t0 < TIME_BOX_MS && failures.length < 5) {
    const src = maps[rng.int(maps.length)]!;
    const m = structuredClone(src.map);
    const steps = Array.from({ length: 1 + rng.int(3) }, () => mutate(rng, m));
    const opts: teeworlds.EncodeOptions = { version: rng.int(4) ? 4 : 3, level: rng.int(2) };
    cases++;
    let bytes: Uint8Array;
    try {
      bytes = teeworlds.encode(m, opts);
    } catch (e) {
      if (e instanceof EncodeError) {
        codes[e.code] = (codes[e.code] ?? 0) + 1;
        continue;
      }
      failures.push(`${src.name} [${steps.join('; ')}]: ${String(e)}`);
      continue;
    }
    written++;
    try {
      const back = teeworlds.decode(bytes);
      const d = sameMap(back, asWritten(m));
      if (d) failures.push(`${src.name} [${steps.join('; ')}]: reads back different at ${d}`);
    } catch (e) {
      failures.push(`${src.name} [${steps.join('; ')}]: written, but decoding it threw ${String(e)}`);
    }
  }
  console.log(
    `[teeworlds round-trip or refuse] ${label}: ${maps.length} maps, ${cases} cases in ${Math.round(performance.now() - t0)} ms: ${written} written and read back, refused ${JSON.stringify(codes)}`,
  );
  expect(failures).toEqual([]);
  expect(cases).toBeGreaterThan(200); // ~2,500 alone; far fewer while other suites share the cores
  // Every code the encoder can raise shows up, and a fair share of cases still encode.
  expect(Object.keys(codes).sort()).toEqual(['BAD_LENGTH', 'BAD_VALUE', 'LIMIT_EXCEEDED', 'OUT_OF_RANGE', 'UNENCODABLE_TEXT']);
  expect(written).toBeGreaterThan(cases / 10);
}

describe('teeworlds round-trip or refuse', () => {
  it('mutated fixture maps either encode to what decodes back the same, or throw EncodeError', () => {
    roundTripOrRefuse('fixtures', fixtureMaps(), SEED);
  });
  itCorpus('teeworlds', 'mutated corpus maps (a sample of small ones) likewise', (dir) => {
    roundTripOrRefuse('corpus sample', corpusMaps(dir), SEED + 1);
  });
});
