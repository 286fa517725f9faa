// Binary Graal section framing: Z3-V1.03 baddies are `x y type 0A` records ended by `FF FF FF 0A`
// (the game's own 1999 loader; docs/formats/graal.md § Baddies), built here byte by byte
// (rawZ3Level), not by the encoder; and a record whose framing does not hold — in baddies, NPCs or
// chests — is a DecodeError, never records read across its boundary.
import { describe, expect, it } from 'vitest';
import { RAW_Z3_BADDIES_AT, rawZ3Level, sampleLevel } from '../../fixtures/generators/graal.js';
import * as graal from '../../src/formats/graal/index.js';
import { DecodeError, EncodeError } from '../../src/index.js';

const END = [0xff, 0xff, 0xff, 0x0a];
const records = (...bs: [number, number, number][]) => bs.flatMap(([x, y, t]) => [x & 0xff, y & 0xff, t & 0xff, 0x0a]);
const decodeBoth = (bytes: Uint8Array) => {
  const js = graal.decode(bytes, { backend: 'js' }) as graal.GraalLevel;
  expect(graal.decode(bytes, { backend: 'wasm' })).toEqual(js);
  return js;
};
const failure = (bytes: Uint8Array) => {
  for (const backend of ['js', 'wasm'] as const) {
    try {
      graal.decode(bytes, { backend });
    } catch (e) {
      expect(e).toBeInstanceOf(DecodeError);
      continue;
    }
    throw new Error(`${backend}: decoded, expected a DecodeError`);
  }
  try {
    graal.decode(bytes);
  } catch (e) {
    const { code, offset, path } = e as DecodeError;
    return { code, offset, path };
  }
};

