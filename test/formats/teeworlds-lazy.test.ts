// `layers: 'lazy'` (issue 19 §4): a lazy decode is the eager one once read (deep equality, JSON,
// structuredClone, encode, summarize, mainGrid, render), on every fixture and every corpus map with
// both kernel sets; grids and tileset pixels stay deflated until read; a damaged stream throws its
// typed error at the read; every other fault, limits included, is refused at decode time.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isPending, readUncached } from '../../src/core/lazy.js';
import type { MapLayer, TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { DecodeError, decodeAsync, mainGrid, render, summarize, teeworlds } from '../../src/index.js';
import { describeCorpus } from '../helpers/needs.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';
import { firstDifference } from './teeworlds-helpers.js';
import { tileWarningMap } from './teeworlds-warning-maps.js';

const DIR = `${FIXTURES}/teeworlds`;
const GOOD = listFiles(DIR, /\.map$/).filter((p) => !p.includes('/bad/'));
const BAD = listFiles(`${DIR}/bad`, /\.map$/);
const BACKENDS = ['js', 'wasm'] as const;
const rel = (p: string) => p.slice(DIR.length + 1);

/** The field holding a tile or opaque layer's grid, or undefined for layers without one. */
function gridKeyOf(l: MapLayer): string | undefined {
  if (l.kind === 'quads' || l.kind === 'sounds' || l.kind === 'unknown') return undefined;
  if (l.kind === 'opaque') return 'blocks';
  return l.kind === 'tele' || l.kind === 'speedup' || l.kind === 'switch' || l.kind === 'tune' ? l.kind : 'tiles';
}

/** Every lazy field of a map: [object, key, path]. */
function lazyFields(m: TeeworldsMap): [object, string, string][] {
  const out: [object, string, string][] = [];
  if (m.legacy) out.push([m.legacy, 'data', 'legacy.data']);
  m.images.forEach((img, i) => {
    // An image too short for its pixels (SHORT_IMAGE_DATA) has none: its stored bytes wait instead.
    const key = 'storedPixels' in img ? 'storedPixels' : 'pixels';
    if (!img.external) out.push([img, key, `images[${i}].${key}`]);
  });
  m.groups.forEach((g, gi) =>
    g.layers.forEach((l, li) => {
      const key = gridKeyOf(l);
      if (key) out.push([l, key, `groups[${gi}].layers[${li}].${key}`]);
    }),
  );
  return out;
}

/** The DecodeError `fn` throws (fails the test when it throws anything else or nothing). */
function thrown(fn: () => unknown): DecodeError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DecodeError);
    return e as DecodeError;
  }
  throw new Error('expected a DecodeError');
}
const fields = (e: DecodeError) => ({ code: e.code, offset: e.offset, path: e.path, message: e.message });

describe.each(BACKENDS)("layers: 'lazy' on every fixture (%s kernels)", (backend) => {
  it.each(GOOD.map((p) => [rel(p), p]))('%s: deferred until read, then equal to the eager decode everywhere', (_name, path) => {
    const bytes = readBytes(path);
    const eager = teeworlds.decode(bytes, { backend });
    const lazy = () => teeworlds.decode(bytes, { backend, layers: 'lazy' });

    const fresh = lazy();
    const pending = lazyFields(fresh);
    // Every grid, embedded tileset and 2007 map's data is still deflated.
    for (const [obj, key, where] of pending) expect(isPending(obj, key), where).toBe(true);
    expect(pending.length).toBeGreaterThan(0);
    // Reading without keeping leaves the field lazy and gives the eager value.
    for (const [obj, key, where] of pending) {
      expect(
        isDeepStrictEqual(
          readUncached(obj as Record<string, unknown>, key),
          (lazyFields(eager).find((f) => f[2] === where)![0] as Record<string, unknown>)[key],
        ),
        where,
      ).toBe(true);
      expect(isPending(obj, key)).toBe(true);
    }
    // Deep equality reads every field (and keeps it): node's, vitest's, and equal warnings.
    expect(firstDifference(fresh, eager)).toBeNull();
    for (const [obj, key] of pending) expect(isPending(obj, key)).toBe(false);
    expect(lazy()).toEqual(eager);
    // JSON, structuredClone (postMessage), encode, summarize, mainGrid.
    expect(JSON.stringify(lazy())).toBe(JSON.stringify(eager));
    expect(firstDifference(structuredClone(lazy()), eager)).toBeNull();
    if (eager.flavour !== 'legacy') expect(teeworlds.encode(lazy())).toEqual(teeworlds.encode(eager));
    expect(summarize(lazy())).toEqual(summarize(eager));
    expect(mainGrid(lazy())).toEqual(mainGrid(eager));
  });
});

