// Findings, not floods: one rule repeating in one file (a map with 300 tiles rotated for nothing)
// is listed as its first `max` findings and one more of the same rule saying how many were left out
// (`omitted`), in every output. --fail-on still sees every finding: the left-out ones are as
// severe as the listed ones of their rule.
import type { CheckedFinding } from './output.js';

/** Findings of one rule listed per file when --max-per-rule is not given. */
export const DEFAULT_MAX_PER_RULE = 20;

/**
 * The findings of one file (`findings`, all of one path and member), each rule's past the first
 * `max` left out and counted in one finding after its file's: `… and 312 more in this file` (`omitted: 312`).
 */
export function capPerRule(findings: readonly CheckedFinding[], max: number): CheckedFinding[] {
  if (findings.length <= max) return [...findings];
  const seen = new Map<string, number>();
  const kept: CheckedFinding[] = [];
  const first = new Map<string, CheckedFinding>();
  for (const f of findings) {
    const n = (seen.get(f.rule) ?? 0) + 1;
    seen.set(f.rule, n);
    if (n === 1) first.set(f.rule, f);
    if (n <= max) kept.push(f);
  }
  for (const [rule, n] of seen) {
    if (n <= max) continue;
    const f = first.get(rule)!;
    kept.push({ ...f, message: `… and ${n - max} more in this file (--max-per-rule)`, where: {}, omitted: n - max });
  }
  return kept;
}

/** `findings` grouped by file (path and member), each group in the order its first finding came. */
export function byFile(findings: readonly CheckedFinding[]): CheckedFinding[][] {
  const groups = new Map<string, CheckedFinding[]>();
  for (const f of findings) {
    const key = `${f.path}\0${f.member ?? ''}\0${f.member === null ? 0 : 1}`;
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  return [...groups.values()];
}