describe('Z3-V1.03 baddies: x y type 0A, ended by FF FF FF 0A', () => {
  const cases: [string, [number, number, number][]][] = [
    // Read as 3-byte records these bytes are four other baddies, and the end mark still lines up.
    [
      "the doc's three",
      [
        [40, 43, 0],
        [40, 34, 0],
        [32, 47, 0],
      ],
    ],
    [
      'coordinates and type equal to 0x0A',
      [
        [10, 10, 10],
        [10, 5, 2],
        [63, 10, 0],
      ],
    ],
    [
      'negative y and type, zeros',
      [
        [5, -3, -1],
        [0, 0, 0],
      ],
    ],
    ['none', []],
  ];
  it.each(cases)('%s', (_what, baddies) => {
    const bytes = rawZ3Level([...records(...baddies), ...END]);
    const level = decodeBoth(bytes);
    expect(level.version).toBe('Z3-V1.03');
    expect(level.baddies).toEqual(baddies.map(([x, y, type]) => ({ x, y, type, verses: [] })));
    expect(level.warnings).toEqual([]);
    // The encoder writes the same section, and decode(encode(x)) is x.
    const again = graal.encodeBinary(level, { version: 'Z3-V1.03' });
    const section = Uint8Array.from([0x23, 0x0a, ...records(...baddies), ...END]);
    expect(again.subarray(again.length - section.length)).toEqual(section);
    expect(graal.decode(again)).toEqual(level);
  });

  it('round trip of the sample level in Z3-V1.03, baddies and all', () => {
    const s = sampleLevel(2047);
    const z3 = { ...s, npcs: [], chests: [], baddies: s.baddies.map((b) => ({ ...b, verses: [] })) };
    const back = graal.decode(graal.encodeBinary(z3, { version: 'Z3-V1.03' })) as graal.GraalLevel;
    expect(back.baddies).toEqual(z3.baddies);
    expect(back.signs).toEqual(z3.signs);
    expect(back.warnings).toEqual([]);
  });

  it('the encoder refuses a negative x (the game ends the list there), in Z3-V1.03 only', () => {
    const level = decodeBoth(rawZ3Level([...records([3, 4, 5]), ...END]));
    const neg = { ...level, baddies: [{ x: -5, y: 4, type: 5, verses: [] }] };
    let err: unknown;
    try {
      graal.encodeBinary(neg, { version: 'Z3-V1.03' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EncodeError);
    expect(err).toMatchObject({ code: 'OUT_OF_RANGE', path: 'baddies[0].x' });
    const verses = { ...neg, baddies: [{ ...neg.baddies[0]!, verses: [graal.textFrom('hi')] }] };
    expect((graal.decode(graal.encodeBinary(verses, { version: 'Z3-V1.04' })) as graal.GraalLevel).baddies).toEqual(verses.baddies);
  });
});

describe('a Z3-V1.03 baddy list whose framing breaks is an error, not baddies', () => {
  const at = RAW_Z3_BADDIES_AT;
  it.each([
    // The 3-byte layout: the first record's fourth byte is the next x (0x28), not 0A.
    ['3-byte records', [40, 43, 0, 40, 34, 0, 32, 47, 0, 0xff, 0xff, 0xff, 0x0a], 'CORRUPT', at, 'baddies[0]'],
    // The same with the end mark FF FF FF only (3 bytes, no LF): still the first record fails.
    ['3-byte records, bare end mark', [40, 43, 0, 40, 34, 0, 32, 47, 0, 0xff, 0xff, 0xff], 'CORRUPT', at, 'baddies[0]'],
    ['a record whose fourth byte is not 0A', [...records([1, 2, 3]), 4, 5, 6, 7, ...END], 'CORRUPT', at + 4, 'baddies[1]'],
    ['an end mark not followed by 0A', [...records([1, 2, 3]), 0xff, 0xff, 0xff, 0x41], 'CORRUPT', at + 4, 'baddies[1]'],
    ['a negative x that is not the end mark', [...records([1, 2, 3]), 0xf0, 1, 2, 0x0a], 'CORRUPT', at + 4, 'baddies[1]'],
    ['no end mark', records([1, 2, 3]), 'TRUNCATED', at + 4, 'baddies[1]'],
    ['a record cut before its 0A', [1, 2, 3], 'TRUNCATED', at + 3, 'baddies[0]'],
  ] as const)('%s', (_what, section, code, offset, path) => {
    expect(failure(rawZ3Level(section))).toEqual({ code, offset, path });
  });
});

describe('other binary sections: a record cut short is an error, not the next record read into it', () => {
  // A GR-V1.01 level (12-bit, NPCs and chests) from the encoder, then its sections patched.
  const base = graal.encodeBinary({ ...sampleLevel(2047), baddies: [], npcs: [], chests: [], signs: [] }, { version: 'GR-V1.01' });
  const head = base.subarray(0, base.length - 4); // up to the baddy end mark FF FF FF LF, then `#` LF twice
  const tail = (npcs: number[], chests: number[]) => Uint8Array.from([...base.subarray(0, base.length - 4), ...npcs, 0x23, 0x0a, ...chests, 0x23, 0x0a]);
  it('the patched level decodes as written', () => {
    expect(Array.from(base.subarray(base.length - 8))).toEqual([0xff, 0xff, 0xff, 0x0a, 0x23, 0x0a, 0x23, 0x0a]);
    const l = decodeBoth(tail([0x41, 0x42, 0x23, 0x78, 0x0a], [0x21, 0x22, 0x20, 0x1f, 0x0a]));
    expect(l.npcs).toEqual([{ x: 33, y: 34, image: graal.textFrom(''), script: graal.textFrom('x') }]);
    expect(l.chests).toEqual([{ x: 1, y: 2, item: 'greenrupee', signIndex: -1 }]);
  });
  it('a baddy end mark with text after it (every version ends the list with an empty line)', () => {
    const bytes = Uint8Array.from([...base.subarray(0, base.length - 5), 0x41, 0x0a, 0x23, 0x0a, 0x23, 0x0a]);
    expect(failure(bytes)).toEqual({ code: 'CORRUPT', offset: head.length - 4, path: 'baddies[0]' });
  });
  it('an NPC line of one byte', () => {
    expect(failure(tail([0x41, 0x0a, 0x42, 0x43, 0x23, 0x0a], []))).toEqual({ code: 'CORRUPT', offset: head.length, path: 'npcs[0]' });
  });
  it('a chest line of three bytes', () => {
    const at = head.length + 2;
    expect(failure(tail([], [0x21, 0x22, 0x20, 0x0a, 0x21, 0x22, 0x20, 0x1f, 0x0a]))).toEqual({ code: 'CORRUPT', offset: at, path: 'chests[0]' });
  });
});
