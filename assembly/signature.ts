// Similarity signature of a tile grid (src/kernels/types.ts gridSignature): one-permutation
// MinHash over the grid's non-uniform 4×4 windows. A window's hash is built from its four column
// hashes (each over 4 cells of one column), so each cell is read 4 times, not 16; a window whose
// four columns are each uniform and of one value is skipped before any hashing (air, solid rock).
// Scratch (caller-provided): column hashes, first values and all-same masks (u32 each, width
// padded to (width + 7) & ~3), then the bins (u32 × 128). No allocation. Columns and four-window
// steps run in SIMD; a uniform window is skipped before it is hashed.

// @ts-ignore: decorator
@inline const SHINGLE: u32 = 4;
// @ts-ignore: decorator
@inline const BINS: u32 = 128;
// @ts-ignore: decorator
@inline const EMPTY: u32 = 0xFFFF_FFFF;
// @ts-ignore: decorator
@inline const COLUMN_SEED: u32 = 0x2545_F491;
// @ts-ignore: decorator
@inline const WINDOW_SEED: u32 = 0x9E37_79B9;
// @ts-ignore: decorator
@inline const DONOR_TRIES: u32 = 4096;

// @ts-ignore: decorator
@inline function step(h: u32, v: u32): u32 {
  h = (h ^ v) * 0x9E37_79B1;
  return h ^ (h >>> 15);
}

// @ts-ignore: decorator
@inline function fmix(h: u32): u32 {
  h ^= h >>> 16;
  h *= 0x85EB_CA6B;
  h ^= h >>> 13;
  h *= 0xC2B2_AE35;
  return h ^ (h >>> 16);
}

/** Four cells of one row from cell `i` on (past the row's end: lanes no window reads). */
// @ts-ignore: decorator
@inline function four(cells: usize, i: usize): v128 {
  return v128.load(cells + (i << 2));
}

// @ts-ignore: decorator
@inline function stepX4(h: v128, v: v128): v128 {
  h = i32x4.mul(v128.xor(h, v), i32x4.splat(<i32>0x9E37_79B1));
  return v128.xor(h, i32x4.shr_u(h, 15));
}

/**
 * Fills the column tables for windows whose top row is `y`, four columns per step (the last step
 * may fill up to three columns past `width`, which the window pass never reads).
 */
// @ts-ignore: decorator
@inline function columns(cells: usize, width: u32, y: u32, hashes: usize, values: usize, same: usize): void {
  const r0 = <usize>y * width;
  const r1 = r0 + width;
  const r2 = r1 + width;
  const r3 = r2 + width;
  for (let x: usize = 0; x < <usize>width; x += 4) {
    const v0 = four(cells, r0 + x);
    const v1 = four(cells, r1 + x);
    const v2 = four(cells, r2 + x);
    const v3 = four(cells, r3 + x);
    v128.store(hashes + (x << 2), stepX4(stepX4(stepX4(stepX4(i32x4.splat(<i32>COLUMN_SEED), v0), v1), v2), v3));
    v128.store(values + (x << 2), v0);
    v128.store(same + (x << 2), v128.and(v128.and(i32x4.eq(v0, v1), i32x4.eq(v1, v2)), i32x4.eq(v2, v3)));
  }
}

/** Folds the window at `x` (hash `h`) into `mins`. */
// @ts-ignore: decorator
@inline function fold(mins: usize, h: u32): void {
  const slot = mins + (<usize>(h >>> 25) << 2);
  const value = h & 0x01FF_FFFF;
  if (value < load<u32>(slot)) store<u32>(slot, value);
}

// @ts-ignore: decorator
@inline function fmixX4(h: v128): v128 {
  h = v128.xor(h, i32x4.shr_u(h, 16));
  h = i32x4.mul(h, i32x4.splat(<i32>0x85EB_CA6B));
  h = v128.xor(h, i32x4.shr_u(h, 13));
  h = i32x4.mul(h, i32x4.splat(<i32>0xC2B2_AE35));
  return v128.xor(h, i32x4.shr_u(h, 16));
}

