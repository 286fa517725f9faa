// Tilemap family (Teeworlds/DDNet tile layers): the 0.7 tile-skip expansion and the split of
// interleaved tile structs into byte columns. Pointers are into the arena; every bound is
// checked against the lengths passed in before a store, so bad data yields a status, never an
// out-of-range access. Twin of src/kernels/js/tilemap.ts.

import { STATUS_CORRUPT, STATUS_OVERFLOW, STATUS_TRUNCATED } from './status';

/**
 * Expands `srcLen` bytes of 4-byte records {index, flags, skip, reserved} at `src`: each record
 * stands for skip+1 copies of (index, flags), written to the columns at `index` and `flags`
 * (each `capacity` bytes). Returns the tiles written, STATUS_TRUNCATED when srcLen is not a
 * multiple of 4, STATUS_CORRUPT on a non-zero reserved byte, STATUS_OVERFLOW when a run would
 * pass `capacity` (checked before every run).
 */
export function expandTileSkip(src: usize, srcLen: u32, index: usize, flags: usize, capacity: u32): i32 {
  if ((srcLen & 3) != 0) return STATUS_TRUNCATED;
  let out: u32 = 0;
  const end = src + <usize>srcLen;
  for (let p = src; p < end; p += 4) {
    const t = load<u32>(p);
    if ((t >>> 24) != 0) return STATUS_CORRUPT;
    const run = ((t >>> 16) & 0xFF) + 1;
    // out ≤ capacity holds on entry, so capacity - out cannot wrap.
    if (run > capacity - out) return STATUS_OVERFLOW;
    const id = <u8>t, fl = <u8>(t >>> 8);
    const pi = index + <usize>out, pf = flags + <usize>out;
    if (run >= 16) {
      memory.fill(pi, id, run);
      memory.fill(pf, fl, run);
    } else {
      for (let k: usize = 0; k < <usize>run; k++) {
        store<u8>(pi + k, id);
        store<u8>(pf + k, fl);
      }
    }
    out += run;
  }
  return <i32>out;
}

/**
 * Splits `count` records of `stride` bytes at `src` into `keep` byte columns at `dst` (column c
 * at dst + c*count). The caller has reserved count*stride bytes at src and keep*count at dst.
 * Returns how many records have a non-zero byte in the dropped columns keep..stride-1.
 */
export function splitColumns(src: usize, stride: u32, keep: u32, count: u32, dst: usize): i32 {
  // 16 records of any stride are exactly `stride` vectors. Over 90% of the tiles in real maps
  // sit in 16-tile groups that are all zero (empty space, sparse physics layers), so such a
  // group costs one OR per vector and a zero store per column, whatever the stride.
  const zero = i32x4.splat(0);
  const n16 = <usize>count & ~(<usize>15);
  const step = <usize>stride << 4;
  let dirty: u32 = 0;
  if (stride == 4 && keep == 2) {
    // CTile: index, flags kept; skip and reserved only checked. Two shuffle levels gather bytes
    // 0 and 1 of each tile; a lane compare counts tiles whose upper 16 bits are non-zero (a true
    // lane is -1, so subtracting counts).
    const flagsCol = dst + <usize>count;
    const hiMask = i32x4.splat(0xFFFF0000);
    let dirtyLanes = zero;
    for (let r: usize = 0, p = src; r < n16; r += 16, p += 64) {
      const a = v128.load(p), b = v128.load(p, 16), c = v128.load(p, 32), d = v128.load(p, 48);
      const all = v128.or(v128.or(a, b), v128.or(c, d));
      if (!v128.any_true(all)) {
        v128.store(dst + r, zero);
        v128.store(flagsCol + r, zero);
        continue;
      }
      const ab = i8x16.shuffle(a, b, 0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29);
      const cd = i8x16.shuffle(c, d, 0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29);
      v128.store(dst + r, i8x16.shuffle(ab, cd, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23));
      v128.store(flagsCol + r, i8x16.shuffle(ab, cd, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31));
      if (!v128.any_true(v128.and(all, hiMask))) continue;
      const da = i32x4.add(i32x4.ne(v128.and(a, hiMask), zero), i32x4.ne(v128.and(b, hiMask), zero));
      const dc = i32x4.add(i32x4.ne(v128.and(c, hiMask), zero), i32x4.ne(v128.and(d, hiMask), zero));
      dirtyLanes = i32x4.sub(dirtyLanes, i32x4.add(da, dc));
    }
    dirty = <u32>(i32x4.extract_lane(dirtyLanes, 0) + i32x4.extract_lane(dirtyLanes, 1) + i32x4.extract_lane(dirtyLanes, 2) + i32x4.extract_lane(dirtyLanes, 3));
    for (let r: usize = n16; r < <usize>count; r++) {
      const t = load<u32>(src + (r << 2));
      store<u8>(dst + r, <u8>t);
      store<u8>(flagsCol + r, <u8>(t >>> 8));
      dirty += <u32>((t >>> 16) != 0);
    }
    return <i32>dirty;
  }
  for (let r: usize = 0; r < <usize>count; r += 16) {
    const rec0 = src + r * <usize>stride;
    let n: usize = 16;
    if (r < n16) {
      let any = zero;
      for (let v: usize = 0; v < step; v += 16) any = v128.or(any, v128.load(rec0 + v));
      if (!v128.any_true(any)) {
        for (let c: usize = 0; c < <usize>keep; c++) v128.store(dst + c * <usize>count + r, zero);
        continue;
      }
    } else {
      n = <usize>count - r;
    }
    for (let k: usize = 0; k < n; k++) {
      const rec = rec0 + k * <usize>stride;
      for (let c: usize = 0; c < <usize>keep; c++) store<u8>(dst + c * <usize>count + r + k, load<u8>(rec + c));
      let rest: u32 = 0;
      for (let c: usize = <usize>keep; c < <usize>stride; c++) rest |= load<u8>(rec + c);
      dirty += <u32>(rest != 0);
    }
  }
  return <i32>dirty;
}

/**
 * 1 when the `len` bytes at `ptr` are all zero, else 0. Lets the binding skip copying an output
 * window into a destination the caller promised is already zero (fresh typed arrays are), so the
 * mostly-empty physics layers never touch most of their pages.
 */
export function allZero(ptr: usize, len: usize): i32 {
  let acc = i32x4.splat(0);
  let p = ptr;
  const end16 = ptr + (len & ~(<usize>15));
  while (p < end16) {
    acc = v128.or(acc, v128.load(p));
    p += 16;
  }
  if (v128.any_true(acc)) return 0;
  const end = ptr + len;
  while (p < end) {
    if (load<u8>(p) != 0) return 0;
    p++;
  }
  return 1;
}
