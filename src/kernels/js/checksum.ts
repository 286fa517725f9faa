// Reference kernels: checksum family. See src/kernels/types.ts for the contract.

/**
 * Σ src[i] mod 2^32. Four bytes per step where the data is 4-aligned (SWAR: the bytes of a word
 * are split into two pairs of 16-bit lanes, so one add sums two bytes per lane); the lanes are
 * folded into an exact double every 128 words, before any lane (≤ 128 × 510) can overflow.
 * Byte order does not matter for a sum, so the word view is only an access pattern.
 */
export function sumBytes(src: Uint8Array): number {
  const n = src.length;
  let sum = 0;
  let i = 0;
  // Bytes up to the first 4-aligned address, one at a time.
  const lead = Math.min(n, (4 - (src.byteOffset & 3)) & 3);
  for (; i < lead; i++) sum += src[i]!;
  const words = (n - i) >>> 2;
  if (words > 0) {
    const w32 = new Uint32Array(src.buffer, src.byteOffset + i, words);
    for (let k = 0; k < words; ) {
      const stop = Math.min(words, k + 128);
      let lanes = 0;
      for (; k < stop; k++) {
        const w = w32[k]!;
        lanes += (w & 0x00ff00ff) + ((w >>> 8) & 0x00ff00ff);
      }
      sum += (lanes & 0xffff) + (lanes >>> 16);
    }
    i += words * 4;
  }
  for (; i < n; i++) sum += src[i]!;
  return sum % 0x1_0000_0000;
}
