// Graal levels on the committed fixtures and small hand-made inputs: sniffing, every binary
// version, .nw layers/TILESET/HEIGHTS/CRLF/odd lines, .gmap, sign glyphs, malformed files, the
// summary, and WASM-vs-TS parity plus round trips on every fixture.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { link, sampleLevel, txt, txts } from '../../fixtures/generators/graal.js';
import * as graal from '../../src/formats/graal/index.js';
import { splitLines } from '../../src/formats/graal/nw.js';
import { splitTrailing } from '../../src/formats/graal/text.js';
import { DecodeError, decode, EncodeError, encode, summarize } from '../../src/index.js';
import { fuzz } from '../helpers/fuzz.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

const dir = join(FIXTURES, 'graal');
const good = listFiles(dir, /\.(graal|zelda|nw|gmap)$/).filter((p) => !p.includes('/bad/'));
const enc = (s: string) => new TextEncoder().encode(s);
const level = (name: string) => graal.decode(readBytes(join(dir, name))) as graal.GraalLevel;
const content = (l: graal.GraalLevel) => {
  const { format: _f, version: _v, warnings: _w, lineEnding: _e, ...rest } = l;
  return rest;
};

describe('graal sniff', () => {
  it('names the three ids by header and nothing else', () => {
    expect(graal.sniff(enc('GR-V1.03xx'))).toBe('graal');
    expect(graal.sniff(enc('Z3-V1.03'))).toBe('graal');
    expect(graal.sniff(enc('GLEVNW01\n'))).toBe('graal-nw');
    expect(graal.sniff(enc('GRMAP001\n'))).toBe('graal-gmap');
    expect(graal.sniff(enc('GR-V1.09'))).toBeUndefined();
    expect(graal.sniff(enc('GR-V1.0'))).toBeUndefined();
    expect(graal.sniff(new Uint8Array(0))).toBeUndefined();
    expect(graal.sniff(enc('GIF89a..'))).toBeUndefined();
  });
});

describe.each(good.map((p) => [p.slice(dir.length + 1), p]))('fixture %s', (_name, path) => {
  const bytes = readBytes(path);
  it('decodes identically with the WASM and TS kernels, without warnings', () => {
    const a = graal.decode(bytes, { backend: 'wasm' }),
      b = graal.decode(bytes, { backend: 'js' });
    expect(a).toEqual(b);
    expect(a.warnings).toEqual([]);
  });
  it('re-encodes byte for byte (levelkit wrote it) and decodes to the same value', () => {
    const v = graal.decode(bytes);
    const again = v.format === 'graal' ? graal.encodeBinary(v, { version: v.version }) : graal.encode(v);
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
    expect(graal.decode(again)).toEqual(v);
  });
});

describe('graal text fields are views of one copy the level owns', () => {
  const sample = sampleLevel();
  const sources = [
    ['binary', graal.encodeBinary(sample, { version: 'GR-V1.03' })],
    ['.nw', graal.encode({ ...sample, format: 'graal-nw', version: 'GLEVNW01' })],
  ] as const;
  const textsOf = (l: graal.GraalLevel) => [
    ...l.links.flatMap((k) => [k.level, k.destX, k.destY]),
    ...l.baddies.flatMap((b) => b.verses),
    ...l.npcs.flatMap((n) => [n.image, n.script]),
  ];
  it.each(sources)("%s: the caller's bytes are never written or shared; JSON, structuredClone and equality see plain Texts", (_what, bytes) => {
    const before = bytes.slice();
    const l = graal.decode(bytes) as graal.GraalLevel;
    expect(Buffer.from(bytes).equals(Buffer.from(before))).toBe(true); // binary scripts hold 0xA7, rewritten to LF in the copy only
    const texts = textsOf(l);
    expect(texts.some((t) => t.text.includes('\n'))).toBe(true);
    const buffers = new Set(texts.filter((t) => t.raw.length > 0).map((t) => t.raw.buffer));
    expect(buffers.size).toBe(1);
    expect(buffers.has(bytes.buffer)).toBe(false);
    const snapshot = JSON.stringify(l);
    bytes.fill(0x41); // the caller reuses its buffer: the level keeps its own bytes
    expect(JSON.stringify(l)).toBe(snapshot);
    bytes.set(before);
    const clone = structuredClone(l);
    expect(clone).toEqual(l);
    expect(JSON.stringify(clone)).toBe(snapshot);
    expect(content(l)).toEqual(content(sample));
    expect(graal.decode(before)).toEqual(l);
  });
});

