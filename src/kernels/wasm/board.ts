// WASM bindings: board family (Graal .nw BOARD rows). A level held in the arena (holdBytes) is
// read in place; otherwise it is copied in for the call.
import type { WasmRuntime } from './runtime.js';

export function decodeBoardRows(rt: WasmRuntime, text: Uint8Array, rows: Int32Array, rowCount: number, dst: Uint16Array): number {
  const n = Math.max(0, Math.min(rowCount, Math.floor(rows.length / 3)));
  // Text held in the arena (holdBytes) is read where it lies: no copy in.
  const resident = rt.pointerOf(text);
  const p = rt.reserve(resident >= 0 ? 0 : text.length, n * 12, dst.byteLength);
  const [reserved, pr, pd] = p as [number, number, number];
  const pt = resident >= 0 ? resident : reserved;
  if (resident < 0) rt.put(text, pt);
  rt.put(rows.subarray(0, n * 3), pr);
  rt.put(dst, pd); // cells no row covers keep the caller's values
  const status = rt.exports.decodeBoardRows(pt, text.length, pr, n, pd, dst.length);
  if (status >= 0) rt.get(dst, pd);
  return status;
}
