// WASM bindings: tile-grid family. Grids stream through the arena in windows of WINDOW_CELLS
// (copy in, scan), so a multi-MB grid is read once from DRAM and the arena stays in L2 and small;
// the per-set maxima stay in the arena across windows and the counts are summed here.
import type { WasmRuntime } from './runtime.js';

const WINDOW_CELLS = 16 << 10;

export function scanTileGrid(rt: WasmRuntime, cells: Uint32Array, counts: Uint32Array, maxIds: Int32Array): number {
  const at = rt.pointerOf(cells);
  if (at >= 0) return scanInPlace(rt, at, cells.length, counts, maxIds);
  const window = Math.max(1, Math.min(cells.length, WINDOW_CELLS));
  const [pc, pm, pk] = rt.reserve(window * 4, maxIds.byteLength, 16) as [number, number, number];
  rt.put(maxIds, pm);
  const mem = rt.u8;
  const part = new Uint32Array(mem.buffer, pk, 4);
  let invisible = 0,
    filled = 0,
    used = 0,
    other = 0,
    status = 0;
  for (let at = 0; at < cells.length || at === 0; at += window) {
    const n = Math.min(window, cells.length - at);
    mem.set(new Uint8Array(cells.buffer, cells.byteOffset + at * 4, n * 4), pc);
    status = rt.exports.scanTileGrid(pc, n, pm, maxIds.length, pk);
    invisible += part[0]!;
    filled += part[1]!;
    used += part[2]!;
    other += part[3]!;
    if (n === 0) break;
  }
  rt.get(maxIds, pm);
  counts[0] = invisible;
  counts[1] = filled;
  counts[2] = used;
  counts[3] = other;
  return status;
}

/** scanTileGrid over cells that lie in memory already (a held block): one call, nothing copied in. */
function scanInPlace(rt: WasmRuntime, at: number, cells: number, counts: Uint32Array, maxIds: Int32Array): number {
  const [pm, pk] = rt.reserve(maxIds.byteLength, 16) as [number, number];
  rt.put(maxIds, pm);
  const status = rt.exports.scanTileGrid(at, cells, pm, maxIds.length, pk);
  rt.get(maxIds, pm);
  counts.set(new Uint32Array(rt.u8.buffer, pk, 4));
  return status;
}
