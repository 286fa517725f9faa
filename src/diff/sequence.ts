// The longest common subsequence of two sequences of keys, by Myers' O(ND) algorithm (E. Myers,
// "An O(ND) Difference Algorithm and Its Variations", 1986): what line diffs and layer matching
// are built on. Common prefix and suffix are taken first, so the usual small edit costs little.
//
// Bounded whatever the input: the search keeps one V per edit count (memory (D+1)² × 4 bytes) and
// tries diagonals and compares keys (time), so past MAX_EDITS edits or MAX_STEPS steps it gives up
// on the middle (between the common prefix and suffix) and answers it as wholly replaced: a correct
// edit script, not the shortest. At the caps: 16 MB and some 10⁷ comparisons, plus O(N + M).

/** Past this many edits the middle is given up as wholly replaced ((MAX_EDITS + 1)² × 4 bytes of V snapshots: 16 MB). */
export const MAX_EDITS = 2000;
/** Past this many steps (diagonals tried plus keys compared) the middle is given up too. */
export const MAX_STEPS = 20_000_000;

/** A common subsequence as index pairs, and whether the search gave up on the middle (then it holds only the common prefix and suffix). */
export interface Alignment {
  pairs: [number, number][];
  gaveUp: boolean;
}

/** Index pairs `[i, j]` with `a[i] === b[j]`, increasing in both: a longest common subsequence (within MAX_EDITS edits and MAX_STEPS steps). */
export function commonPairs<K>(a: readonly K[], b: readonly K[], maxEdits = MAX_EDITS): [number, number][] {
  return alignment(a, b, maxEdits).pairs;
}

/** commonPairs(), saying whether the middle was given up as wholly replaced. */
export function alignment<K>(a: readonly K[], b: readonly K[], maxEdits = MAX_EDITS, maxSteps = MAX_STEPS): Alignment {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const pairs: [number, number][] = [];
  for (let i = 0; i < start; i++) pairs.push([i, i]);
  const middle = middlePairs(a, b, start, endA - start, endB - start, maxEdits, maxSteps);
  if (middle) for (const [i, j] of middle) pairs.push([start + i, start + j]);
  for (let i = endA, j = endB; i < a.length; i++, j++) pairs.push([i, j]);
  return { pairs, gaveUp: middle === null };
}

/** Myers' greedy forward search with one V snapshot per edit count, then the walk back; null past the caps. */
function middlePairs<K>(a: readonly K[], b: readonly K[], s: number, n: number, m: number, maxEdits: number, maxSteps: number): [number, number][] | null {
  if (n === 0 || m === 0) return [];
  const max = Math.min(n + m, maxEdits);
  let steps = 0;
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] = V (diagonals −d … d) as it stood before round d.
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice(off - d, off + d + 1));
    for (let k = -d; k <= d; k += 2) {
      if (++steps > maxSteps) return null;
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      const from = x;
      while (x < n && y < m && a[s + x] === b[s + y]) {
        x++;
        y++;
      }
      steps += x - from;
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return null;
  const pairs: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d]!;
    const at = (k: number) => prev[k + d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) pairs.push([--x, --y]);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) pairs.push([--x, --y]);
  return pairs.reverse();
}
