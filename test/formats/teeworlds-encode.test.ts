// Teeworlds encoder: round-trip or refuse. One test (at least) per EncodeError code the format can
// raise, the issue-11 refusals (grids and pixels of the wrong size, a NaN time, a missing field),
// encode options, texts (raw bytes kept, changed strings written as UTF-8), and bounded string
// blocks on the decode side.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeText, textFrom } from '../../src/core/text.js';
import type { MapLayer, TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { DecodeError, EncodeError, teeworlds } from '../../src/index.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';
import { sameMap } from './teeworlds-helpers.js';

const load = (name: string) => teeworlds.decode(readBytes(join(FIXTURES, 'teeworlds', name)));
const layers = (m: TeeworldsMap): MapLayer[] => m.groups.flatMap((g) => g.layers);

/** The EncodeError `encode(m)` throws (failing the test when it throws anything else or nothing). */
function refusal(m: TeeworldsMap, opts?: teeworlds.EncodeOptions): EncodeError {
  try {
    teeworlds.encode(m, opts);
  } catch (e) {
    if (e instanceof EncodeError) return e;
    throw e;
  }
  throw new Error('encode did not refuse');
}

function gameLayer(m: TeeworldsMap) {
  const g = layers(m).find((l) => l.kind === 'game');
  if (g?.kind !== 'game') throw new Error('no game layer');
  return g;
}

describe('teeworlds encoder refusals (issue 11)', () => {
  it('BAD_LENGTH: a tile layer whose width no longer matches its columns (no zero padding)', () => {
    const m = load('ddnet-all-items.map');
    gameLayer(m).width += 1;
    expect(refusal(m)).toMatchObject({ code: 'BAD_LENGTH', format: 'teeworlds', path: 'groups[1].layers[0].tiles.index', expected: 70, actual: 63 });
  });
  it('BAD_LENGTH: a short index column', () => {
    const m = load('ddnet-all-items.map');
    const g = gameLayer(m);
    g.tiles = { index: g.tiles!.index.slice(1), flags: g.tiles!.flags };
    expect(refusal(m)).toMatchObject({ code: 'BAD_LENGTH', path: 'groups[1].layers[0].tiles.index' });
  });
  it('BAD_LENGTH: a physics column of the wrong length', () => {
    const m = load('ddnet-all-items.map');
    const tele = layers(m).find((l) => l.kind === 'tele');
    if (tele?.kind !== 'tele') throw new Error('no tele layer');
    tele.tele = { number: tele.tele!.number, type: new Uint8Array(62) };
    expect(refusal(m)).toMatchObject({ code: 'BAD_LENGTH', path: 'groups[1].layers[3].tele.type' });
  });
  it('BAD_LENGTH: an image with the wrong number of pixels', () => {
    const m = load('ddnet-all-items.map');
    m.images[1]!.pixels = new Uint8Array(4 * 2 * 4 - 1);
    expect(refusal(m)).toMatchObject({ code: 'BAD_LENGTH', path: 'images[1].pixels', expected: 32, actual: 31 });
  });
  it('BAD_LENGTH: quad columns that disagree with count', () => {
    const m = load('ddnet-all-items.map');
    const q = layers(m)[0]!;
    if (q.kind !== 'quads') throw new Error('not quads');
    q.quads!.count += 1;
    expect(refusal(m)).toMatchObject({ code: 'BAD_LENGTH', path: 'groups[0].layers[0].quads.points' });
  });
  it('OUT_OF_RANGE: a NaN envelope time (it used to be written as 0)', () => {
    const m = load('ddnet-all-items.map');
    const p = m.envelopes[0]!.points;
    (p as { time: unknown }).time = [0, NaN];
    expect(refusal(m)).toMatchObject({ code: 'OUT_OF_RANGE', path: 'envelopes[0].points.time[1]' });
  });
  it('OUT_OF_RANGE: numbers outside their field (i32, non-integer, tilemap version)', () => {
    const m = load('ddnet-all-items.map');
    m.groups[1]!.offsetX = 2 ** 31;
    expect(refusal(m)).toMatchObject({ code: 'OUT_OF_RANGE', path: 'groups[1].offsetX' });
    const n = load('ddnet-all-items.map');
    n.envelopes[1]!.channels = 1.5;
    expect(refusal(n)).toMatchObject({ code: 'OUT_OF_RANGE', path: 'envelopes[1].channels' });
    const o = load('ddnet-all-items.map');
    gameLayer(o).tilemapVersion = 5;
    expect(refusal(o)).toMatchObject({ code: 'OUT_OF_RANGE', path: 'groups[1].layers[0].tilemapVersion' });
    const p = load('ddnet-all-items.map');
    p.extraItems[0]!.id = 0x10000;
    expect(refusal(p)).toMatchObject({ code: 'OUT_OF_RANGE', path: 'extraItems[0].id' });
  });
  it('BAD_VALUE: a missing field (it used to be an internal TypeError)', () => {
    const m = load('ddnet-all-items.map');
    delete (m.groups[1] as Partial<TeeworldsMap['groups'][number]>).parallaxX;
    expect(refusal(m)).toMatchObject({ code: 'BAD_VALUE', path: 'groups[1].parallaxX' });
    const n = load('ddnet-all-items.map');
    delete (n.envelopes[0] as { points?: unknown }).points;
    expect(refusal(n)).toMatchObject({ code: 'BAD_VALUE', path: 'envelopes[0].points' });
    const o = load('ddnet-all-items.map');
    delete (o.images[0] as { name?: unknown }).name;
    expect(refusal(o)).toMatchObject({ code: 'BAD_VALUE', path: 'images[0].name' });
  });
  it('BAD_VALUE: what the format cannot frame or would drop', () => {
    const withNul = load('ddnet-all-items.map');
    withNul.info!.author = textFrom('a\0b', 'utf-8');
    expect(refusal(withNul)).toMatchObject({ code: 'BAD_VALUE', path: 'info.author' });
    const nameless = load('ddnet-all-items.map');
    nameless.groups[0]!.name = textFrom('Back', 'utf-8'); // a v1 group has no name field
    expect(refusal(nameless)).toMatchObject({ code: 'BAD_VALUE', path: 'groups[0].name' });
    const twoGrids = load('ddnet-all-items.map');
    Object.assign(gameLayer(twoGrids), { tele: { number: new Uint8Array(63), type: new Uint8Array(63) } });
    expect(refusal(twoGrids)).toMatchObject({ code: 'BAD_VALUE', path: 'groups[1].layers[0].tele' });
    const flavour = load('ddnet-all-items.map');
    flavour.flavour = 'teeworlds07';
    expect(refusal(flavour)).toMatchObject({ code: 'BAD_VALUE', path: 'flavour' });
    const cp1252 = load('ddnet-all-items.map');
    cp1252.info!.author = textFrom('été'); // textFrom's default code page is windows-1252, not the map's UTF-8
    expect(refusal(cp1252)).toMatchObject({ code: 'BAD_VALUE', path: 'info.author.encoding' });
    const order = load('ddnet-all-items.map');
    order.extraItems.reverse();
    expect(refusal(order)).toMatchObject({ code: 'BAD_VALUE', path: 'extraItems[2]' });
  });
  it('UNENCODABLE_TEXT: a string UTF-8 cannot hold (a lone surrogate), never written as ?', () => {
    const m = load('ddnet-all-items.map');
    m.images[0]!.name = { ...m.images[0]!.name, text: 'grass\ud800' };
    expect(refusal(m)).toMatchObject({ code: 'UNENCODABLE_TEXT', path: 'images[0].name' });
    const n = load('ddnet-all-items.map');
    n.groups[1]!.name = { ...n.groups[1]!.name, text: '\udc00' };
    expect(refusal(n)).toMatchObject({ code: 'UNENCODABLE_TEXT', path: 'groups[1].name' });
  });
  it('LIMIT_EXCEEDED: more than a field or the format can store', () => {
    const m = load('ddnet-all-items.map');
    m.groups[1]!.name = textFrom('twelve bytes', 'utf-8'); // int-packed: 11 bytes at most
    expect(refusal(m)).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'groups[1].name', actual: 12 });
    const n = load('ddnet-all-items.map');
    n.info!.credits = textFrom('x'.repeat(teeworlds.MAX_STRING_BYTES), 'utf-8');
    expect(refusal(n)).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'info.credits' });
    const o = load('ddnet-all-items.map');
    const external = o.images[0]!;
    o.images = Array.from({ length: 0x10001 }, () => external);
    expect(refusal(o)).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'images' });
  });
  it('refuses before writing anything: the model is left as it was', () => {
    const m = load('ddnet-all-items.map');
    gameLayer(m).height += 1;
    const before = structuredClone(m);
    expect(refusal(m).code).toBe('BAD_LENGTH');
    expect(m).toEqual(before);
  });
});

