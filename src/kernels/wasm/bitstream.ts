// WASM bindings: bitstream family (Graal binary tile streams).

import { isOffsetIn, Status } from '../status.js';
import type { WasmRuntime } from './runtime.js';

// Bytes copied in on the first try, beyond 2 per tile: codes are at most 16 bits, so a stream of
// literals fits, and run codes only shorten one (the corpus maximum is 6,656 bytes for 4,096
// tiles); the NPC scripts and signs after it stay out of the copy. A stream that needs more (a
// run code before every tile) is retried with the whole rest of the input.
const FIRST_TRY_SLACK = 64;

export function graalTileStream(rt: WasmRuntime, src: Uint8Array, offset: number, codeBits: number, dst: Uint16Array): number {
  if (!isOffsetIn(src, offset)) return Status.TRUNCATED;
  const rest = src.subarray(offset);
  let len = Math.min(rest.length, dst.length * 2 + FIRST_TRY_SLACK);
  for (;;) {
    // 16 bytes of padding: the kernel's run fills store whole vectors (see assembly/bitstream.ts).
    // One region, split here: this runs once per level, where reserve()'s arrays show.
    const ps = rt.reserve1(Math.ceil(len / 16) * 16 + dst.byteLength + 16);
    const pd = ps + Math.ceil(len / 16) * 16;
    rt.put(rest.subarray(0, len), ps);
    const used = rt.exports.graalTileStream(ps, len, codeBits, pd, dst.length);
    // Ran out of the copied prefix while more input exists: retry with all of it.
    if (used === Status.TRUNCATED && len < rest.length) {
      len = rest.length;
      continue;
    }
    if (used < 0) return used;
    rt.get(dst, pd);
    return offset + used;
  }
}
