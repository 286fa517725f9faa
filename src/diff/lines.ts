// A line diff of two texts (NPC scripts, settings): runs of removed and added lines, on Myers'
// common subsequence (sequence.ts).

import type { LineHunk } from './change.js';
import { commonPairs } from './sequence.js';

/** The lines of `text` ('\n' separated; a final '\n' ends the last line rather than starting an empty one). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The runs of lines that differ between `a` and `b` (empty when they are the same). */
export function lineHunks(a: readonly string[], b: readonly string[]): LineHunk[] {
  const hunks: LineHunk[] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of [...commonPairs(a, b), [a.length, b.length] as [number, number]]) {
    if (pi > i || pj > j) hunks.push({ fromLine: i + 1, toLine: j + 1, removed: a.slice(i, pi), added: b.slice(j, pj) });
    i = pi + 1;
    j = pj + 1;
  }
  return hunks;
}
