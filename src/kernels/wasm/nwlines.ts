// WASM binding: Graal .nw line table (board family). One copy of the level in (none when it is
// held in the arena: holdBytes), only the used part of each table out.
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
  // A level held in the arena (holdBytes) is read where it lies: no copy in.
  const resident = rt.pointerOf(src);
  const [reserved, pst, pen, pb, po] = rt.reserve(resident >= 0 ? 0 : src.length, cap * 4, cap * 4, boardCap * 20, 8) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const ps = resident >= 0 ? resident : reserved;
  if (resident < 0) rt.put(src, ps);
  const count = rt.exports.splitNwLines(ps, src.length, trust ? 1 : 0, pst, pen, cap, pb, boardCap, po);
  if (count < 0) return count;
  const words = wordsOf(rt);
  const boardCount = words[po >> 2]!;
  out[0] = boardCount;
  out[1] = words[(po >> 2) + 1]!;
  starts.set(words.subarray(pst >> 2, (pst >> 2) + count));
  ends.set(words.subarray(pen >> 2, (pen >> 2) + count));
  boards.set(words.subarray(pb >> 2, (pb >> 2) + boardCount * 5));
  return count;
}

// One i32 view of memory, made again only when memory grew (a view per table per call showed in
// profiles: this runs once per level). Regions from reserve() are 16-byte aligned.
let wordsBuffer: ArrayBufferLike | null = null;
let words32: Int32Array<ArrayBufferLike> = new Int32Array(0);
function wordsOf(rt: WasmRuntime): Int32Array<ArrayBufferLike> {
  const buffer = rt.u8.buffer;
  if (buffer !== wordsBuffer) {
    wordsBuffer = buffer;
    words32 = new Int32Array(buffer);
  }
  return words32;
}
