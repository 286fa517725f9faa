// wwd.encode refuses what it cannot write so that it reads back the same: one test per EncodeError
// code (with the path into the model), the fixed-size text fields at their limits, changed text
// that round-trips, and the warning codes' type. See src/formats/wwd/README.md § What the encoder refuses.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textFrom } from '../../src/core/text.js';
import type { WwdLevel, WwdWarningCode } from '../../src/formats/wwd/index.js';
import { EncodeError, wwd } from '../../src/index.js';
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
// biome-ignore lint/suspicious/noExplicitAny: these tests put values of the wrong type into the level on purpose.
const mutable = (l: WwdLevel) => l as unknown as Record<string, any>;

describe('wwd.encode: one refusal per EncodeError code', () => {
  it.each([
    [
      'an i32 object field past 2^31 − 1',
      (l: WwdLevel) => {
        mutable(l).planes[1].objects.x = [...l.planes[1]!.objects.x].map((v, i) => (i === 2 ? 2 ** 31 : v));
      },
      'planes[1].objects.x[2]',
    ],
    [
      'a u32 object field below 0',
      (l: WwdLevel) => {
        mutable(l).planes[1].objects.addFlags = Int32Array.of(0, -1, 0, 0);
      },
      'planes[1].objects.addFlags[1]',
    ],
    [
      'NaN in a header field',
      (l: WwdLevel) => {
        l.header.startX = NaN;
      },
      'header.startX',
    ],
    [
      'a fraction in a tile attribute',
      (l: WwdLevel) => {
        mutable(l).tileProperties[0].attribute = 1.5;
      },
      'tileProperties[0].attribute',
    ],
    [
      'a grid cell past u32',
      (l: WwdLevel) => {
        mutable(l).planes[0].tiles = [...l.planes[0]!.tiles].map((v, i) => (i ? v : 2 ** 32));
      },
      'planes[0].tiles[0]',
    ],
    [
      'a negative grid size',
      (l: WwdLevel) => {
        l.planes[0]!.tilesWide = -1;
      },
      'planes[0].tilesWide',
    ],
    [
      'a tile-property type the format does not have',
      (l: WwdLevel) => {
        mutable(l).tileProperties[1].type = 4;
      },
      'tileProperties[1].type',
    ],
    [
      'a signature other than 0x5F4',
      (l: WwdLevel) => {
        l.header.signature = 0x5f5;
      },
      'header.signature',
    ],
  ])('OUT_OF_RANGE: %s', (_what, edit, path) => {
    expect(refusal(edit)).toEqual({ code: 'OUT_OF_RANGE', path, format: 'wwd' });
  });

  it.each([
    [
      'an object count that disagrees with the columns',
      (l: WwdLevel) => {
        l.planes[1]!.objects.count = 5;
      },
      'planes[1].objects.id',
    ],
    [
      'one column shorter than the count',
      (l: WwdLevel) => {
        mutable(l).planes[1].objects.score = l.planes[1]!.objects.score.subarray(1);
      },
      'planes[1].objects.score',
    ],
    [
      'a string list longer than the count',
      (l: WwdLevel) => {
        l.planes[1]!.objects.logic.push(textFrom('Extra'));
      },
      'planes[1].objects.logic',
    ],
    [
      'a grid that does not hold tilesWide × tilesHigh cells',
      (l: WwdLevel) => {
        l.planes[1]!.tilesHigh = 7;
      },
      'planes[1].tiles',
    ],
    [
      'a mask of the wrong size',
      (l: WwdLevel) => {
        mutable(l).tileProperties[3].width = 15;
      },
      'tileProperties[3].mask',
    ],
    [
      'three image-set directories instead of four',
      (l: WwdLevel) => {
        mutable(l).header.imageSets.pop();
      },
      'header.imageSets',
    ],
    [
      'a tile-property header of 7 words',
      (l: WwdLevel) => {
        l.tilePropertiesHeader = l.tilePropertiesHeader.subarray(1);
      },
      'tilePropertiesHeader',
    ],
  ])('BAD_LENGTH: %s', (_what, edit, path) => {
    expect(refusal(edit)).toEqual({ code: 'BAD_LENGTH', path, format: 'wwd' });
  });

  it.each([
    [
      'the level name',
      (l: WwdLevel) => {
        l.header.name.text = 'Level 漢';
      },
      'header.name',
    ],
    [
      'an image-set name',
      (l: WwdLevel) => {
        l.planes[1]!.imageSetNames[0]!.text = 'ACTION 😀';
      },
      'planes[1].imageSetNames[0]',
    ],
    [
      'an object string',
      (l: WwdLevel) => {
        l.planes[1]!.objects.logic[2]!.text = 'Łódź';
      },
      'planes[1].objects.logic[2]',
    ],
  ])('UNENCODABLE_TEXT: a character Windows-1252 lacks in %s (never written as ?)', (_what, edit, path) => {
    expect(refusal(edit)).toEqual({ code: 'UNENCODABLE_TEXT', path, format: 'wwd' });
  });

  it.each([
    [
      'a changed level name of 64 bytes (the field is 64 with its NUL)',
      (l: WwdLevel) => {
        l.header.name.text = 'n'.repeat(64);
      },
      'header.name',
    ],
    [
      'a changed prefix of 32 bytes',
      (l: WwdLevel) => {
        l.header.prefixes[1]!.text = 'P'.repeat(32);
      },
      'header.prefixes[1]',
    ],
    [
      'unchanged raw bytes longer than the field',
      (l: WwdLevel) => {
        l.planes[2]!.name = { ...l.planes[2]!.name, raw: Uint8Array.from([...l.planes[2]!.name.raw, 0]) };
      },
      'planes[2].name',
    ],
  ])('LIMIT_EXCEEDED: %s (it used to be cut to the field with no NUL)', (_what, edit, path) => {
    expect(refusal(edit)).toEqual({ code: 'LIMIT_EXCEEDED', path, format: 'wwd' });
  });

  it.each([
    [
      'a missing field',
      (l: WwdLevel) => {
        delete mutable(l).header.startY;
      },
      'header.startY',
    ],
    [
      'a number as a string',
      (l: WwdLevel) => {
        mutable(l).planes[0].z = '100';
      },
      'planes[0].z',
    ],
    [
      'a string where a Text belongs',
      (l: WwdLevel) => {
        mutable(l).header.author = 'me';
      },
      'header.author',
    ],
    [
      'a NUL in changed text (it would end the field when read back)',
      (l: WwdLevel) => {
        l.header.author.text = 'a\0b';
      },
      'header.author',
    ],
    [
      'a NUL in an image-set name (it would split the list)',
      (l: WwdLevel) => {
        l.planes[0]!.imageSetNames[0]!.text = 'A\0B';
      },
      'planes[0].imageSetNames[0]',
    ],
    [
      'a code page TextDecoder does not know',
      (l: WwdLevel) => {
        l.header.birth.encoding = 'klingon';
      },
      'header.birth.encoding',
    ],
    [
      'a field in another code page than the rest (the file records none)',
      (l: WwdLevel) => {
        l.planes[0]!.name = textFrom('Tło', 'windows-1250');
      },
      'planes[0].name.encoding',
    ],
    [
      'flag bits that disagree with the flags',
      (l: WwdLevel) => {
        l.planes[0]!.flagBits.main = true;
      },
      'planes[0].flagBits.main',
    ],
    [
      'mainPlane not the first plane flagged main',
      (l: WwdLevel) => {
        l.mainPlane = 0;
      },
      'mainPlane',
    ],
    [
      'compressed that disagrees with flag bit 1',
      (l: WwdLevel) => {
        l.header.compressed = true;
      },
      'header.compressed',
    ],
    [
      'trailing bytes without a zlib stream to follow',
      (l: WwdLevel) => {
        l.container.trailing = Uint8Array.of(1, 2);
      },
      'container.trailing',
    ],
    [
      'a hole in the plane list',
      (l: WwdLevel) => {
        delete mutable(l).planes[1];
      },
      'planes[1]',
    ],
    [
      'a summary decode',
      (l: WwdLevel) => {
        l.sections = 'summary';
      },
      'sections',
    ],
  ])('BAD_VALUE: %s', (_what, edit, path) => {
    expect(refusal(edit)).toEqual({ code: 'BAD_VALUE', path, format: 'wwd' });
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
