// Graal encoders refuse what would not read back the same: one test per EncodeError code, the
// .nw injection of issue 11, short layers, tile ids past the code width, counts a version cannot
// store, the .gmap grid, option checks, the windows-1250 text that used to become '?', and the
// offsets warnings carry.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { link, sampleLevel, txt, txts } from '../../fixtures/generators/graal.js';
import { EncodeError } from '../../src/core/errors.js';
import * as graal from '../../src/formats/graal/index.js';
import { FIXTURES } from '../helpers/paths.js';

const enc = (s: string) => new TextEncoder().encode(s);
const latin = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** The EncodeError `fn` throws (fails the test when it throws anything else or nothing). */
function refusal(fn: () => unknown): EncodeError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(EncodeError);
    return e as EncodeError;
  }
  throw new Error('expected an EncodeError, the value was encoded');
}
const nwLevel = (over: Partial<graal.GraalLevel> = {}): graal.GraalLevel => ({ ...graal.blankLevel('graal-nw'), ...over });
const binLevel = (over: Partial<graal.GraalLevel> = {}): graal.GraalLevel => ({ ...graal.blankLevel('graal'), ...over });

describe('graal EncodeError codes, with the path into the model', () => {
  it('OUT_OF_RANGE: NaN, non-integers where a byte is stored, values past a byte, tile ids past the code width', () => {
    const cases: [() => unknown, string][] = [
      [() => graal.encode(binLevel({ links: [{ ...link('a.nw', 1, 2, 3, 4, '5', '6'), x: Number.NaN }] })), 'links[0].x'],
      [() => graal.encode(binLevel({ npcs: [{ x: 1.5, y: 2, image: txt(''), script: txt('') }] })), 'npcs[0].x'],
      [() => graal.encode(binLevel({ chests: [{ x: 1, y: 224, item: 'bombs', signIndex: 0 }] })), 'chests[0].y'],
      [() => graal.encode(binLevel({ baddies: [{ x: 1, y: 2, type: 128, verses: txts('') }] })), 'baddies[0].type'],
      [() => graal.encode(binLevel({ signs: [{ x: -0, y: 2, text: 'Hi' }] })), 'signs[0].x'],
      [() => graal.encode(nwLevel({ heights: [1, Number.POSITIVE_INFINITY] })), 'heights[1]'],
    ];
    for (const [fn, path] of cases) expect(refusal(fn), path).toMatchObject({ code: 'OUT_OF_RANGE', path, format: expect.any(String) });
    const big = graal.blankLevel('graal');
    big.layers[0]!.tiles[70] = 4096;
    expect(refusal(() => graal.encode(big))).toMatchObject({ code: 'OUT_OF_RANGE', path: 'layers[0].tiles[70]', format: 'graal' });
    expect(refusal(() => graal.encodeNw(big))).toMatchObject({ code: 'OUT_OF_RANGE', path: 'layers[0].tiles[70]' });
    const v12 = graal.blankLevel('graal', 'GR-V1.01');
    v12.layers[0]!.tiles[5] = 2048;
    expect(refusal(() => graal.encode(v12))).toMatchObject({ code: 'OUT_OF_RANGE', path: 'layers[0].tiles[5]' });
    v12.layers[0]!.tiles[5] = 2047;
    expect(graal.decode(graal.encode(v12))).toEqual(v12);
  });

  it('BAD_LENGTH: a layer of 100 cells (it used to be padded with tile 0), in .nw and binary', () => {
    for (const level of [binLevel(), nwLevel()]) {
      level.layers = [{ index: 0, tiles: new Uint16Array(100) }];
      expect(refusal(() => graal.encode(level))).toMatchObject({ code: 'BAD_LENGTH', path: 'layers[0].tiles', expected: '4096 tiles (64 × 64)', actual: 100 });
    }
    expect(refusal(() => graal.encode(binLevel({ baddies: [{ x: 1, y: 2, type: 3, verses: [] }] })))).toMatchObject({
      code: 'BAD_LENGTH',
      path: 'baddies[0].verses',
    });
  });

  it('UNENCODABLE_TEXT: a character the field\'s code page (or the sign font) lacks — never "?"', () => {
    expect(refusal(() => graal.encode(nwLevel({ npcs: [{ x: 1, y: 2, image: txt(''), script: { ...txt('x'), text: 'say ł' } }] })))).toMatchObject({
      code: 'UNENCODABLE_TEXT',
      path: 'npcs[0].script',
      format: 'graal-nw',
    });
    expect(refusal(() => graal.encode(binLevel({ signs: [{ x: 1, y: 2, text: 'é' }] })))).toMatchObject({ code: 'UNENCODABLE_TEXT', path: 'signs[0].text' });
    expect(refusal(() => graal.encode(nwLevel({ signs: [{ x: 1, y: 2, text: '\uE041' }] })))).toMatchObject({
      code: 'UNENCODABLE_TEXT',
      path: 'signs[0].text',
    });
  });

  it('LIMIT_EXCEEDED: sections and layers a binary version cannot store (they used to be dropped)', () => {
    const s = sampleLevel(2047);
    expect(refusal(() => graal.encodeBinary(s, { version: 'Z3-V1.04' }))).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'npcs' });
    expect(refusal(() => graal.encodeBinary(s, { version: 'GR-V1.00' }))).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'chests' });
    expect(refusal(() => graal.encodeBinary({ ...s, npcs: [], chests: [] }, { version: 'Z3-V1.03' }))).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      path: 'baddies[0].verses',
    });
    expect(refusal(() => graal.encodeBinary({ ...s, heights: [1] }, { version: 'GR-V1.03' }))).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'heights' });
    expect(refusal(() => graal.encodeBinary({ ...s, layers: [s.layers[0]!, graal.emptyLayer(1)] }, { version: 'GR-V1.03' }))).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      path: 'layers',
    });
    const many = Array.from({ length: graal.MAX_BINARY_LAYERS + 1 }, (_, i) => ({ index: i, tiles: new Uint16Array(4096) }));
    expect(refusal(() => graal.encodeBinary({ ...s, layers: many }))).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'layers', actual: 224 });
    expect(refusal(() => graal.encodeBinary({ ...s, format: 'graal-nw', unknownLines: txts('LAYERNAME 1 x') }))).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      path: 'unknownLines',
      format: 'graal-nw',
    });
  });

  it('BAD_VALUE: missing fields, wrong types, a hole in an array, text the grammar cannot frame', () => {
    const { links: _l, ...noLinks } = binLevel();
    expect(refusal(() => graal.encode(noLinks as graal.GraalLevel))).toMatchObject({ code: 'BAD_VALUE', path: 'links' });
    expect(refusal(() => graal.encode(nwLevel({ tileset: 'classic' as unknown as graal.Text })))).toMatchObject({ code: 'BAD_VALUE', path: 'tileset' });
    const holes = [link('a.nw', 1, 2, 3, 4, '5', '6'), link('b.nw', 1, 2, 3, 4, '5', '6')];
    delete holes[0];
    expect(refusal(() => graal.encode(nwLevel({ links: holes })))).toMatchObject({ code: 'BAD_VALUE', path: 'links[0]' });
    expect(refusal(() => graal.encode(binLevel({ links: [link('a\nb.graal', 1, 2, 3, 4, '5', '6')] })))).toMatchObject({
      code: 'BAD_VALUE',
      path: 'links[0].level',
    });
    expect(refusal(() => graal.encode(nwLevel({ npcs: [{ x: 1, y: 2, image: txt('-'), script: txt('') }] })))).toMatchObject({
      code: 'BAD_VALUE',
      path: 'npcs[0].image',
    });
    expect(refusal(() => graal.encode(nwLevel({ chests: [{ x: 1, y: 2, item: '3', signIndex: 0 }] })))).toMatchObject({
      code: 'BAD_VALUE',
      path: 'chests[0].item',
    });
    expect(refusal(() => graal.encode(nwLevel({ unknownLines: txts('TILESET x') })))).toMatchObject({ code: 'BAD_VALUE', path: 'unknownLines[0]' });
    expect(refusal(() => graal.encode(nwLevel({ lineEnding: '\r\n', tileset: txt('a\r') })))).toMatchObject({ code: 'BAD_VALUE', path: 'tileset' });
    expect(refusal(() => graal.encode({ ...nwLevel(), format: 'zelda' } as unknown as graal.GraalLevel))).toMatchObject({ code: 'BAD_VALUE', path: 'format' });
  });
});

