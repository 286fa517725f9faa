// Tile-grid scan over u32 cells: counts of the two sentinel values and of used cells, and the
// highest low-16-bit id per high-16-bit set index. Generic over grids whose cells pack
// (set << 16 | id); the format layer decides what the sentinels mean.

// @ts-ignore: decorator
@inline const INVISIBLE: u32 = 0xFFFF_FFFF;
// @ts-ignore: decorator
@inline const FILLED: u32 = 0xEEEE_EEEE;

/** One used cell: bumps `other` (returned) or the running max of its set. */
// @ts-ignore: decorator
@inline function useCell(v: u32, maxIds: usize, setCount: u32): u32 {
  const set = v >>> 16;
  if (set >= setCount) return 1;
  const slot = maxIds + (<usize>set << 2);
  const id = <i32>(v & 0xFFFF);
  if (id > load<i32>(slot)) store<i32>(slot, id);
  return 0;
}

/**
 * Scans `count` u32 cells at `cells`.
 * Writes counts[0..4) = invisible, filled, used, used-with-set-index ≥ setCount (u32 each);
 * maxIds[0..setCount) (i32, caller-initialised to -1) = highest id seen per set.
 * Returns 0.
 *
 * Four cells per step: lane-wise compares count the sentinels (a true lane is -1, so subtracting
 * the mask adds 1); only vectors holding a used cell take the scalar path for the per-set maxima.
 * Lane counters cannot overflow: each grows by at most 1 per step, and count < 2^32 cells.
 * Reads stay inside cells[0 .. count): the vector loop stops at count & ~3, the tail is scalar.
 */
export function scanTileGrid(cells: usize, count: usize, maxIds: usize, setCount: u32, counts: usize): i32 {
  const inv = i32x4.splat(<i32>INVISIBLE);
  const fil = i32x4.splat(<i32>FILLED);
  let invAcc = i32x4.splat(0);
  let filAcc = i32x4.splat(0);
  let other: u32 = 0;
  // Set 0 has a slot only when setCount > 0; otherwise its cells count as `other` (scalar path).
  const set0Fast = setCount > 0;
  const high = i32x4.splat(<i32>0xFFFF_0000);
  let max0 = i32x4.splat(-1);
  const end4 = cells + ((count & ~(<usize>3)) << 2);
  const end = cells + (count << 2);
  let p = cells;
  for (; p < end4; p += 16) {
    const v = v128.load(p);
    const isInv = i32x4.eq(v, inv);
    const isFil = i32x4.eq(v, fil);
    invAcc = i32x4.sub(invAcc, isInv);
    filAcc = i32x4.sub(filAcc, isFil);
    const sentinel = v128.or(isInv, isFil);
    if (i32x4.all_true(sentinel)) continue;
    // Used cells of set 0 (most grids name one image set): when every used lane is one, their
    // running maximum stays in a vector (sentinel lanes read as -1) and is folded in at the end.
    if (set0Fast && !v128.any_true(v128.andnot(v128.and(v, high), sentinel))) {
      max0 = i32x4.max_s(max0, v128.or(v, sentinel));
      continue;
    }
    // At least one used cell: lanes whose sentinel mask is 0.
    if (!i32x4.extract_lane(sentinel, 0)) other += useCell(load<u32>(p), maxIds, setCount);
    if (!i32x4.extract_lane(sentinel, 1)) other += useCell(load<u32>(p, 4), maxIds, setCount);
    if (!i32x4.extract_lane(sentinel, 2)) other += useCell(load<u32>(p, 8), maxIds, setCount);
    if (!i32x4.extract_lane(sentinel, 3)) other += useCell(load<u32>(p, 12), maxIds, setCount);
  }
  if (set0Fast) {
    const m = max(max(i32x4.extract_lane(max0, 0), i32x4.extract_lane(max0, 1)), max(i32x4.extract_lane(max0, 2), i32x4.extract_lane(max0, 3)));
    if (m > load<i32>(maxIds)) store<i32>(maxIds, m);
  }
  let invisible: u32 = <u32>(i32x4.extract_lane(invAcc, 0) + i32x4.extract_lane(invAcc, 1) + i32x4.extract_lane(invAcc, 2) + i32x4.extract_lane(invAcc, 3));
  let filled: u32 = <u32>(i32x4.extract_lane(filAcc, 0) + i32x4.extract_lane(filAcc, 1) + i32x4.extract_lane(filAcc, 2) + i32x4.extract_lane(filAcc, 3));
  for (; p < end; p += 4) {
    const v = load<u32>(p);
    if (v == INVISIBLE) { invisible++; continue; }
    if (v == FILLED) { filled++; continue; }
    other += useCell(v, maxIds, setCount);
  }
  store<u32>(counts, invisible);
  store<u32>(counts, filled, 4);
  store<u32>(counts, <u32>count - invisible - filled, 8);
  store<u32>(counts, other, 12);
  return 0;
}
