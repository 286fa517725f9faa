// "Did you mean …?" for a mistyped command, option, rule or map setting: the closest known name by edit distance
// (a swap of two neighbouring letters counts as one edit, the commonest typo), or a known name the
// typed one begins (`--work` → `--workers`).

/** Longest text compared with the known names. */
const MAX_TYPED = 64;

/** The three rows editDistance() works in, kept between calls (grown when a name is longer). */
let scratch = new Int32Array(3 * (MAX_TYPED + 1));

/**
 * Edits (insert, delete, replace, swap neighbours) turning `a` into `b`: the optimal string alignment
 * distance, over three rolling rows (a map's 17,000 settings each compared with every known command
 * must not allocate a table per comparison). With `limit`, any answer above it may be cut short to
 * `limit + 1` once every cell of a row is past it (a distance never goes down from row to row).
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  const cols = b.length + 1;
  if (scratch.length < cols * 3) scratch = new Int32Array(cols * 3);
  let before = scratch.subarray(0, cols);
  let above = scratch.subarray(cols, cols * 2);
  let row = scratch.subarray(cols * 2, cols * 3);
  for (let j = 0; j < cols; j++) above[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let least = i;
    const ai = a.charCodeAt(i - 1);
    const aPrev = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = 1; j < cols; j++) {
      const bj = b.charCodeAt(j - 1);
      let best = above[j - 1]! + (ai === bj ? 0 : 1);
      if (above[j]! + 1 < best) best = above[j]! + 1;
      if (row[j - 1]! + 1 < best) best = row[j - 1]! + 1;
      if (j > 1 && ai === b.charCodeAt(j - 2) && aPrev === bj && before[j - 2]! + 1 < best) best = before[j - 2]! + 1;
      row[j] = best;
      if (best < least) least = best;
    }
    if (least > limit) return limit + 1;
    const spare = before;
    before = above;
    above = row;
    row = spare;
  }
  return above[b.length]!;
}

/**
 * The known name `typed` most likely meant, or undefined when none is close: within one edit per
 * three letters (at least one), or begun by `typed` when it has three letters or more.
 */
export function closest(typed: string, known: readonly string[]): string | undefined {
  // Names are short; a text from a file may be anything, and the distance costs its length times each name's.
  if (typed.length > MAX_TYPED) return undefined;
  const allowed = Math.max(1, Math.floor(typed.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of known) {
    // The distance is at least the difference in length: most names need no table at all.
    if (Math.abs(name.length - typed.length) > allowed) continue;
    const distance = editDistance(typed, name, allowed);
    if (distance <= allowed && distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best ?? (typed.length >= 3 ? known.find((name) => name.startsWith(typed)) : undefined);
}