describe('graal .nw decoded from bytes held in WASM memory (holdBytes)', () => {
  const sample = sampleLevel();
  const nw = (l: graal.GraalLevel) => graal.encode({ ...l, format: 'graal-nw', version: 'GLEVNW01' });
  it('the level keeps no view of kernel memory: decoding other levels after it changes nothing', () => {
    const bytes = nw(sample);
    const a = graal.decode(bytes, { backend: 'wasm' }) as graal.GraalLevel;
    const snapshot = JSON.stringify(a);
    const other = sampleLevel(2047);
    other.npcs = other.npcs.map((n) => ({ ...n, script: txt('x'.repeat(5000)) }));
    for (let k = 0; k < 3; k++) graal.decode(nw(other), { backend: 'wasm' });
    expect(JSON.stringify(a)).toBe(snapshot);
    expect(a).toEqual(graal.decode(bytes, { backend: 'js' }));
  });
  it('a level past the held size (1 MiB) decodes the same with both backends; strict and summary decodes too', () => {
    const big = sampleLevel();
    big.npcs = [...big.npcs, { x: 1, y: 2, image: txt('big.png'), script: txt(`${'say "hi"; '.repeat(50)}\n`.repeat(2200)) }];
    const bytes = nw(big);
    expect(bytes.length).toBeGreaterThan(1 << 20);
    for (const opts of [{}, { strict: true }, { sections: 'summary' as const }]) {
      // isDeepStrictEqual: toEqual spends seconds on a megabyte string.
      expect(isDeepStrictEqual(graal.decode(bytes, { ...opts, backend: 'wasm' }), graal.decode(bytes, { ...opts, backend: 'js' }))).toBe(true);
    }
    const small = nw(sample);
    for (const opts of [{ strict: true }, { sections: 'summary' as const }]) {
      expect(graal.decode(small, { ...opts, backend: 'wasm' })).toEqual(graal.decode(small, { ...opts, backend: 'js' }));
    }
  });
  it('an LF inside trusted BOARD data (split again) decodes the same with both backends', () => {
    const text = new TextDecoder().decode(nw(sample));
    const at = text.indexOf('BOARD 0 0 64 0 ') + 'BOARD 0 0 64 0 '.length + 10;
    const broken = enc(`${text.slice(0, at)}\n${text.slice(at + 1)}`);
    const w = graal.decode(broken, { backend: 'wasm' }) as graal.GraalLevel;
    expect(w).toEqual(graal.decode(broken, { backend: 'js' }));
    expect(w.warnings.length).toBeGreaterThan(0);
  });
});

describe('graal text fields decoded in one batch per level', () => {
  it('windows-1252 bytes 0x80–0x9F read as windows-1252 (€, ‚ …), unmapped ones as C1 controls, in every field of the batch', () => {
    const l = sampleLevel();
    // textFrom writes € as 0x80 and U+0081 as 0x81; the batch decode must map both back.
    l.links = [...l.links, link('a€b\u0081.graal', 1, 2, 3, 4, 'playerx', '9'), link('plain.nw', 5, 6, 1, 1, '‚', 'œ')];
    for (const [what, bytes] of [
      ['binary', graal.encodeBinary(l, { version: 'GR-V1.03' })],
      ['.nw', graal.encode({ ...l, format: 'graal-nw', version: 'GLEVNW01' })],
    ] as const) {
      const back = graal.decode(bytes) as graal.GraalLevel;
      expect(
        back.links.map((k) => [k.level.text, k.destX.text, k.destY.text]),
        what,
      ).toEqual(l.links.map((k) => [k.level.text, k.destX.text, k.destY.text]));
      expect(Array.from(back.links.at(-2)!.level.raw), what).toEqual([0x61, 0x80, 0x62, 0x81, ...enc('.graal')]);
    }
  });
});

