// wwd.encode refuses what it cannot write so that it reads back the same: one test per EncodeError
// code (with the path into the model), the fixed-size text fields at their limits, changed text
// that round-trips, and the warning codes' type. See src/formats/wwd/README.md § What the encoder refuses.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textFrom } from '../../src/core/text.js';
import type { WwdLevel, WwdWarningCode } from '../../src/formats/wwd/index.js';
import { EncodeError, type EncodeErrorCode, wwd } from '../../src/index.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';
import { roundTripForm } from './wwd-content.js';

const fresh = () => wwd.decode(readBytes(join(FIXTURES, 'wwd/claw-uncompressed.wwd')));

/** The EncodeError `edit(level)` makes encode throw, as the fields a caller sees. */
function refusal(edit: (l: WwdLevel) => void): { code: string; path: string; format: string } {
  const level = fresh();
  edit(level);
  try {
    wwd.encode(level);
  } catch (e) {
    expect(e).toBeInstanceOf(EncodeError);
    const { code, path, format } = e as EncodeError;
    return { code, path, format };
  }
  throw new Error('encode accepted the level');
}
/** Writes `value` at `key` of `target` whatever the types say (these tests put wrong values into the level on purpose). */
const set = (target: object, key: string | number, value: unknown): void => {
  (target as Record<string | number, unknown>)[key] = value;
};
const unset = (target: object, key: string | number): void => {
  delete (target as Record<string | number, unknown>)[key];
};
const plane = (l: WwdLevel, i: number) => l.planes[i]!;
/** `a` as a plain array with `v` at `i` (a value its typed array could not hold). */
const withValueAt = (a: ArrayLike<number>, i: number, v: number) => Array.from(a, (x, k) => (k === i ? v : x));

