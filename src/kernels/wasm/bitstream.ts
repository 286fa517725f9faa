// WASM bindings: bitstream family (Graal binary tile streams).
import type { WasmRuntime } from './runtime.js';
import { Status, isOffsetIn } from '../status.js';

// Bytes copied in on the first try: 4,096 literal 13-bit codes plus run codes fit in ~7 KB, so
// the NPC scripts and signs after the stream usually stay out of the copy.
const FIRST_TRY = 8192;

export function graalTileStream(rt: WasmRuntime, src: Uint8Array, offset: number, codeBits: number, dst: Uint16Array): number {
  if (!isOffsetIn(src, offset)) return Status.TRUNCATED;
  const rest = src.subarray(offset);
  let len = Math.min(rest.length, FIRST_TRY + dst.length * 2);
  for (;;) {
    // 16 bytes of padding: the kernel's run fills store whole vectors (see assembly/bitstream.ts).
    const p = rt.reserve(len, dst.byteLength + 16);
    const [ps, pd] = p as [number, number];
    rt.put(rest.subarray(0, len), ps);
    const used = rt.exports.graalTileStream(ps, len, codeBits, pd, dst.length);
    // Ran out of the copied prefix while more input exists: retry with all of it.
    if (used === Status.TRUNCATED && len < rest.length) { len = rest.length; continue; }
    if (used < 0) return used;
    rt.get(dst, pd);
    return offset + used;
  }
}