describe('graal binary versions', () => {
  const sample = sampleLevel(),
    small = sampleLevel(2047);
  it('GR-V1.03 holds every section of the sample level', () => {
    expect(content(level('gr-v103.graal'))).toEqual(content(sample));
  });
  it('12-bit versions: GR-V1.01 keeps chests, GR-V1.00 has NPCs but no chests, Z3-V1.04 neither', () => {
    expect(content(level('gr-v101.graal'))).toEqual(content(small));
    expect(content(level('gr-v100.graal'))).toEqual({ ...content(small), chests: [] });
    expect(content(level('z3-v104.zelda'))).toEqual({ ...content(small), npcs: [], chests: [] });
  });
  it('Z3-V1.03 baddies have no verses (records are x y type 0A)', () => {
    const z3 = level('z3-v103-baddies.zelda');
    expect(z3.version).toBe('Z3-V1.03');
    expect(z3.baddies).toEqual(small.baddies.map((b) => ({ ...b, verses: [] })));
  });
  it('GR-V1.04 carries HEIGHTS after the signs', () => {
    expect(level('gr-v104-heights.graal').heights).toHaveLength(81);
  });
  it('GR-V1.05 carries layers with NO_TILE cells, and HEIGHTS', () => {
    const l = level('gr-v105-layers.graal');
    expect(l.version).toBe('GR-V1.05');
    expect(l.layers.map((x) => x.index)).toEqual([0, 1, 2]);
    expect(l.layers[1]!.tiles[22 * 64 + 20]).toBe(0x114);
    expect(l.layers[1]!.tiles[0]).toBe(graal.NO_TILE);
    expect(l.layers[0]!.tiles).toEqual(sample.layers[0]!.tiles);
    expect(l.heights).toHaveLength(81);
  });
  it('the encoder picks GR-V1.03, GR-V1.04 with heights, GR-V1.05 with layers', () => {
    expect(graal.binaryVersionFor(sample)).toBe('GR-V1.03');
    expect(graal.binaryVersionFor({ ...sample, heights: [1] })).toBe('GR-V1.04');
    expect(graal.binaryVersionFor(level('layers.nw'))).toBe('GR-V1.05');
  });
  it('run-length codes: a one-tile level is a handful of bytes, not 4,096 literals', () => {
    const blank = graal.blankLevel('graal');
    // 64 runs of 64 → 128 codes of 13 bits.
    expect(graal.encodeTileStream(blank.layers[0]!.tiles, 13, false).length).toBe(208);
  });
  it('NPCs: signed +32 coordinates, 0xA7 newlines, images with spaces', () => {
    const bytes = readBytes(join(dir, 'gr-v103.graal'));
    const npc = level('gr-v103.graal').npcs[0]!;
    expect(npc).toEqual({ x: -3, y: 5, image: txt('door 2.png'), script: txt('if (playerenters) {\n  message Hi;\n}') });
    expect(bytes.includes(0xa7)).toBe(true);
    expect(Buffer.from(bytes).includes(Buffer.from([0x1d, 0x25, ...enc('door 2.png#')]))).toBe(true);
  });
  it('NPCs: an 0xA7 in an image or a position byte stays what it is (only scripts read it as a newline), with both backends', () => {
    const bytes = readBytes(join(dir, 'gr-v103.graal'));
    const at = Buffer.from(bytes).indexOf(Buffer.from([0x1d, 0x25, ...enc('door 2.png#')]));
    const edited = bytes.slice();
    edited[at] = 0xa7; // x = 0xA7 − 32
    edited[at + 2 + 4] = 0xa7; // 'door' 0xA7 '2.png'
    const before = edited.slice();
    for (const backend of ['js', 'wasm'] as const) {
      const npc = (graal.decode(edited, { backend }) as graal.GraalLevel).npcs[0]!;
      expect(npc.x).toBe(0xa7 - 32);
      expect([...npc.image.raw]).toEqual([...enc('door'), 0xa7, ...enc('2.png')]);
      expect(npc.script).toEqual(txt('if (playerenters) {\n  message Hi;\n}'));
      expect(edited).toEqual(before);
    }
  });
  it('links keep names with spaces and expression destinations as text', () => {
    expect(level('gr-v103.graal').links[1]).toEqual(link('world.gmap', 0, 0, 64, 1, 'playerx', 'playery+62'));
    expect(level('gr-v103.graal').links[0]!.level.text).toBe('house 1.graal');
  });
  it('chests: item names and a signed sign index (-1 = none)', () => {
    expect(level('gr-v103.graal').chests).toEqual(sample.chests);
  });
  it('every +32 coordinate either round-trips or is refused on encode (−22 is a newline byte)', () => {
    // Each NPC, chest and sign starts a newline-framed record: try every value the byte holds as
    // x = y, and −22 next to a '#' (3) or a plain value on either side.
    const refused: string[] = [];
    const pairs = [...Array.from({ length: 256 }, (_, i) => [i - 32, i - 32]), [3, -22], [5, -22], [-22, 3], [-22, 5]];
    for (const [x, y] of pairs as [number, number][]) {
      {
        const l: graal.GraalLevel = {
          ...graal.blankLevel('graal'),
          npcs: [
            { x, y, image: txt('a.png'), script: txt('') },
            { x: 1, y: 1, image: txt(''), script: txt('b') },
          ],
          chests: [
            { x, y, item: 'bombs', signIndex: -1 },
            { x: 1, y: 1, item: 'darts', signIndex: 0 },
          ],
          signs: [
            { x, y, text: 'Hi' },
            { x: 1, y: 1, text: 'Bye' },
          ],
        };
        let bytes: Uint8Array;
        try {
          bytes = graal.encodeBinary(l);
        } catch (e) {
          expect(e).toBeInstanceOf(EncodeError);
          expect((e as EncodeError).code).toBe('OUT_OF_RANGE');
          refused.push(`${x},${y}`);
          continue;
        }
        const back = graal.decodeBinary(bytes);
        expect([back.npcs, back.chests, back.signs]).toEqual([l.npcs, l.chests, l.signs]);
      }
    }
    expect(refused).toEqual(['-22,-22', '3,-22', '5,-22', '-22,3', '-22,5']);
    expect(() => graal.encodeBinary({ ...graal.blankLevel('graal'), npcs: [{ x: -22, y: 5, image: txt(''), script: txt('') }] })).toThrow(/npcs\[0\]\.x/);
  });
  it('baddies: signed bytes round-trip (0x0A and -1 included); a wrapping value or the FF FF FF end mark is refused', () => {
    const withBaddies = (...baddies: graal.GraalBaddy[]) => ({ ...graal.blankLevel('graal'), baddies });
    const ok = [
      { x: 10, y: -128, type: 127, verses: txts('a', '', 'c') },
      { x: -1, y: -1, type: 0, verses: txts('', '', '') },
      { x: 0, y: 0, type: -1, verses: txts('', '', '') },
    ];
    expect(graal.decodeBinary(graal.encodeBinary(withBaddies(...ok))).baddies).toEqual(ok);
    for (const bad of [
      { x: 200, y: 0, type: 0 },
      { x: 0, y: -129, type: 0 },
      { x: 0, y: 0, type: 128 },
      { x: -1, y: -1, type: -1 },
    ]) {
      expect(() => graal.encodeBinary(withBaddies({ ...bad, verses: txts('') }))).toThrow(EncodeError);
    }
  });
  it('text a record cannot frame is refused; the same text without it round-trips', () => {
    const base = graal.blankLevel('graal');
    const ln = link('next level.graal', 0, 0, 2, 64, 'playerx', '30');
    const cases: [string, Partial<graal.GraalLevel>, Partial<graal.GraalLevel>][] = [
      ['link level', { links: [{ ...ln, level: txt('a\nb.graal') }] }, { links: [ln] }],
      ['link destX', { links: [{ ...ln, destX: txt('player x') }] }, { links: [{ ...ln, destX: txt('playerx') }] }],
      ['link destY', { links: [{ ...ln, destY: txt('') }] }, { links: [{ ...ln, destX: txt(''), destY: txt('a\tb') }] }],
      ['link width', { links: [{ ...ln, width: Number.NaN }] }, { links: [{ ...ln, width: 2.5 }] }],
      ['verse', { baddies: [{ x: 1, y: 2, type: 3, verses: txts('a\\b', '', '') }] }, { baddies: [{ x: 1, y: 2, type: 3, verses: txts('a/b', '', '') }] }],
      ['verses', { baddies: [{ x: 1, y: 2, type: 3, verses: txts('a\nb', '', '') }] }, { baddies: [{ x: 1, y: 2, type: 3, verses: txts('a b', '', '') }] }],
      ['NPC image', { npcs: [{ x: 1, y: 1, image: txt('a#b.png'), script: txt('') }] }, { npcs: [{ x: 1, y: 1, image: txt('ab.png'), script: txt('x#y') }] }],
      [
        'NPC script',
        { npcs: [{ x: 1, y: 1, image: txt(''), script: txt('message §1;') }] },
        { npcs: [{ x: 1, y: 1, image: txt(''), script: txt('if (a)\n  b;') }] },
      ],
      ['chest item', { chests: [{ x: 1, y: 1, item: 'spoon', signIndex: 0 }] }, { chests: [{ x: 1, y: 1, item: '99', signIndex: 0 }] }],
    ];
    for (const [what, bad, good] of cases) {
      expect(() => graal.encodeBinary({ ...base, ...bad }), what).toThrow(EncodeError);
      const back = graal.decodeBinary(graal.encodeBinary({ ...base, ...good }));
      const key = Object.keys(good)[0] as keyof graal.GraalLevel;
      expect(back[key], what).toEqual(good[key]);
    }
  });
  it('12-bit versions reject tile ids ≥ 2048 on encode; an unknown version is a RangeError', () => {
    expect(() => graal.encodeBinary(sample, { version: 'GR-V1.01' })).toThrow(EncodeError);
    expect(() => graal.encodeBinary(sample, { version: 'GR-V9.99' })).toThrow(RangeError);
  });
});