/** [code, what is wrong, path the error names, the edit that makes it so]: at least one row per code. */
const REFUSALS: [EncodeErrorCode, string, string, (l: WwdLevel) => void][] = [
  [
    'OUT_OF_RANGE',
    'an i32 object field past 2^31 − 1',
    'planes[1].objects.x[2]',
    (l) => set(plane(l, 1).objects, 'x', withValueAt(plane(l, 1).objects.x, 2, 2 ** 31)),
  ],
  ['OUT_OF_RANGE', 'a u32 object field below 0', 'planes[1].objects.addFlags[1]', (l) => set(plane(l, 1).objects, 'addFlags', Int32Array.of(0, -1, 0, 0))],
  ['OUT_OF_RANGE', 'NaN in a header field', 'header.startX', (l) => set(l.header, 'startX', NaN)],
  ['OUT_OF_RANGE', 'a fraction in a tile attribute', 'tileProperties[0].attribute', (l) => set(l.tileProperties[0]!, 'attribute', 1.5)],
  ['OUT_OF_RANGE', 'a grid cell past u32', 'planes[0].tiles[0]', (l) => set(plane(l, 0), 'tiles', withValueAt(plane(l, 0).tiles, 0, 2 ** 32))],
  ['OUT_OF_RANGE', 'a negative grid size', 'planes[0].tilesWide', (l) => set(plane(l, 0), 'tilesWide', -1)],
  ['OUT_OF_RANGE', 'a tile-property type the format does not have', 'tileProperties[1].type', (l) => set(l.tileProperties[1]!, 'type', 4)],
  ['OUT_OF_RANGE', 'a signature other than 0x5F4', 'header.signature', (l) => set(l.header, 'signature', 0x5f5)],
  ['BAD_LENGTH', 'an object count that disagrees with the columns', 'planes[1].objects.id', (l) => set(plane(l, 1).objects, 'count', 5)],
  [
    'BAD_LENGTH',
    'one column shorter than the count',
    'planes[1].objects.score',
    (l) => set(plane(l, 1).objects, 'score', plane(l, 1).objects.score.subarray(1)),
  ],
  ['BAD_LENGTH', 'a string list longer than the count', 'planes[1].objects.logic', (l) => set(plane(l, 1).objects.logic, 4, textFrom('Extra'))],
  ['BAD_LENGTH', 'a grid that does not hold tilesWide × tilesHigh cells', 'planes[1].tiles', (l) => set(plane(l, 1), 'tilesHigh', 7)],
  ['BAD_LENGTH', 'a mask of the wrong size', 'tileProperties[3].mask', (l) => set(l.tileProperties[3]!, 'width', 15)],
  ['BAD_LENGTH', 'three image-set directories instead of four', 'header.imageSets', (l) => set(l.header, 'imageSets', l.header.imageSets.slice(0, 3))],
  ['BAD_LENGTH', 'a tile-property header of 7 words', 'tilePropertiesHeader', (l) => set(l, 'tilePropertiesHeader', l.tilePropertiesHeader.subarray(1))],
  ['UNENCODABLE_TEXT', 'a character Windows-1252 lacks in the level name', 'header.name', (l) => set(l.header.name, 'text', 'Level 漢')],
  ['UNENCODABLE_TEXT', 'an emoji in an image-set name', 'planes[1].imageSetNames[0]', (l) => set(plane(l, 1).imageSetNames[0]!, 'text', 'ACTION 😀')],
  ['UNENCODABLE_TEXT', 'Polish letters in an object string', 'planes[1].objects.logic[2]', (l) => set(plane(l, 1).objects.logic[2]!, 'text', 'Łódź')],
  ['LIMIT_EXCEEDED', 'a changed level name of 64 bytes (the field is 64 with its NUL)', 'header.name', (l) => set(l.header.name, 'text', 'n'.repeat(64))],
  ['LIMIT_EXCEEDED', 'a changed prefix of 32 bytes', 'header.prefixes[1]', (l) => set(l.header.prefixes[1], 'text', 'P'.repeat(32))],
  [
    'LIMIT_EXCEEDED',
    'unchanged raw bytes longer than the field',
    'planes[2].name',
    (l) => set(plane(l, 2).name, 'raw', Uint8Array.from([...plane(l, 2).name.raw, 0])),
  ],
  ['BAD_VALUE', 'a missing field', 'header.startY', (l) => unset(l.header, 'startY')],
  ['BAD_VALUE', 'a number as a string', 'planes[0].z', (l) => set(plane(l, 0), 'z', '100')],
  ['BAD_VALUE', 'a string where a Text belongs', 'header.author', (l) => set(l.header, 'author', 'me')],
  ['BAD_VALUE', 'a NUL in changed text (it would end the field when read back)', 'header.author', (l) => set(l.header.author, 'text', 'a\0b')],
  [
    'BAD_VALUE',
    'a NUL in an image-set name (it would split the list)',
    'planes[0].imageSetNames[0]',
    (l) => set(plane(l, 0).imageSetNames[0]!, 'text', 'A\0B'),
  ],
  ['BAD_VALUE', 'a code page TextDecoder does not know', 'header.birth.encoding', (l) => set(l.header.birth, 'encoding', 'klingon')],
  [
    'BAD_VALUE',
    'a field in another code page than the rest (the file records none)',
    'planes[0].name.encoding',
    (l) => set(plane(l, 0), 'name', textFrom('Tło', 'windows-1250')),
  ],
  ['BAD_VALUE', 'flag bits that disagree with the flags', 'planes[0].flagBits.main', (l) => set(plane(l, 0).flagBits, 'main', true)],
  ['BAD_VALUE', 'mainPlane not the first plane flagged main', 'mainPlane', (l) => set(l, 'mainPlane', 0)],
  ['BAD_VALUE', 'compressed that disagrees with flag bit 1', 'header.compressed', (l) => set(l.header, 'compressed', true)],
  ['BAD_VALUE', 'trailing bytes without a zlib stream to follow', 'container.trailing', (l) => set(l.container, 'trailing', Uint8Array.of(1, 2))],
  ['BAD_VALUE', 'a hole in the plane list', 'planes[1]', (l) => unset(l.planes, 1)],
  ['BAD_VALUE', 'a summary decode', 'sections', (l) => set(l, 'sections', 'summary')],
];

