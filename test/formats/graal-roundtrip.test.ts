// Round-trip or refuse: levels and maps decoded from the fixtures and a corpus sample, mutated at
// random (seeded) at and past every field's range, with odd lengths, hostile strings and missing
// fields, then encoded. Every outcome is an EncodeError or decode(encode(x)) equals x, with only
// the fields named in NORMALISED (README.md § Encoders) left out of the comparison.
import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EncodeError } from '../../src/core/errors.js';
import { encodeText } from '../../src/core/text.js';
import * as graal from '../../src/formats/graal/index.js';
import { itCorpus } from '../helpers/needs.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';

/**
 * What the comparison leaves out, and why (README.md § Encoders says the same): `warnings`
 * describe the file that was read, not the value; a binary level's `lineEnding` is not stored
 * (binary files are LF, the decoder says `\n`); an optional field set to undefined is absent.
 */
function normalised(v: graal.GraalDecoded): Record<string, unknown> {
  const { warnings: _w, ...rest } = v as unknown as Record<string, unknown>;
  if (v.format === 'graal') delete rest.lineEnding;
  for (const k of Object.keys(rest)) if (rest[k] === undefined) delete rest[k];
  return rest;
}

const PIECES = [
  'a',
  'Z',
  '0',
  ' ',
  '  ',
  '\n',
  '\r',
  '\r\n',
  '\0',
  '\t',
  '#',
  '##',
  '#A',
  '\\',
  '§',
  '-',
  '"',
  ',',
  '.',
  'é',
  'ł',
  '€',
  'ж',
  '\u{1F600}',
  '\uE00A',
  '\uE06A',
  'NPCEND',
  'SIGNEND',
  'BADDYEND',
  'HEIGHTS',
  'LEVELNAMESEND',
  'WIDTH 9',
  'LINK evil.nw 1 2 3 4 5 6',
  'BOARD 0 0 1 0 AA',
  'SIGN 1 2',
  'NPC - 1 1',
  'bombs',
  '3',
  '99',
  '-1',
];
const NUMBERS = [
  -129,
  -128,
  -33,
  -32,
  -23,
  -22,
  -21,
  -1,
  -0,
  0,
  1,
  3,
  24,
  25,
  63,
  64,
  127,
  128,
  223,
  224,
  255,
  256,
  0.5,
  2.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  1e21,
  2047,
  2048,
  4095,
  4096,
  0xfffe,
  0xffff,
  '5',
  null,
  undefined,
];

type Obj = Record<string, unknown>;

