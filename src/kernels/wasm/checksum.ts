// WASM bindings: checksum family. Input streams through the arena in windows, so a whole-file sum
// never grows memory past the arena cap (which would mean a fresh instance after every call).
import type { WasmRuntime } from './runtime.js';

const WINDOW_BYTES = 256 << 10;

export function sumBytes(rt: WasmRuntime, src: Uint8Array): number {
  const window = Math.min(src.length, WINDOW_BYTES);
  const p = rt.reserve1(window);
  const mem = rt.u8;
  let sum = 0;
  for (let at = 0; at < src.length; at += window) {
    const len = Math.min(window, src.length - at);
    mem.set(src.subarray(at, at + len), p);
    sum = (sum + (rt.exports.sumBytes(p, len) >>> 0)) % 0x1_0000_0000;
  }
  return sum;
}
