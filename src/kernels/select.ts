// Picks the kernel set for one decode.

import { jsKernels } from './js/index.js';
import type { Backend, Kernels } from './types.js';
import { wasmAvailable, wasmKernels } from './wasm/index.js';

/**
 * `js` and `wasm` are taken at their word: `wasm` throws WasmUnavailableError where the WASM
 * kernels cannot run (no WebAssembly or SIMD, instantiation failed), never a quiet switch to
 * TypeScript. `auto`: WASM when it instantiates here, else the JS reference kernels. The set's
 * `name` says which one runs.
 */
export function chooseKernels(backend: Backend = 'auto', explicit?: Kernels): Kernels {
  if (explicit) return explicit;
  if (backend === 'js') return jsKernels;
  if (backend === 'wasm') return wasmKernels();
  return wasmAvailable() ? wasmKernels() : jsKernels;
}

/** The kernel set whose inflateZlib `inflate: 'pako' | 'wasm'` names (`wasm` throws as backend 'wasm' does). */
export function inflateKernels(inflate: 'pako' | 'wasm'): Kernels {
  return inflate === 'pako' ? jsKernels : wasmKernels();
}
