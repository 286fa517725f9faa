// WWD pieces on their own: the checksum closed forms against the writers' literal loops, the
// checksum classification, and game detection from paths and tile size.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { littleEndianBytes, sha256Hex } from '../../src/core/digest.js';
import { classifyChecksum } from '../../src/formats/wwd/checksum.js';
import type { WwdHeader } from '../../src/formats/wwd/index.js';
import { mainGrid, wwd } from '../../src/index.js';
import { KERNEL_SETS } from '../helpers/kernels.js';
import { ROOT } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';

/** WapWorld's loop as the format article writes it (without the past-the-end byte). */
function wapworldLoop(b: Uint8Array): number {
  let c = -b.length >>> 0;
  for (let i = 1; i < b.length; i++) c = (c + b[i]! - i) >>> 0;
  return c;
}
/** WapMap's loop: start 0xFFFFFF60, per byte subtract index + 1 and add the byte. */
function wapmapLoop(b: Uint8Array): number {
  let c = 0xffffff60;
  for (let i = 0; i < b.length; i++) c = (c - (i + 1) + b[i]!) >>> 0;
  return c;
}
const sum = (b: Uint8Array) => b.reduce((a, v) => a + v, 0);

describe('wwd checksum formulas', () => {
  it('closed forms equal the literal loops (lengths 0..3 and random up to 200 000 bytes, seed 77)', () => {
    const rng = new Prng(77);
    const cases: Uint8Array[] = [new Uint8Array(0), Uint8Array.of(5), Uint8Array.of(0x78, 0x9c), Uint8Array.of(1, 2, 3)];
    for (let t = 0; t < 40; t++) cases.push(rng.bytes(rng.int(t < 35 ? 5000 : 200_000)));
    for (const b of cases) {
      expect(wwd.wapworldChecksum(sum(b), b.length, b[0] ?? 0), `length ${b.length}`).toBe(wapworldLoop(b));
      expect(wwd.wapmapChecksum(sum(b), b.length), `length ${b.length}`).toBe(wapmapLoop(b));
    }
  });
  it('lengths near 2^32 wrap like the 32-bit loops (triangular numbers above 2^53)', () => {
    // Σ i for i < N mod 2^32 with N = 2^32 − 1: compare with BigInt arithmetic.
    const n = 2 ** 32 - 1;
    const expected = Number((((0n - BigInt(n) - (BigInt(n - 1) * BigInt(n)) / 2n) % 2n ** 32n) + 2n ** 32n) % 2n ** 32n);
    expect(wwd.wapworldChecksum(0, n, 0)).toBe(expected);
  });
  describe.each(KERNEL_SETS)('classification [%s]', (_n, k) => {
    const rng = new Prng(5);
    const stream = Uint8Array.of(0x78, 0x9c, ...rng.bytes(300));
    const g = wapworldLoop(stream);
    it('WapWorld base + 0..255 is wapworld, with the delta', () => {
      expect(classifyChecksum(k, stream, new Uint8Array(0), g)).toMatchObject({ class: 'wapworld', wapworldDelta: 0, wapworld: g });
      expect(classifyChecksum(k, stream, new Uint8Array(0), (g + 255) >>> 0)).toMatchObject({ class: 'wapworld', wapworldDelta: 255 });
      expect(classifyChecksum(k, stream, new Uint8Array(0), (g + 256) >>> 0).class).toBe('mismatch');
      expect(classifyChecksum(k, stream, new Uint8Array(0), (g - 1) >>> 0).class).toBe('mismatch');
    });
    it('WapMap is exact over the stream only, trailing bytes excluded', () => {
      const meta = new TextEncoder().encode('<wm_meta></wm_meta>');
      expect(classifyChecksum(k, stream, meta, wapmapLoop(stream)).class).toBe('wapmap');
      expect(classifyChecksum(k, stream, meta, (wapmapLoop(stream) + 1) >>> 0).class).toBe('mismatch');
    });
  });
});

describe('wwd game detection', () => {
  const t = (text: string) => ({ text, raw: new Uint8Array(0) });
  const header = (imageDir: string, sets: string[] = [], pal = '') =>
    ({ imageDir: t(imageDir), imageSets: [0, 1, 2, 3].map((i) => t(sets[i] ?? '')), palRez: t(pal), rezFile: t('') }) as unknown as WwdHeader;
  it.each([
    ['LEVEL1\\TILES', [], 64, 'claw'],
    ['\\LEVEL14\\TILES', ['GAME_IMAGES', 'LEVEL14_IMAGES'], 64, 'claw'],
    ['\\AREA3\\TILEZ', ['AREA3\\IMAGEZ'], 32, 'gruntz'],
    ['DUNGEON2\\TILES', [], 48, 'get-medieval'],
    ['', [], 64, 'claw'],
    ['', [], 32, 'gruntz'],
    ['', [], 48, 'unknown'],
    ['LEVEL1\\TILES', ['AREA1\\IMAGEZ'], 32, 'gruntz'],
    ['LEVEL1\\TILES', ['AREA1\\IMAGEZ'], 48, 'unknown'],
    ['MYLEVELS\\TILES', [], 40, 'unknown'],
  ] as const)('%s %j tile %i → %s', (dir, sets, size, game) => {
    expect(wwd.detectGame(header(dir, [...sets]), size, size)).toBe(game);
  });
});

