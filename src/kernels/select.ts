// Picks the kernel set for one decode.
import type { Backend, Kernels } from './types.js';
import { jsKernels } from './js/index.js';
import { wasmAvailable, wasmKernels } from './wasm/index.js';

/** `auto`: WASM when it instantiates here, else the JS reference kernels. */
export function chooseKernels(backend: Backend = 'auto', explicit?: Kernels): Kernels {
  if (explicit) return explicit;
  if (backend === 'js') return jsKernels;
  if (backend === 'wasm') return wasmKernels();
  return wasmAvailable() ? wasmKernels() : jsKernels;
}