describe('teeworlds encode options', () => {
  const m = load('ddrace-v2.map');
  it('version other than 3 or 4 is a RangeError naming the option and the allowed values', () => {
    expect(() => teeworlds.encode(m, { version: 5 as 4 })).toThrow(new RangeError("teeworlds.encode: option 'version' must be one of 3, 4, got 5"));
  });
  it('level must be a whole number 0–9; unknown options and non-objects are TypeErrors', () => {
    expect(() => teeworlds.encode(m, { level: 10 })).toThrow(/option 'level' must be a whole number 0–9, got 10/);
    expect(() => teeworlds.encode(m, { level: 1.5 })).toThrow(RangeError);
    expect(() => teeworlds.encode(m, { compression: 9 } as teeworlds.EncodeOptions)).toThrow(
      new TypeError("teeworlds.encode: unknown option 'compression' (known: version, level)"),
    );
    expect(() => teeworlds.encode(m, 4 as unknown as teeworlds.EncodeOptions)).toThrow(TypeError);
    expect(() => teeworlds.writeDatafile([], [], { version: 2 as 3 })).toThrow(/option 'version'/);
  });
});

describe('teeworlds texts', () => {
  it('every text is a Text in utf-8, whatever the encoding option says', () => {
    const m = teeworlds.decode(readBytes(join(FIXTURES, 'teeworlds/ddnet-all-items.map')), { encoding: 'windows-1250' });
    expect(m.info!.author).toEqual(textFrom('levelkit', 'utf-8'));
    expect(m.envelopes[1]!.name).toEqual({ text: 'colour ✓', raw: new TextEncoder().encode('colour ✓'), encoding: 'utf-8' });
  });
  it('invalid UTF-8 bytes survive decode → encode → decode as raw; a changed string is written as UTF-8', () => {
    const m = load('ddnet-all-items.map');
    const bad = Uint8Array.of(0x47, 0xff, 0xc3, 0x28); // 'G', a lone 0xff, a broken 2-byte sequence
    m.groups[1]!.name = makeText(bad, 'utf-8');
    m.info!.author = makeText(Uint8Array.of(0xe9, 0x74, 0xe9), 'utf-8'); // Latin-1 'été'
    m.images[0]!.name = textFrom('grass_ø', 'utf-8');
    const again = teeworlds.decode(teeworlds.encode(m));
    expect(again.groups[1]!.name.raw).toEqual(bad);
    expect(again.groups[1]!.name.text).toBe('G\ufffd\ufffd(');
    expect(again.info!.author!.raw).toEqual(Uint8Array.of(0xe9, 0x74, 0xe9));
    expect(again.images[0]!.name).toEqual(textFrom('grass_ø', 'utf-8'));
    expect(sameMap(again, m)).toBeNull();
    // Editing the text of a field decoded from invalid bytes writes the new text.
    again.groups[1]!.name = { ...again.groups[1]!.name, text: 'Göme' };
    expect(teeworlds.decode(teeworlds.encode(again)).groups[1]!.name).toEqual(textFrom('Göme', 'utf-8'));
  });
  it('the generated fixtures re-encode byte for byte (same encoder, same level)', () => {
    for (const [name, opts] of [
      ['ddnet-all-items.map', {}],
      ['tw07-skip.map', {}],
      ['ddrace-v2.map', {}],
      ['ddnet-all-items.v3.map', { version: 3 }],
    ] as const) {
      const bytes = readBytes(join(FIXTURES, 'teeworlds', name));
      expect(teeworlds.encode(teeworlds.decode(bytes), opts), name).toEqual(bytes);
    }
  });
});

