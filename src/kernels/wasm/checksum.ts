// WASM bindings: checksum family.
import type { WasmRuntime } from './runtime.js';

export function sumBytes(rt: WasmRuntime, src: Uint8Array): number {
  const p = rt.reserve(src.length);
  rt.put(src, p[0]!);
  return rt.exports.sumBytes(p[0]!, src.length) >>> 0;
}
