// WASM bindings: record walks. Only the input from `offset` on is copied into the arena; offsets
// come back absolute, as from the TS twin.
import type { WasmRuntime } from './runtime.js';
import { Status, isOffsetIn } from '../status.js';

export function walkRecords(rt: WasmRuntime, src: Uint8Array, offset: number, count: number, program: Int32Array, columns: Int32Array): number {
  if (!isOffsetIn(src, offset)) return Status.TRUNCATED;
  const ops = program.length / 3;
  if (!Number.isInteger(ops)) return Status.CORRUPT;
  const rest = src.length - offset;
  // Copy a window sized from the record count rather than the whole rest of the file (a table is
  // often one of many in a large file); if the walk runs past it, retry with a window four times
  // larger. The kernel is stateless, so a retry is a plain re-run; total copying stays within a
  // small factor of the table's size.
  let window = Math.min(rest, Math.max(4096, count * (8 * ops + 64)));
  for (;;) {
    // Throws WasmUnavailableError when memory cannot grow that far (no silent TS run).
    const [ps, pp, pc, pl] = rt.reserve(window, program.byteLength, ops * count * 4, ops * 16) as [number, number, number, number];
    rt.put(src.subarray(offset, offset + window), ps);
    rt.put(program, pp);
    const end = rt.exports.walkRecords(ps, window, count, pp, ops, pc, offset, pl);
    if (end === Status.TRUNCATED && window < rest) {
      window = Math.min(rest, window * 4);
      continue;
    }
    if (end >= 0) rt.get(columns.subarray(0, ops * count), pc);
    return end;
  }
}
