// GWC/GWZ on the generated fixtures: decode facts, byte-exact re-encode, both kernel sets equal,
// the malformed manifest, a truncation at every section boundary, encoder refusals, the
// round-trip-or-refuse property over seeded model mutations, extract and compareGwz.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEXT_FIELDS } from '../../src/formats/gwc/encode.js';
import type { GwcCartridge, GwzArchive } from '../../src/formats/gwc/index.js';
import { DecodeError, decode, detect, EncodeError, encode, gwc, summarize, textFrom } from '../../src/index.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';

const dir = join(FIXTURES, 'gwc');
const load = (name: string) => readBytes(join(dir, name));
const cart = (name: string, opts = {}) => gwc.decode(load(name), opts) as GwcCartridge;
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const GWC_FIXTURES = ['basic.gwc', 'odd-ids-deleted-cp1252.gwc', 'orphan-records.gwc', 'header-length-mismatch.gwc', 'media-two-entries.gwc'];

/** What a round trip must keep: everything but offsets, HeaderLength, warnings and text labels. */
function content(c: GwcCartridge) {
  const t = (x: { text: string; raw: Uint8Array } | null) => (x ? x.text : null);
  const h = c.header;
  return {
    signatureVersion: c.signatureVersion,
    table: c.table.map((r) => ({ id: r.id, gapBefore: Array.from(r.gapBefore) })),
    header: {
      ...h,
      created: h.created?.getTime() ?? null,
      type: t(h.type),
      player: t(h.player),
      name: t(h.name),
      guid: t(h.guid),
      description: t(h.description),
      startingLocation: t(h.startingLocation),
      version: t(h.version),
      author: t(h.author),
      company: t(h.company),
      recommendedDevice: t(h.recommendedDevice),
      completionCode: t(h.completionCode),
    },
    lua: { bytes: Array.from(c.lua.bytes), header: c.lua.header, sourceName: t(c.lua.sourceName) },
    media: c.media.map((m) => ({ id: m.id, valid: m.valid, type: m.type, data: Array.from(m.data), length: m.length })),
    trailing: Array.from(c.trailing),
  };
}

