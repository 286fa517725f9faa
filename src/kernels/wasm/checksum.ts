// WASM bindings: checksum family.
import type { WasmRuntime } from './runtime.js';
import { jsKernels } from '../js/index.js';

export function sumBytes(rt: WasmRuntime, src: Uint8Array): number {
  const p = rt.reserve(src.length);
  if (!p) return jsKernels.sumBytes(src);
  rt.put(src, p[0]!);
  return rt.exports.sumBytes(p[0]!, src.length) >>> 0;
}
