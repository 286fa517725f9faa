// WASM linear memory stays bounded: a call that grows it past ARENA_CAP_BYTES leaves a fresh
// instance behind, so a long scan holds memory for its current file, not its largest ever.
import { describe, expect, it } from 'vitest';
import { wwd } from '../../src/index.js';
import { jsKernels } from '../../src/kernels/js/index.js';
import { ARENA_CAP_BYTES, wasmKernels, wasmMemoryBytes } from '../../src/kernels/wasm/index.js';

/** An uncompressed WWD level with one `side`² plane (invisible cells but for a diagonal). */
function bigLevel(side: number): Uint8Array {
  const tiles = new Uint32Array(side * side).fill(0xffffffff);
  for (let i = 0; i < side; i++) tiles[i * side + i] = i & 0xff;
  const level = wwd.newLevel({
    name: 'Big',
    planes: [wwd.newPlane({ name: 'Action', flags: 1, tilesWide: side, tilesHigh: side, tiles, imageSets: ['ACTION'] })],
  });
  return wwd.encode(level, { compress: false });
}

const smallLevel = () =>
  wwd.encode(wwd.newLevel({ name: 'Small', planes: [wwd.newPlane({ name: 'Action', flags: 1, tilesWide: 8, tilesHigh: 8, imageSets: ['ACTION'] })] }));

describe('WASM arena cap', () => {
  it('a 16 Mi-cell WWD decode leaves memory under the cap (its kernels stream through the arena)', () => {
    const big = bigLevel(4096); // 16 Mi cells, 64 MiB of grid
    const level = wwd.decode(big, { backend: 'wasm' });
    expect(level.planes[0]!.tiles.length).toBe(1 << 24);
    expect(level.planes[0]!.stats!.used).toBe(4096);
    expect(wasmMemoryBytes()).toBeGreaterThan(0);
    expect(wasmMemoryBytes()).toBeLessThanOrEqual(ARENA_CAP_BYTES);
    // Small inputs afterwards run on the small instance, with the same results as TS.
    for (let i = 0; i < 3; i++) {
      const small = smallLevel();
      expect(wwd.decode(small, { backend: 'wasm' })).toEqual(wwd.decode(small, { backend: 'js' }));
      expect(wasmMemoryBytes()).toBeLessThanOrEqual(ARENA_CAP_BYTES);
    }
  }, 60_000);

  // expandTileSkip copies its whole input and both outputs through the arena (the streaming
  // kernels never need much), so it can ask for any size.
  const expand = (tiles: number) => {
    const src = new Uint8Array((tiles / 256) * 4);
    for (let i = 0; i < src.length; i += 4) {
      src[i] = 1 + (i & 7);
      src[i + 2] = 255;
    }
    const index = new Uint8Array(tiles),
      flags = new Uint8Array(tiles);
    return { n: wasmKernels().expandTileSkip(src, index, flags), index };
  };

  it('a kernel call over the cap releases the memory at its end and still answers right', () => {
    const tiles = ARENA_CAP_BYTES / 2 + (1 << 20); // index + flags alone pass the cap
    const { n, index } = expand(tiles);
    expect(n).toBe(tiles);
    expect(index[0]).toBe(1);
    expect(index[tiles - 1]).toBe(1 + (((tiles / 256 - 1) * 4) & 7));
    expect(wasmMemoryBytes()).toBeLessThanOrEqual(ARENA_CAP_BYTES);
    expect(wasmKernels().sumBytes(Uint8Array.of(1, 2, 3))).toBe(6);
    expect(wasmMemoryBytes()).toBeLessThanOrEqual(ARENA_CAP_BYTES);
  });

  it('memory under the cap is kept between calls (no re-instantiation per call)', () => {
    expect(expand(2 << 20).n).toBe(2 << 20); // ~4.5 MB of arena
    const held = wasmMemoryBytes();
    expect(held).toBeGreaterThanOrEqual(4 << 20);
    expand(256);
    expect(wasmMemoryBytes()).toBe(held);
  });

  it('a whole-file checksum streams: memory stays small however long the input', () => {
    const bytes = new Uint8Array(ARENA_CAP_BYTES + (1 << 20)).fill(3);
    expect(wasmKernels().sumBytes(bytes)).toBe(jsKernels.sumBytes(bytes));
    expect(wasmMemoryBytes()).toBeLessThanOrEqual(ARENA_CAP_BYTES);
  });
});
