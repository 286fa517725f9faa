// Real-size limits (issue 19 §2): the defaults admit maps beyond the old 2^26-cell cap, the per-file
// byte budget refuses bombs before allocating, and every decoding command takes the caps.
import { describe, expect, it } from 'vitest';
import { packName } from '../src/formats/teeworlds/names.js';
import type { DatafileItem } from '../src/formats/teeworlds/types.js';
import { DEFAULT_LIMITS, DecodeError, summarize, teeworlds } from '../src/index.js';
import { cli, jsonLines } from './helpers/cli.js';

/** A map of tile-skip (0.7, tilemap v4) layers of `w × h` empty tiles each, the first the game layer: tiny on disk, `layers × w × h` cells decoded. */
function skipMap(layers: number, w: number, h: number): Uint8Array {
  const items: DatafileItem[] = [{ typeId: 0, id: 0, data: Int32Array.of(1) }];
  items.push({ typeId: 4, id: 0, data: Int32Array.of(1, 0, 0, 100, 100, 0, layers) });
  const blocks: Uint8Array[] = [];
  const cells = w * h;
  for (let k = 0; k < layers; k++) {
    const d = new Int32Array(18);
    d.set([0, 2, 0, 4, w, h, k === 0 ? 1 : 0, 255, 255, 255, 255, -1, 0, -1, blocks.length]);
    packName(new Uint8Array(0), d, 15, 3);
    items.push({ typeId: 5, id: k, data: d });
    // Records of 256 tiles each (skip 255), the last one shorter.
    const records = Math.ceil(cells / 256);
    const block = new Uint8Array(records * 4);
    for (let r = 0; r < records; r++) block[r * 4 + 2] = Math.min(256, cells - r * 256) - 1;
    blocks.push(block);
  }
  return teeworlds.writeDatafile(items, blocks);
}

describe('default limits admit real-size maps and refuse bombs by bytes', () => {
  it('the defaults follow DDNet: cells up to 2^31 − 1, 1 GiB per file, 256 MiB per block', () => {
    expect(DEFAULT_LIMITS).toEqual({
      maxInflatedBytes: 2 ** 28,
      maxTotalInflatedBytes: 2 ** 30,
      maxGridCells: 2 ** 31 - 1,
      maxRecords: 2 ** 24,
      maxLevelObjects: 2 ** 18,
      maxZipRatio: 100,
    });
  });

  it('a map of more cells than the old 2^26 cap decodes with the defaults (full and summary)', () => {
    // 9 layers of 3000 × 2500 = 67.5 M cells (> 2^26 = 67.1 M), 135 MB of columns.
    const bytes = skipMap(9, 3000, 2500);
    expect(bytes.length).toBeLessThan(1 << 20);
    const full = teeworlds.decode(bytes);
    expect(full.groups[0]!.layers).toHaveLength(9);
    expect(summarize(teeworlds.decode(bytes, { sections: 'summary' }))).toEqual(summarize(full));
  }, 60_000);

  it('a tile-skip bomb is refused by the per-file budget before anything is expanded, at both depths', () => {
    // One layer of 30000 × 30000 = 900 M cells (under DDNet's cell bound) from a ~14 MB block of skip records.
    const bytes = skipMap(1, 30000, 30000);
    for (const sections of ['all', 'summary'] as const) {
      const before = process.memoryUsage().arrayBuffers;
      let err: unknown;
      try {
        teeworlds.decode(bytes, { sections });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DecodeError);
      expect(err).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'groups[0].layers[0].tiles' });
      expect((err as Error).message).toMatch(/limits\.maxTotalInflatedBytes/);
      // Nothing near the 1.8 GB of columns was allocated.
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(256 * 2 ** 20);
    }
  }, 60_000);

  it('the cell cap still holds when set: per grid and over all layers', () => {
    const bytes = skipMap(3, 100, 100);
    expect(teeworlds.decode(bytes, { limits: { maxGridCells: 30000 } }).groups[0]!.layers).toHaveLength(3);
    expect(() => teeworlds.decode(bytes, { limits: { maxGridCells: 29999 } })).toThrow(
      expect.objectContaining({ code: 'LIMIT_EXCEEDED', path: 'groups[0].layers[2].tiles' }),
    );
  });
});

describe('every decoding command takes --max-cells, --max-inflated and --limit', () => {
  const map = 'fixtures/teeworlds/tw07-skip.map';
  // tw07-skip.map: a 40 × 30 game layer and a 300 × 2 tile layer (1800 cells).
  const cases: [string, string[]][] = [
    ['info', [map, '--json']],
    ['scan', [map, '--workers', '1', '-q']],
    ['render', [map, '--out', '/dev/null', '--json']],
    ['extract', [map, '--out', '/tmp/levelkit-limits-extract', '--json', '--force']],
  ];
  for (const [command, args] of cases) {
    it(`${command}: a cap below the map is a LIMIT_EXCEEDED record naming it; a bad value a usage error naming the option`, () => {
      const low = cli(command, ...args, '--max-cells', '1k');
      expect(low.status, low.stderr).toBe(2);
      const rec = jsonLines(low.stdout)[0]!;
      expect(rec.error).toMatchObject({ code: 'LIMIT_EXCEEDED' });
      expect(rec.error.message).toMatch(/limits\.maxGridCells/);
      const budget = cli(command, ...args, '--limit', 'maxTotalInflatedBytes=100');
      expect(budget.status, budget.stderr).toBe(2);
      expect(jsonLines(budget.stdout)[0]!.error.message).toMatch(/limits\.maxTotalInflatedBytes/);
      const bad = cli(command, ...args, '--max-inflated', '12x');
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/--max-inflated must be a whole number/);
      const unknown = cli(command, ...args, '--limit', 'maxCells=5');
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toMatch(/--limit must be name=value with name one of maxInflatedBytes/);
    }, 60_000);
  }

  it('convert (Graal, whose fixed 64 × 64 boards no cap reaches): the caps are taken and validated', () => {
    const ok = cli(
      'convert',
      'fixtures/graal/crlf.nw',
      '/tmp/levelkit-limits-out.graal',
      '--force',
      '--json',
      '--max-cells',
      '4096',
      '--limit',
      'maxRecords=100',
    );
    expect(ok.status, ok.stderr).toBe(0);
    const bad = cli('convert', 'fixtures/graal/crlf.nw', '/tmp/levelkit-limits-out.graal', '--force', '--max-cells', '1.5');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--max-cells must be a whole number/);
  }, 60_000);

  it('the same cap twice is refused, naming both', () => {
    const r = cli('info', map, '--max-cells', '5', '--limit', 'maxGridCells=6');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--limit maxGridCells: limits\.maxGridCells is already set by --max-cells/);
  });

  it('--help of each command lists the caps with their defaults', () => {
    for (const command of ['info', 'scan', 'render', 'extract', 'convert']) {
      const h = cli(command, '--help').stdout;
      expect(h, command).toMatch(/--max-cells <n\[k\|M\|G\]>.*default 2147483647/);
      expect(h, command).toMatch(/--max-inflated .*default 1G/);
      expect(h, command).toMatch(/--limit <name=n\[k\|M\|G\]>.*maxRecords \(default 16777216\)/);
    }
  });
});
