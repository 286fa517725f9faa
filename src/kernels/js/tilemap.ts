// Reference kernels: tilemap family (Teeworlds/DDNet tile layers). See src/kernels/types.ts
// for the contract; assembly/tilemap.ts is the WASM twin and must return the same values.

import { LITTLE_ENDIAN_HOST } from '../host.js';
import { Status } from '../status.js';

// Runs at least this long are written with TypedArray.fill; shorter ones by a plain loop,
// where the call overhead of fill() would dominate.
const FILL_MIN = 16;

export function expandTileSkip(src: Uint8Array, index: Uint8Array, flags: Uint8Array): number {
  if ((src.length & 3) !== 0) return Status.TRUNCATED;
  const capacity = Math.min(index.length, flags.length);
  let out = 0;
  for (let p = 0; p < src.length; p += 4) {
    if (src[p + 3] !== 0) return Status.CORRUPT;
    const run = src[p + 2]! + 1;
    if (run > capacity - out) return Status.OVERFLOW;
    const id = src[p]!,
      fl = src[p + 1]!;
    if (run >= FILL_MIN) {
      index.fill(id, out, out + run);
      flags.fill(fl, out, out + run);
      out += run;
    } else {
      for (const end = out + run; out < end; out++) {
        index[out] = id;
        flags[out] = fl;
      }
    }
  }
  return out;
}

export function splitColumns(src: Uint8Array, stride: number, keep: number, count: number, dst: Uint8Array): number {
  if (stride < 1 || keep < 0 || keep > stride) return Status.CORRUPT;
  if (count * stride > src.length) return Status.TRUNCATED;
  if (keep * count > dst.length) return Status.OVERFLOW;
  if (stride === 4 && keep === 2) {
    // The common CTile case: index → column 0, flags → column 1, skip/reserved checked. One
    // 32-bit read per tile when the input is 4-aligned on a little-endian host.
    let dirty = 0;
    if (LITTLE_ENDIAN_HOST && (src.byteOffset & 3) === 0) {
      const words = new Uint32Array(src.buffer, src.byteOffset, count);
      for (let r = 0; r < count; r++) {
        const w = words[r]!;
        dst[r] = w;
        dst[count + r] = w >>> 8;
        if (w >>> 16 !== 0) dirty++;
      }
      return dirty;
    }
    for (let r = 0, p = 0; r < count; r++, p += 4) {
      dst[r] = src[p]!;
      dst[count + r] = src[p + 1]!;
      if ((src[p + 2]! | src[p + 3]!) !== 0) dirty++;
    }
    return dirty;
  }
  let dirty = 0;
  for (let r = 0, p = 0; r < count; r++, p += stride) {
    for (let c = 0; c < keep; c++) dst[c * count + r] = src[p + c]!;
    let rest = 0;
    for (let c = keep; c < stride; c++) rest |= src[p + c]!;
    if (rest !== 0) dirty++;
  }
  return dirty;
}

/**
 * Index and flags of record i are read before anything is written at 4i or beyond, so index i
 * can go to i at once. Flags i belongs at count + i, which is already consumed only once
 * count + i ≤ 4i + 3; the flags of the records before that point wait in a small side array.
 */
export function splitTilesInPlace(buf: Uint8Array, count: number): number {
  if (!Number.isInteger(count) || count < 0 || buf.length < count * 4) return Status.TRUNCATED;
  const waiting = Math.min(count, firstDirectFlags(count));
  const early = scratch(waiting);
  // One 32-bit read per record where the layout allows it (as in splitColumns), bytes otherwise.
  const words = LITTLE_ENDIAN_HOST && (buf.byteOffset & 3) === 0 ? new Uint32Array(buf.buffer, buf.byteOffset, count) : null;
  let dirty = 0;
  for (let i = 0; i < count; i++) {
    const w = words ? words[i]! : (buf[i * 4]! | (buf[i * 4 + 1]! << 8) | (buf[i * 4 + 2]! << 16) | (buf[i * 4 + 3]! << 24)) >>> 0;
    if (w > 0xffff) dirty++;
    buf[i] = w;
    if (i < waiting) early[i] = w >>> 8;
    else buf[count + i] = w >>> 8;
  }
  buf.set(early, count);
  return dirty;
}

// Kernels do not allocate per call: the waiting flags (a third of the grid) reuse one scratch
// buffer. It is kept up to 1 MiB (grids of ~3 M tiles); a larger grid gets a one-off buffer, so a
// single huge grid does not pin tens of MB for the life of the process.
const SCRATCH_KEPT = 1 << 20;
let scratchBuf = new Uint8Array(0);
function scratch(n: number): Uint8Array {
  if (n > SCRATCH_KEPT) return new Uint8Array(n);
  if (scratchBuf.length < n) scratchBuf = new Uint8Array(Math.min(SCRATCH_KEPT, Math.max(n, scratchBuf.length * 2)));
  return scratchBuf.subarray(0, n);
}

/** The first record whose flags byte can be written straight to count + i (see splitTilesInPlace). */
export function firstDirectFlags(count: number): number {
  return Math.max(0, Math.ceil((count - 3) / 3));
}
