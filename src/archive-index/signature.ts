// A grid signature's text (levels.grid_signature, made by gridSignature(): core/signature.ts) read
// back, and the similarity of two. Here, not in core: the CLI's modules reach the library only
// through src/index.ts.

/** Bytes of a signature (kernels/types.ts gridSignature: one per MinHash bin); its text is base64 of them. */
export const SIGNATURE_BYTES = 128;
const SIGNATURE_TEXT = 172;
/** Chance that two unrelated bins hold the same byte (b-bit MinHash keeps the low 8 bits of each bin's minimum). */
const CHANCE = 1 / 256;

/** The bytes of a signature's text; null for text that is not one (another length, not base64). */
export function signatureBytes(text: string): Uint8Array | null {
  if (text.length !== SIGNATURE_TEXT) return null;
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
 * The estimated Jaccard similarity (0–1) of two grids' window sets from their signatures: the
 * share of bins that agree, less the agreement two unrelated bins have by chance. The signatures
 * are SIGNATURE_BYTES at `aAt` in `a` and at `bAt` in `b` (views into arrays of many).
 */
export function similarity(a: Uint8Array, b: Uint8Array, aAt = 0, bAt = 0): number {
  let same = 0;
  for (let i = 0; i < SIGNATURE_BYTES; i++) if (a[aAt + i] === b[bAt + i]) same++;
  return Math.max(0, (same / SIGNATURE_BYTES - CHANCE) / (1 - CHANCE));
}