describe('graal signs', () => {
  it('decodes the glyph table: letters, punctuation, newline (0x80), escapes', () => {
    // "#r Ab.\n" as bytes: 80 → #r, space = 89, '.' = 65, newline = 96 (all + 32)
    expect(graal.decodeSign(Uint8Array.of(112, 121, 32, 59, 97, 128))).toBe('#r Ab.\n');
    expect(graal.decodeSign(Uint8Array.of(106, 107, 118, 118, 119, 120, 123))).toBe('#h###4#A');
  });
  it('encodes escapes, lone #, and characters the font lacks as #K(n)', () => {
    expect(Array.from(graal.encodeSign('#A#B#X#Y#u#d#l#r#x#y#z#.'))).toEqual([123, 124, 125, 126, 109, 110, 111, 112, 103, 104, 105, 99]);
    expect(Array.from(graal.encodeSign('# 1'))).toEqual([118, 121, 85]);
    expect(graal.decodeSign(graal.encodeSign('é'))).toBe('#K(233)');
  });
  it('keeps codes no rule explains distinguishable (U+E000 + byte) and round-trips them', () => {
    const odd = Uint8Array.of(5, 106, 65, 107, 119, 118, 32, 200, 120);
    const text = graal.decodeSign(odd);
    expect(text).toBe('\uE005\uE06Ah\uE06B\uE077\uE076A\uE0C8\uE078');
    expect(graal.encodeSign(text)).toEqual(odd);
  });
  it('every text of glyph letters and escapes survives encode → decode', () => {
    const t = 'Hello, World! 0123456789 ?-.,>()"\':/~&<;\n#h ## #4 #. #A';
    expect(graal.decodeSign(graal.encodeSign(t))).toBe(t);
  });
});

