// WWD on the synthetic fixtures: decoded content, round trips, js/wasm parity, summary mode,
// the bad signature and limits, options, and the fuzz sweep (malformed files: test/bad-files.test.ts).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferToOverwrite } from '../../src/core/host.js';
import { isPending } from '../../src/core/lazy.js';
import type { PlaneHeader } from '../../src/formats/wwd/header.js';
import type { WwdLevel } from '../../src/formats/wwd/index.js';
import { gridsApart } from '../../src/formats/wwd/planes.js';
import { DecodeError, decode, detect, EncodeError, encode, jsKernels, type Kernels, wwd } from '../../src/index.js';
import { fuzz } from '../helpers/fuzz.js';
import { corpusDir, FIXTURES, listFiles, readBytes } from '../helpers/paths.js';
import { wwdContent } from './wwd-content.js';

const dir = join(FIXTURES, 'wwd');
const good = listFiles(dir, /\.wwd$/).filter((p) => !p.includes('/bad/'));
const load = (name: string) => readBytes(join(dir, name));
const INV = 0xffffffff,
  FILL = 0xeeeeeeee;

describe('wwd fixtures: content', () => {
  const level = wwd.decode(load('claw-uncompressed.wwd'));

  it('header fields and cp1252 text, raw bytes kept', () => {
    expect(level.format).toBe('wwd');
    expect(level.warnings).toEqual([]);
    expect(level.game).toBe('claw');
    expect(level.header.signature).toBe(0x5f4);
    expect(level.header.name.text).toBe('Claw – Level 1 «Château»');
    expect(level.header.name.raw.length).toBe(64);
    expect(level.header.name.raw[5]).toBe(0x96); // the en dash in Windows-1252
    expect(level.header.imageSets.map((t) => t.text)).toEqual(['LEVEL1\\IMAGES', 'GAME\\IMAGES', '', '']);
    expect(level.header.prefixes.map((t) => t.text)).toEqual(['LEVEL', 'GAME', '', '']);
    expect([level.header.startX, level.header.startY, level.header.useZCoords, level.header.compressed]).toEqual([420, 1337, true, false]);
    expect(level.container.checksum).toMatchObject({ class: 'wapworld', wapworldDelta: 0 });
  });

  it('another code page decodes the same raw bytes differently', () => {
    const l = wwd.decode(load('claw-uncompressed.wwd'), { encoding: 'windows-1251' });
    expect(l.header.name.raw).toEqual(level.header.name.raw);
    expect(l.header.name.text).not.toBe(level.header.name.text);
  });

  it('planes: header fields, flags, grids with sentinels, image sets, stats', () => {
    expect(level.planes.map((p) => p.name.text)).toEqual(['Background', 'Action', 'Front – Ærø']);
    expect(level.mainPlane).toBe(1);
    const [bg, action, front] = level.planes as [WwdLevel['planes'][0], WwdLevel['planes'][0], WwdLevel['planes'][0]];
    expect(bg.flagBits).toEqual({ main: false, noDraw: false, wrapX: true, wrapY: true, autoTileSize: false });
    expect(front.flags).toBe(2 | 16 | 0x40);
    expect(front.flagBits).toMatchObject({ noDraw: true, autoTileSize: true });
    expect([action.tilesWide, action.tilesHigh, action.tileWidth, action.widthPx]).toEqual([8, 6, 64, 512]);
    expect(action.tiles.length).toBe(48);
    expect(action.tiles[0]).toBe(FILL);
    expect(action.tiles[8]).toBe(INV);
    expect(action.tiles[8 + 1]).toBe(0x0001_0004);
    expect(action.imageSetNames.map((t) => t.text)).toEqual(['ACTION', '']);
    expect(action.stats).toEqual({ invisible: 48 - 8 - 8 - 4, filled: 8, used: 12, outsideImageSets: 0, maxTileId: [2, 4] });
  });

  it('objects: every column non-zero, strings, objectAt, duplicate ids, objects on a non-main plane', () => {
    const t = level.planes[1]!.objects;
    expect(t.count).toBe(4);
    for (const [name] of wwd.OBJECT_FIELDS) {
      const col = (t as unknown as Record<string, Int32Array | Uint32Array>)[name]!;
      expect(col.length, name).toBe(4);
      // Length columns of empty strings are zero by construction; every other field is not.
      if (!name.endsWith('Length'))
        expect(
          [...col].every((v) => v !== 0),
          name,
        ).toBe(true);
      // The first two objects have all four strings too: every one of their fields is non-zero.
      expect(col[0] !== 0 && col[1] !== 0, name).toBe(true);
    }
    expect(t.logic.map((s) => s.text)).toEqual(['StartElevator', 'TreasurePowerup', 'TreasurePowerup', 'Officer']);
    expect(t.name[1]).toEqual({ text: 'Pièce d’or', raw: Uint8Array.of(0x50, 0x69, 0xe8, 0x63, 0x65, 0x20, 0x64, 0x92, 0x6f, 0x72), encoding: 'windows-1252' });
    expect([...t.nameLength]).toEqual(t.name.map((s) => s.raw.length));
    expect(t.id[1]).toBe(t.id[2]);
    const o = wwd.objectAt(t, 1);
    expect(o.logic.text).toBe('TreasurePowerup');
    expect(o.name.raw).toEqual(Uint8Array.of(0x50, 0x69, 0xe8, 0x63, 0x65, 0x20, 0x64, 0x92, 0x6f, 0x72));
    expect(o.id).toBe(t.id[1]);
    expect(o.hitRectBottom).toBe(t.hitRectBottom[1]);
    expect(t.objectAt!(1)).toEqual(o);
    expect(() => wwd.objectAt(t, 4)).toThrow(RangeError);
    expect(level.planes[2]!.objects.count).toBe(1);
    expect(level.planes[2]!.objects.imageSet.map((s) => s.text)).toEqual(['LEVEL_ARCHESFRONT']);
    expect(level.planes[0]!.objects.count).toBe(0);
    expect(level.planes[0]!.objectsOffset).toBe(0);
  });

  it('a decoded level survives structuredClone (objectAt works on the clone)', () => {
    const clone = structuredClone(level);
    expect(wwdContent(clone)).toEqual(wwdContent(level));
    expect(wwd.objectAt(clone.planes[1]!.objects, 3)).toEqual(wwd.objectAt(level.planes[1]!.objects, 3));
  });

  it('object strings are made on first read, and an unread table clones, serialises and compares as a read one', () => {
    const fresh = () => wwd.decode(load('claw-uncompressed.wwd')).planes[1]!.objects;
    const read = fresh();
    const eager = { ...read, name: [...read.name], logic: [...read.logic], imageSet: [...read.imageSet], animation: [...read.animation] };
    const t = fresh();
    expect(isPending(t, 'name') && isPending(t, 'animation')).toBe(true);
    expect(Object.keys(t)).toEqual(Object.keys(eager));
    expect(JSON.stringify(fresh())).toBe(JSON.stringify(eager));
    expect(structuredClone(fresh())).toEqual(eager);
    expect(fresh()).toEqual(eager);
    expect(fresh()).toStrictEqual(read);
    // Once read, the list is a plain data property; assigning before a read replaces the loader.
    void t.logic;
    expect(Object.getOwnPropertyDescriptor(t, 'logic')).toMatchObject({ writable: true, enumerable: true });
    const u = fresh();
    u.name = [];
    expect(u.name).toEqual([]);
    expect(u.logic.map((s) => s.text)).toEqual(['StartElevator', 'TreasurePowerup', 'TreasurePowerup', 'Officer']);
    // A frozen table still reads (the list is then made on every read).
    const f = Object.freeze(fresh());
    expect(f.imageSet).toEqual(eager.imageSet);
    expect(wwd.objectAt(f, 2)).toEqual(wwd.objectAt(read, 2));
  });

  it('tile properties of all three types', () => {
    expect(level.tileProperties.map((p) => p.type)).toEqual([1, 1, 2, 3, 2]);
    const mask = level.tileProperties[3]!;
    expect(mask.type === 3 && [mask.width, mask.height, mask.mask.length, mask.mask[2]]).toEqual([16, 16, 256, 74 % 5]);
    expect(level.tileProperties[2]).toEqual({ type: 2, unknown: 0, width: 64, height: 64, outside: 0, inside: 2, left: 0, top: 0, right: 63, bottom: 10 });
    expect([...level.tilePropertiesHeader]).toEqual([32, 0, 5, 0, 0, 0, 0, 0]);
  });

  it('game, compression and checksum class of every fixture', () => {
    const facts = Object.fromEntries(
      good.map((p) => {
        const s = wwd.summarize(wwd.decode(readBytes(p))).summary;
        return [p.slice(dir.length + 1), [s.game, s.compressed, s.checksum]];
      }),
    );
    expect(facts).toEqual({
      'claw-compressed.wwd': ['claw', true, 'wapworld'],
      'claw-uncompressed.wwd': ['claw', false, 'wapworld'],
      'claw-wapmap-trailing-meta.wwd': ['claw', true, 'wapmap'],
      'get-medieval-uncompressed.wwd': ['get-medieval', false, 'wapworld'],
      'gruntz-compressed.wwd': ['gruntz', true, 'wapworld'],
    });
  });

  it('trailing bytes after the zlib stream: kept, warned, STRICT under strict', () => {
    const b = load('claw-wapmap-trailing-meta.wwd');
    const l = wwd.decode(b);
    expect(l.warnings.map((w) => w.code)).toEqual(['TRAILING_BYTES']);
    expect(new TextDecoder().decode(l.container.trailing)).toMatch(/^<wm_meta>.*<\/wm_meta>$/);
    expect(() => wwd.decode(b, { strict: true })).toThrow(expect.objectContaining({ code: 'STRICT' }));
    // The compressed and uncompressed copies hold the same level.
    expect(wwdContent(l)).toEqual(wwdContent(wwd.decode(load('claw-compressed.wwd'))));
  });
});

