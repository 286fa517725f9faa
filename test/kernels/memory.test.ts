// WASM linear memory stays bounded: a call that grows it past ARENA_CAP_BYTES leaves a fresh
// instance behind, so a long scan holds memory for its current file, not its largest ever.
import { describe, expect, it } from 'vitest';
import { wwd } from '../../src/index.js';
import { ARENA_CAP_BYTES, wasmKernels, wasmMemoryBytes } from '../../src/kernels/wasm/index.js';
import { jsKernels } from '../../src/kernels/js/index.js';

/** An uncompressed WWD level with one `side`² plane (invisible cells but for a diagonal). */
function bigLevel(side: number): Uint8Array {
  const tiles = new Uint32Array(side * side).fill(0xffffffff);
  for (let i = 0; i < side; i++) tiles[i * side + i] = i & 0xff;
  const level = wwd.newLevel({
    name: 'Big', planes: [wwd.newPlane({ name: 'Action', flags: 1, tilesWide: side, tilesHigh: side, tiles, imageSets: ['ACTION'] })],
  });
  return wwd.encode(level, { compress: false });
}

const smallLevel = () => wwd.encode(wwd.newLevel({ name: 'Small', planes: [wwd.newPlane({ name: 'Action', flags: 1, tilesWide: 8, tilesHigh: 8, imageSets: ['ACTION'] })] }));

describe('WASM arena cap', () => {
  it('a 16 Mi-cell decode grows memory past the cap only for its own calls', () => {
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

  it('a kernel call over the cap releases the memory at its end and still answers right', () => {
    const k = wasmKernels();
    const bytes = new Uint8Array(ARENA_CAP_BYTES + (1 << 20)).fill(3);
    expect(k.sumBytes(bytes)).toBe(jsKernels.sumBytes(bytes));
    expect(wasmMemoryBytes()).toBeLessThanOrEqual(ARENA_CAP_BYTES);
    const small = Uint8Array.of(1, 2, 3);
    expect(k.sumBytes(small)).toBe(6);
    expect(wasmMemoryBytes()).toBeLessThanOrEqual(ARENA_CAP_BYTES);
  });

  it('memory under the cap is kept between calls (no re-instantiation per call)', () => {
    const k = wasmKernels();
    k.sumBytes(new Uint8Array(4 << 20));
    const held = wasmMemoryBytes();
    expect(held).toBeGreaterThanOrEqual(4 << 20);
    k.sumBytes(new Uint8Array(16));
    expect(wasmMemoryBytes()).toBe(held);
  });
});
