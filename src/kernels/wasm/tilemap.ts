// WASM bindings: tilemap family. One call per tile block; the argument checks that the AS side
// cannot do (typed-array lengths) happen here, with the same statuses as the JS reference.
import type { WasmRuntime } from './runtime.js';
import { jsKernels } from '../js/index.js';
import { Status } from '../status.js';

export function expandTileSkip(rt: WasmRuntime, src: Uint8Array, index: Uint8Array, flags: Uint8Array): number {
  const capacity = Math.min(index.length, flags.length);
  const p = rt.reserve(src.length, capacity, capacity);
  if (!p) return jsKernels.expandTileSkip(src, index, flags);
  const [ps, pi, pf] = p as [number, number, number];
  rt.put(src, ps);
  const n = rt.exports.expandTileSkip(ps, src.length, pi, pf, capacity);
  if (n > 0) {
    index.set(rt.u8.subarray(pi, pi + n));
    flags.set(rt.u8.subarray(pf, pf + n));
  }
  return n;
}

export function splitColumns(rt: WasmRuntime, src: Uint8Array, stride: number, keep: number, count: number, dst: Uint8Array): number {
  if (stride < 1 || keep < 0 || keep > stride) return Status.CORRUPT;
  if (count * stride > src.length) return Status.TRUNCATED;
  if (keep * count > dst.length) return Status.OVERFLOW;
  const p = rt.reserve(count * stride, keep * count);
  if (!p) return jsKernels.splitColumns(src, stride, keep, count, dst);
  const [ps, pd] = p as [number, number];
  rt.put(src.subarray(0, count * stride), ps);
  const dirty = rt.exports.splitColumns(ps, stride, keep, count, pd);
  rt.get(dst.subarray(0, keep * count), pd);
  return dirty;
}