function shingles(cells: usize, width: u32, height: u32, scratch: usize, mins: usize): u32 {
  // Each table is padded to a multiple of 4 columns, +4 (the vector window pass reads x+3..x+6).
  const padded = (<usize>width + 7) & ~(<usize>3);
  const hashes = scratch;
  const values = hashes + (padded << 2);
  const same = values + (padded << 2);
  let count: u32 = 0;
  const last = <usize>width - SHINGLE; // the last window's x
  for (let y: u32 = 0; y + SHINGLE <= height; y++) {
    columns(cells, width, y, hashes, values, same);
    let x: usize = 0;
    // Four windows per step (x .. x+3, reading columns x .. x+6) while all four exist.
    for (; x + 3 <= last; x += 4) {
      const s = v128.and(v128.and(v128.load(same + (x << 2)), v128.load(same + (x << 2), 4)), v128.and(v128.load(same + (x << 2), 8), v128.load(same + (x << 2), 12)));
      const v = v128.load(values + (x << 2));
      const eq = v128.and(v128.and(i32x4.eq(v, v128.load(values + (x << 2), 4)), i32x4.eq(v, v128.load(values + (x << 2), 8))), i32x4.eq(v, v128.load(values + (x << 2), 12)));
      const uniform = v128.and(s, eq);
      if (i32x4.all_true(uniform)) continue;
      const p = hashes + (x << 2);
      const h = fmixX4(stepX4(stepX4(stepX4(stepX4(i32x4.splat(<i32>WINDOW_SEED), v128.load(p)), v128.load(p, 4)), v128.load(p, 8)), v128.load(p, 12)));
      if (!i32x4.extract_lane(uniform, 0)) { fold(mins, <u32>i32x4.extract_lane(h, 0)); count++; }
      if (!i32x4.extract_lane(uniform, 1)) { fold(mins, <u32>i32x4.extract_lane(h, 1)); count++; }
      if (!i32x4.extract_lane(uniform, 2)) { fold(mins, <u32>i32x4.extract_lane(h, 2)); count++; }
      if (!i32x4.extract_lane(uniform, 3)) { fold(mins, <u32>i32x4.extract_lane(h, 3)); count++; }
    }
    for (; x <= last; x++) {
      const v = load<u32>(values + (x << 2));
      if (
        load<u32>(same + (x << 2)) & load<u32>(same + (x << 2), 4) & load<u32>(same + (x << 2), 8) & load<u32>(same + (x << 2), 12) &&
        load<u32>(values + (x << 2), 4) == v &&
        load<u32>(values + (x << 2), 8) == v &&
        load<u32>(values + (x << 2), 12) == v
      )
        continue;
      const p = hashes + (x << 2);
      fold(mins, fmix(step(step(step(step(WINDOW_SEED, load<u32>(p)), load<u32>(p, 4)), load<u32>(p, 8)), load<u32>(p, 12))));
      count++;
    }
  }
  return count;
}

/**
 * The signature of the `width` × `height` grid of u32 cells at `cells` (the binding widens u8 and
 * u16 grids as it copies them in: one instantiation of the loops, not three) into out[0 .. 128). `scratch`: SCRATCH(width) bytes, the last 512 the bins.
 * Returns the number of non-uniform windows, capped at 2^31 − 1 (0: no signature; out is zeros).
 */
export function gridSignature(cells: usize, width: u32, height: u32, scratch: usize, out: usize): i32 {
  const mins = scratch + (((<usize>width + 7) & ~(<usize>3)) * 12);
  for (let j: u32 = 0; j < BINS; j++) store<u32>(mins + (<usize>j << 2), EMPTY);
  let count: u32 = 0;
  if (width >= SHINGLE && height >= SHINGLE) count = shingles(cells, width, height, scratch, mins);
  if (count == 0) {
    memory.fill(out, 0, BINS);
    return 0;
  }
  // Densification: an empty bin takes the value of a donor bin chosen by a fixed hash of (bin,
  // try), so two grids fill their empty bins alike and a filled bin still agrees with probability
  // of about their Jaccard similarity.
  for (let j: u32 = 0; j < BINS; j++) {
    let v = load<u32>(mins + (<usize>j << 2));
    for (let t: u32 = 1; v == EMPTY && t <= DONOR_TRIES; t++) v = load<u32>(mins + (<usize>(fmix((j + 1) * 0x9E37_79B1 ^ t * 0x85EB_CA77) >>> 25) << 2));
    for (let d: u32 = 1; v == EMPTY; d++) v = load<u32>(mins + (<usize>((j + d) & (BINS - 1)) << 2));
    store<u8>(out + j, <u8>(v & 0xFF));
  }
  return count > 0x7FFF_FFFF ? 0x7FFF_FFFF : <i32>count;
}