class Mutator {
  constructor(private readonly rng: Prng) {}
  pick<T>(list: readonly T[]): T {
    return list[this.rng.int(list.length)]!;
  }
  string(): string {
    let s = '';
    for (let n = 1 + this.rng.int(4); n > 0; n--) s += this.pick(PIECES);
    return s;
  }
  /** A Text from a string: built with textFrom when Windows-1252 holds it, else a Text whose raw is stale. */
  text(old: unknown): unknown {
    const s = this.string();
    if (encodeText(s, 'windows-1252')) return graal.textFrom(s);
    const raw = old && typeof old === 'object' && 'raw' in old ? (old as graal.Text).raw : new Uint8Array(0);
    return { text: s, raw, encoding: 'windows-1252' };
  }
  /** Every record array of the value, with its path. */
  records(v: Obj): [string, unknown[]][] {
    const out: [string, unknown[]][] = [];
    for (const k of ['links', 'baddies', 'npcs', 'chests', 'signs', 'layers', 'levels', 'options', 'unknownLines', 'heights']) {
      if (Array.isArray(v[k])) out.push([k, v[k] as unknown[]]);
    }
    for (const b of (Array.isArray(v.baddies) ? v.baddies : []) as Obj[]) if (Array.isArray(b.verses)) out.push(['verses', b.verses as unknown[]]);
    for (const row of (Array.isArray(v.levels) ? v.levels : []) as unknown[]) if (Array.isArray(row)) out.push(['row', row]);
    return out;
  }
  mutate(v: Obj): string {
    const lists = this.records(v).filter(([, l]) => l.length > 0);
    const kind = this.rng.int(9);
    const list = lists.length ? this.pick(lists) : undefined;
    const item = list ? list[1][this.rng.int(list[1].length)] : undefined;
    switch (kind) {
      case 0: {
        // a number at or past its range
        const target = item && typeof item === 'object' && !ArrayBuffer.isView(item) ? (item as Obj) : v;
        const keys = Object.keys(target).filter((k) => typeof target[k] === 'number');
        if (!keys.length) return 'none';
        const k = this.pick(keys);
        target[k] = this.pick(NUMBERS);
        return `number ${k}`;
      }
      case 1: {
        // a tile id at or past the code width, or NO_TILE where it has no meaning
        const layers = v.layers as graal.GraalLayer[] | undefined;
        if (!layers?.length) return 'none';
        const l = this.pick(layers);
        l.tiles[this.rng.int(4096)] = this.pick([0, 2047, 2048, 4095, 4096, 0xfffe, graal.NO_TILE]);
        return 'tile';
      }
      case 2: {
        // a tile array of the wrong length or type
        const layers = v.layers as Obj[] | undefined;
        if (!layers?.length) return 'none';
        this.pick(layers).tiles = this.pick([new Uint16Array(100), new Uint16Array(4095), new Uint16Array(4097), Array.from(new Uint16Array(4096)), null]);
        return 'tiles length';
      }
      case 3:
      case 4: {
        // a text field replaced by a hostile string
        const target = item && typeof item === 'object' && !ArrayBuffer.isView(item) ? (item as Obj) : v;
        if (list && (list[0] === 'options' || list[0] === 'unknownLines' || list[0] === 'verses' || list[0] === 'row')) {
          list[1][list[1].indexOf(item)] = this.text(item);
          return `text ${list[0]}`;
        }
        const keys = Object.keys(target).filter(
          (k) => typeof target[k] === 'string' || (target[k] && typeof target[k] === 'object' && 'raw' in (target[k] as Obj)),
        );
        for (const k of ['tileset', 'tilesetImage']) if (target === v && v.format === 'graal-nw') keys.push(k);
        if (!keys.length) return 'none';
        const k = this.pick(keys);
        const plain = typeof target[k] === 'string' && k !== 'format' && k !== 'version' && k !== 'lineEnding' && k !== 'encoding';
        target[k] = plain || k === 'text' || k === 'item' ? this.string() : this.text(target[k]);
        return `text ${k}`;
      }
      case 5: {
        // length ±1
        if (!list) return 'none';
        if (this.rng.int(2) && list[1].length) list[1].pop();
        else list[1].push(structuredClone(item ?? 0));
        return `length ${list[0]}`;
      }
      case 6: {
        // a missing field
        const target = item && typeof item === 'object' && !ArrayBuffer.isView(item) ? (item as Obj) : v;
        const keys = Object.keys(target);
        if (!keys.length) return 'none';
        delete target[this.pick(keys)];
        return 'missing';
      }
      case 7: {
        // layer bookkeeping: indices, an extra overlay, a lost base layer
        const layers = v.layers as graal.GraalLayer[] | undefined;
        if (!layers) {
          v.width = (v.width as number) + this.pick([-1, 1]);
          return 'gmap width';
        }
        const r = this.rng.int(3);
        if (r === 0 && layers.length) layers[this.rng.int(layers.length)]!.index = this.pick([0, 1, 2, 5, 255, 256, -1]);
        else if (r === 1) {
          const l = graal.emptyLayer(layers.length);
          l.tiles[this.rng.int(4096)] = this.rng.int(4096);
          layers.push(l);
        } else layers.shift();
        return 'layers';
      }
      default: {
        // the level's own fields
        // `encoding` is the page the reader was told to use, so it only gets values no writer accepts.
        const k = this.pick(v.format === 'graal-gmap' ? ['version', 'lineEnding', 'format'] : ['version', 'lineEnding', 'encoding', 'format', 'heights']);
        v[k] = this.pick<unknown>([
          'GR-V1.01',
          'Z3-V1.03',
          'GR-V1.05',
          'GLEVNW01',
          'GRMAP001',
          '\r\n',
          '\n',
          'utf-16le',
          'graal',
          'graal-nw',
          'graal-gmap',
          [1, 2.5, Number.NaN],
          [],
          undefined,
        ]);
        return `own ${k}`;
      }
    }
  }
}