describe('graal .nw injection (issue 11)', () => {
  const evil = 'x\nNPCEND\nLINK evil.nw 0 0 64 64 30 30';
  it('an NPC script, sign text or verse that would close its block is refused, with its path', () => {
    expect(refusal(() => graal.encode(nwLevel({ npcs: [{ x: 1, y: 2, image: txt(''), script: txt(evil) }] })))).toMatchObject({
      code: 'BAD_VALUE',
      path: 'npcs[0].script',
    });
    expect(refusal(() => graal.encode(nwLevel({ signs: [{ x: 1, y: 2, text: evil.replace('NPCEND', ' SIGNEND ') }] })))).toMatchObject({
      code: 'BAD_VALUE',
      path: 'signs[0].text',
    });
    expect(refusal(() => graal.encode(nwLevel({ baddies: [{ x: 1, y: 2, type: 3, verses: txts('BADDYEND') }] })))).toMatchObject({
      code: 'BAD_VALUE',
      path: 'baddies[0].verses[0]',
    });
    expect(refusal(() => graal.encode(nwLevel({ links: [link('a.nw 1 2 3 4 5 6\nLINK evil.nw', 1, 2, 3, 4, '5', '6')] })))).toMatchObject({
      code: 'BAD_VALUE',
      path: 'links[0].level',
    });
  });
  it('the same text inside another block is only text, and reads back as written (no new link)', () => {
    const level = nwLevel({ signs: [{ x: 1, y: 2, text: evil }], npcs: [{ x: 1, y: 2, image: txt(''), script: txt('a\nSIGNEND\nb') }] });
    const back = graal.decodeNw(graal.encode(level));
    expect(back.links).toEqual([]);
    expect(back).toEqual({ ...level, warnings: [] });
  });
  it('binary levels frame the same text without a way in (sign newlines are a glyph, script newlines 0xA7)', () => {
    const level = binLevel({ signs: [{ x: 1, y: 2, text: 'x\nNPCEND\nLINK evil' }], npcs: [{ x: 1, y: 2, image: txt(''), script: txt(evil) }] });
    const back = graal.decodeBinary(graal.encode(level));
    expect(back.links).toEqual([]);
    expect(back).toEqual({ ...level, warnings: [] });
  });
});

