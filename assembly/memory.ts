// One scratch arena per instance, starting at __heap_base. The stub runtime's allocator is never
// used (kernels allocate nothing), so the arena cannot overlap managed objects. The JS binding
// lays its inputs and outputs out inside the arena and passes plain pointers.

/** Base of the arena (16-byte aligned). */
export function arenaBase(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

/**
 * Grows linear memory so that `bytes` bytes from arenaBase() are addressable.
 * Returns the base pointer, or 0 when memory cannot grow that far.
 */
export function arenaEnsure(bytes: usize): usize {
  const base = arenaBase();
  const end = <u64>base + <u64>bytes;
  if (end > 0xFFFF_0000) return 0;
  const needPages = <i32>((end + 0xFFFF) >> 16);
  const have = memory.size();
  if (needPages > have && memory.grow(needPages - have) < 0) return 0;
  return base;
}