describe("layers: 'lazy' and render()", () => {
  it.each(GOOD.map((p) => [rel(p), p]))('%s: the same pictures; drawing every layer keeps none but the main grid', (_name, path) => {
    const bytes = readBytes(path);
    const eager = teeworlds.decode(bytes);
    const lazy = teeworlds.decode(bytes, { layers: 'lazy' });
    const layerCount = render(eager).layers.length;
    for (const layer of ['main', 'all', ...Array.from({ length: layerCount }, (_, i) => i)] as const) {
      const a = render(eager, { layer, scale: 2 });
      const b = render(lazy, { layer, scale: 2 });
      expect(b.rgba, `layer ${layer}`).toEqual(a.rgba);
      expect(b.markers).toEqual(a.markers);
      expect(b.layers).toEqual(a.layers);
    }
    // Every layer was drawn, yet only the main (game) grid and the tilesets drawn with were kept.
    const game = lazy.groups.flatMap((g) => g.layers).find((l) => l.kind === 'game');
    for (const g of lazy.groups)
      for (const l of g.layers) {
        const key = gridKeyOf(l);
        if (key && l !== game) expect(isPending(l, key), `${l.kind} ${l.name.text}`).toBe(true);
      }
  });
});

describe("layers: 'lazy' failures", () => {
  const source = GOOD.find((p) => p.endsWith('/ddnet-all-items.map'))!;

  it('a damaged grid stream decodes, and throws its typed error (offset, path) on each read; the rest reads', () => {
    const bytes = readBytes(source);
    const df = teeworlds.openDatafile(bytes);
    // Damage each block in turn until one belongs to a tile layer's grid (the eager decode names it).
    for (const b of df.blocks) {
      if (b.storedByteLength < 16) continue;
      const bad = bytes.slice();
      const mid = b.offset + (b.storedByteLength >> 1),
        adler = b.offset + b.storedByteLength - 2;
      bad[mid] = bad[mid]! ^ 0x5a;
      bad[adler] = bad[adler]! ^ 0xff; // the Adler-32 too, whatever the byte above did
      let eagerError: DecodeError;
      try {
        teeworlds.decode(bad);
        continue;
      } catch (e) {
        eagerError = e as DecodeError;
      }
      const m = /^groups\[(\d+)\]\.layers\[(\d+)\]\.(tiles|tele|speedup|switch|tune)$/.exec(eagerError.path ?? '');
      if (!m) continue;
      expect(eagerError.code).toBe('CORRUPT_COMPRESSED');
      for (const backend of BACKENDS) {
        const lazy = teeworlds.decode(bad, { backend, layers: 'lazy' });
        const layer = lazy.groups[Number(m[1])]!.layers[Number(m[2])] as unknown as Record<string, unknown>;
        const first = thrown(() => layer[m[3]!]);
        expect({ ...fields(first), message: undefined }).toEqual({ ...fields(eagerError), message: undefined });
        expect(first.offset).toBe(b.offset);
        expect(fields(thrown(() => layer[m[3]!]))).toEqual(fields(first));
        // Every other grid reads and equals the eager decode of the undamaged file.
        const good = teeworlds.decode(bytes);
        for (const [gi, g] of lazy.groups.entries())
          for (const [li, l] of g.layers.entries()) {
            if (gi === Number(m[1]) && li === Number(m[2])) continue;
            expect(firstDifference(l, good.groups[gi]!.layers[li])).toBeNull();
          }
      }
      return;
    }
    throw new Error(`no block of ${source} is a grid`);
  });

  it.each(BAD.map((p) => [rel(p), p]))('%s: the same error as the eager decode, at decode time unless it is in a grid stream', (_name, path) => {
    const bytes = readBytes(path);
    const eager = thrown(() => teeworlds.decode(bytes));
    let lazyError: DecodeError | undefined;
    try {
      JSON.stringify(teeworlds.decode(bytes, { layers: 'lazy' }));
    } catch (e) {
      lazyError = e as DecodeError;
    }
    expect(lazyError).toBeInstanceOf(DecodeError);
    expect(fields(lazyError!)).toEqual(fields(eager));
    // Only a fault inside a tile-skip or zlib stream of a grid waits for the read.
    const atDecode = (() => {
      try {
        teeworlds.decode(bytes, { layers: 'lazy' });
        return false;
      } catch {
        return true;
      }
    })();
    expect(atDecode).toBe(!/\.(tiles|tele|speedup|switch|tune)$/.test(eager.path ?? '') || eager.code === 'LIMIT_EXCEEDED');
  });

  it('limits hold at decode time: the per-file budget, maxInflatedBytes and a block beyond the deflate ratio', () => {
    const bytes = readBytes(GOOD.find((p) => p.endsWith('/real/ddnet-coverage.map'))!);
    const df = teeworlds.openDatafile(bytes);
    const total = df.blocks.reduce((n, b) => n + b.byteLength, 0);
    const largest = Math.max(...df.blocks.map((b) => b.byteLength));
    // Half the file's inflated bytes, or a block cap below its largest block: refused by the lazy
    // decode before any read, at the same block with the same message as the eager decode.
    for (const limits of [{ maxTotalInflatedBytes: total >> 1 }, { maxInflatedBytes: largest - 1 }]) {
      const eager = thrown(() => teeworlds.decode(bytes, { limits }));
      const lazy = thrown(() => teeworlds.decode(bytes, { limits, layers: 'lazy' }));
      expect(lazy.code).toBe('LIMIT_EXCEEDED');
      expect(fields(lazy)).toEqual(fields(eager));
    }
    // A grid block declaring more than deflate can give (a bomb's header): refused at decode time.
    const bomb = bytes.slice();
    const view = new DataView(bomb.buffer);
    const sizesAt = 36 + [...df.types.values()].length * 12 + df.items.length * 4 + df.blocks.length * 4;
    const eagerGood = teeworlds.decode(bytes);
    const game = eagerGood.groups.flatMap((g) => g.layers).find((l) => l.kind === 'game')!;
    const gameBlock = df.blocks.findIndex((b) => b.byteLength === game.width * game.height * 4);
    expect(gameBlock).toBeGreaterThanOrEqual(0);
    view.setInt32(sizesAt + gameBlock * 4, df.blocks[gameBlock]!.storedByteLength * 2000, true);
    const eager = thrown(() => teeworlds.decode(bomb));
    const lazy = thrown(() => teeworlds.decode(bomb, { layers: 'lazy' }));
    expect([lazy.code, lazy.offset]).toEqual(['CORRUPT_COMPRESSED', df.blocks[gameBlock]!.offset]);
    expect(fields(lazy)).toEqual(fields(eager));
  });

  it("the option is validated: an unknown value is a RangeError naming 'layers' and what it takes", () => {
    const bytes = readBytes(source);
    expect(() => teeworlds.decode(bytes, { layers: 'sometimes' as 'lazy' })).toThrow(/option 'layers' must be one of 'eager', 'lazy', got "sometimes"/);
  });
});

