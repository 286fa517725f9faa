// Rusty Hearts .wdata: every generated fixture (each main version branch and EventBox version)
// decoded field by field against the values the generator wrote, re-encoded byte for byte, with
// both kernel sets; summaries, extract, malformed inputs and encoder refusals.
import { describe, expect, it } from 'vitest';
import { DecodeError, decode, detect, EncodeError, encode, summarize, wdata } from '../../src/index.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';
import { CASES, eventTableAt, normal, setU32, u32At } from './wdata-helpers.js';

const plain = (x: unknown) => JSON.parse(JSON.stringify(x));

function decodeError(bytes: Uint8Array): DecodeError {
  try {
    wdata.decode(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(DecodeError);
    return e as DecodeError;
  }
  throw new Error('decoded');
}

function encodeError(fn: () => unknown): EncodeError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(EncodeError);
    return e as EncodeError;
  }
  throw new Error('encoded');
}

describe('wdata fixtures', () => {
  it('cover main versions 1, 2, 7–22 and EventBox versions 1–9, and are committed', () => {
    const mains = new Set(CASES.map((c) => c.spec.main));
    for (const m of [1, 2, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]) expect(mains.has(m), `main ${m}`).toBe(true);
    const evs = new Set(CASES.map((c) => c.spec.ev));
    for (let e = 1; e <= 9; e++) expect(evs.has(e), `ev ${e}`).toBe(true);
    expect(listFiles(`${FIXTURES}/wdata`, /\.wdata$/).length).toBe(CASES.length);
  });

  describe.each(CASES)('$path', ({ path, bytes, expected, spec }) => {
    it('is what the generator wrote', () => {
      expect(readBytes(`${FIXTURES}/${path}`)).toEqual(bytes);
      expect(detect(bytes)).toBe('wdata');
    });
    it.each(['js', 'wasm'] as const)('decodes field by field to the generator values [%s]', (backend) => {
      const v = wdata.decode(bytes, { backend });
      expect(v.warnings).toEqual([]);
      expect(plain(wdata.levelRows(v))).toEqual(plain(expected));
      const ev = expected.eventBoxes as Record<string, unknown[]>;
      if (spec.main >= 7) expect(Object.keys(ev).length).toBe(18);
    });
    it('re-encodes byte for byte, through the namespace and encode()', () => {
      const v = decode(bytes);
      expect(Buffer.compare(Buffer.from(wdata.encode(v as wdata.WdataLevel)), Buffer.from(bytes))).toBe(0);
      expect(Buffer.compare(Buffer.from(encode(v)), Buffer.from(bytes))).toBe(0);
    });
    it('struct-of-arrays columns: OBB as Float32Array, one entry per box, boxAt agrees', () => {
      const v = wdata.decode(bytes);
      for (const t of [...(v.eventBoxes?.tables ?? []), v.aniBGs, v.itemBoxes, v.gimmicks]) {
        for (const c of wdata.OBB_COLUMNS) {
          expect(t[c]).toBeInstanceOf(Float32Array);
          expect(t[c].length).toBe(t.count);
        }
        for (const col of Object.values(t.fields)) expect(col.length).toBe(t.count);
      }
      if (v.eventBoxes) {
        const w = v.eventBoxes.tables[17]!;
        const box = wdata.boxAt(v, 17, 0);
        expect(box.position).toEqual([w.posX[0], w.posY[0], w.posZ[0]]);
        expect(box.links).toEqual(Array.from((w.fields.links as Int32Array[])[0]!));
      }
      expect(() => wdata.boxAt(v, 'aniBG', 99)).toThrow(RangeError);
    });
    it("summary: the issue's fields; sections: 'summary' gives the same from versions and counts", () => {
      const full = summarize(wdata.decode(bytes));
      const cheap = wdata.decode(bytes, { sections: 'summary' });
      expect(wdata.summarize(cheap)).toEqual(full);
      expect(cheap.aniBGs.count).toBe(0);
      expect(Object.keys(full.summary).sort()).toEqual(
        [
          'mainVersion',
          'eventBoxVersion',
          'aniBGVersion',
          'itemBoxVersion',
          'gimmickVersion',
          'modelPath',
          'boxesByType',
          'aniBGs',
          'itemBoxes',
          'gimmicks',
          'scenes',
          'sceneResources',
          'contentDigest',
        ].sort(),
      );
      expect(full.summary.modelPath).toBe('map\\dungeon\\vault.mmp');
      expect(full.summary.eventBoxVersion).toBe(spec.ev);
      expect(full.summary.contentDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(encodeError(() => wdata.encode(cheap)).path).toBe('summaryOnly');
    });
  });

  it('contentDigest follows the box records only', () => {
    const a = wdata.decode(CASES[5]!.bytes);
    const b = wdata.decode(CASES[6]!.bytes);
    expect(a.contentDigest).not.toBe(b.contentDigest);
    const renamed = wdata.decode(CASES[5]!.bytes);
    renamed.mocPath = wdata.wstring('other.moc');
    expect(wdata.decode(wdata.encode(renamed)).contentDigest).toBe(a.contentDigest);
  });

  it('extract gives level.json with every table as rows', () => {
    const v = wdata.decode(CASES.at(-1)!.bytes);
    const files = wdata.extract(v);
    expect(files.map((f) => f.path)).toEqual(['level.json']);
    const only = files[0]!;
    if (!('bytes' in only)) throw new Error('level.json is bytes');
    const json = JSON.parse(new TextDecoder().decode(only.bytes));
    expect(json.eventBoxes.waypoint.length).toBe(v.eventBoxes!.tables[17]!.count);
    expect(json.aniBGs[0].name).toBe(v.aniBGs.name[0]!.text);
    expect(json.sceneResources.length).toBe(2);
    expect(json.paths.eventBox).toBeNull();
  });
});

describe('wdata strings', () => {
  it('signature with and without its counted NUL; each string keeps its convention', () => {
    const withNul = CASES.find((c) => c.spec.signatureNul)!;
    const without = CASES.find((c) => !c.spec.signatureNul)!;
    expect(withNul.bytes[0]).toBe(15);
    expect(without.bytes[0]).toBe(14);
    expect(wdata.decode(withNul.bytes).signature).toMatchObject({ text: 'stairwaygames.', nul: true, encoding: 'utf-16le' });
    expect(wdata.decode(without.bytes).signature.nul).toBe(false);
    const v = wdata.decode(withNul.bytes);
    const nuls = new Set(v.aniBGs.name.concat(v.itemBoxes.name, v.gimmicks.name).map((s) => s.nul));
    expect(nuls).toEqual(new Set([true, false]));
  });
  it('a changed text is written with its own NUL flag, or the nul option', () => {
    const v = wdata.decode(CASES.at(-1)!.bytes);
    v.gimmicks.name[0] = { ...v.gimmicks.name[0]!, text: 'Neu 🔥' };
    const back = wdata.decode(wdata.encode(v));
    expect(back.gimmicks.name[0]).toMatchObject({ text: 'Neu 🔥', nul: v.gimmicks.name[0]!.nul });
    const forced = wdata.decode(wdata.encode(v, { nul: false }));
    expect(forced.gimmicks.name[0]).toMatchObject({ text: 'Neu 🔥', nul: false });
    expect(forced.gimmicks.name[1]).toEqual(v.gimmicks.name[1]);
  });
  it('refuses text that cannot read back the same', () => {
    const v = wdata.decode(CASES.at(-1)!.bytes);
    v.aniBGs.name[1] = wdata.wstring('bad \ud800 half');
    expect(encodeError(() => wdata.encode(v))).toMatchObject({ code: 'UNENCODABLE_TEXT', path: 'aniBGs.name[1]' });
    v.aniBGs.name[1] = { ...wdata.wstring('x', false), text: 'ends in nul\0' };
    expect(encodeError(() => wdata.encode(v))).toMatchObject({ code: 'BAD_VALUE', path: 'aniBGs.name[1]' });
    v.aniBGs.name[1] = wdata.wstring('x'.repeat(70000));
    expect(encodeError(() => wdata.encode(v)).code).toBe('LIMIT_EXCEEDED');
  });
  it('`.\\` paths are "none" in summaries and rows', () => {
    const v = wdata.decode(CASES[0]!.bytes);
    expect(wdata.isNoPath(v.eventBoxPath)).toBe(true);
    v.modelPath = wdata.wstring(wdata.NO_PATH);
    expect(wdata.summarize(wdata.decode(wdata.encode(v))).summary.modelPath).toBeNull();
  });
});

describe('wdata malformed input: DecodeError with offset and path', () => {
  const base = CASES.find((c) => c.path.endsWith('main-v22.wdata'))!;
  const fresh = () => base.bytes.slice();
  const v = wdata.decode(base.bytes);
  const table = eventTableAt(v);
  const entry = (t: number) => table + 4 + 8 * t;

  it('not a .wdata: BAD_MAGIC', () => {
    const b = fresh();
    b[4] = 0x53;
    expect(decodeError(b)).toMatchObject({ code: 'BAD_MAGIC', offset: 0 });
  });
  it('main version 23 and EventBox version 10: UNSUPPORTED_VERSION', () => {
    const sig = 2 + v.signature.raw.length;
    let b = fresh();
    setU32(b, sig, 23);
    expect(decodeError(b)).toMatchObject({ code: 'UNSUPPORTED_VERSION', offset: sig, path: 'mainVersion' });
    b = fresh();
    setU32(b, sig + 4, 10);
    expect(decodeError(b)).toMatchObject({ code: 'UNSUPPORTED_VERSION', offset: sig + 4, path: 'eventBoxVersion' });
  });
  it('a box count larger than the bytes left: TRUNCATED before allocating', () => {
    const b = fresh();
    setU32(b, entry(1) + 4, 1_000_000);
    const e = decodeError(b);
    expect(e.code).toBe('TRUNCATED');
    expect(e.offset).toBe(u32At(b, entry(1)));
    expect(e.path).toContain('respawn');
    setU32(b, entry(1) + 4, 0x7fffffff);
    expect(decodeError(b).code).toBe('LIMIT_EXCEEDED');
  });
  it('an offset past the end, or into the header: OUT_OF_RANGE at the table entry', () => {
    let b = fresh();
    setU32(b, entry(2), b.length + 10);
    expect(decodeError(b)).toMatchObject({ code: 'OUT_OF_RANGE', offset: entry(2), path: 'eventBoxes.types[2].offset' });
    b = fresh();
    setU32(b, entry(2), 8);
    expect(decodeError(b)).toMatchObject({ code: 'OUT_OF_RANGE', offset: entry(2), path: 'eventBoxes.types[2].offset' });
  });
  it('two groups at one offset, or overlapping: CORRUPT', () => {
    let b = fresh();
    setU32(b, entry(3), u32At(b, entry(2)));
    expect(decodeError(b)).toMatchObject({ code: 'CORRUPT', path: expect.stringMatching(/^eventBoxes\.types\[[23]\]\.offset$/) });
    b = fresh();
    setU32(b, entry(3), u32At(b, entry(2)) + 2);
    expect(['CORRUPT', 'TRUNCATED']).toContain(decodeError(b).code);
  });
  it('boxes of type 14, or of a type past 18: CORRUPT', () => {
    let b = fresh();
    setU32(b, entry(14) + 4, 1);
    setU32(b, entry(14), u32At(b, entry(0)));
    expect(decodeError(b)).toMatchObject({ code: 'CORRUPT', offset: entry(14), path: 'eventBoxes.types[14]' });
    b = fresh();
    setU32(b, table, 20);
    expect(decodeError(b).code).not.toBe(undefined);
  });
  it('a string running past the end, or an odd byte count: TRUNCATED', () => {
    const at = 2 + v.signature.raw.length + 4 * 9; // modelPath's count, after 9 header words
    const b = fresh().subarray(0, at + 5);
    expect(decodeError(b)).toMatchObject({ code: 'TRUNCATED', offset: at + 2, path: 'modelPath' });
    for (let cut = 1; cut < 60; cut += 2) expect(decodeError(fresh().subarray(0, cut)).code).toMatch(/TRUNCATED|BAD_MAGIC/);
  });
  it('an unpaired surrogate: CORRUPT at the unit', () => {
    const at = 2 + v.signature.raw.length + 4 * 9;
    const b = fresh();
    b[at + 2] = 0x00;
    b[at + 3] = 0xd8;
    expect(decodeError(b)).toMatchObject({ code: 'CORRUPT', offset: at + 2, path: 'modelPath' });
    const g = fresh();
    const first = u32At(g, entry(6));
    g[first + 2] = 0x00;
    g[first + 3] = 0xdc;
    expect(decodeError(g)).toMatchObject({ code: 'CORRUPT', offset: first + 2 });
  });
  it('trailing bytes: a TRAILING_BYTES warning (STRICT with strict), kept and written back', () => {
    const b = Uint8Array.from([...base.bytes, 1, 2, 3]);
    const t = wdata.decode(b);
    expect(t.warnings).toEqual([expect.objectContaining({ code: 'TRAILING_BYTES', offset: base.bytes.length })]);
    expect(wdata.encode(t)).toEqual(b);
    expect(() => wdata.decode(b, { strict: true })).toThrow(expect.objectContaining({ code: 'STRICT', warning: 'TRAILING_BYTES' }));
  });
  it('groups that do not follow the table back to back: EVENTBOX_LAYOUT, encoded back to back', () => {
    const gap = table + 4 + 8 * 19;
    const b = Uint8Array.from([...base.bytes.subarray(0, gap), 0xee, 0xee, 0xee, 0xee, ...base.bytes.subarray(gap)]);
    for (let t = 0; t < 19; t++) if (u32At(b, entry(t) + 4) > 0) setU32(b, entry(t), u32At(b, entry(t)) + 4);
    const t = wdata.decode(b);
    expect(t.warnings.map((w) => w.code)).toEqual(['EVENTBOX_LAYOUT']);
    const again = wdata.decode(wdata.encode(t));
    expect(again.warnings).toEqual([]);
    for (const x of [again, t]) x.eventBoxes!.offsets = new Uint32Array(0);
    expect(normal(again)).toEqual(normal(t));
  });
});

describe('wdata encoder refuses what would not read back', () => {
  const fresh = () => wdata.decode(CASES.at(-1)!.bytes);
  it.each([
    [
      'a float column of another type',
      (v: wdata.WdataLevel) => {
        v.aniBGs.posX = new Float64Array(2) as unknown as Float32Array;
      },
      'BAD_LENGTH',
      'aniBGs.posX',
    ],
    [
      'a column shorter than count',
      (v: wdata.WdataLevel) => {
        v.gimmicks.fields.templateId = new Int32Array(1);
      },
      'BAD_LENGTH',
      'gimmicks.fields.templateId',
    ],
    [
      'a gated header field missing',
      (v: wdata.WdataLevel) => {
        v.reserved16 = null;
      },
      'BAD_VALUE',
      'reserved16',
    ],
    [
      'a field the version has no room for',
      (v: wdata.WdataLevel) => {
        v.triggers.triggers = [];
      },
      'BAD_VALUE',
      'triggers.triggers',
    ],
    [
      'an int out of range',
      (v: wdata.WdataLevel) => {
        v.triggers.reserved0 = 2 ** 31;
      },
      'OUT_OF_RANGE',
      'triggers.reserved0',
    ],
    [
      'a float32 that would round',
      (v: wdata.WdataLevel) => {
        v.scenes[0]!.fadeInPreview = 0.1;
      },
      'OUT_OF_RANGE',
      'scenes[0].fadeInPreview',
    ],
    [
      'boxes in type 14',
      (v: wdata.WdataLevel) => {
        v.eventBoxes!.tables[14]!.count = 1;
        v.eventBoxes!.order.push(14);
      },
      'BAD_VALUE',
      'eventBoxes.tables[14].count',
    ],
    [
      'an order that misses a group',
      (v: wdata.WdataLevel) => {
        v.eventBoxes!.order.pop();
      },
      'BAD_VALUE',
      'eventBoxes.order',
    ],
    [
      'waypoint link arrays of different lengths',
      (v: wdata.WdataLevel) => {
        (v.eventBoxes!.tables[17]!.fields.links as Int32Array[])[0] = new Int32Array(9);
      },
      'BAD_LENGTH',
      'eventBoxes.tables[17].fields.links[0]',
    ],
    [
      'a camera with three settings',
      (v: wdata.WdataLevel) => {
        (v.eventBoxes!.tables[0]!.fields.cameras as unknown[][])[0]!.pop();
      },
      'BAD_LENGTH',
      'eventBoxes.tables[0][0].cameras',
    ],
    [
      'a blend time after the last path',
      (v: wdata.WdataLevel) => {
        v.sceneResources[1]!.paths.at(-1)!.blendTime = 1;
      },
      'BAD_VALUE',
      'sceneResources[1].paths[2].blendTime',
    ],
  ])('%s', (_what, mutate, code, path) => {
    const v = fresh();
    mutate(v);
    expect(encodeError(() => wdata.encode(v))).toMatchObject({ code, path, format: 'wdata' });
  });
});
