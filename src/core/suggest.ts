// "Did you mean …?" for a mistyped command, option, rule or map setting: the closest known name by edit distance
// (a swap of two neighbouring letters counts as one edit, the commonest typo), or a known name the
// typed one begins (`--work` → `--workers`).

/** Longest text compared with the known names. */
const MAX_TYPED = 64;

/** Edits (insert, delete, replace, swap neighbours) turning `a` into `b`: the optimal string alignment distance. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
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
    const distance = editDistance(typed, name);
    if (distance <= allowed && distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best ?? (typed.length >= 3 ? known.find((name) => name.startsWith(typed)) : undefined);
}