describe('wwd fixtures: round trip and parity', () => {
  it.each(good.map((p) => [p.slice(dir.length + 1), p]))('%s', (_n, p) => {
    const bytes = readBytes(p);
    const level = wwd.decode(bytes);
    const again = wwd.encode(level);
    if (!level.header.compressed) expect(Buffer.compare(Buffer.from(again), Buffer.from(bytes))).toBe(0);
    expect(wwdContent(wwd.decode(again))).toEqual(wwdContent(level));
    // Switching compression on and off keeps the content; back to uncompressed gives the bytes again.
    const flipped = wwd.encode(level, { compress: !level.header.compressed, trailing: false });
    expect(wwdContent(wwd.decode(flipped))).toEqual({
      ...wwdContent(level),
      header: { ...wwdContent(level).header, flags: level.header.flags ^ 2, compressed: !level.header.compressed },
    });
    if (!level.header.compressed) expect(Buffer.compare(Buffer.from(wwd.encode(wwd.decode(flipped), { compress: false })), Buffer.from(bytes))).toBe(0);
    // js and wasm kernels give the same result, warnings and checksum facts included.
    expect(wwd.decode(bytes, { backend: 'wasm' })).toEqual(wwd.decode(bytes, { backend: 'js' }));
    // pako and native zlib agree.
    expect(wwd.decode(bytes, { inflate: 'pako' })).toEqual(level);
    // sections: 'summary' gives the same summary.
    expect(wwd.summarize(wwd.decode(bytes, { sections: 'summary' }))).toEqual(wwd.summarize(level));
    expect(detect(bytes)).toBe('wwd');
  });
});

