// Reference kernels: similarity signature of a tile grid. See src/kernels/types.ts for the
// contract and assembly/signature.ts for the same steps in AssemblyScript.
import { Status } from '../status.js';

/** Bytes of a signature: one per MinHash bin. */
export const SIGNATURE_BYTES = 128;
const SHINGLE = 4;
const EMPTY = 0xffffffff;
const COLUMN_SEED = 0x2545f491;
const WINDOW_SEED = 0x9e3779b9;
const DONOR_TRIES = 4096;

const step = (h: number, v: number): number => {
  const m = Math.imul(h ^ v, 0x9e3779b1);
  return (m ^ (m >>> 15)) >>> 0;
};

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function gridSignature(cells: Uint8Array | Uint16Array | Uint32Array, width: number, height: number, out: Uint8Array): number {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0 || cells.length < width * height) return Status.TRUNCATED;
  if (out.length < SIGNATURE_BYTES) return Status.OVERFLOW;
  const mins = new Uint32Array(SIGNATURE_BYTES).fill(EMPTY);
  const count = width >= SHINGLE && height >= SHINGLE ? shingles(cells, width, height, mins) : 0;
  if (count === 0) {
    out.fill(0, 0, SIGNATURE_BYTES);
    return 0;
  }
  for (let j = 0; j < SIGNATURE_BYTES; j++) {
    let v = mins[j]!;
    for (let t = 1; v === EMPTY && t <= DONOR_TRIES; t++) v = mins[fmix(Math.imul(j + 1, 0x9e3779b1) ^ Math.imul(t, 0x85ebca77)) >>> 25]!;
    for (let d = 1; v === EMPTY; d++) v = mins[(j + d) & (SIGNATURE_BYTES - 1)]!;
    out[j] = v & 0xff;
  }
  return Math.min(count, 0x7fffffff);
}

/** Folds every non-uniform 4×4 window into `mins`; returns how many there were. */
function shingles(cells: Uint8Array | Uint16Array | Uint32Array, width: number, height: number, mins: Uint32Array): number {
  const hashes = new Uint32Array(width);
  const values = new Uint32Array(width);
  const same = new Uint8Array(width);
  let count = 0;
  for (let y = 0; y + SHINGLE <= height; y++) {
    const r0 = y * width,
      r1 = r0 + width,
      r2 = r1 + width,
      r3 = r2 + width;
    for (let x = 0; x < width; x++) {
      const v0 = cells[r0 + x]! >>> 0,
        v1 = cells[r1 + x]! >>> 0,
        v2 = cells[r2 + x]! >>> 0,
        v3 = cells[r3 + x]! >>> 0;
      hashes[x] = step(step(step(step(COLUMN_SEED, v0), v1), v2), v3);
      values[x] = v0;
      same[x] = v0 === v1 && v1 === v2 && v2 === v3 ? 1 : 0;
    }
    for (let x = 0; x + SHINGLE <= width; x++) {
      const v = values[x]!;
      if (same[x]! & same[x + 1]! & same[x + 2]! & same[x + 3]! && values[x + 1] === v && values[x + 2] === v && values[x + 3] === v) continue;
      const h = fmix(step(step(step(step(WINDOW_SEED, hashes[x]!), hashes[x + 1]!), hashes[x + 2]!), hashes[x + 3]!));
      const bin = h >>> 25;
      const value = h & 0x01ffffff;
      if (value < mins[bin]!) mins[bin] = value;
      count++;
    }
  }
  return count;
}
