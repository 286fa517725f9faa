// Reference kernels: checksum family. See src/kernels/types.ts for the contract.

export function sumBytes(src: Uint8Array): number {
  // Sum in exact doubles (safe below 2^53 / 255 bytes), reduce once at the end.
  let sum = 0;
  for (let i = 0; i < src.length; i++) sum += src[i]!;
  return sum % 0x1_0000_0000;
}