describe("layers: 'lazy' behaviour", () => {
  const bytes = readBytes(GOOD.find((p) => p.endsWith('/ddnet-all-items.map'))!);

  it('decodeAsync keeps the grids lazy (it does not inflate them all up front)', async () => {
    const m = await decodeAsync(bytes, { layers: 'lazy', inflate: 'pako' });
    const pending = lazyFields(m as TeeworldsMap);
    expect(pending.length).toBeGreaterThan(0);
    for (const [obj, key] of pending) expect(isPending(obj, key)).toBe(true);
    expect(firstDifference(m, teeworlds.decode(bytes))).toBeNull();
  });

  it('assigning a lazy field replaces it without reading; sections: summary is not made lazy', () => {
    const m = teeworlds.decode(bytes, { layers: 'lazy' });
    const game = m.groups.flatMap((g) => g.layers).find((l) => l.kind === 'game')!;
    const tiles = { index: new Uint8Array(game.width * game.height), flags: new Uint8Array(game.width * game.height) };
    game.tiles = tiles;
    expect(isPending(game, 'tiles')).toBe(false);
    expect(game.tiles).toBe(tiles);
    const summary = teeworlds.decode(bytes, { layers: 'lazy', sections: 'summary' });
    expect(lazyFields(summary).filter(([o, k]) => isPending(o, k))).toEqual([]);
    expect(summarize(summary)).toEqual(summarize(teeworlds.decode(bytes)));
  });

  it('on a frozen map a lazy field still reads (computed on each read, not kept)', () => {
    const m = teeworlds.decode(bytes, { layers: 'lazy' });
    const game = m.groups.flatMap((g) => g.layers).find((l) => l.kind === 'game')!;
    Object.freeze(game);
    expect(game.tiles).toEqual(
      teeworlds
        .decode(bytes)
        .groups.flatMap((g) => g.layers)
        .find((l) => l.kind === 'game')!.tiles,
    );
  });
});

