// WASM bindings: record-table family. Only the input from `offset` on is copied into the arena
// (the table usually sits near the end of a large block); offsets come back absolute.
import type { WasmRuntime } from './runtime.js';
import type { RecordLayout } from '../types.js';
import { Status, isOffsetIn } from '../status.js';

export function gatherRecords(rt: WasmRuntime, src: Uint8Array, offset: number, count: number, layout: RecordLayout, columns: Int32Array, tails: Uint32Array): number {
  if (!isOffsetIn(src, offset)) return Status.TRUNCATED;
  const part = src.subarray(offset);
  const colBytes = layout.fixedWords * count * 4;
  const p = rt.reserve(part.length, colBytes, count * 4);
  const [ps, pc, pt] = p as [number, number, number];
  rt.put(part, ps);
  const end = rt.exports.gatherRecords(ps, part.length, count, layout.fixedWords, layout.lenIndex, layout.lenCount, pc, pt, offset);
  if (end >= 0) {
    rt.get(columns.subarray(0, layout.fixedWords * count), pc);
    rt.get(tails.subarray(0, count), pt);
  }
  return end;
}