describe('graal text keeps its bytes', () => {
  // A .nw whose NPC, link, sign and unknown line hold 'ł' in windows-1250 (byte 0xB3).
  const file = latin('GLEVNW01\nLINK \xb3\xf3d\x9f.nw 1 2 3 4 5 6\nNPC - 1 2\nsay \xb3\nNPCEND\nSIGN 1 2\nZ\xb3oty\nSIGNEND\nLAYERNAME 1 \xb3\n');
  it('a .nw decoded as windows-1250 writes its text back byte for byte (it used to write "?")', () => {
    const v = graal.decodeNw(file, { encoding: 'windows-1250' });
    expect([v.links[0]!.level.text, v.npcs[0]!.script.text, v.signs[0]!.text, v.unknownLines[0]!.text]).toEqual(['łódź.nw', 'say ł', 'Złoty', 'LAYERNAME 1 ł']);
    const out = graal.encode(v);
    expect(out.includes(0x3f)).toBe(false);
    expect(graal.decodeNw(out, { encoding: 'windows-1250' })).toEqual(v);
    expect([...out].filter((b) => b === 0xb3)).toHaveLength(4);
  });
  it('a changed string is written in its code page; a character that page lacks is UNENCODABLE_TEXT', () => {
    const v = graal.decodeNw(file, { encoding: 'windows-1250' });
    v.npcs[0]!.script = { ...v.npcs[0]!.script, text: 'say żółw' };
    expect(graal.decodeNw(graal.encode(v), { encoding: 'windows-1250' }).npcs[0]!.script.text).toBe('say żółw');
    v.npcs[0]!.script = { ...v.npcs[0]!.script, text: 'say ж' };
    expect(refusal(() => graal.encode(v))).toMatchObject({ code: 'UNENCODABLE_TEXT', path: 'npcs[0].script' });
  });
  it('binary NPC scripts keep LF in the model and 0xA7 in the file; raw bytes of other fields are as stored', () => {
    const level = binLevel({ npcs: [{ x: 1, y: 2, image: graal.textFrom('\xff.png'), script: txt('a\nb') }] });
    const bytes = graal.encode(level);
    expect(Buffer.from(bytes).includes(Buffer.from([0xff, 0x2e, 0x70, 0x6e, 0x67, 0x23, 0x61, 0xa7, 0x62]))).toBe(true);
    expect(graal.decodeBinary(bytes).npcs[0]!.script.raw).toEqual(enc('a\nb'));
  });
});