describe('teeworlds bounded string blocks', () => {
  const DECLARED = 200 * 1024 * 1024;
  /** A small map whose INFO strings and many image and sound names each declare ~200 MiB (data_sizes patched; the stored bytes are tiny). */
  function hugeNames(withInfo: boolean): Uint8Array {
    const m = load('ddrace-v2.map');
    if (withInfo)
      m.info = {
        version: 1,
        author: textFrom('a', 'utf-8'),
        mapVersion: textFrom('b', 'utf-8'),
        credits: null,
        license: null,
        settings: [textFrom('sv_x 1', 'utf-8')],
      };
    m.images = Array.from({ length: 64 }, (_, k) => ({ version: 1, width: 1, height: 1, name: textFrom(`i${k}`, 'utf-8'), external: true }));
    m.sounds = Array.from({ length: 64 }, (_, k) => ({ version: 1, external: true, name: textFrom(`s${k}`, 'utf-8') }));
    const file = teeworlds.encode(m);
    const df = teeworlds.openDatafile(file);
    const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
    // data_sizes follows the header (36), item types (12 each), item offsets and data offsets (4 each).
    const sizesAt = 36 + df.types.size * 12 + df.items.length * 4 + df.blocks.length * 4;
    // Every block but the grids (the strings and settings) declares ~200 MiB.
    const grids = new Set(df.items.filter((it) => it.typeId === 5).flatMap((it) => Array.from(it.data.slice(14, 20))));
    let patched = 0;
    df.blocks.forEach((_, i) => {
      if (!grids.has(i)) {
        view.setInt32(sizesAt + i * 4, DECLARED, true);
        patched++;
      }
    });
    expect(patched).toBeGreaterThanOrEqual(128);
    return file;
  }

  it('a name declaring 200 MiB is refused (LIMIT_EXCEEDED) before anything is inflated, in every sections mode', () => {
    // The info item is read last and a field it cannot hold is null with a warning (BAD_INFO_FIELD):
    // with or without it, the image name is what refuses the map.
    for (const [withInfo, where] of [
      [true, /^images\[0\]\.name$/],
      [false, /^images\[0\]\.name$/],
    ] as const) {
      const file = hugeNames(withInfo);
      expect(file.length).toBeLessThan(64 * 1024);
      for (const sections of ['all', 'summary'] as const) {
        for (const backend of ['js', 'wasm'] as const) {
          const before = process.memoryUsage().arrayBuffers;
          const t0 = performance.now();
          let err: unknown;
          try {
            teeworlds.decode(file, { sections, backend });
          } catch (e) {
            err = e;
          }
          const ms = performance.now() - t0;
          expect(err).toBeInstanceOf(DecodeError);
          expect(err).toMatchObject({ code: 'LIMIT_EXCEEDED', path: expect.stringMatching(where), actual: DECLARED });
          expect(ms).toBeLessThan(2000); // a few ms alone; generous for a loaded machine
          expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
        }
      }
    }
  });
});