type Source = { name: string; value: graal.GraalDecoded };

/** The fixtures, or (given the corpus folder) every 25th corpus file and all eight maps: every version and folder. */
function sources(corpus?: string): Source[] {
  const paths = corpus
    ? listFiles(corpus, /\.(graal|zelda|nw|gmap)$/).filter((p, i) => p.endsWith('.gmap') || i % 25 === 0)
    : listFiles(join(FIXTURES, 'graal'), /\.(graal|zelda|nw|gmap)$/).filter((p) => !p.includes('/bad/'));
  const out: Source[] = [];
  for (const p of paths) {
    try {
      out.push({ name: basename(p), value: graal.decode(readBytes(p)) });
    } catch {
      /* the GIF named .graal */
    }
  }
  return out;
}

/** Mutates and encodes up to `target` values drawn from `all` (time-boxed to 10 s) and checks every outcome. */
function run(all: Source[], seed: number, target: number): void {
  const rng = new Prng(seed);
  const m = new Mutator(rng);
  const failures: string[] = [];
  const outcomes: Record<string, number> = {};
  const started = Date.now();
  let cases = 0;
  while (cases < target && Date.now() - started < 10_000 && failures.length < 5) {
    const src = all[rng.int(all.length)]!;
    const x = structuredClone(src.value) as unknown as Obj;
    const what: string[] = [];
    // A mutation that does not apply to what earlier ones left (a tile of a null layer) is skipped.
    for (let n = 1 + rng.int(2); n > 0; n--) {
      try {
        what.push(m.mutate(x));
      } catch {
        what.push('skipped');
      }
    }
    cases++;
    let bytes: Uint8Array;
    try {
      bytes = graal.encode(x as unknown as graal.GraalDecoded);
    } catch (e) {
      if (e instanceof EncodeError) {
        outcomes[e.code] = (outcomes[e.code] ?? 0) + 1;
        continue;
      }
      failures.push(`${src.name} [${what.join(', ')}] case ${cases}: threw ${String(e)}`);
      continue;
    }
    let back: graal.GraalDecoded;
    try {
      back = graal.decode(bytes);
    } catch (e) {
      failures.push(`${src.name} [${what.join(', ')}] case ${cases}: wrote a file that does not decode: ${String(e)}`);
      continue;
    }
    const a = normalised(x as unknown as graal.GraalDecoded),
      b = normalised(back);
    if (isDeepStrictEqual(a, b)) {
      outcomes.ROUND_TRIP = (outcomes.ROUND_TRIP ?? 0) + 1;
      continue;
    }
    const key = Object.keys(a).find((k) => !isDeepStrictEqual(a[k], b[k])) ?? '(keys)';
    failures.push(
      `${src.name} [${what.join(', ')}] case ${cases}: ${key} reads back different: ${JSON.stringify(a[key])?.slice(0, 300)} → ${JSON.stringify(b[key])?.slice(0, 300)}`,
    );
  }
  console.log(`graal round-trip or refuse (seed ${seed}, ${all.length} sources): ${cases} cases in ${Date.now() - started} ms, ${JSON.stringify(outcomes)}`);
  expect(failures).toEqual([]);
  expect(cases).toBeGreaterThanOrEqual(target / 2); // all of them unless a slow machine hits the time box
  // Both outcomes must really happen, and every refusal code the encoders have.
  expect(outcomes.ROUND_TRIP).toBeGreaterThan(100);
  for (const code of ['OUT_OF_RANGE', 'BAD_LENGTH', 'BAD_VALUE', 'UNENCODABLE_TEXT', 'LIMIT_EXCEEDED']) expect(outcomes[code], code).toBeGreaterThan(0);
}

const SEED = Number(process.env.GRAAL_SEED ?? 20261124);

describe('graal round-trip or refuse', () => {
  it('mutated fixtures: EncodeError or decode(encode(x)) equals x, nothing else', () => run(sources(), SEED, 1000), 60_000);
  itCorpus('graal', 'mutated corpus sample: EncodeError or decode(encode(x)) equals x, nothing else', (dir) => run(sources(dir), SEED + 1, 2000), 60_000);
});
