// WASM bindings: tilemap family. One call per tile block; the argument checks that the AS side
// cannot do (typed-array lengths) happen here, with the same statuses as the JS reference.

import { firstDirectFlags } from '../js/tilemap.js';
import { Status } from '../status.js';
import type { WasmRuntime } from './runtime.js';

export function expandTileSkip(rt: WasmRuntime, src: Uint8Array, index: Uint8Array, flags: Uint8Array): number {
  const capacity = Math.min(index.length, flags.length);
  const p = rt.reserve(src.length, capacity, capacity);
  const [ps, pi, pf] = p as [number, number, number];
  rt.put(src, ps);
  const n = rt.exports.expandTileSkip(ps, src.length, pi, pf, capacity);
  if (n > 0) {
    index.set(rt.u8.subarray(pi, pi + n));
    flags.set(rt.u8.subarray(pf, pf + n));
  }
  return n;
}

// Records go through the arena in windows of this many input bytes. A whole-block copy-in and
// copy-out sends every byte through DRAM three times (grids reach several MB); a window small
// enough for L2 leaves only the read of `src` and the write of `dst` to main memory.
const SPLIT_WINDOW_BYTES = 64 << 10;

export function splitColumns(rt: WasmRuntime, src: Uint8Array, stride: number, keep: number, count: number, dst: Uint8Array, dstZeroed = false): number {
  if (stride < 1 || keep < 0 || keep > stride) return Status.CORRUPT;
  if (count * stride > src.length) return Status.TRUNCATED;
  if (keep * count > dst.length) return Status.OVERFLOW;
  // A multiple of 16 records, so every window but the last runs whole SIMD steps.
  const window = Math.min(count, Math.max(16, Math.floor(SPLIT_WINDOW_BYTES / stride) & ~15));
  const p = rt.reserve(window * stride, keep * window);
  const [ps, pd] = p as [number, number];
  const mem = rt.u8;
  let dirty = 0;
  for (let r = 0; r < count; r += window) {
    const n = Math.min(window, count - r);
    mem.set(src.subarray(r * stride, (r + n) * stride), ps);
    dirty += rt.exports.splitColumns(ps, stride, keep, n, pd);
    // An all-zero window into a zeroed destination needs no copy: its pages stay untouched.
    if (dstZeroed && rt.exports.allZero(pd, keep * n)) continue;
    for (let c = 0; c < keep; c++) dst.set(mem.subarray(pd + c * n, pd + (c + 1) * n), c * count + r);
  }
  return dirty;
}

/**
 * splitTilesInPlace through the same windowed kernel: each window is copied into the arena
 * before its columns are copied back, and a window only ever writes bytes already copied in.
 * Index columns go straight back; flags of the windows before firstDirectFlags wait in the arena.
 */
export function splitTilesInPlace(rt: WasmRuntime, buf: Uint8Array, count: number): number {
  if (!Number.isInteger(count) || count < 0 || buf.length < count * 4) return Status.TRUNCATED;
  const window = Math.min(count, Math.max(16, (SPLIT_WINDOW_BYTES >> 2) & ~15));
  const direct = firstDirectFlags(count);
  const p = rt.reserve(window * 4, 2 * window, Math.min(count, direct + window));
  const [ps, pd, pStage] = p as [number, number, number];
  const mem = rt.u8;
  let dirty = 0,
    staged = 0;
  for (let r = 0; r < count; r += window) {
    const n = Math.min(window, count - r);
    mem.set(buf.subarray(r * 4, (r + n) * 4), ps);
    dirty += rt.exports.splitColumns(ps, 4, 2, n, pd);
    buf.set(mem.subarray(pd, pd + n), r);
    // count + r + n ≤ 4 (r + n): every byte this window's flags land on has been copied in.
    if (count <= 3 * (r + n)) buf.set(mem.subarray(pd + n, pd + 2 * n), count + r);
    else {
      mem.copyWithin(pStage + r, pd + n, pd + 2 * n);
      staged = r + n;
    }
  }
  if (staged > 0) buf.set(mem.subarray(pStage, pStage + staged), count);
  return dirty;
}