describe('wwd.newLevel / newPlane → encode → decode', () => {
  it('a level built from scratch decodes to what was built', () => {
    const tiles = Uint32Array.from({ length: 12 }, (_, i) => (i % 3 ? i : 0xffffffff));
    const level = wwd.newLevel({
      name: 'Scratch',
      author: 'me',
      imageDir: 'LEVEL2\\TILES',
      imageSets: ['LEVEL2\\IMAGES'],
      prefixes: ['LEVEL'],
      planes: [wwd.newPlane({ name: 'Action', flags: 1, tilesWide: 4, tilesHigh: 3, tiles, imageSets: ['ACTION'] })],
      tileProperties: [{ type: 1, unknown: 0, width: 64, height: 64, attribute: 2 }],
    });
    for (const compress of [true, false]) {
      const back = wwd.decode(wwd.encode(level, { compress }));
      expect(back.warnings).toEqual([]);
      expect(back.game).toBe('claw');
      expect(back.header.compressed).toBe(compress);
      expect(back.header.name.text).toBe('Scratch');
      expect(back.planes[0]!.tiles).toEqual(tiles);
      expect(back.planes[0]!.imageSetNames.map((t) => t.text)).toEqual(['ACTION']);
      expect(back.tileProperties).toEqual(level.tileProperties);
      expect(back.container.checksum).toMatchObject({ class: 'wapworld', wapworldDelta: 0 });
    }
    expect(() => wwd.newPlane({ name: 'x', tilesWide: 2, tilesHigh: 2, tiles: new Uint32Array(3) })).toThrow(RangeError);
  });
  it('fixedText writes Windows-1252 by default, the code page decoding assumes; text it lacks is refused', () => {
    const level = wwd.newLevel({ name: 'Trésor €5', planes: [] });
    expect(wwd.decode(wwd.encode(level)).header.name.text).toBe('Trésor €5');
    expect(() => wwd.fixedText('漢', 64)).toThrow(RangeError);
  });
});

describe('wwd module boundaries (STYLE § 2.2)', () => {
  const dir = join(ROOT, 'src/formats/wwd');
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => [f, readFileSync(join(dir, f), 'utf8')] as const);
  it('byte order comes from kernels/host.ts: no module probes it itself', () => {
    expect(sources.length).toBeGreaterThan(5);
    for (const [f, s] of sources) expect(s, f).not.toMatch(/new Uint(16|32)Array\(\[1\]\)/);
  });
  it('kernels are reached through the Kernels interface only (no import of kernels/js or kernels/wasm)', () => {
    for (const [f, s] of sources) expect(s, f).not.toMatch(/from '[./]*kernels\/(js|wasm)\b/);
  });
});

describe('wwd.encode kernel choice', () => {
  const level = wwd.decode(wwd.encode(wwd.newLevel({ name: 'k', planes: [wwd.newPlane({ name: 'Action', flags: 1, tilesWide: 2, tilesHigh: 2 })] })));
  it.each(KERNEL_SETS)("uses the kernel set it is given [%s]: its checksum is WapWorld's, and backend: name gives the same bytes", (_n, k) => {
    let calls = 0;
    const counting = {
      ...k,
      name: k.name,
      sumBytes: (b: Uint8Array) => {
        calls++;
        return k.sumBytes(b);
      },
    } as typeof k;
    const bytes = wwd.encode(level, { kernels: counting });
    expect(calls).toBeGreaterThan(0);
    // The checksum this set summed, against WapWorld's loop run here: an expectation that does
    // not come from another kernel set (the js row would otherwise be compared with itself).
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(0x2ec, true)).toBe(wapworldLoop(bytes.subarray(1524)));
    expect(wwd.encode(level, { backend: k.name })).toEqual(bytes);
  });
});

describe('wwd summary and mainGrid agree', () => {
  const build = (flags: number, tilesWide = 3) =>
    wwd.decode(
      wwd.encode(
        wwd.newLevel({
          name: 'm',
          planes: [
            wwd.newPlane({ name: 'Back', tilesWide: 2, tilesHigh: 2 }),
            wwd.newPlane({ name: 'Action', flags, tilesWide, tilesHigh: 2, tiles: new Uint32Array(tilesWide * 2).fill(7) }),
          ],
        }),
      ),
    );
  it('no main plane: gridDigest null and no main grid (summary decode too)', () => {
    const level = build(0);
    expect(level.mainPlane).toBe(-1);
    expect(level.warnings.map((w) => w.code)).toEqual(['NO_MAIN_PLANE']);
    expect(mainGrid(level)).toBeUndefined();
    expect(wwd.summarize(level).summary.gridDigest).toBeNull();
    expect(wwd.summarize(wwd.decode(wwd.encode(level), { sections: 'summary' })).summary.gridDigest).toBeNull();
  });
  it.each([[3], [0]])('a main plane (%i tiles wide): gridDigest is the sha256 of exactly the grid mainGrid gives (its size, then its cells)', (w) => {
    const level = build(1, w);
    const grid = mainGrid(level);
    expect(grid).toEqual({ width: w, height: 2, cells: level.planes[1]!.tiles });
    const size = Buffer.alloc(8);
    size.writeUInt32LE(w, 0);
    size.writeUInt32LE(2, 4);
    // A grid of no cells has nothing but blank in it: no digest.
    expect(wwd.summarize(level).summary.gridDigest).toBe(w === 0 ? null : sha256Hex(Buffer.concat([size, littleEndianBytes(grid!.cells)])));
  });
});
