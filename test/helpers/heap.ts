// How much V8's heap grows across `fill`, measured between two full collections, for tests that
// hold a per-file table to a bound (what a scan keeps must not grow the heap with the archive).
import * as v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bytes of V8 heap still used after `fill()` ran and a full collection, beyond what was used before it. */
export function retainedHeap(fill: () => void): number {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  fill();
  gc();
  return process.memoryUsage().heapUsed - before;
}
