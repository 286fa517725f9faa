// WWD checksum: closed-form arithmetic over a byte sum from the sumBytes kernel. Both known
// writers' formulas reduce to (sum, length, first byte), so one pass over the stored bytes gives
// both. See README.md § Checksum for where the formulas come from.

import type { Kernels } from '../../kernels/types.js';
import type { WwdChecksumClass } from './types.js';

const M32 = 0x1_0000_0000n;

/** Triangular number n(n+1)/2 mod 2^32 (BigInt: n may be near 2^32, n² is not a safe double). */
function tri(n: number): bigint {
  const b = BigInt(n);
  return ((b * (b + 1n)) / 2n) % M32;
}

const u32 = (v: bigint) => Number(((v % M32) + M32) % M32);

/**
 * WapWorld's base value over the stored bytes `b` (N = b.length), mod 2^32:
 * G = −N + Σ_{i=1..N−1} (b[i] − i) = −N + (S − b[0]) − (N−1)N/2.
 * QUIRK: WapWorld (Claw, Gruntz) reads one byte past the buffer, so files it wrote store G + X
 * with X the unknown byte (0..255); G itself is what this encoder writes.
 */
export function wapworldChecksum(sum: number, n: number, first: number): number {
  if (n === 0) return 0;
  return u32(BigInt(sum) - BigInt(first) - BigInt(n) - tri(n - 1));
}

/** WapMap: start at 0xFFFFFF60; per stored byte i add b[i] and subtract i+1: 0xFFFFFF60 + S − N(N+1)/2. */
export function wapmapChecksum(sum: number, n: number): number {
  return u32(0xffffff60n + BigInt(sum) - tri(n));
}

export interface ChecksumFacts {
  wapworld: number;
  wapmap: number;
  wapworldDelta: number;
  class: WwdChecksumClass;
}

/**
 * Classifies `stored` against the stored main block: `stream` is the zlib stream (or the whole
 * uncompressed block), `trailing` the bytes after it. WapWorld's G counts every stored byte;
 * WapMap computed its value before appending `<wm_meta>`, so it covers the stream only.
 * WapWorld is tested first: for an uncompressed block starting with 0xA0 the two formulas agree,
 * and such files come from WapWorld.
 */
export function classifyChecksum(kernels: Kernels, stream: Uint8Array, trailing: Uint8Array, stored: number): ChecksumFacts {
  const streamSum = kernels.sumBytes(stream);
  const allSum = (streamSum + (trailing.length ? kernels.sumBytes(trailing) : 0)) % 0x1_0000_0000;
  const n = stream.length + trailing.length;
  const first = stream.length ? stream[0]! : (trailing[0] ?? 0);
  const wapworld = wapworldChecksum(allSum, n, first);
  const wapmap = wapmapChecksum(streamSum, stream.length);
  const wapworldDelta = (stored - wapworld) >>> 0;
  const cls: WwdChecksumClass = wapworldDelta <= 255 ? 'wapworld' : stored >>> 0 === wapmap ? 'wapmap' : 'mismatch';
  return { wapworld, wapmap, wapworldDelta, class: cls };
}