describe('graal .nw', () => {
  it('layers fixture: overlay layers as partial rows, TILESET, TILESETIMAGE, HEIGHTS, unknown lines in order', () => {
    const l = level('layers.nw');
    expect(l.format).toBe('graal-nw');
    expect(l.layers.map((x) => x.index)).toEqual([0, 1, 2]);
    expect(l.tileset).toEqual(txt('classic'));
    expect(l.tilesetImage).toEqual(txt('pics1.png'));
    expect(l.heights).toHaveLength(81);
    expect(l.unknownLines).toEqual(txts('LAYERNAME 1 bridge', 'GENERATED by levelkit fixtures'));
    const text = readFileSync(join(dir, 'layers.nw'), 'latin1');
    expect(text).toContain('BOARD 20 22 10 1 ');
    expect(content(l)).toEqual({
      ...content(level('gr-v105-layers.graal')),
      tileset: txt('classic'),
      tilesetImage: txt('pics1.png'),
      unknownLines: l.unknownLines,
    });
  });
  it('CRLF fixture keeps its line ending and its content', () => {
    const l = level('crlf.nw');
    expect(l.lineEnding).toBe('\r\n');
    expect(content(l)).toEqual(content(sampleLevel()));
  });
  const nw = (lines: string[], eol = '\n') => graal.decodeNw(enc(['GLEVNW01', ...lines].join(eol) + eol));
  it('splitTrailing equals splitting on every space and re-joining the head (every short string of spaces and letters)', () => {
    const bySplit = (text: string, m: number) => {
      const t = text.split(' ');
      return t.length < m + 1 ? undefined : { head: t.slice(0, t.length - m).join(' '), tail: t.slice(t.length - m) };
    };
    const strings = [''];
    for (let len = 1; len <= 6; len++) for (const s of strings.filter((x) => x.length === len - 1)) for (const c of [' ', 'a', '1']) strings.push(s + c);
    for (const s of strings) for (const m of [1, 2, 6]) expect(splitTrailing(s, m), JSON.stringify(s)).toEqual(bySplit(s, m));
  });
  it('an LF inside what looks like a whole BOARD row splits the line as an exact split does', () => {
    // `BOARD 0 0 2 0 ` then 4 bytes and an LF: the fast split takes it as one row of 2 tiles,
    // but `AB\nC` holds a line break, so the file has two lines: a short BOARD row and `C`.
    for (const eol of ['\n', '\r\n']) {
      const l = nw(['BOARD 0 0 2 0 AB\nC', 'BOARD 0 1 1 0 AB'], eol);
      expect(l.unknownLines.map((t) => t.text)).toEqual(['BOARD 0 0 2 0 AB', 'C']);
      expect(l.warnings.map((w) => w.code)).toEqual(['BAD_LINE']);
      expect(l.layers[0]!.tiles[0]).toBe(0); // the short row is not read
      expect(l.layers[0]!.tiles[64]).toBe(1); // the next row is
    }
  });
  it('a summary decode gives the full summary and warnings, leaves block bodies out, and cannot be encoded', () => {
    const bytes = enc(
      [
        'GLEVNW01',
        'BOARD 0 0 1 0 AB',
        'NPC img.png 1 2',
        'say hi',
        'NPCEND',
        'SIGN 1 2',
        'text',
        'SIGNEND',
        'BADDY 1 2 3',
        'verse',
        'BADDYEND',
        'stray line',
        'LINK x 1 2 3 4 5 6',
        'NPC - 1 1',
        'unended',
      ].join('\n'),
    );
    const full = graal.decodeNw(bytes);
    const cheap = graal.decodeNw(bytes, { sections: 'summary' });
    expect(graal.summarize(cheap)).toEqual(graal.summarize(full));
    expect(cheap.warnings).toEqual(full.warnings);
    expect(full.sections).toBeUndefined();
    expect(cheap.sections).toBe('summary');
    expect(cheap.npcs.map((n) => n.script.text)).toEqual(['', '']);
    // Link and NPC text fields are left empty too (one shared Text): records cost their numbers only.
    expect(cheap.links.map((l) => ({ x: l.x, y: l.y, level: l.level.text, destY: l.destY.text }))).toEqual([{ x: 1, y: 2, level: '', destY: '' }]);
    expect(full.links[0]!.level.text).toBe('x');
    expect(cheap.npcs.map((n) => n.image.text)).toEqual(['', '']);
    expect(cheap.unknownLines).toEqual([]);
    for (const version of [undefined, 'GR-V1.03'] as const) {
      const e = (() => {
        try {
          graal.encode(cheap, version ? { version } : undefined);
        } catch (x) {
          return x;
        }
      })();
      expect(e).toBeInstanceOf(EncodeError);
      expect((e as EncodeError).path).toBe('sections');
    }
  });
  it('partial rows: missing layer-0 cells are tile 0; a missing NPCEND reads to the end (warning)', () => {
    const l = nw(['BOARD 2 1 2 0 //AB', 'NPC some image.png 30.5 -2', 'line 1', 'line 2']);
    expect(Array.from(l.layers[0]!.tiles.subarray(64, 68))).toEqual([0, 0, 4095, 1]);
    expect(l.npcs).toEqual([{ x: 30.5, y: -2, image: txt('some image.png'), script: txt('line 1\nline 2') }]);
    expect(l.warnings.map((w) => w.code)).toEqual(['MISSING_END']);
    expect(() => graal.decodeNw(enc('GLEVNW01\nNPC - 1 1\nx\n'), { strict: true })).toThrow(DecodeError);
  });
  it('baddies by name, chests by number, signs, links with spaces, stray and malformed lines kept', () => {
    const l = nw([
      'BADDY 3 4 frog',
      'Hi',
      'BADDYEND',
      'CHEST 1 2 3 -1',
      'SIGN 5 6',
      'A',
      '',
      'B',
      'SIGNEND',
      'LINK my level.nw 1 2 3 4 playerx 5',
      'NPCEND',
      'BOARD 0 0 65 0 AA',
    ]);
    expect(l.baddies).toEqual([{ x: 3, y: 4, type: 5, verses: txts('Hi') }]);
    expect(l.chests).toEqual([{ x: 1, y: 2, item: 'bombs', signIndex: -1 }]);
    expect(l.signs).toEqual([{ x: 5, y: 6, text: 'A\n\nB' }]);
    expect(l.links[0]!.level.text).toBe('my level.nw');
    expect(l.unknownLines).toEqual(txts('NPCEND', 'BOARD 0 0 65 0 AA'));
    expect(l.warnings.map((w) => w.code)).toEqual(['BAD_LINE']);
  });
  it('BOARD characters outside the alphabet read as 0 with a warning', () => {
    const l = nw(['BOARD 0 0 2 0 A=BA']);
    expect(Array.from(l.layers[0]!.tiles.subarray(0, 2))).toEqual([0, 64]);
    expect(l.warnings.map((w) => w.code)).toEqual(['BOARD_CHARACTER']);
  });
});

