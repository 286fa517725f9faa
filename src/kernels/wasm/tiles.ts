// WASM bindings: tile-grid family.
import type { WasmRuntime } from './runtime.js';

export function scanTileGrid(rt: WasmRuntime, cells: Uint32Array, counts: Uint32Array, maxIds: Int32Array): number {
  const p = rt.reserve(cells.byteLength, maxIds.byteLength, 16);
  const [pc, pm, pk] = p as [number, number, number];
  rt.put(cells, pc);
  rt.put(maxIds, pm);
  const status = rt.exports.scanTileGrid(pc, cells.length, pm, maxIds.length, pk);
  rt.get(maxIds, pm);
  rt.get(counts.subarray(0, 4), pk);
  return status;
}
