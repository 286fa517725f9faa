// WASM bindings: record walks. Only the input from `offset` on is copied into the arena; offsets
// come back absolute, as from the TS twin.
import type { WasmRuntime } from './runtime.js';
import { jsKernels } from '../js/index.js';
import { Status, isOffsetIn } from '../status.js';

export function walkRecords(rt: WasmRuntime, src: Uint8Array, offset: number, count: number, program: Int32Array, columns: Int32Array): number {
  if (!isOffsetIn(src, offset)) return Status.TRUNCATED;
  const ops = program.length / 3;
  if (!Number.isInteger(ops)) return Status.CORRUPT;
  const part = src.subarray(offset);
  const p = rt.reserve(part.length, program.byteLength, ops * count * 4);
  if (!p) return jsKernels.walkRecords(src, offset, count, program, columns);
  const [ps, pp, pc] = p as [number, number, number];
  rt.put(part, ps);
  rt.put(program, pp);
  const end = rt.exports.walkRecords(ps, part.length, count, pp, ops, pc, offset);
  if (end >= 0) rt.get(columns.subarray(0, ops * count), pc);
  return end;
}