describe('graal .gmap', () => {
  it('keeps positional blanks and option lines', () => {
    const m = graal.decode(readBytes(join(dir, 'world.gmap'))) as graal.GraalGmap;
    expect(m).toMatchObject({ width: 3, height: 2, levels: [txts('world_a1.nw', '', 'world_c1.nw'), txts('world_a2.nw', 'world b2.nw', '')] });
    expect(m.options).toContainEqual(txt('NOAUTOMAPPING'));
  });
  it('reads unquoted names, blanks between commas and a trailing comma', () => {
    const m = graal.decodeGmap(enc('GRMAP001\r\nWIDTH 3\r\nHEIGHT 1\r\nLEVELNAMES\r\na.nw,, "c d.nw",\r\nLEVELNAMESEND\r\n'));
    expect(m.levels).toEqual([txts('a.nw', '', 'c d.nw')]);
    expect(m.lineEnding).toBe('\r\n');
    expect(m.warnings).toEqual([]);
  });
});

// Inputs no fixture holds because of their size: one line of 1 MB, and many short lines.
describe('graal long lines and many lines', () => {
  const long = 'A'.repeat(1_000_000);
  // The sample level as GR-V1.04 with an empty line after the signs, so what follows is read as a
  // possible HEIGHTS section.
  const v104Tail = (tail: string) => Uint8Array.from([...enc('GR-V1.04'), ...readBytes(join(dir, 'gr-v103.graal')).subarray(8), 0x0a, ...enc(tail)]);
  it('.nw: a 1 MB line without spaces is an unknown line (no stack overflow)', () => {
    const l = graal.decodeNw(enc(`GLEVNW01\n${long}\nTILESET classic\n`));
    // Texts compared by their string and bytes (toEqual walks a 1 MB array element by element).
    expect(l.unknownLines.map((u) => [u.text, Buffer.from(u.raw).equals(enc(long))])).toEqual([[long, true]]);
    expect(l.tileset).toEqual(txt('classic'));
  });
  it('.nw: a 1 MB keyword-like first token, and a 1 MB TILESET argument', () => {
    const l = graal.decodeNw(enc(`GLEVNW01\nTILESET${long} x\nTILESET ${long}\n`));
    expect(l.unknownLines.map((u) => [u.text, Buffer.from(u.raw).equals(enc(`TILESET${long} x`))])).toEqual([[`TILESET${long} x`, true]]);
    expect([l.tileset?.text, Buffer.from(l.tileset!.raw).equals(enc(long))]).toEqual([long, true]);
  });
  it('binary: a 1 MB final line where HEIGHTS may start is trailing bytes (with and without a newline)', () => {
    for (const tail of [long, `${long}\n`]) {
      const l = graal.decodeBinary(v104Tail(tail));
      expect(l.heights).toBeUndefined();
      expect(l.signs).toHaveLength(2);
      expect(l.warnings.map((w) => w.code)).toEqual(['TRAILING_BYTES']);
    }
    expect(() => graal.decodeBinary(v104Tail(long), { strict: true })).toThrow(DecodeError);
  });
  it('line bounds live in two Int32Arrays (a 16 MB file of newlines has 16 M lines); CR dropped only in CRLF files', () => {
    const lines = splitLines(enc('ab\r\n\r\nc\rd\ne'));
    expect(lines).toEqual({ count: 4, starts: Int32Array.of(0, 4, 6, 10), ends: Int32Array.of(2, 4, 9, 11), crlf: true, boards: new Int32Array(0) });
    expect(splitLines(enc('a\r\n'))).toEqual({ count: 1, starts: Int32Array.of(0), ends: Int32Array.of(1), crlf: true, boards: new Int32Array(0) });
    expect(splitLines(enc('a\n\r\n'))).toEqual({ count: 2, starts: Int32Array.of(0, 2), ends: Int32Array.of(1, 3), crlf: false, boards: new Int32Array(0) });
    // Trusted BOARD rows come back parsed: (line, data offset, w, layer, y·64 + x).
    const rows = splitLines(enc('GLEVNW01\nBOARD 1 2 2 0 AAAB\nBOARD 0 0 1 0 A\nBOARD 3 1 1 7 AB\n'), true);
    expect(rows.count).toBe(4);
    expect(rows.boards).toEqual(Int32Array.of(1, 23, 2, 0, 2 * 64 + 1, 3, 58, 1, 7, 64 + 3));
    expect(splitLines(new Uint8Array(0)).count).toBe(0);
    const newlines = (magic: string) => {
      const b = new Uint8Array(1 << 22).fill(0x0a);
      b.set(enc(magic));
      return b;
    };
    expect(content(graal.decodeNw(newlines('GLEVNW01')))).toEqual(content(graal.blankLevel('graal-nw', 'GLEVNW01')));
    expect(graal.decodeGmap(newlines('GRMAP001'))).toMatchObject({ width: 0, height: 0, levels: [], options: [], warnings: [] });
  });
  it('.nw, .gmap and binary: huge and many-line inputs give results or DecodeErrors, in a worker with a timeout', async () => {
    // 50,000 lines in 100 KB: a keyword search not bounded to its line scans the rest of the file
    // for every line (~2.5·10^9 byte compares, over a second per decode, so the ~260 decodes of
    // the sweep outlast the timeout); bounded, the whole sweep takes a few seconds.
    const many = enc(`GLEVNW01\n${'x\n'.repeat(50_000)}`);
    const files = [
      { name: 'many-lines.nw', bytes: many },
      { name: 'long-line.nw', bytes: enc(`GLEVNW01\n${long}`) },
      { name: 'long-line.gmap', bytes: enc(`GRMAP001\n${long}`) },
      { name: 'long-tail.graal', bytes: v104Tail(long) },
    ];
    const report = await fuzz({ files, seed: 1, mutationsPerFile: 4, maxPrefixes: 0 });
    expect(report.failures).toEqual([]);
    expect(report.decoded).toBeGreaterThan(4 * 64);
    expect(graal.decodeNw(many).unknownLines).toHaveLength(50_000);
  }, 120_000);
});

