// A bound on the arrays a scan worker writing an archive index leaves for the collector. V8
// frees an array's memory only when a collection finds it dead; one that outlived two young
// collections (any big file's blocks and grids do) waits for a full one, and V8 starts a full
// collection for array memory only after it has grown by 64 MB since the last. That is per
// worker, so two workers' dead arrays could hold over 100 MB, and the malloc arenas they sit in
// do not shrink back (only their tops are returned). After each file the worker reads its array
// memory (2 µs) and collects once it has grown by GARBAGE_BUDGET_BYTES. Indexing the corpus
// (bench/README.md §Archive index), peak RSS: 278–284 MB with an 8 MiB budget, 294–303 with
// 16, 317–328 without; user CPU +11 % and +5 %.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const GARBAGE_BUDGET_BYTES = 8 << 20;

/** The full collector (`gc`), reached by exposing it for a fresh context; undefined where that fails. */
export function fullCollector(): (() => void) | undefined {
  try {
    // The flag is process-wide and takes effect for contexts made after it: this one's `gc`.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? () => gc() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What to call after each item: runs `collect` when `measure` (this thread's array memory as V8
 * counts it; it falls only some time after a collection) grew by more than `budget` bytes since
 * its lowest reading. A no-op without a collector or a budget.
 */
export function garbageBound(budget = GARBAGE_BUDGET_BYTES, collect = fullCollector(), measure = () => getHeapStatistics().external_memory): () => void {
  if (!collect || budget <= 0) return () => {};
  let low = measure();
  return () => {
    const now = measure();
    if (now < low) low = now;
    else if (now - low > budget) {
      collect();
      low = measure();
    }
  };
}
