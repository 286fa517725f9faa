// WASM bindings: byte-rewriting family. Long buffers go through the arena in windows, so the
// arena stays small whatever the input; a window with nothing to replace is not copied back.
import type { WasmRuntime } from './runtime.js';

const WINDOW_BYTES = 64 << 10;

export function replaceByte(rt: WasmRuntime, buf: Uint8Array, from: number, to: number): number {
  // Values outside a byte never match (as in the reference); `to` is stored as a byte there too.
  if (!Number.isInteger(from) || from < 0 || from > 255) return 0;
  const window = Math.max(1, Math.min(buf.length, WINDOW_BYTES));
  const p = rt.reserve1(window);
  const mem = rt.u8;
  let n = 0;
  for (let at = 0; at < buf.length; at += window) {
    const len = Math.min(window, buf.length - at);
    mem.set(buf.subarray(at, at + len), p);
    const k = rt.exports.replaceByte(p, len, from, to & 0xff);
    if (k > 0) buf.set(mem.subarray(p, p + len), at);
    n += k;
  }
  return n;
}