describe('gwc fixtures', () => {
  it('detect says gwc for cartridges and gwz for the zip', () => {
    for (const f of GWC_FIXTURES) expect(detect(load(f))).toBe('gwc');
    expect(detect(load('sample.gwz'))).toBe('gwz');
  });

  it('basic: header at real widths, UTF-8 strings, media by type, the Lua header and source name', () => {
    const c = cart('basic.gwc');
    expect(c.warnings).toEqual([]);
    expect(c.header.name).toMatchObject({ text: 'Schatzsuche in Köln – Größe ✓', encoding: 'utf-8' });
    expect(c.header.createdSeconds).toBe(462_000_000n);
    expect(c.header.created?.toISOString()).toBe(new Date(Date.UTC(2004, 1, 10, 1) + 462_000_000_000).toISOString());
    expect(c.header.playerId).toBe(-1n);
    expect([c.header.latitude, c.header.longitude, c.header.altitude]).toEqual([50.9375, 6.9603, 53.5]);
    expect([c.header.splashId, c.header.iconId]).toEqual([1, 2]);
    expect(c.lua.header).toEqual({
      version: 0x51,
      format: 0,
      littleEndian: true,
      intSize: 4,
      sizeTSize: 4,
      instructionSize: 4,
      numberSize: 8,
      integral: false,
    });
    expect(c.lua.sourceName?.text).toBe('@C:/Users/test/AppData/Local/Temp/urwigo-src-00000000.lua');
    const s = summarize(c);
    expect(s.version).toBe(10);
    expect(s.summary).toMatchObject({ objects: 4, deleted: 0, mediaByType: { jpg: 1, png: 1, mp3: 1 }, playAnywhere: false, luaBytes: c.lua.bytes.length });
    expect(s.summary.contentDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(s.summary).sort()).toEqual(
      [
        'altitude',
        'author',
        'company',
        'contentDigest',
        'created',
        'deleted',
        'guid',
        'latitude',
        'longitude',
        'luaBytes',
        'luaSource',
        'mediaByType',
        'name',
        'objects',
        'playAnywhere',
        'type',
        'version',
      ].sort(),
    );
    expect(gwc.mainGrid(c)).toBeUndefined();
  });

  it('odd: ids out of order are looked up by id; deleted, unknown type, valid 2, Windows-1252 text, date 0, size_t 8', () => {
    const c = cart('odd-ids-deleted-cp1252.gwc');
    expect(c.table.map((r) => r.id)).toEqual([0, 3, 1, 4, 2]);
    expect(c.media.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(c.media[1]).toMatchObject({ valid: 0, type: null, length: 0 });
    expect(c.media[2]).toMatchObject({ valid: 2, type: 77 });
    expect(c.header.name).toMatchObject({ text: 'Schätze für 5 €', encoding: 'windows-1252' });
    expect(c.header.author.text).toBe('Renée Böhm');
    expect(c.header.created).toBeNull();
    expect(c.header.playerId).toBe(8452679n);
    expect(c.lua.header.sizeTSize).toBe(8);
    expect(c.warnings.map((w) => w.code)).toEqual(['UNKNOWN_MEDIA_TYPE']);
    expect(summarize(c).summary).toMatchObject({ deleted: 1, objects: 5, playAnywhere: true, created: null, mediaByType: { jpg: 1, 'unknown-77': 1, fdl: 1 } });
    expect(() => gwc.decode(load('odd-ids-deleted-cp1252.gwc'), { strict: true })).toThrow(
      expect.objectContaining({ code: 'STRICT', warning: 'UNKNOWN_MEDIA_TYPE' }),
    );
  });

  it("valid byte 2: the second entry after the first is the object's (players read the first), at both depths, byte for byte back", () => {
    const bytes = load('media-two-entries.gwc');
    const c = cart('media-two-entries.gwc');
    expect(c.warnings).toEqual([]);
    expect(c.trailing.length).toBe(0);
    expect(c.table.map((r) => r.gapBefore.length)).toEqual([0, 0, 0, 0]);
    // The first entry is the media every player shows.
    expect(c.media.map((m) => [m.valid, m.type, m.length])).toEqual([
      [2, 18, 33],
      [1, 3, 44],
      [2, 18, 33],
    ]);
    expect(c.media.map((m) => m.extraEntries?.map((e) => [e.type, e.length, e.data.length]))).toEqual([[[19, 18, 18]], undefined, [[19, 6, 6]]]);
    expect(Array.from(c.media[2]!.extraEntries![0]!.data)).toEqual([1, 2, 3, 4, 5, 6]);
    const lite = cart('media-two-entries.gwc', { sections: 'summary' });
    expect(lite.warnings).toEqual([]);
    expect(lite.media[0]!.extraEntries!.map((e) => [e.type, e.length, e.data.length])).toEqual([[19, 18, 0]]);
    expect(summarize(lite)).toEqual(summarize(c));
    expect(same(gwc.encode(c), bytes)).toBe(true);
  });

  it('valid byte 2 whose entries do not fit before the next object: the bytes stay orphan bytes, as before', () => {
    // odd-ids-deleted-cp1252.gwc: object 3 has valid 2 and the next object follows at once.
    const c = cart('odd-ids-deleted-cp1252.gwc');
    const v2 = c.media.find((m) => m.valid === 2)!;
    expect(v2.extraEntries).toBeUndefined();
  });

  it('the encoder refuses entries the valid byte does not count, and a valid byte whose entries it would read back from the bytes after', () => {
    const c = cart('media-two-entries.gwc');
    c.media[0]!.valid = 3;
    expect(() => gwc.encode(c)).toThrow(expect.objectContaining({ code: 'BAD_VALUE', path: 'media[0].extraEntries' }));
    const d = cart('media-two-entries.gwc');
    // Moving the entry into the next row's gap keeps the bytes but drops it from the model.
    const e = d.media[0]!.extraEntries![0]!;
    const rec = new Uint8Array(8 + e.length);
    new DataView(rec.buffer).setInt32(0, e.type, true);
    new DataView(rec.buffer).setInt32(4, e.length, true);
    rec.set(e.data, 8);
    d.table[2]!.gapBefore = rec;
    delete d.media[0]!.extraEntries;
    expect(() => gwc.encode(d)).toThrow(expect.objectContaining({ code: 'BAD_VALUE', path: 'media[0].extraEntries' }));
    d.media[0]!.valid = 1;
    const back = gwc.decode(gwc.encode(d)) as GwcCartridge;
    expect(back.warnings.map((w) => w.code)).toEqual(['ORPHAN_BYTES']);
  });

  it('orphan records between objects and at the end are kept and reported; a declared type the bytes contradict is a warning', () => {
    const c = cart('orphan-records.gwc');
    expect(c.warnings.map((w) => w.code)).toEqual(['MEDIA_TYPE_MISMATCH', 'ORPHAN_BYTES', 'ORPHAN_BYTES']);
    expect(c.warnings[0]!.message).toContain('look like jpg');
    expect(c.warnings[1]!.message).toContain('type 19 fdl, 18 bytes');
    expect(c.table[2]!.gapBefore.length).toBe(26);
    expect(c.trailing.length).toBe(14);
  });

  it('HeaderLength that disagrees with the fields is a warning; encode writes the true length (the one fixture that is not byte-exact)', () => {
    const bytes = load('header-length-mismatch.gwc');
    const c = gwc.decode(bytes) as GwcCartridge;
    expect(c.warnings.map((w) => w.code)).toEqual(['HEADER_LENGTH']);
    const out = gwc.encode(c);
    expect(same(out, bytes)).toBe(false);
    const diff = [...out.keys()].filter((i) => out[i] !== bytes[i]);
    expect(diff).toEqual([33]); // only the low byte of HeaderLength (at 9 + 6 × 4) differs, by 3
    expect(bytes[33]! - out[33]!).toBe(3);
    expect((gwc.decode(out) as GwcCartridge).warnings).toEqual([]);
  });

  it('every fixture re-encodes byte for byte (HeaderLength fixture aside), also through the top-level encode()', () => {
    for (const f of GWC_FIXTURES.filter((n) => !n.startsWith('header-length'))) {
      const bytes = load(f);
      expect(same(gwc.encode(gwc.decode(bytes)), bytes), f).toBe(true);
      expect(same(encode(decode(bytes) as GwcCartridge), bytes), f).toBe(true);
    }
  });

  it('both kernel sets give the same result; summary decode gives the same summary without media bytes; results own their arrays', () => {
    for (const f of GWC_FIXTURES) {
      const bytes = load(f);
      const js = gwc.decode(bytes, { backend: 'js' });
      expect(gwc.decode(bytes, { backend: 'wasm' })).toEqual(js);
      const lite = gwc.decode(bytes, { sections: 'summary' }) as GwcCartridge;
      expect(lite.sections).toBe('summary');
      expect(summarize(lite)).toEqual(summarize(js));
      expect(lite.media.every((m) => m.data.length === 0)).toBe(true);
      const full = js as GwcCartridge;
      for (const a of [full.lua.bytes, full.trailing, ...full.media.map((m) => m.data), full.header.name.raw]) expect(a.buffer).not.toBe(bytes.buffer);
    }
  });

  // Codes, offsets and paths of every malformed fixture: test/bad-files.test.ts.
  it('a zip without a Lua file at its root is BAD_MAGIC for gwz', () => {
    expect(() => gwc.decode(load('bad/zip-without-lua.gwz'))).toThrow(expect.objectContaining({ code: 'BAD_MAGIC', format: 'gwz' }));
  });
});

describe('gwc warnings on patched files', () => {
  const basic = () => load('basic.gwc').slice();
  const codes = (b: Uint8Array) => (gwc.decode(b) as GwcCartridge).warnings.map((w) => [w.code, w.offset, w.path]);
  const hs = 9 + 6 * 4;

  it('MEDIA_REFERENCE: a splash id naming no object, an icon naming a deleted one', () => {
    const b = basic();
    new DataView(b.buffer).setInt16(hs + 4 + 32, 9, true);
    expect(codes(b)).toEqual([['MEDIA_REFERENCE', hs + 4 + 32, 'header.splashId']]);
    const c = cart('basic.gwc');
    c.media[1] = { ...c.media[1]!, valid: 0, type: null, data: new Uint8Array(0), length: 0 };
    expect(codes(gwc.encode(c))).toEqual([['MEDIA_REFERENCE', hs + 4 + 34, 'header.iconId']]);
  });

  it('COMPLETION_LENGTH: the field is kept as found and written back', () => {
    const c = cart('basic.gwc');
    c.header.completionCodeLength = 0; // what xmarksthespot writes
    const out = gwc.encode(c);
    const back = gwc.decode(out) as GwcCartridge;
    expect(back.warnings.map((w) => w.code)).toEqual(['COMPLETION_LENGTH']);
    expect(back.header.completionCodeLength).toBe(0);
    expect(same(gwc.encode(back), out)).toBe(true);
  });

  it('LUA_OFFSET: bytes between the header and the Lua object are kept (and reported) and round-trip', () => {
    const c = cart('basic.gwc');
    c.table[0]!.gapBefore = Uint8Array.of(1, 2, 3);
    const out = gwc.encode(c);
    const back = gwc.decode(out) as GwcCartridge;
    expect(back.warnings.map((w) => w.code)).toEqual(['LUA_OFFSET', 'ORPHAN_BYTES']);
    expect(Array.from(back.table[0]!.gapBefore)).toEqual([1, 2, 3]);
    expect(same(gwc.encode(back), out)).toBe(true);
  });

  it('LAYOUT: an object that starts inside the previous one; encode lays them out back to back', () => {
    const b = basic();
    const dv = new DataView(b.buffer);
    dv.setInt32(9 + 6 * 2 + 2, dv.getInt32(9 + 6 + 2, true), true); // row 2 points at object 1's record
    const c = gwc.decode(b) as GwcCartridge;
    expect(c.warnings.map((w) => [w.code, w.path])).toEqual([
      ['LAYOUT', 'table[2].offset'],
      ['ORPHAN_BYTES', 'table[3].gapBefore'],
    ]);
    expect(c.media[1]!.data).toEqual(c.media[0]!.data);
    const back = gwc.decode(gwc.encode(c)) as GwcCartridge;
    expect(back.warnings.map((w) => w.code)).toEqual(['ORPHAN_BYTES']);
    expect(content(back)).toEqual(content(c));
  });

  it('strict: the first warning is a STRICT DecodeError carrying its code', () => {
    expect(() => gwc.decode(load('orphan-records.gwc'), { strict: true })).toThrow(expect.objectContaining({ code: 'STRICT', warning: 'MEDIA_TYPE_MISMATCH' }));
  });
});

describe('gwc truncation', () => {
  const bytes = load('basic.gwc');
  const c = gwc.decode(bytes) as GwcCartridge;
  const hs = 9 + 6 * 4; // header start: after the signature, count and 4 table rows
  const lua = c.lua.offset;
  const m1 = c.media[0]!.offset;
  const fail = (n: number) => {
    try {
      gwc.decode(bytes.subarray(0, n));
    } catch (e) {
      return e;
    }
    return undefined;
  };

  it('every prefix is a DecodeError (TRUNCATED or OUT_OF_RANGE), never another error or a result', () => {
    for (let n = 0; n < bytes.length; n++) {
      const e = fail(n);
      expect(e, `prefix ${n}`).toBeInstanceOf(DecodeError);
      expect(['TRUNCATED', 'OUT_OF_RANGE'], `prefix ${n}`).toContain((e as DecodeError).code);
    }
  });

  it.each([
    ['signature', 3, 0, 'signature'],
    ['object count', 8, 7, 'objectCount'],
    ['object table', 9 + 6 * 2 + 1, 9, 'objectCount'],
    ['HeaderLength', hs + 2, hs, 'headerLength'],
    ['latitude', hs + 4 + 5, hs + 4, 'header.latitude'],
    ['longitude', hs + 12 + 5, hs + 12, 'header.longitude'],
    ['creation date', hs + 28 + 3, hs + 28, 'header.created'],
    ['splash id', hs + 36 + 1, hs + 36, 'header.splashId'],
    ['cartridge type', hs + 40 + 2, hs + 40, 'header.type'],
  ] as const)('cut in the %s: offset and path of the cut field', (_what, cut, offset, path) => {
    expect(fail(cut)).toMatchObject({ code: 'TRUNCATED', offset, path });
  });

  it('cuts in the Lua object and a media object name the field that was cut', () => {
    const cases: [number, number, string][] = [
      [lua + 2, lua, 'lua.length'],
      [lua + 4 + 8, lua + 4, 'lua'],
      [m1, m1, 'objects[1].valid'],
      [m1 + 3, m1 + 1, 'objects[1].type'],
      [m1 + 7, m1 + 5, 'objects[1].length'],
      [m1 + 20, m1 + 9, 'objects[1]'],
    ];
    for (const [cut, offset, path] of cases) expect(fail(cut), `cut ${cut}`).toMatchObject({ code: 'TRUNCATED', offset, path });
    // The last byte of a section missing: the section that holds it fails, at its start.
    expect(fail(lua - 1)).toMatchObject({ code: 'TRUNCATED', path: 'header.completionCode' });
    expect(fail(m1 - 1)).toMatchObject({ code: 'TRUNCATED', offset: lua + 4, path: 'lua' });
    // Objects are read in table order: a file cut where media 2 starts fails in media 2's first field.
    const m2 = c.media[1]!.offset;
    expect(m2).toBe(m1 + 9 + c.media[0]!.length);
    expect(fail(m2)).toMatchObject({ code: 'TRUNCATED', offset: m2, path: 'objects[2].valid' });
  });
});

describe('gwc.encode refuses what would not read back the same', () => {
  const base = () => cart('basic.gwc');
  const refuses = (mutate: (c: GwcCartridge) => void, code: string, path: string) => {
    const c = base();
    mutate(c);
    expect(() => gwc.encode(c)).toThrow(expect.objectContaining({ name: 'EncodeError', code, path }));
  };

  it('names the field and the reason', () => {
    refuses(
      (c) => {
        c.sections = 'summary';
      },
      'BAD_VALUE',
      'sections',
    );
    refuses(
      (c) => {
        c.table[1]!.id = 0;
      },
      'BAD_VALUE',
      'table[1].id',
    );
    refuses(
      (c) => {
        c.table.pop();
      },
      'BAD_LENGTH',
      'table',
    );
    refuses(
      (c) => {
        c.media[0]!.id = 7;
      },
      'BAD_VALUE',
      'media[0].id',
    );
    refuses(
      (c) => {
        c.header.splashId = 40000;
      },
      'OUT_OF_RANGE',
      'header.splashId',
    );
    refuses(
      (c) => {
        c.header.playerId = 1n << 63n;
      },
      'OUT_OF_RANGE',
      'header.playerId',
    );
    refuses(
      (c) => {
        c.header.createdSeconds = 5n;
      },
      'BAD_VALUE',
      'header.created',
    );
    refuses(
      (c) => {
        c.header.name = { ...c.header.name, text: 'a\0b' };
      },
      'BAD_VALUE',
      'header.name',
    );
    refuses(
      (c) => {
        c.header.author = { ...c.header.author, text: '漢字', encoding: 'windows-1252' };
      },
      'UNENCODABLE_TEXT',
      'header.author',
    );
    // cp1252 bytes of "Ã©" are C3 A9, valid UTF-8 for "é": it would read back as "é".
    refuses(
      (c) => {
        c.header.company = { ...c.header.company, text: 'Ã©', encoding: 'windows-1252' };
      },
      'UNENCODABLE_TEXT',
      'header.company',
    );
    refuses(
      (c) => {
        c.media[0]!.length = 3;
      },
      'BAD_LENGTH',
      'media[0].length',
    );
    refuses(
      (c) => {
        c.media[0]!.valid = 0;
      },
      'BAD_VALUE',
      'media[0].type',
    );
    refuses(
      (c) => {
        c.media[1]!.type = 2 ** 31;
      },
      'OUT_OF_RANGE',
      'media[1].type',
    );
    refuses(
      (c) => {
        c.lua.bytes = c.lua.bytes.slice();
        c.lua.bytes[6] = 0;
      },
      'BAD_VALUE',
      'lua.bytes',
    );
    refuses(
      (c) => {
        c.lua.header = { ...c.lua.header, sizeTSize: 8 };
      },
      'BAD_VALUE',
      'lua.header',
    );
    refuses(
      (c) => {
        c.lua.sourceName = textFrom('@other.lua', 'utf-8');
      },
      'BAD_VALUE',
      'lua.sourceName',
    );
  });

  it('edits that fit are written and read back: new text, a deleted object, a new date (gwcSeconds)', () => {
    const c = base();
    c.header.name = textFrom('Nouveau départ', 'windows-1252');
    c.media[2] = { ...c.media[2]!, valid: 0, type: null, data: new Uint8Array(0), length: 0 };
    const when = new Date(Date.UTC(2020, 5, 1, 12));
    c.header.createdSeconds = gwc.gwcSeconds(when);
    c.header.created = when;
    const back = gwc.decode(gwc.encode(c)) as GwcCartridge;
    expect(back.header.name.text).toBe('Nouveau départ');
    expect(back.media[2]!.valid).toBe(0);
    expect(back.header.created?.toISOString()).toBe(when.toISOString());
    expect(content(back)).toEqual(content(c));
  });

  it('property: seeded model mutations give an EncodeError or an exact round trip, nothing else', () => {
    const seed = 12_2026;
    const rng = new Prng(seed);
    const texts = ['', 'plain', 'Größe', 'a\0b', '€uro', '漢字', 'Ã©', '\ud800', 'x'.repeat(300)];
    const numbers = [0, -1, 1, 360, 0.5, -32769, 32767, 65535, 2 ** 31, -(2 ** 31), NaN, Infinity, 1e300];
    const fields = TEXT_FIELDS;
    const mutations: ((c: GwcCartridge) => void)[] = [
      (c) => {
        const k = fields[rng.int(fields.length)]!;
        c.header[k] = { ...c.header[k], text: texts[rng.int(texts.length)]!, encoding: rng.int(2) ? 'utf-8' : 'windows-1252' };
      },
      (c) => {
        const k = (['latitude', 'longitude', 'altitude'] as const)[rng.int(3)]!;
        c.header[k] = numbers[rng.int(numbers.length)]!;
      },
      (c) => {
        c.header[rng.int(2) ? 'splashId' : 'iconId'] = numbers[rng.int(numbers.length)]!;
      },
      (c) => {
        c.header.completionCodeLength = numbers[rng.int(numbers.length)]!;
      },
      (c) => {
        c.header.createdSeconds = BigInt(rng.int(1 << 30)) * (rng.int(2) ? 1n : 1n << 40n);
        if (rng.int(2)) c.header.created = gwc.gwcDate(c.header.createdSeconds);
      },
      (c) => {
        c.header.playerId = BigInt(rng.int(1 << 30)) << BigInt(rng.int(40));
      },
      (c) => {
        const m = c.media[rng.int(c.media.length)]!;
        m.valid = rng.int(300);
      },
      (c) => {
        const m = c.media[rng.int(c.media.length)]!;
        m.type = numbers[rng.int(numbers.length)]!;
      },
      (c) => {
        const m = c.media[rng.int(c.media.length)]!;
        m.data = rng.bytes(rng.int(50));
        if (rng.int(2)) m.length = m.data.length;
      },
      (c) => {
        const a = rng.int(c.table.length),
          b = rng.int(c.table.length);
        [c.table[a]!.id, c.table[b]!.id] = [c.table[b]!.id, c.table[a]!.id];
      },
      (c) => {
        c.table[rng.int(c.table.length)]!.id = rng.int(8);
      },
      (c) => {
        c.table[rng.int(c.table.length)]!.gapBefore = rng.bytes(rng.int(20));
      },
      (c) => {
        c.trailing = rng.bytes(rng.int(30));
      },
      (c) => {
        c.lua.bytes = c.lua.bytes.slice();
        c.lua.bytes[rng.int(c.lua.bytes.length)] = rng.next() & 0xff;
      },
      (c) => {
        c.signatureVersion = rng.int(3) ? 0x0a : rng.int(256);
      },
    ];
    let refused = 0,
      roundTrips = 0;
    for (let i = 0; i < 1500; i++) {
      const c = cart(GWC_FIXTURES[i % 3]!);
      for (let k = 1 + rng.int(3); k > 0; k--) mutations[rng.int(mutations.length)]!(c);
      let out: Uint8Array;
      try {
        out = gwc.encode(c);
      } catch (e) {
        expect(e, `case ${i} (seed ${seed})`).toBeInstanceOf(EncodeError);
        refused++;
        continue;
      }
      const back = gwc.decode(out) as GwcCartridge;
      expect(content(back), `case ${i} (seed ${seed})`).toEqual(content(c));
      roundTrips++;
    }
    expect(refused).toBeGreaterThan(100);
    expect(roundTrips).toBeGreaterThan(100);
  });
});

describe('gwc.extract', () => {
  it('writes the bytecode, media by id and type, and a JSON-safe cartridge.json', () => {
    const c = cart('odd-ids-deleted-cp1252.gwc');
    const files = gwc.extract(c).map((f) => ('bytes' in f ? f : { path: f.path, bytes: new Uint8Array(0) }));
    // Then the object model's files (test/formats/gwc-model-surfaces*.test.ts): zones.geojson and zones.gpx only when the analysis reads the chunk.
    expect(files.map((f) => f.path).slice(0, 6)).toEqual(['cartridge.luac', 'lua.txt', 'media/1.jpg', 'media/3.bin', 'media/4.fdl', 'cartridge.json']);
    expect(files.map((f) => f.path).slice(6)).toEqual(expect.arrayContaining(['objects.json', 'messages.txt']));
    expect(same(files[0]!.bytes, c.lua.bytes)).toBe(true);
    const json = JSON.parse(new TextDecoder().decode(files.find((f) => f.path === 'cartridge.json')!.bytes));
    expect(json.header.playerId).toBe('8452679');
    expect(json.header.name).toEqual({ text: 'Schätze für 5 €', encoding: 'windows-1252' });
    expect(json.objects.find((o: { id: number }) => o.id === 2)).toMatchObject({ deleted: true, file: null });
    expect(json.warnings.map((w: { code: string }) => w.code)).toEqual(['UNKNOWN_MEDIA_TYPE']);
    expect(() => gwc.extract(gwc.decode(load('basic.gwc'), { sections: 'summary' }))).toThrow(TypeError);
  });

  it('GWZ: Lua source, media under safe names, gwz.json', () => {
    const z = gwc.decode(load('sample.gwz')) as GwzArchive;
    const paths = gwc.extract(z).map((f) => f.path);
    expect(paths.slice(0, 5)).toEqual(['_cartridge.lua', 'media/Icon.jpg', 'media/ok.mp3', 'media/garmin_ok.fdl', 'gwz.json']);
    expect(paths.slice(5)).toEqual(expect.arrayContaining(['objects.json', 'messages.txt']));
    expect(gwc.safeName('..')).toBe('_..');
    expect(gwc.safeName('a/../b:c')).toBe('a_.._b_c');
  });
});

describe('gwz', () => {
  it('readGwz lists the Lua source (text) and media; summary; encode round-trips the archive', () => {
    const z = gwc.readGwz(load('sample.gwz'));
    expect(z.luaFile).toBe('_cartridge.lua');
    expect(z.lua).toMatchObject({ encoding: 'utf-8' });
    expect(z.lua.text).toContain('-- Größe');
    expect(z.media.map((m) => [m.name, m.size])).toEqual([
      ['Icon.jpg', 44],
      ['ok.mp3', 33],
      ['garmin_ok.fdl', 18],
    ]);
    expect(summarize(z)).toEqual({ version: 0, summary: { luaFile: '_cartridge.lua', media: 3, bytes: load('sample.gwz').length } });
    const back = gwc.decode(gwc.encode(z)) as GwzArchive;
    expect({ ...back, bytes: 0 }).toEqual({ ...z, bytes: 0 });
    const lite = gwc.decode(load('sample.gwz'), { sections: 'summary' }) as GwzArchive;
    expect(summarize(lite)).toEqual(summarize(z));
    expect(lite.media.every((m) => m.data.length === 0)).toBe(true);
    expect(() => gwc.encode(lite)).toThrow(EncodeError);
  });

  it('a member larger than the limit is refused before it is inflated; a damaged zip is a DecodeError', () => {
    expect(() => gwc.decode(load('sample.gwz'), { limits: { maxInflatedBytes: 40 } })).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }));
    const b = load('sample.gwz').slice();
    b.fill(0xff, 40, 60);
    expect(() => gwc.decode(b)).toThrow(DecodeError);
  });

  it('compareGwz relates source media to compiled objects by bytes and kind', () => {
    const z = gwc.readGwz(load('sample.gwz'));
    const c = cart('odd-ids-deleted-cp1252.gwc');
    const r = gwc.compareGwz(z, c);
    expect(r).toMatchObject({ gwzMedia: 3, gwcMedia: 3, sameCount: true, gwzByType: { jpg: 1, mp3: 1, fdl: 1 } });
    expect(r.matched).toEqual([
      { name: 'Icon.jpg', id: 1 },
      { name: 'garmin_ok.fdl', id: 4 },
    ]);
    expect(r.unmatched).toEqual(['ok.mp3']);
    expect(r.unmatchedIds).toEqual([3]);
    expect(r.referencedByLua).toEqual(['Icon.jpg']);
  });
});
