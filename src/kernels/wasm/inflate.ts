// WASM binding: inflate. The compressed block and the output are laid out in the arena for one
// call (the whole output is the inflater's window), and the output is copied out once.
import type { WasmRuntime } from './runtime.js';

export function inflateZlib(rt: WasmRuntime, src: Uint8Array, dst: Uint8Array): number {
  const [ps, pd] = rt.reserve(src.length, dst.length) as [number, number];
  rt.put(src, ps);
  const used = rt.exports.inflateZlib(ps, src.length, pd, dst.length);
  if (used >= 0) rt.get(dst, pd);
  return used;
}
