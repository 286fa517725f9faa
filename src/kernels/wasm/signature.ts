// WASM bindings: similarity signature of a tile grid. The grid is copied into the arena whole
// (a level's main grid: at most a few MB), beside the kernel's per-column scratch. The kernel's
// four-cell loads may read up to 12 bytes past the grid: the scratch region follows it.
import { Status } from '../status.js';
import type { WasmRuntime } from './runtime.js';

const SIGNATURE_BYTES = 128;

export function gridSignature(rt: WasmRuntime, cells: Uint8Array | Uint16Array | Uint32Array, width: number, height: number, out: Uint8Array): number {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0 || cells.length < width * height) return Status.TRUNCATED;
  if (out.length < SIGNATURE_BYTES) return Status.OVERFLOW;
  const used = cells.subarray(0, width * height);
  const [pc, ps, po] = rt.reserve(used.byteLength, ((width + 7) & ~3) * 12 + SIGNATURE_BYTES * 4, SIGNATURE_BYTES) as [number, number, number];
  rt.put(used, pc);
  const status = rt.exports.gridSignature(pc, cells.BYTES_PER_ELEMENT, width, height, ps, po);
  rt.get(out.subarray(0, SIGNATURE_BYTES), po);
  return status;
}