describe.each(BACKENDS)("layers: 'lazy' warnings are the eager decode's before any access (%s kernels)", (backend) => {
  const maps = (['ddnet', 'teeworlds07'] as const).map((f) => [f, tileWarningMap(f)] as const);

  it.each(maps)('%s map with non-zero tile-skip bytes and undersized tiles: JSON, structuredClone, deep equality', (_f, bytes) => {
    const eager = teeworlds.decode(bytes, { backend });
    expect(eager.warnings.map((w) => w.code)).toContain('NONZERO_TILE_SKIP');
    const lazy = () => teeworlds.decode(bytes, { backend, layers: 'lazy' });
    // Each on a fresh result: none of its grids read before.
    expect(JSON.stringify(lazy())).toBe(JSON.stringify(eager));
    expect(firstDifference(structuredClone(lazy()), eager)).toBeNull();
    expect(isDeepStrictEqual(lazy(), eager)).toBe(true);
    expect(lazy().warnings).toEqual(eager.warnings);
  });

  it.each(maps)('%s map: reading warnings keeps no grid; a grid read first is not read again for them', (_f, bytes) => {
    const eager = teeworlds.decode(bytes, { backend });
    const fresh = teeworlds.decode(bytes, { backend, layers: 'lazy' });
    expect(fresh.warnings).toEqual(eager.warnings);
    for (const [obj, key, where] of lazyFields(fresh)) expect(isPending(obj, key), where).toBe(true);
    // A grid read (and kept, or not) before the warnings: its read's warnings are the ones listed.
    let inflates = 0;
    const read = teeworlds.decode(bytes, { backend, layers: 'lazy', inflate: 'pako', onProgress: () => inflates++ });
    const fields = lazyFields(read).filter(([, key]) => key === 'tiles');
    readUncached(fields[0]![0] as Record<string, unknown>, fields[0]![1]);
    for (const [obj, key] of fields.slice(1)) void (obj as Record<string, unknown>)[key];
    const before = inflates;
    expect(read.warnings).toEqual(eager.warnings);
    expect(inflates).toBe(before);
  });

  it('strict: a grid-stream warning throws STRICT when the grid or the warnings are read, as the eager decode throws', () => {
    const bytes = tileWarningMap('teeworlds07');
    const eager = thrown(() => teeworlds.decode(bytes, { backend, strict: true }));
    expect(eager.warning).toBe('NONZERO_TILE_SKIP');
    const lazy = teeworlds.decode(bytes, { backend, strict: true, layers: 'lazy' });
    expect(fields(thrown(() => lazy.warnings))).toEqual(fields(eager));
    const tiles = lazy.groups[0]!.layers[1] as unknown as Record<string, unknown>;
    expect(fields(thrown(() => tiles.tiles))).toEqual(fields(eager));
  });
});

describeCorpus('teeworlds', "layers: 'lazy' on the corpus", (dir) => {
  it('every map: the lazy decode, once read, deep-equals the eager one with both kernel sets', () => {
    const diffs: string[] = [];
    for (const f of listFiles(dir, /\.map$/)) {
      const bytes = readBytes(f);
      for (const backend of BACKENDS) {
        const eager = teeworlds.decode(bytes, { backend });
        const lazy = teeworlds.decode(bytes, { backend, layers: 'lazy' });
        if (summarize(lazy).summary.gridDigest !== summarize(eager).summary.gridDigest) diffs.push(`${f} (${backend}): summary`);
        const d = firstDifference(lazy, eager);
        if (d) diffs.push(`${f} (${backend}): ${d}`);
      }
    }
    expect(diffs).toEqual([]);
  }, 300_000);
});
