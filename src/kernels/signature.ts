// The grid-signature kernel (archive index families), apart from the Kernels set: only
// gridSignature() uses it, so the formats' bundles carry neither its TypeScript nor its WASM (a
// module of its own: assembly/signature-entry.ts), which would have put them over their budgets
// (test/bundle-size.test.ts). Two implementations, identical bytes: js/signature.ts (the
// reference) and wasm/signature.ts.
import { gridSignature as jsGridSignature } from './js/signature.js';
import type { Backend } from './types.js';
import { signatureWasmAvailable, gridSignature as wasmGridSignature } from './wasm/signature.js';

/**
 * The similarity signature of a tile grid: `width` × `height` cells, row-major (`cells` may be
 * longer). Its shingles are the grid's 4×4 windows whose 16 cells are not all one value (air
 * and solid fill make none); each window's hash (the four column hashes of its columns, each of
 * its column's four cells, combined) goes to one of 128 bins by its top 7 bits, and a bin keeps
 * the smallest low 25 bits it sees (one-permutation MinHash). An empty bin takes the value of
 * the first non-empty bin among 4096 fixed hashed choices of (bin, try), then of the next bins
 * (densification). out[j] = the low 8 bits of bin j. Two grids' bytes agree at a position with
 * a probability of about J + (1 − J)/256, J the Jaccard similarity of their window sets.
 * Returns the number of windows hashed (capped at 2^31 − 1): 0 when there is none (a grid under
 * 4 × 4, or every window uniform) and out[0 .. 128) is then zeros; TRUNCATED when `cells` is
 * shorter than width × height (or a size is not a whole number ≥ 0), OVERFLOW when `out` is
 * shorter than 128.
 */
export type GridSignatureKernel = (cells: Uint8Array | Uint16Array | Uint32Array, width: number, height: number, out: Uint8Array) => number;

export { jsGridSignature, wasmGridSignature };

/** The signature kernel of `backend`, as chooseKernels picks a set: `wasm` throws WasmUnavailableError where it cannot run. */
export function gridSignatureKernel(backend: Backend = 'auto'): GridSignatureKernel {
  if (backend === 'js') return jsGridSignature;
  if (backend === 'wasm' || signatureWasmAvailable()) return wasmGridSignature;
  return jsGridSignature;
}