describe('graal .gmap encoder', () => {
  const map = (): graal.GraalGmap => ({
    format: 'graal-gmap',
    version: 'GRMAP001',
    width: 2,
    height: 1,
    levels: [txts('a.nw', '')],
    options: txts('NOAUTOMAPPING'),
    lineEnding: '\n',
    warnings: [],
  });
  it('round-trips, and refuses a grid that is not height × width (BAD_LENGTH)', () => {
    expect(graal.decode(graal.encode(map()))).toEqual(map());
    expect(refusal(() => graal.encode({ ...map(), height: 2 }))).toMatchObject({ code: 'BAD_LENGTH', path: 'levels', format: 'graal-gmap' });
    expect(refusal(() => graal.encode({ ...map(), levels: [txts('a.nw')] }))).toMatchObject({ code: 'BAD_LENGTH', path: 'levels[0]' });
  });
  it('refuses a name with a quote and an option that would read as WIDTH (BAD_VALUE)', () => {
    expect(refusal(() => graal.encode({ ...map(), levels: [txts('a"b.nw', '')] }))).toMatchObject({ code: 'BAD_VALUE', path: 'levels[0][0]' });
    expect(refusal(() => graal.encode({ ...map(), options: txts('WIDTH 5') }))).toMatchObject({ code: 'BAD_VALUE', path: 'options[0]' });
    expect(refusal(() => graal.encode({ ...map(), width: -1 }))).toMatchObject({ code: 'OUT_OF_RANGE', path: 'width' });
  });
});

describe('graal.encode options', () => {
  it('an unknown version is a RangeError listing the headers; unknown keys a TypeError', () => {
    expect(() => graal.encode(binLevel(), { version: 'GR-V9.99' })).toThrow(
      /Z3-V1\.03, Z3-V1\.04, GR-V1\.00, GR-V1\.01, GR-V1\.02, GR-V1\.03, GR-V1\.04, GR-V1\.05/,
    );
    expect(() => graal.encode(binLevel(), { version: 'GR-V9.99' })).toThrow(RangeError);
    expect(() => graal.encode(binLevel(), { vesion: 'GR-V1.03' } as graal.GraalEncodeOptions)).toThrow(TypeError);
    expect(() => graal.encode(binLevel(), null as unknown as graal.GraalEncodeOptions)).toThrow(TypeError);
  });
  it('a binary level keeps its own header by default; the option converts', () => {
    const v = graal.blankLevel('graal', 'GR-V1.01');
    expect(graal.decode(graal.encode(v)).version).toBe('GR-V1.01');
    expect(graal.decode(graal.encode(v, { version: 'GR-V1.05' })).version).toBe('GR-V1.05');
  });
});

