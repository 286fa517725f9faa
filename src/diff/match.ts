// Matching the layers (planes, groups) of two levels: in order by kind and name, then a layer found
// elsewhere under the same kind and name is `moved`, and one left over between two matched layers is
// paired with a leftover of the same kind there (renamed or changed in place). The rest are added or removed.

import { commonPairs } from './sequence.js';

export interface Matching {
  /** `[i, j]`: a[i] is b[j]. */
  pairs: [number, number][];
  /** Indices in `b` of pairs found out of order (the layer moved). */
  moved: Set<number>;
  /** Indices in `a` with no partner. */
  removed: number[];
  /** Indices in `b` with no partner. */
  added: number[];
}

/** Matches sequences by `key` (kind and name), falling back to `kind` for leftovers in place. Linear after commonPairs (no search per element). */
export function matchSequence(a: { key: string; kind: string }[], b: { key: string; kind: string }[]): Matching {
  const inOrder = commonPairs(
    a.map((x) => x.key),
    b.map((x) => x.key),
  );
  const pairs: [number, number][] = [...inOrder];
  const usedA = new Set(inOrder.map(([i]) => i));
  const usedB = new Set(inOrder.map(([, j]) => j));
  const moved = new Set<number>();
  // The same kind and name elsewhere: moved (the first unused one of `a` with that key).
  const waiting = queuesBy(
    range(0, a.length).filter((i) => !usedA.has(i)),
    (i) => a[i]!.key,
  );
  b.forEach((y, j) => {
    if (usedB.has(j)) return;
    const i = waiting.get(y.key)?.next();
    if (i === undefined) return;
    usedA.add(i);
    usedB.add(j);
    moved.add(j);
    pairs.push([i, j]);
  });
  // Between two anchors, leftovers of the same kind in order: the same layer, renamed or changed.
  let i0 = 0;
  let j0 = 0;
  for (const [ai, bj] of [...inOrder, [a.length, b.length] as [number, number]]) {
    const left = queuesBy(
      range(i0, ai).filter((i) => !usedA.has(i)),
      (i) => a[i]!.kind,
    );
    for (let j = j0; j < bj; j++) {
      if (usedB.has(j)) continue;
      const i = left.get(b[j]!.kind)?.next();
      if (i === undefined) continue;
      usedA.add(i);
      usedB.add(j);
      pairs.push([i, j]);
    }
    i0 = ai + 1;
    j0 = bj + 1;
  }
  pairs.sort((p, q) => p[1] - q[1]);
  return { pairs, moved, removed: range(0, a.length).filter((i) => !usedA.has(i)), added: range(0, b.length).filter((j) => !usedB.has(j)) };
}

/** A queue of indices taken in order: next() is the first not taken yet (a cursor, not shift(), which moves the rest). */
class Queue {
  private at = 0;
  constructor(private readonly items: number[]) {}
  next(): number | undefined {
    return this.at < this.items.length ? this.items[this.at++] : undefined;
  }
}

/** `indices` grouped by `keyOf`, each group in order. */
function queuesBy(indices: number[], keyOf: (i: number) => string): Map<string, Queue> {
  const lists = new Map<string, number[]>();
  for (const i of indices) {
    const k = keyOf(i);
    const list = lists.get(k);
    if (list) list.push(i);
    else lists.set(k, [i]);
  }
  return new Map([...lists].map(([k, list]) => [k, new Queue(list)]));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
}
