// WASM bindings: record-table family.
import type { WasmRuntime } from './runtime.js';
import type { RecordLayout } from '../types.js';
import { jsKernels } from '../js/index.js';

export function gatherRecords(rt: WasmRuntime, src: Uint8Array, offset: number, count: number, layout: RecordLayout, columns: Int32Array, tails: Uint32Array): number {
  const colBytes = layout.fixedWords * count * 4;
  const p = rt.reserve(src.length, colBytes, count * 4);
  if (!p) return jsKernels.gatherRecords(src, offset, count, layout, columns, tails);
  const [ps, pc, pt] = p as [number, number, number];
  rt.put(src, ps);
  const end = rt.exports.gatherRecords(ps, src.length, offset, count, layout.fixedWords, layout.lenIndex, layout.lenCount, pc, pt);
  if (end >= 0) {
    rt.get(columns.subarray(0, layout.fixedWords * count), pc);
    rt.get(tails.subarray(0, count), pt);
  }
  return end;
}
