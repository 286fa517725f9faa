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

/** Matches sequences by `key` (kind and name), falling back to `kind` for leftovers in place. */
export function matchSequence(a: { key: string; kind: string }[], b: { key: string; kind: string }[]): Matching {
  const inOrder = commonPairs(
    a.map((x) => x.key),
    b.map((x) => x.key),
  );
  const pairs: [number, number][] = [...inOrder];
  const usedA = new Set(inOrder.map(([i]) => i));
  const usedB = new Set(inOrder.map(([, j]) => j));
  const moved = new Set<number>();
  // The same kind and name elsewhere: moved.
  b.forEach((y, j) => {
    if (usedB.has(j)) return;
    const i = a.findIndex((x, k) => !usedA.has(k) && x.key === y.key);
    if (i < 0) return;
    usedA.add(i);
    usedB.add(j);
    moved.add(j);
    pairs.push([i, j]);
  });
  // Between two anchors, leftovers of the same kind in order: the same layer, renamed or changed.
  let i0 = 0;
  let j0 = 0;
  for (const [ai, bj] of [...inOrder, [a.length, b.length] as [number, number]]) {
    const left = range(i0, ai).filter((i) => !usedA.has(i));
    for (let j = j0; j < bj; j++) {
      if (usedB.has(j)) continue;
      const at = left.findIndex((i) => a[i]!.kind === b[j]!.kind);
      if (at < 0) continue;
      const i = left.splice(at, 1)[0]!;
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

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
}
