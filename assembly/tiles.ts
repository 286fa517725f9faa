// Tile-grid scan over u32 cells: counts of the two sentinel values and of used cells, and the
// highest low-16-bit id per high-16-bit set index. Generic over grids whose cells pack
// (set << 16 | id); the format layer decides what the sentinels mean.

// @ts-ignore: decorator
@inline const INVISIBLE: u32 = 0xFFFF_FFFF;
// @ts-ignore: decorator
@inline const FILLED: u32 = 0xEEEE_EEEE;

/**
 * Scans `count` u32 cells at `cells`.
 * Writes counts[0..4) = invisible, filled, used, used-with-set-index ≥ setCount (u32 each);
 * maxIds[0..setCount) (i32, caller-initialised to -1) = highest id seen per set.
 * Returns 0.
 */
export function scanTileGrid(cells: usize, count: usize, maxIds: usize, setCount: u32, counts: usize): i32 {
  let invisible: u32 = 0, filled: u32 = 0, used: u32 = 0, other: u32 = 0;
  const end = cells + (count << 2);
  for (let p = cells; p < end; p += 4) {
    const v = load<u32>(p);
    if (v == INVISIBLE) { invisible++; continue; }
    if (v == FILLED) { filled++; continue; }
    used++;
    const set = v >>> 16;
    if (set >= setCount) { other++; continue; }
    const slot = maxIds + (<usize>set << 2);
    const id = <i32>(v & 0xFFFF);
    if (id > load<i32>(slot)) store<i32>(slot, id);
  }
  store<u32>(counts, invisible);
  store<u32>(counts, filled, 4);
  store<u32>(counts, used, 8);
  store<u32>(counts, other, 12);
  return 0;
}
