// The similarity signature of a main grid (archive index: levels.grid_signature, families.ts), and
// the similarity of two. The kernel (kernels/types.ts gridSignature) makes the bytes; this module
// is their text form and how two are compared. Why these shingles: src/archive-index/README.md
// "Families".
import type { Kernels } from '../kernels/types.js';

/** Bytes of a signature (one per MinHash bin); its text is base64 of them, 172 characters. */
export const SIGNATURE_BYTES = 128;
/** Chance that two unrelated bins hold the same byte (b-bit MinHash keeps the low 8 bits of each bin's minimum). */
const CHANCE = 1 / 256;

/**
 * The signature of a `width` × `height` grid as base64 text, or null when it has none: a grid
 * under 4 × 4, or every 4 × 4 window of it one value (a blank or solid grid). `kernels`: the set
 * the caller decodes with (core never chooses one).
 */
export function gridSignatureOf(grid: { width: number; height: number; cells: Uint8Array | Uint16Array | Uint32Array }, kernels: Kernels): string | null {
  const out = new Uint8Array(SIGNATURE_BYTES);
  const n = kernels.gridSignature(grid.cells, grid.width, grid.height, out);
  if (n <= 0) return null;
  let text = '';
  for (const b of out) text += String.fromCharCode(b);
  return btoa(text);
}

/** The bytes of a signature's text; null for text that is not one (another length, not base64). */
export function signatureBytes(text: string): Uint8Array | null {
  if (text.length !== 172) return null;
  let raw: string;
  try {
    raw = atob(text);
  } catch {
    return null;
  }
  if (raw.length !== SIGNATURE_BYTES) return null;
  const out = new Uint8Array(SIGNATURE_BYTES);
  for (let i = 0; i < SIGNATURE_BYTES; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/**
 * The estimated Jaccard similarity of the two grids' window sets (0–1): the share of bins that
 * agree, less the agreement two unrelated bins have by chance. `b` may be a view at `at` of a
 * larger array of signatures.
 */
export function similarity(a: Uint8Array, b: Uint8Array, aAt = 0, bAt = 0): number {
  let same = 0;
  for (let i = 0; i < SIGNATURE_BYTES; i++) if (a[aAt + i] === b[bAt + i]) same++;
  return Math.max(0, (same / SIGNATURE_BYTES - CHANCE) / (1 - CHANCE));
}