describe('wwd.encode: one refusal per EncodeError code', () => {
  it.each(REFUSALS)('%s: %s', (code, _what, path, edit) => {
    expect(refusal(edit)).toEqual({ code, path, format: 'wwd' });
  });

  it('every code the encoder can raise has a row', () => {
    expect(new Set(REFUSALS.map(([code]) => code))).toEqual(new Set(['OUT_OF_RANGE', 'BAD_LENGTH', 'UNENCODABLE_TEXT', 'LIMIT_EXCEEDED', 'BAD_VALUE']));
  });

  it('options are checked like decode options (TypeError/RangeError naming the option)', () => {
    expect(() => wwd.encode(fresh(), { level: 10 })).toThrow(/option 'level'/);
    expect(() => wwd.encode(fresh(), { compress: 'yes' as unknown as boolean })).toThrow(TypeError);
  });
});

describe('wwd.encode: text fields', () => {
  it('changed text in every kind of field round-trips, the rest keeps its stored bytes', () => {
    const level = fresh();
    level.header.name.text = 'n'.repeat(63); // the longest a 64-byte field holds with its NUL
    level.header.prefixes[0]!.text = 'LVL';
    level.planes[1]!.name.text = 'Action – édité';
    level.planes[1]!.imageSetNames[1]!.text = 'NEW_SET';
    level.planes[1]!.objects.logic[0]!.text = 'Ascenseur\nline two';
    const back = wwd.decode(wwd.encode(level));
    expect(roundTripForm(back)).toBe(roundTripForm(level));
    expect(back.header.name.raw.length).toBe(64);
    expect(back.header.name.raw[63]).toBe(0);
    expect(back.planes[1]!.objects.logicLength[0]).toBe('Ascenseur\nline two'.length);
    // Untouched fields keep every stored byte, garbage after the NUL included.
    expect(back.header.author.raw).toEqual(fresh().header.author.raw);
  });

  it('new values from textFrom (short raw) are NUL-filled to their field and read back the same', () => {
    const level = fresh();
    level.header.author = textFrom('someone');
    const back = wwd.decode(wwd.encode(level));
    expect(back.header.author.text).toBe('someone');
    expect(back.header.author.raw.length).toBe(64);
  });

  it('another code page, used by every field, round-trips', () => {
    const level = wwd.decode(readBytes(join(FIXTURES, 'wwd/claw-uncompressed.wwd')), { encoding: 'windows-1250' });
    level.planes[0]!.name.text = 'Tło';
    const back = wwd.decode(wwd.encode(level), { encoding: 'windows-1250' });
    expect(back.planes[0]!.name.text).toBe('Tło');
    expect(roundTripForm(back)).toBe(roundTripForm(level));
  });

  it('fixedText and newLevel build values with textFrom, and refuse what a field cannot hold', () => {
    expect(wwd.fixedText('abc', 8)).toEqual({ text: 'abc', raw: Uint8Array.of(0x61, 0x62, 0x63, 0, 0, 0, 0, 0), encoding: 'windows-1252' });
    expect(() => wwd.fixedText('abcdefgh', 8)).toThrow(RangeError);
    expect(() => wwd.newLevel({ name: 'x'.repeat(64), planes: [] })).toThrow(RangeError);
    expect(wwd.newLevel({ name: 'Tło', planes: [], encoding: 'windows-1250' }).header.name.encoding).toBe('windows-1250');
  });
});

describe('wwd warnings are typed', () => {
  it('the codes of a decode are WwdWarningCode', () => {
    const level = wwd.decode(readBytes(join(FIXTURES, 'wwd/claw-wapmap-trailing-meta.wwd')));
    const codes: WwdWarningCode[] = level.warnings.map((w) => w.code);
    expect(codes).toEqual(['TRAILING_BYTES']);
    // The offset is where the bytes start (after the header and the zlib stream), never a placeholder.
    expect(level.warnings[0]!.offset).toBe(1524 + level.container.streamLength);
  });
});
