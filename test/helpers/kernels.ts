// The kernel sets every kernel suite runs over (describe.each(KERNEL_SETS)).
import { jsKernels } from '../../src/kernels/js/index.js';
import type { Kernels } from '../../src/kernels/types.js';
import { wasmKernels } from '../../src/kernels/wasm/index.js';

export const KERNEL_SETS: [string, Kernels][] = [
  ['js', jsKernels],
  ['wasm', wasmKernels()],
];
