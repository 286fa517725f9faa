// A line diff of two texts (NPC scripts, settings): runs of removed and added lines, on Myers'
// common subsequence (sequence.ts) of the lines as numbers (equal lines, equal numbers), so a
// comparison costs the same whatever a line's length. Bounded like sequence.ts: texts too different
// to align within its caps give one `coarse` hunk, "these lines replaced by those".

import type { LineHunk } from './change.js';
import { alignment } from './sequence.js';

/** The lines of `text` ('\n' separated; a final '\n' ends the last line rather than starting an empty one). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The runs of lines that differ between `a` and `b` (empty when they are the same). */
export function lineHunks(a: readonly string[], b: readonly string[]): LineHunk[] {
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    const known = ids.get(line);
    if (known !== undefined) return known;
    ids.set(line, ids.size);
    return ids.size - 1;
  };
  const { pairs, gaveUp } = alignment(a.map(idOf), b.map(idOf));
  pairs.push([a.length, b.length]);
  const hunks: LineHunk[] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of pairs) {
    if (pi > i || pj > j) hunks.push({ fromLine: i + 1, toLine: j + 1, removed: a.slice(i, pi), added: b.slice(j, pj) });
    i = pi + 1;
    j = pj + 1;
  }
  // Given up, the middle has no pairs: it is the one hunk between the common prefix and suffix.
  if (gaveUp && hunks.length === 1) hunks[0]!.coarse = true;
  return hunks;
}