describe('graal warnings: typed codes and real offsets (or none)', () => {
  it('BOARD_CHARACTER points at the first bad letter', () => {
    const bytes = enc('GLEVNW01\nBOARD 0 0 2 0 AAA=\n');
    const w = graal.decodeNw(bytes).warnings;
    expect(w).toEqual([expect.objectContaining({ code: 'BOARD_CHARACTER', offset: bytes.indexOf(0x3d) })]);
  });
  it('GRID_SIZE and MISSING_END of a .gmap point at the LEVELNAMES line', () => {
    const bytes = enc('GRMAP001\nWIDTH 2\nHEIGHT 1\nLEVELNAMES\n"a.nw"\n');
    const codes: graal.GraalWarningCode[] = graal.decodeGmap(bytes).warnings.map((w) => w.code);
    expect(codes).toEqual(['MISSING_END', 'GRID_SIZE']);
    for (const w of graal.decodeGmap(bytes).warnings) expect(w.offset).toBe('GRMAP001\nWIDTH 2\nHEIGHT 1\n'.length);
  });
  it('binary NPC_NO_SCRIPT and CHEST_EXTRA point at the record and at the extra bytes', () => {
    const base = graal.encode(binLevel({ npcs: [{ x: 1, y: 2, image: txt('a'), script: txt('') }], chests: [{ x: 1, y: 2, item: 'bombs', signIndex: 0 }] }));
    const npcAt = base.indexOf(0x21); // x = 1 → byte 33
    const noHash = Uint8Array.from([...base.subarray(0, npcAt + 3), ...base.subarray(npcAt + 4)]);
    expect(graal.decodeBinary(noHash).warnings).toEqual([expect.objectContaining({ code: 'NPC_NO_SCRIPT', offset: npcAt })]);
    const chest = Buffer.from(base).indexOf(Buffer.from([33, 34, 35, 32, 0x0a])); // x 1, y 2, bombs (3), sign 0
    const extra = Uint8Array.from([...base.subarray(0, chest + 4), 0x41, ...base.subarray(chest + 4)]);
    expect(graal.decodeBinary(extra).warnings).toEqual([expect.objectContaining({ code: 'CHEST_EXTRA', offset: chest + 4 })]);
  });
});

describe('generated .gmap (GENERATED and HEIGHTMAP, no LEVELNAMES; issue 38 §1)', () => {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'graal', 'generated.gmap')));

  it('the fixture reproduces the class: a size, GENERATED and HEIGHTMAP, and no LEVELNAMES block', () => {
    const text = new TextDecoder().decode(bytes);
    expect(text).toMatch(/^GRMAP001\r\nWIDTH 4\r\nHEIGHT 3\r\nGENERATED\r\nHEIGHTMAP\r\n/);
    expect(text).not.toMatch(/LEVELNAMES/);
  });

  it('decodes with no names and no warning, and is written back as it was', () => {
    const map = graal.decodeGmap(bytes);
    expect(map).toMatchObject({ width: 4, height: 3, levels: [], withoutLevelNames: true, warnings: [] });
    expect(map.options.map((o) => o.text)).toEqual(['GENERATED', 'HEIGHTMAP', '0,5,1,6', '3,8,4,0', '6,2,7,3', 'HEIGHTMAPEND', 'MAPIMG generated.png']);
    const again = graal.encodeGmap(map);
    expect(again).toEqual(bytes);
    expect(graal.decodeGmap(again)).toEqual(map);
  });

  it('a map with names keeps its block; names added to a map without one are refused, not dropped', () => {
    expect(graal.decodeGmap(new Uint8Array(readFileSync(join(FIXTURES, 'graal', 'world.gmap'))))).not.toHaveProperty('withoutLevelNames');
    const map = graal.decodeGmap(bytes);
    map.levels = [txts('a.nw', 'b.nw', 'c.nw', 'd.nw')];
    expect(() => graal.encodeGmap(map)).toThrow(EncodeError);
    expect(() => graal.encodeGmap(map)).toThrow(/levels/);
  });
});