describe('wwd.encode refuses levels it cannot write whole', () => {
  it("a sections: 'summary' decode (non-main grids, objects and tile properties left out): EncodeError BAD_VALUE at sections", () => {
    const summary = wwd.decode(load('claw-uncompressed.wwd'), { sections: 'summary' });
    expect(() => wwd.encode(summary)).toThrow(EncodeError);
    expect(() => wwd.encode(summary)).toThrow(expect.objectContaining({ code: 'BAD_VALUE', format: 'wwd', path: 'sections' }));
    expect(() => wwd.encode(summary)).toThrow("decode with sections: 'all' to encode");
    // Through the registry too (the top-level encode).
    expect(() => encode(summary)).toThrow(EncodeError);
  });
  it('a plane whose tiles do not match tilesWide × tilesHigh: BAD_LENGTH naming the plane', () => {
    const level = wwd.decode(load('claw-uncompressed.wwd'));
    const short = { ...level, planes: level.planes.map((p, i) => (i === 2 ? { ...p, tiles: p.tiles.subarray(1) } : p)) };
    expect(() => wwd.encode(short)).toThrow(expect.objectContaining({ code: 'BAD_LENGTH', path: 'planes[2].tiles', expected: 20, actual: 19 }));
    const negative = { ...level, planes: level.planes.map((p, i) => (i === 0 ? { ...p, tilesWide: -4, tilesHigh: -3 } : p)) };
    expect(() => wwd.encode(negative)).toThrow(expect.objectContaining({ code: 'OUT_OF_RANGE', path: 'planes[0].tilesWide' }));
    // The level passed in is not touched by the refusal.
    expect(level.planes[2]!.tiles.length).toBe(20);
  });
});

