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
  let dirty: u32 = 0;
  if (stride == 4 && keep == 2) {
    // CTile: index, flags kept; skip and reserved only checked.
    const flagsCol = dst + <usize>count;
    for (let r: usize = 0; r < <usize>count; r++) {
      const t = load<u32>(src + (r << 2));
      store<u8>(dst + r, <u8>t);
      store<u8>(flagsCol + r, <u8>(t >>> 8));
      dirty += <u32>((t >>> 16) != 0);
    }
    return <i32>dirty;
  }
  for (let r: usize = 0; r < <usize>count; r++) {
    const rec = src + r * <usize>stride;
    for (let c: usize = 0; c < <usize>keep; c++) store<u8>(dst + c * <usize>count + r, load<u8>(rec + c));
    let rest: u32 = 0;
    for (let c: usize = <usize>keep; c < <usize>stride; c++) rest |= load<u8>(rec + c);
    dirty += <u32>(rest != 0);
  }
  return <i32>dirty;
}
