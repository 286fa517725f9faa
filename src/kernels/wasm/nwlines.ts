// WASM binding: Graal .nw line table (board family). One copy of the level in, only the used
// part of each table out.
import type { WasmRuntime } from './runtime.js';

export function splitNwLines(
  rt: WasmRuntime,
  src: Uint8Array,
  trust: boolean,
  starts: Int32Array,
  ends: Int32Array,
  boards: Int32Array,
  out: Int32Array,
): number {
  const cap = Math.min(starts.length, ends.length);
  const boardCap = Math.floor(boards.length / 5);
  const [ps, pst, pen, pb, po] = rt.reserve(src.length, cap * 4, cap * 4, boardCap * 20, 8) as [number, number, number, number, number];
  rt.put(src, ps);
  const count = rt.exports.splitNwLines(ps, src.length, trust ? 1 : 0, pst, pen, cap, pb, boardCap, po);
  if (count < 0) return count;
  const mem = rt.u8;
  const got = new Int32Array(mem.buffer, po, 2);
  out[0] = got[0]!;
  out[1] = got[1]!;
  starts.set(new Int32Array(mem.buffer, pst, count));
  ends.set(new Int32Array(mem.buffer, pen, count));
  boards.set(new Int32Array(mem.buffer, pb, got[0]! * 5));
  return count;
}
