// WASM bindings: record walks. The table goes through the arena in chunks of records (about 1 MB
// of arena each: the chunk's input window, its columns, the program), so memory stays under the
// arena cap and is not regrown on every call; offsets come back absolute, as from the TS twin.

import { isOffsetIn, Status } from '../status.js';
import type { WasmRuntime } from './runtime.js';

const CHUNK_BYTES = 1 << 20;

export function walkRecords(rt: WasmRuntime, src: Uint8Array, offset: number, count: number, program: Int32Array, columns: Int32Array): number {
  if (!isOffsetIn(src, offset)) return Status.TRUNCATED;
  const ops = program.length / 3;
  if (!Number.isInteger(ops)) return Status.CORRUPT;
  // A guess at a record's size; a chunk whose records run past its window is re-run with a window
  // four times larger (the kernel is stateless, so a retry is a plain re-run).
  const guess = 8 * ops + 64;
  const perChunk = Math.max(1, Math.floor(CHUNK_BYTES / (4 * ops + guess)));
  let pos = offset;
  let done = 0;
  do {
    const n = Math.min(perChunk, count - done);
    const rest = src.length - pos;
    let window = Math.min(rest, Math.max(4096, n * guess));
    for (;;) {
      // Throws WasmUnavailableError when memory cannot grow that far (no silent TS run).
      const [ps, pp, pc, pl] = rt.reserve(window, program.byteLength, ops * n * 4, ops * 16) as [number, number, number, number];
      rt.put(src.subarray(pos, pos + window), ps);
      rt.put(program, pp);
      const end = rt.exports.walkRecords(ps, window, n, pp, ops, pc, pos, pl);
      if (end === Status.TRUNCATED && window < rest) {
        window = Math.min(rest, window * 4);
        continue;
      }
      if (end < 0) return end;
      // The chunk's column o (n entries) goes to columns[o * count + done …].
      if (n === count) rt.get(columns.subarray(0, ops * n), pc);
      else if (n > 0) for (let o = 0; o < ops; o++) rt.get(columns.subarray(o * count + done, o * count + done + n), pc + o * n * 4);
      pos = end;
      break;
    }
    done += n;
  } while (done < count);
  return pos;
}
