// gridDigest says what it means (issue 40): the main grid's size and its cells, so one run of cells
// laid out 125×40 and 100×50 are two grids; null for a blank grid (every cell the format's empty
// tile), so blank maps form no "same grid" family, in the summary, the index's files.grid_digest
// and scan's duplicate groups alike; and a level saved again keeps its digest.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { base, group, tileLayer } from '../fixtures/generators/teeworlds.js';
import type { TileLayer } from '../src/formats/teeworlds/types.js';
import { type AnyDecoded, decode, encode, graal, mainGrid, summarize, teeworlds, wwd } from '../src/index.js';
import { runBin } from './helpers/cli.js';
import { Prng } from './helpers/prng.js';

/** The digest as issue 40 defines it, computed apart from the code: width, height (u32 LE), then the cells (LE). */
function expectedDigest(width: number, height: number, cells: Uint8Array | Uint16Array | Uint32Array): string {
  const size = Buffer.alloc(8);
  size.writeUInt32LE(width, 0);
  size.writeUInt32LE(height, 4);
  const le = Buffer.from(cells.buffer, cells.byteOffset, cells.byteLength);
  return createHash('sha256').update(size).update(le).digest('hex');
}

const digestOf = (v: AnyDecoded): string | null => {
  const s = summarize(v).summary as { gridDigest?: string | null };
  return s.gridDigest ?? null;
};

/** A Teeworlds 0.7 map whose game layer is `w`×`h` with `index` as its cells. */
function twMap(w: number, h: number, index: Uint8Array): Uint8Array {
  const m = base('teeworlds07');
  const game = tileLayer(new Prng(1), 'game', 4, w, h, 'Game') as Extract<TileLayer, { kind: 'game' }>;
  game.tiles = { index, flags: new Uint8Array(w * h) };
  m.groups = [group(3, 'Game', [game])];
  return teeworlds.encode(m);
}

/** A WWD whose main plane is `w`×`h` with `tiles` as its cells. */
function wwdLevel(w: number, h: number, tiles?: Uint32Array): Uint8Array {
  return wwd.encode(wwd.newLevel({ name: 'm', planes: [wwd.newPlane({ name: 'Action', flags: 1, tilesWide: w, tilesHigh: h, tiles })] }));
}

/** One run of cells, the same whatever the grid's shape (5,000 cells: 125×40 and 100×50). */
const cells = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i % 7 === 0 ? 1 : 0));

describe('gridDigest', () => {
  it('Teeworlds: two blank maps of different sizes have no digest (no family); the same cells in two shapes differ', () => {
    const blankA = decode(twMap(125, 40, new Uint8Array(5000)));
    const blankB = decode(twMap(100, 50, new Uint8Array(5000)));
    expect(digestOf(blankA)).toBeNull();
    expect(digestOf(blankB)).toBeNull();
    const a = decode(twMap(125, 40, cells(5000)));
    const b = decode(twMap(100, 50, cells(5000)));
    expect(digestOf(a)).toBe(expectedDigest(125, 40, cells(5000)));
    expect(digestOf(b)).toBe(expectedDigest(100, 50, cells(5000)));
    expect(digestOf(a)).not.toBe(digestOf(b));
  });

  it('WWD: a main plane all invisible (0xFFFFFFFF) is blank; the same cells in two shapes differ', () => {
    expect(digestOf(decode(wwdLevel(4, 3)))).toBeNull();
    expect(digestOf(decode(wwdLevel(6, 2)))).toBeNull();
    const run = Uint32Array.from({ length: 12 }, (_, i) => i);
    const a = decode(wwdLevel(4, 3, run));
    const b = decode(wwdLevel(6, 2, run));
    expect(digestOf(a)).toBe(expectedDigest(4, 3, run));
    expect(digestOf(b)).toBe(expectedDigest(6, 2, run));
    expect(digestOf(a)).not.toBe(digestOf(b));
  });

  it('Graal: a board of tile 0 only (a new level) is blank; one tile set makes it a grid of 64×64', () => {
    const blank = graal.blankLevel('graal-nw');
    expect(digestOf(decode(encode(blank)))).toBeNull();
    const level = graal.blankLevel('graal-nw');
    level.layers[0]!.tiles[100] = 5;
    expect(digestOf(decode(encode(level)))).toBe(expectedDigest(64, 64, level.layers[0]!.tiles));
  });

  it('a level saved again keeps its digest, which is the digest of the grid mainGrid() gives', () => {
    for (const bytes of [
      twMap(100, 50, cells(5000)),
      wwdLevel(
        4,
        3,
        Uint32Array.from({ length: 12 }, (_, i) => i),
      ),
    ]) {
      const v = decode(bytes);
      const grid = mainGrid(v)!;
      expect(digestOf(v)).toBe(expectedDigest(grid.width, grid.height, grid.cells));
      expect(digestOf(decode(encode(decode(encode(v)))))).toBe(digestOf(v));
    }
  });
});

describe('scan and the index', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'levelkit-grid-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('blank maps of different sizes are no "same grid" group in scan\'s summary, nor one grid_digest in the index; re-saves are one', async () => {
    const dir = join(tmp, 'maps');
    const index = join(tmp, 'index');
    mkdirSync(dir);
    writeFileSync(join(dir, 'blank-a.map'), twMap(125, 40, new Uint8Array(5000)));
    writeFileSync(join(dir, 'blank-b.map'), twMap(100, 50, new Uint8Array(5000)));
    writeFileSync(join(dir, 'shape-a.map'), twMap(125, 40, cells(5000)));
    writeFileSync(join(dir, 'shape-b.map'), twMap(100, 50, cells(5000)));
    // The same level saved again by the library: a re-save, one family.
    writeFileSync(join(dir, 'shape-b-again.map'), encode(decode(twMap(100, 50, cells(5000)))));
    const report = join(tmp, 'report.json');
    const r = await runBin(['scan', dir, '--index', index, '--report', report, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8')).duplicates.gridDigest).toEqual({ groups: 1, files: 2 });
    const q = await runBin(['query', index, "SELECT regexp_extract(path, '[^/]+$') AS file, grid_digest FROM files ORDER BY file", '--json']);
    expect(q.code, q.stderr).toBe(0);
    const rows = q.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { file: string; grid_digest: string | null });
    const by = Object.fromEntries(rows.map((row) => [row.file, row.grid_digest]));
    expect(by['blank-a.map']).toBeNull();
    expect(by['blank-b.map']).toBeNull();
    expect(by['shape-a.map']).not.toBe(by['shape-b.map']);
    expect(by['shape-b-again.map']).toBe(by['shape-b.map']);
  }, 60_000);
});
