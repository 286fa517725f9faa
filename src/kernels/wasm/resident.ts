// WASM binding: a caller's bytes held in the arena across several kernel calls (one copy in for
// all of them; the bindings of kernels that read a held view use it where it lies).
import type { WasmRuntime } from './runtime.js';

export function holdBytes<T>(rt: WasmRuntime, src: Uint8Array, scratch: number, use: (held: Uint8Array) => T): T {
  const p = rt.hold(src.length, scratch);
  try {
    rt.put(src, p);
    return use(rt.u8.subarray(p, p + src.length));
  } finally {
    rt.unhold();
  }
}