describe('teeworlds envelope names', () => {
  it('a name whose first int packs to −1 (0.5\'s "no name") is refused, not lost', () => {
    const m = load('ddnet-all-items.map');
    m.envelopes[1]!.name = textFrom('\x7f\x7f\x7f\x7fx', 'utf-8');
    expect(refusal(m)).toMatchObject({ code: 'BAD_VALUE', path: 'envelopes[1].name' });
    m.envelopes[1]!.name = textFrom('\x7f\x7f\x7fx', 'utf-8');
    expect(teeworlds.decode(teeworlds.encode(m)).envelopes[1]!.name.text).toBe('\x7f\x7f\x7fx');
  });
});

describe('teeworlds per-file inflate budget', () => {
  it('blocks that each fit add up against maxTotalInflatedBytes: LIMIT_EXCEEDED at the block that overdraws it', () => {
    const bytes = readBytes(join(FIXTURES, 'teeworlds/ddnet-all-items.map'));
    const df = teeworlds.openDatafile(bytes);
    const total = df.blocks.reduce((n, b) => n + b.byteLength, 0);
    expect(teeworlds.decode(bytes, { limits: { maxTotalInflatedBytes: total } }).groups.length).toBe(3);
    let err: unknown;
    try {
      teeworlds.decode(bytes, { limits: { maxTotalInflatedBytes: Math.floor(total / 2) } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DecodeError);
    expect(err).toMatchObject({ code: 'LIMIT_EXCEEDED', offset: expect.any(Number) });
  });
});