describe('wwd fixtures: malformed files (their manifest is checked by test/bad-files.test.ts)', () => {
  it('the bad signature is not detected as WWD (top-level decode: BAD_MAGIC)', () => {
    expect(detect(load('bad/bad-signature.wwd'))).toBeUndefined();
    expect(() => decode(load('bad/bad-signature.wwd'))).toThrow(expect.objectContaining({ code: 'BAD_MAGIC' }));
  });
  it('limits apply before allocation', () => {
    expect(() => wwd.decode(load('claw-uncompressed.wwd'), { limits: { maxGridCells: 47 } })).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }));
    expect(() => wwd.decode(load('claw-uncompressed.wwd'), { limits: { maxRecords: 3 } })).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }));
    expect(() => wwd.decode(load('claw-compressed.wwd'), { limits: { maxInflatedBytes: 1000 } })).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }));
  });
});

describe('wwd: planes that share one section (no writer does this; bad/planes-share-*)', () => {
  /** The js kernels, counting the grid scans and object gathers a decode starts. */
  const counting = () => {
    const calls = { scanTileGrid: 0, gatherRecords: 0 };
    const kernels: Kernels = {
      ...jsKernels,
      scanTileGrid: (...a) => {
        calls.scanTileGrid++;
        return jsKernels.scanTileGrid(...a);
      },
      gatherRecords: (...a) => {
        calls.gatherRecords++;
        return jsKernels.gatherRecords(...a);
      },
    };
    return { calls, kernels };
  };
  it.each([
    ['planes-share-one-grid.wwd', 'planes[1].tiles'],
    ['planes-share-one-object-table.wwd', 'planes[1].objects'],
    ['planes-share-one-image-set-list.wwd', 'planes[0].imageSetNames'],
  ])('%s: OUT_OF_RANGE at %s, in both section modes, before any grid or object table is copied', (name, path) => {
    const bytes = load(`bad/${name}`);
    for (const sections of ['all', 'summary'] as const) {
      const { calls, kernels } = counting();
      let err: unknown;
      try {
        wwd.decode(bytes, { sections, kernels });
      } catch (e) {
        err = e;
      }
      expect(err, sections).toBeInstanceOf(DecodeError);
      expect(err, sections).toMatchObject({ code: 'OUT_OF_RANGE', path });
      // The claims are checked from the plane headers alone: not one grid was read (1,000 copies
      // of a 312×312 grid were 381 MiB) and not one object table gathered.
      if (!name.includes('image-set')) expect(calls, sections).toEqual({ scanTileGrid: 0, gatherRecords: 0 });
    }
  });
  it('maxGridCells bounds the cells of all planes together, at the plane that passes it', () => {
    // Planes of 12, 48 and 20 cells: each fits 60 alone, the three together do not.
    const b = load('claw-uncompressed.wwd');
    expect(() => wwd.decode(b, { limits: { maxGridCells: 60 } })).toThrow(
      expect.objectContaining({ code: 'LIMIT_EXCEEDED', offset: 1524 + 2 * 160 + 0x60, path: 'planes[2].tilesWide' }),
    );
    expect(wwd.decode(b, { limits: { maxGridCells: 80 } }).planes.map((p) => p.tiles.length)).toEqual([12, 48, 20]);
  });
});

