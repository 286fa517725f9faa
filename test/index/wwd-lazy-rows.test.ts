// A WWD decoded with `layers: 'lazy'` (what `scan --index` does): every plane but the main one
// keeps its tiles unread, its histogram counted in the decode's own pass; the rows equal the eager
// decode's, and once read the level is the eager one, whichever kernels and inflater decoded it.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isPending } from '../../src/core/lazy.js';
import type { DecodeOptions } from '../../src/core/limits.js';
import type { WwdLevel } from '../../src/formats/wwd/types.js';
import { indexRows, wwd } from '../../src/index.js';
import { describeCorpus } from '../helpers/needs.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

const FILES = listFiles(`${FIXTURES}/wwd`, /\.wwd$/i).filter((p) => !p.includes('/bad/'));

/** How many planes were left lazy: rows made, the lazy level equals the eager one. */
function expectLazyEqualsEager(bytes: Uint8Array, name: string, opts: DecodeOptions = {}): number {
  const eager = wwd.decode(bytes, opts);
  const lazy = wwd.decode(bytes, { ...opts, layers: 'lazy' }) as WwdLevel;
  const rows = indexRows(lazy);
  let left = 0;
  lazy.planes.forEach((p, i) => {
    // Only a compressed file's planes other than the main one, and only those with cells, wait.
    const waits = lazy.header.compressed && i !== lazy.mainPlane && p.tilesWide * p.tilesHigh > 0;
    expect(isPending(p, 'tiles'), `${name}: plane ${i}`).toBe(waits);
    if (waits) left++;
  });
  expect(wwd.summarize(lazy), name).toEqual(wwd.summarize(eager));
  expect(rows, name).toEqual(indexRows(eager));
  // Reading the tiles inflates the block again: the level is then the eager one (node's deep
  // equality: vitest's walks a million-cell grid one element at a time).
  expect(isDeepStrictEqual(lazy, eager), name).toBe(true);
  return left;
}

describe("WWD decoded with layers: 'lazy'", () => {
  it.each(FILES.map((p) => [p.slice(FIXTURES.length + 1), p]))('%s: rows and level equal the eager decode', (name, path) => {
    expectLazyEqualsEager(readBytes(path), name);
  });

  it('leaves planes lazy with every kernel set and inflater, with the same result', () => {
    const compressed = FILES.filter((p) => wwd.decode(readBytes(p)).header.compressed);
    expect(compressed.length).toBeGreaterThan(1);
    let left = 0;
    for (const p of compressed)
      for (const opts of [{}, { backend: 'js' }, { inflate: 'native' }, { inflate: 'pako' }, { backend: 'wasm', inflate: 'wasm' }] as DecodeOptions[])
        left += expectLazyEqualsEager(readBytes(p), `${p} ${JSON.stringify(opts)}`, opts);
    expect(left).toBeGreaterThan(0);
  });

  it('a lazy plane read twice gives equal, separate arrays, and the caller may change one', () => {
    const path = FILES.find((p) => wwd.decode(readBytes(p)).header.compressed)!;
    const bytes = readBytes(path);
    const a = wwd.decode(bytes, { layers: 'lazy' });
    const b = wwd.decode(bytes, { layers: 'lazy' });
    const i = a.planes.findIndex((p, k) => k !== a.mainPlane && isPending(p, 'tiles'));
    expect(i).toBeGreaterThanOrEqual(0);
    a.planes[i]!.tiles[0] = 0x1234;
    expect(a.planes[i]!.tiles[0]).toBe(0x1234);
    expect(isDeepStrictEqual(b.planes[i]!.tiles, wwd.decode(bytes).planes[i]!.tiles)).toBe(true);
  });
});

describeCorpus('wwd', 'WWD corpus decoded lazily', (dir) => {
  it('rows and level equal the eager decode for every corpus level', () => {
    let files = 0;
    let left = 0;
    for (const p of listFiles(dir, /\.wwd$/i)) {
      const bytes = readBytes(p);
      try {
        wwd.decode(bytes);
      } catch {
        continue; // refused either way (wwd-corpus.test.ts covers the errors)
      }
      left += expectLazyEqualsEager(bytes, p);
      files++;
    }
    expect(files).toBeGreaterThan(40);
    expect(left).toBeGreaterThan(50);
  }, 120_000);

  it("with node:zlib, a lazy level's main plane never keeps the whole block alive", () => {
    let viewsLimited = 0;
    for (const p of listFiles(dir, /\.wwd$/i)) {
      const bytes = readBytes(p);
      let level: WwdLevel;
      try {
        level = wwd.decode(bytes, { layers: 'lazy', inflate: 'native' });
      } catch {
        continue;
      }
      const main = level.planes[level.mainPlane];
      if (!level.header.compressed || !main || main.tiles.length === 0) continue;
      // A view of the block is kept only when the kept grids are at least half of it (decode.ts
      // keepGridsInPlace): a lazy level keeps one grid, so it holds at most twice that grid.
      expect(main.tiles.buffer.byteLength, p).toBeLessThanOrEqual(2 * main.tiles.byteLength);
      viewsLimited++;
    }
    expect(viewsLimited).toBeGreaterThan(40);
  });
});
