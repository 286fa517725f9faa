// WASM bindings: board family (Graal .nw BOARD rows).
import type { WasmRuntime } from './runtime.js';

export function decodeBoardRows(rt: WasmRuntime, text: Uint8Array, rows: Int32Array, rowCount: number, dst: Uint16Array): number {
  const n = Math.max(0, Math.min(rowCount, Math.floor(rows.length / 3)));
  const p = rt.reserve(text.length, n * 12, dst.byteLength);
  const [pt, pr, pd] = p as [number, number, number];
  rt.put(text, pt);
  rt.put(rows.subarray(0, n * 3), pr);
  rt.put(dst, pd); // cells no row covers keep the caller's values
  const status = rt.exports.decodeBoardRows(pt, text.length, pr, n, pd, dst.length);
  if (status >= 0) rt.get(dst, pd);
  return status;
}