describe('wwd: grids kept where node:zlib inflated them (issue 21)', () => {
  it('each plane keeps cells of its own: writing one grid changes no other plane, no later decode and not the input', () => {
    // The fixtures (small, many objects: copied) and a few corpus levels (big grids: views).
    const corpus = corpusDir('wwd');
    const files = [join(dir, 'claw-compressed.wwd'), join(dir, 'gruntz-compressed.wwd'), ...(corpus ? listFiles(corpus, /\.wwd$/i).slice(0, 4) : [])];
    let views = 0;
    for (const name of files) {
      const bytes = readBytes(name);
      const before = bytes.slice();
      const level = wwd.decode(bytes, { inflate: 'native' });
      const copied = wwd.decode(bytes, { inflate: 'wasm' });
      expect(level, name).toEqual(copied);
      views += level.planes.filter((p) => p.tiles.byteLength > 0 && p.tiles.buffer.byteLength > p.tiles.byteLength).length;
      for (const p of level.planes) p.tiles.fill(0x12345678);
      for (const [i, p] of level.planes.entries())
        expect(
          Array.from(p.tiles).every((t) => t === 0x12345678),
          `${name} planes[${i}]`,
        ).toBe(true);
      expect(bytes, name).toEqual(before);
      expect(wwd.decode(bytes, { inflate: 'native' }), name).toEqual(copied);
      expect(wwd.encode(wwd.decode(bytes, { inflate: 'native' })), name).toEqual(wwd.encode(copied));
    }
    // Some grid was kept as a view of its block (with the corpus present: its levels' grids are most of it).
    if (corpus) expect(views).toBeGreaterThan(0);
  });
  it('gridsApart: only grids sharing no byte with another may stay in place', () => {
    const plane = (tilesOffset: number, w: number, h: number) => ({ tilesOffset, tilesWide: w, tilesHigh: h }) as PlaneHeader;
    // [0,16) [16,32) apart; [40,56) and [52,60) overlap; an empty grid at 41 takes no byte.
    expect(gridsApart([plane(16, 2, 2), plane(0, 4, 1), plane(52, 2, 1), plane(40, 1, 4), plane(41, 0, 3)])).toEqual([true, true, false, false, true]);
    // One grid inside another, and a third overlapping only the outer one.
    expect(gridsApart([plane(0, 10, 1), plane(8, 1, 1), plane(30, 4, 1)])).toEqual([false, false, false]);
    expect(gridsApart([plane(0, 10, 1), plane(8, 1, 1), plane(40, 4, 1)])).toEqual([false, false, true]);
  });
  it('bufferToOverwrite: a buffer of exactly the size asked, its own', () => {
    for (const n of [0, 100, 4096, 1 << 20]) {
      const a = bufferToOverwrite(n),
        b = bufferToOverwrite(n);
      expect(a.byteLength).toBe(n);
      expect(a).not.toBe(b);
      if (n) {
        new Uint8Array(a).fill(1);
        expect(new Uint8Array(b).includes(1) && new Uint8Array(b).every((x) => x === 1)).toBe(false);
      }
    }
    expect(new Uint8Array(bufferToOverwrite(100)).every((x) => x === 0)).toBe(true);
  });
});

describe('wwd fixtures: robustness', () => {
  it('every prefix and seeded mutations of every fixture decode or throw DecodeError (both backends agree)', async () => {
    const files = [...good, ...listFiles(join(dir, 'bad'), /\.wwd$/).slice(0, 3)].map((p) => ({ name: p.slice(dir.length + 1), bytes: readBytes(p) }));
    const seed = 20261122;
    const report = await fuzz({ files, seed, mutationsPerFile: 1500, maxPrefixes: 5000, decoder: 'wwd' });
    console.log(`wwd fixture fuzz (seed ${seed}): ${report.cases} cases, ${report.decoded} decoded, errors ${JSON.stringify(report.errors)}`);
    expect(report.failures).toEqual([]);
    expect(report.cases).toBeGreaterThan(20000);
  });
});
