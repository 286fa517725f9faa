// WASM bindings: bitstream family (Graal binary tile streams).
import type { WasmRuntime } from './runtime.js';
import { jsKernels } from '../js/index.js';

export function graalTileStream(rt: WasmRuntime, src: Uint8Array, offset: number, codeBits: number, dst: Uint16Array): number {
  if (!Number.isInteger(offset) || offset < 0 || offset > src.length) return jsKernels.graalTileStream(src, offset, codeBits, dst);
  const rest = src.subarray(offset);
  const p = rt.reserve(rest.length, dst.byteLength);
  if (!p) return jsKernels.graalTileStream(src, offset, codeBits, dst);
  const [ps, pd] = p as [number, number];
  rt.put(rest, ps);
  const used = rt.exports.graalTileStream(ps, rest.length, codeBits, pd, dst.length);
  if (used < 0) return used;
  rt.get(dst, pd);
  return offset + used;
}