describe('graal through the public API', () => {
  it('decode/summarize/encode dispatch on the three ids; summary fields', () => {
    const l = decode(readBytes(join(dir, 'gr-v105-layers.graal')));
    expect(l.format).toBe('graal');
    if (l.format !== 'graal') throw new Error('not a binary level');
    const s = summarize(l);
    expect(s.version).toBe('GR-V1.05');
    expect(s.summary).toMatchObject({ header: 'GR-V1.05', layers: 3, links: 2, baddies: 2, npcs: 2, chests: 2, signs: 2 });
    expect(s.summary).toHaveProperty('gridDigest', graal.gridDigest(l));
    expect(summarize(decode(readBytes(join(dir, 'layers.nw')))).summary).toHaveProperty('gridDigest', graal.gridDigest(l));
    expect(summarize(decode(readBytes(join(dir, 'world.gmap'))))).toEqual({ version: 'GRMAP001', summary: { width: 3, height: 2, levels: 4 } });
    expect(encode(l)).toEqual(graal.encodeBinary(l));
  });
  it('tile id ↔ tileset position', () => {
    expect(graal.tileToTileset(0)).toEqual({ x: 0, y: 0 });
    expect(graal.tileToTileset(17)).toEqual({ x: 1, y: 1 });
    expect(graal.tileToTileset(512)).toEqual({ x: 16, y: 0 });
    expect(graal.tileToTileset(4095)).toEqual({ x: 127, y: 31 });
    for (let id = 0; id < 4096; id++) {
      const p = graal.tileToTileset(id);
      expect(graal.tilesetToTile(p.x, p.y)).toBe(id);
    }
  });
});
