// The index's rows made from a map decoded with `layers: 'lazy'` (what `scan --index` does) equal
// those of the eager decode, hold no grid and no image once made, and a file whose deferred block
// is damaged gets the very record a scan without the index gives it, and no rows.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LevelRowsBuilder } from '../../src/archive-index/level-rows.js';
import { isPending } from '../../src/core/lazy.js';
import type { ImageRow, LevelRows } from '../../src/formats/define.js';
import { byteCounts } from '../../src/formats/rows.js';
import { gridCountsOf } from '../../src/formats/teeworlds/grid-counts.js';
import type { MapLayer, TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { indexRows, teeworlds } from '../../src/index.js';
import { type ScanConfig, type ScanRecord, scanBytes } from '../../src/scan/job.js';
import { describeCorpus } from '../helpers/needs.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const TEE = listFiles(`${FIXTURES}/teeworlds`, /\.map$/).filter((p) => !p.includes('/bad/'));
const ALL = listFiles(FIXTURES, /./).filter((p) => !p.endsWith('.md') && !p.includes('/generators/'));

/** A tile layer's grid field, for the layers that have one. */
function gridKey(l: MapLayer): string | undefined {
  if (l.kind === 'quads' || l.kind === 'sounds' || l.kind === 'unknown') return undefined;
  if (l.kind === 'opaque') return 'blocks';
  return l.kind === 'tele' || l.kind === 'speedup' || l.kind === 'switch' || l.kind === 'tune' ? l.kind : 'tiles';
}

/** Rows with every image's pixels read once (a lazy row's are a getter) and stood for by their digest and length. */
function materialized(rows: LevelRows): unknown {
  return {
    ...rows,
    images: rows.images.map((r: ImageRow) => {
      const { pixels, pixelsKey, withPixels, ...rest } = r;
      const digest = pixels ? `${pixels.length}:${hash(pixels)}` : null;
      // The pixels handed over without an array are the same bytes.
      if (withPixels) expect(withPixels((p) => `${p.length}:${hash(p)}`)).toBe(digest);
      return { ...rest, pixels: digest, pixelsKey: pixelsKey ? hash(pixelsKey) : null };
    }),
  };
}

function expectSameRows(bytes: Uint8Array, name: string): void {
  const eager = teeworlds.decode(bytes);
  const lazy = teeworlds.decode(bytes, { layers: 'lazy' }) as TeeworldsMap;
  const rows = indexRows(lazy);
  // Made, the rows left every grid, opaque block and image of the lazy map deflated, but the game
  // grid (kept: the summary and mainGrid() read it as well).
  for (const g of lazy.groups)
    for (const l of g.layers) {
      const key = gridKey(l);
      if (key) expect(isPending(l, key), `${name}: ${l.kind} ${l.name.text}`).toBe(l.kind !== 'game');
    }
  // An image too short to load keeps its stored bytes (storedPixels) deferred instead of pixels.
  for (const img of lazy.images)
    if (!img.external) expect(isPending(img, 'pixels') || isPending(img, 'storedPixels'), `${name}: image ${img.name.text}`).toBe(true);
  // The same rows, and the same key for the digest cache, whichever way the pixels were decoded.
  expect(materialized(rows), name).toEqual(materialized(indexRows(eager)));
  withPixelsSeen += rows.images.filter((r) => r.withPixels).length;
}

/** Lazy image rows that offered their pixels without an array (the WASM inflater's memory). */
let withPixelsSeen = 0;

describe("index rows of a map decoded with layers: 'lazy'", () => {
  it.each(TEE.map((p) => [p.slice(FIXTURES.length + 1), p]))('%s: equal the eager rows, and hold no grid', (name, path) => {
    expectSameRows(readBytes(path), name);
  });
});

describe('physics grids of a lazy map', () => {
  it('are counted where they are inflated, as the eager type column counts', () => {
    const seen = new Set<string>();
    for (const p of TEE) {
      const bytes = readBytes(p);
      let eager: TeeworldsMap;
      try {
        eager = teeworlds.decode(bytes);
      } catch {
        continue;
      }
      const lazy = teeworlds.decode(bytes, { layers: 'lazy' }) as TeeworldsMap;
      lazy.groups.forEach((g, gi) =>
        g.layers.forEach((l, li) => {
          if (l.kind !== 'tele' && l.kind !== 'speedup' && l.kind !== 'switch' && l.kind !== 'tune') return;
          const counted = gridCountsOf(l);
          const eagerLayer = eager.groups[gi]!.layers[li] as unknown as Record<string, { type: Uint8Array } | undefined> & { ignoredGrid?: Uint8Array };
          const read = eagerLayer[l.kind];
          // A grid DDNet ignores (shorter than its layer) reads as empty and is counted nowhere.
          if (!read || eagerLayer.ignoredGrid) return;
          expect(counted, `${p}: ${l.kind}`).toBeDefined();
          expect([...counted!], `${p}: ${l.kind}`).toEqual([...byteCounts(read.type)]);
          expect(isPending(l, l.kind)).toBe(true);
          seen.add(l.kind);
        }),
      );
    }
    expect([...seen].sort()).toEqual(['speedup', 'switch', 'tele', 'tune']);
  });
});

describeCorpus('teeworlds', 'index rows of corpus maps decoded lazily', (dir) => {
  it('equal the eager rows for every corpus map', () => {
    const maps = listFiles(dir, /\.map$/);
    expect(maps.length).toBeGreaterThan(100);
    for (const p of maps) {
      const bytes = readBytes(p);
      try {
        teeworlds.decode(bytes);
      } catch {
        continue; // a map the decoder refuses has no rows either way (the scan test below covers its record)
      }
      expectSameRows(bytes, p);
    }
    expect(withPixelsSeen).toBeGreaterThan(100);
  }, 300_000);
});

/** A scan worker's record and index rows for one file, with or without the index (which decodes lazily). */
function scanned(path: string, bytes: Uint8Array, indexed: boolean): { record: ScanRecord; rows: unknown } {
  const config = { depth: 'full', decode: {}, ...(indexed ? { index: { run: 'r' } } : {}) } as unknown as ScanConfig;
  const builder = new LevelRowsBuilder(hash);
  const times = { read: 0, detect: 0, decode: 0, hash: 0, record: 0 };
  const record = scanBytes({ path, member: null } as never, bytes, true, config, undefined, hash, () => {}, times, indexed ? builder : undefined);
  return { record, rows: builder.take() };
}

describe('scan --index decodes lazily, and its records stay those of a scan without it', () => {
  it('every fixture: the same record', () => {
    let levels = 0;
    for (const p of ALL) {
      const bytes = readBytes(p);
      const plain = scanned(p, bytes, false).record;
      const withIndex = scanned(p, bytes, true);
      expect(withIndex.record, p).toEqual(plain);
      if (plain.format && !plain.error) levels++;
    }
    expect(levels).toBeGreaterThan(20);
  });

  it('a damaged grid or image stream: the eager decode error, and no rows', () => {
    const source = TEE.find((p) => p.endsWith('/ddnet-all-items.map'))!;
    const bytes = readBytes(source);
    const df = teeworlds.openDatafile(bytes);
    const seen = new Set<string>();
    for (const b of df.blocks) {
      if (b.storedByteLength < 16) continue;
      const bad = bytes.slice();
      bad[b.offset + (b.storedByteLength >> 1)]! ^= 0x5a;
      bad[b.offset + b.storedByteLength - 2]! ^= 0xff; // the Adler-32 too
      const plain = scanned(source, bad, false).record;
      if (!plain.error) continue;
      const kind = /\.(tiles|tele|speedup|switch|tune|pixels)$/.exec(plain.error.path)?.[1];
      if (!kind) continue;
      seen.add(kind === 'pixels' ? 'image' : 'grid');
      const withIndex = scanned(source, bad, true);
      expect(withIndex.record, plain.error.path).toEqual(plain);
      expect(withIndex.rows, plain.error.path).toBeNull();
    }
    // Both kinds of deferred block were damaged and caught.
    expect([...seen].sort()).toEqual(['grid', 'image']);
  });

  it('a damaged block of a 2007 map (its data, checked where they inflate): the eager decode error, and no rows', () => {
    const source = TEE.find((p) => p.endsWith('/legacy-2007.map'))!;
    const bytes = readBytes(source);
    let damaged = 0;
    for (const b of teeworlds.openDatafile(bytes).blocks) {
      if (b.storedByteLength < 16) continue;
      const bad = bytes.slice();
      bad[b.offset + (b.storedByteLength >> 1)]! ^= 0x5a;
      bad[b.offset + b.storedByteLength - 2]! ^= 0xff;
      const plain = scanned(source, bad, false).record;
      if (!plain.error?.path.startsWith('data[')) continue;
      const withIndex = scanned(source, bad, true);
      expect(withIndex.record, plain.error.path).toEqual(plain);
      expect(withIndex.rows, plain.error.path).toBeNull();
      damaged++;
    }
    expect(damaged).toBeGreaterThan(0);
  });
});
