// Real files that once failed (../shared/regressions, issue 38): every file MANIFEST.tsv lists is
// read, checked against its sha256, and held to what is known of it, so a regression of those
// classes cannot land unseen:
// - 50 Z3-V1.03 .zelda levels: exactly the baddies (x, y, type), link and sign counts the game's
//   own 1999 loader reads (zelda-z3-expected.json; 745a55d: records are `x y type 0A`, ended by
//   `FF FF FF 0A`, where later loaders read 3-byte records and put baddies in the wrong places);
// - InfClass maps: their flag-2/4 layers are InfClass entity/zone layers, never DDNet tele or
//   speed-up layers (15ddd30: they were read as tele layers and refused or misread);
// - BlmapChill versions: decode with the default limits (they were over the default cell limit);
// - a 2007 Wherigo cartridge: decodes and round-trips.
// Every file also round-trips (decode → encode → decode gives the same value), and the maps give
// the same result with the JS and the WASM kernels.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, it } from 'vitest';
import type { GraalLevel } from '../../src/formats/graal/types.js';
import { decode, encode, graal, summarize, teeworlds } from '../../src/index.js';
import { describeWith, regressions } from '../helpers/needs.js';
import { readBytes } from '../helpers/paths.js';
import { sameMap } from './teeworlds-helpers.js';

interface Entry {
  format: string;
  repo: string;
  path: string;
  bytes: number;
  sha256: string;
  file: string;
}

interface ZeldaExpected {
  baddies: { x: number; y: number; type: number }[];
  links: number;
  signs: number;
}

function manifest(dir: string): Entry[] {
  const [head, ...rows] = readFileSync(join(dir, 'MANIFEST.tsv'), 'utf8').split('\n').filter(Boolean);
  const cols = head!.split('\t');
  return rows.map((r) => {
    const f = Object.fromEntries(r.split('\t').map((v, i) => [cols[i], v]));
    return { format: f.format!, repo: f.repo!, path: f.path!, bytes: Number(f.bytes), sha256: f.sha256!, file: f.file! };
  });
}

describeWith(regressions(), 'real files that once failed (../shared/regressions)', (dir) => {
  const entries = manifest(dir);
  // MANIFEST.tsv names each file by `format/name`; the folder may hold them flat.
  const read = (e: Entry) => {
    const nested = join(dir, 'files', e.file);
    return readBytes(existsSync(nested) ? nested : join(dir, 'files', basename(e.file)));
  };
  const maps = entries.filter((e) => e.format === 'teeworlds');
  const zelda = entries.filter((e) => e.file.endsWith('.zelda'));
  const expected = JSON.parse(readFileSync(join(dir, 'zelda-z3-expected.json'), 'utf8')) as Record<string, ZeldaExpected>;

  it('the manifest lists the maps, the cartridge and the 50 Z3 levels, each file as its size and sha256 say', () => {
    // README.md speaks of 28 maps; MANIFEST.tsv lists 27 (17 InfClass, 10 BlmapChill).
    expect(maps).toHaveLength(27);
    expect(entries.filter((e) => e.format === 'gwc')).toHaveLength(1);
    expect(zelda).toHaveLength(50);
    expect(entries).toHaveLength(78);
    for (const e of entries) {
      const bytes = read(e);
      expect(bytes.length, e.file).toBe(e.bytes);
      expect(createHash('sha256').update(bytes).digest('hex'), e.file).toBe(e.sha256);
    }
    expect(zelda.map((e) => basename(e.file)).sort()).toEqual(Object.keys(expected).sort());
  });

  it('each Z3-V1.03 level gives exactly the baddies, links and signs the game reads, and round-trips', () => {
    for (const e of zelda) {
      const bytes = read(e);
      const level = graal.decode(bytes) as GraalLevel;
      const want = expected[basename(e.file)]!;
      expect(level.version, e.file).toBe('Z3-V1.03');
      expect(
        level.baddies.map(({ x, y, type }) => ({ x, y, type })),
        e.file,
      ).toEqual(want.baddies);
      expect(level.links.length, e.file).toBe(want.links);
      expect(level.signs.length, e.file).toBe(want.signs);
      expect(graal.decode(encode(level)), e.file).toEqual(level);
    }
  });

  // One test per map, so a failure names its file. The ten BlmapChill versions are one map's
  // history (~1.4 MB, 1,000 × 1,000 grids each): all are decoded with the default limits (the past
  // failure), with their grids left deflated (layers: 'lazy'); the newest is also decoded in full
  // with both kernels and written back. Encoded as datafile v3 (blocks stored raw): the same items
  // and blocks as v4, without deflating the grids again.
  const newestBlmap = maps
    .filter((e) => /BlmapChill/.test(e.file))
    .sort((a, b) => a.file.localeCompare(b.file))
    .at(-1);
  for (const e of maps) {
    const full = !/BlmapChill/.test(e.file) || e === newestBlmap;
    it(`${basename(e.file)} decodes with the default options${full ? ', round-trips, and the JS and WASM kernels agree' : ''}`, () => {
      const bytes = read(e);
      if (!full) {
        const lazy = teeworlds.decode(bytes, { layers: 'lazy' });
        expect(lazy.flavour).toBe('ddnet');
        expect((summarize(lazy).summary as { gameLayer: unknown }).gameLayer).not.toBeNull();
        return;
      }
      const m = teeworlds.decode(bytes, { backend: 'wasm' });
      expect(sameMap(teeworlds.decode(bytes, { backend: 'js' }), m)).toBeNull();
      const back = teeworlds.decode(teeworlds.encode(m, { version: 3 }));
      expect(sameMap(back, m)).toBeNull();
      expect(back.warnings.map((w) => w.code).sort()).toEqual(m.warnings.map((w) => w.code).sort());
      const kinds = new Set<string>(m.groups.flatMap((g) => g.layers.map((l) => l.kind)));
      expect((summarize(m).summary as { gameLayer: unknown }).gameLayer).not.toBeNull();
      if (e.repo === 'necropotame/teeworlds-infclass') {
        // Once read as DDNet tele/speed-up layers: InfClass's own entity and zone layers (the
        // 2015 normandie in bin/ has none), never a DDNet physics layer or an opaque one.
        const mod = kinds.has('infclassEntities') || kinds.has('infclassZones');
        expect(m.flavour).toBe(mod ? 'infclass' : 'ddnet');
        expect(mod || /infc_normandie/.test(e.file)).toBe(true);
        for (const k of ['tele', 'speedup', 'switch', 'tune', 'opaque']) expect(kinds.has(k), k).toBe(false);
        // normandie's 128 × 128 image is stored as 3-byte pixels in a v1 item: once CORRUPT, the whole map refused.
        if (/infc_normandie/.test(e.file)) expect(m.warnings.map((w) => w.code)).toEqual(['SHORT_IMAGE_DATA']);
      } else {
        // BlmapChill: once over the default cell limit; a DDNet map with its game layer.
        expect(e.file).toMatch(/BlmapChill/);
        expect(m.flavour).toBe('ddnet');
        expect(kinds.has('game')).toBe(true);
      }
    }, 60_000);
  }

  it('the 2007 cartridge decodes and is written back byte for byte', () => {
    for (const e of entries.filter((x) => x.format === 'gwc')) {
      const bytes = read(e);
      const c = decode(bytes);
      expect(c.format, e.file).toBe('gwc');
      // The same bytes back: decoding them again gives the same cartridge.
      expect(Buffer.compare(Buffer.from(encode(c)), Buffer.from(bytes)), e.file).toBe(0);
    }
  });
});
