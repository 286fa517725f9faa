// WASM binding: inflate. The compressed block and the output are laid out in the arena for one
// call (the whole output is the inflater's window), and the output is copied out once.
import { Status } from '../status.js';
import type { WasmRuntime } from './runtime.js';

export function inflateZlib(rt: WasmRuntime, src: Uint8Array, dst: Uint8Array): number {
  const [ps, pd] = rt.reserve(src.length, dst.length) as [number, number];
  rt.put(src, ps);
  const used = rt.exports.inflateZlib(ps, src.length, pd, dst.length);
  if (used >= 0) rt.get(dst, pd);
  return used;
}

// Columns leave the arena in windows of this many records (a multiple of 16: whole SIMD steps).
const TILE_WINDOW = 16 << 10;

/**
 * One trip into WASM memory for a block of CTile records: inflated into the arena, split there a
 * window at a time (splitColumns into a small scratch region after the block), and only the two
 * 1-byte columns copied out; a window whose columns are all zero is filled rather than copied.
 * Every byte of dst[0 .. 2 × cells) is written, so `dst` may be uninitialized memory.
 */
export function inflateTiles(rt: WasmRuntime, src: Uint8Array, dst: Uint8Array, cells: number): number {
  if (!Number.isInteger(cells) || cells < 0 || dst.length < 2 * cells) return Status.OVERFLOW;
  const window = Math.min(cells, TILE_WINDOW);
  const [ps, pd, pw] = rt.reserve(src.length, cells * 4, 2 * window) as [number, number, number];
  rt.put(src, ps);
  const used = rt.exports.inflateZlib(ps, src.length, pd, cells * 4);
  if (used < 0) return used;
  const mem = rt.u8;
  let dirty = 0;
  for (let r = 0; r < cells; r += window) {
    const n = Math.min(window, cells - r);
    dirty += rt.exports.splitColumns(pd + r * 4, 4, 2, n, pw);
    if (rt.exports.allZero(pw, 2 * n)) {
      dst.fill(0, r, r + n);
      dst.fill(0, cells + r, cells + r + n);
      continue;
    }
    dst.set(mem.subarray(pw, pw + n), r);
    dst.set(mem.subarray(pw + n, pw + 2 * n), cells + r);
  }
  return dirty;
}

/**
 * Scratch the calls inside inflateResident's `use` may reserve beyond the held block: the windows
 * of sumBytes (256 KiB), scanTileGrid (64 KiB of cells, up to 256 KiB of per-set maxima) and an
 * in-place gatherRecords (columns, tails and starts of a 256 KiB window), with room to spare.
 */
const RESIDENT_SCRATCH = 2 << 20;

/**
 * One trip into WASM memory: `src` and the output are held in the arena ([block][src], src right
 * after it), inflated there, and `use` reads the block as a view of memory, which cannot grow
 * (and detach the view) until it returns.
 */
export function inflateResident(rt: WasmRuntime, src: Uint8Array, size: number, use: (block: Uint8Array, consumed: number) => void): number {
  const srcAt = Math.ceil(size / 16) * 16;
  const pd = rt.hold(srcAt + src.length, RESIDENT_SCRATCH);
  try {
    rt.put(src, pd + srcAt);
    const used = rt.exports.inflateZlib(pd + srcAt, src.length, pd, size);
    if (used >= 0) use(rt.u8.subarray(pd, pd + size), used);
    return used;
  } finally {
    rt.unhold();
  }
}
