// The similarity signature of a main grid (archive index: levels.grid_signature, families.ts) as
// text. The kernel (kernels/signature.ts) makes the bytes; archive-index/signature.ts
// reads them back and compares two. Why these shingles: src/archive-index/README.md "Families".
import type { GridSignatureKernel } from '../kernels/signature.js';

/** Bytes of a signature (one per MinHash bin); its text is base64 of them, 172 characters. */
export const SIGNATURE_BYTES = 128;

/**
 * The signature of a `width` × `height` grid as base64 text, or null when it has none: a grid
 * under 4 × 4, or every 4 × 4 window of it one value (a blank or solid grid). `kernel`: the
 * caller's (core never chooses one).
 */
export function gridSignatureOf(
  grid: { width: number; height: number; cells: Uint8Array | Uint16Array | Uint32Array },
  kernel: GridSignatureKernel,
): string | null {
  const out = new Uint8Array(SIGNATURE_BYTES);
  const n = kernel(grid.cells, grid.width, grid.height, out);
  if (n <= 0) return null;
  let text = '';
  for (const b of out) text += String.fromCharCode(b);
  return btoa(text);
}
