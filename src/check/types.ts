// What a check rule is and what it finds. Rules are pure functions over a decoded level: they
// read it, never change it, and report findings through a callback (so a rule allocates nothing
// when a level is clean).
import type { AnyDecoded } from '../index.js';

export type Severity = 'error' | 'warning' | 'note';

/** Severities from the most to the least serious (`--fail-on` compares by this order). */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'note'];

/** Where a finding is: any of a layer (plane, board), a cell or position, an object id or index, a byte offset. */
export interface Where {
  layer?: number;
  x?: number;
  y?: number;
  object?: number;
  offset?: number;
}

export interface Finding {
  rule: string;
  severity: Severity;
  message: string;
  where: Where;
}

/** The families of formats rules are written for (`graal` covers .graal, .zelda and .nw). */
export type RuleFormat = 'teeworlds' | 'wwd' | 'graal' | 'gwc' | 'wdata';

/** Reports one finding of the running rule. */
export type Report = (message: string, where?: Where) => void;

interface RuleBase {
  /** Stable id, `<family>/<name>` (`tw/unused-image`). */
  id: string;
  severity: Severity;
  /** One line: why the finding matters (`levelkit check --list-rules`). */
  why: string;
  /** Where the rule comes from: the tool or rule book mappers check it with (`DDNet map rules: …`, `twmap-check-ddnet: …`), or `levelkit` (`--list-rules`). */
  source: string;
  format: RuleFormat;
}

/** A rule over one level. */
export interface LevelRule<L = AnyDecoded> extends RuleBase {
  kind: 'level';
  check(level: L, report: Report): void;
}

/**
 * A rule over all files checked together (the "archive" phase, after every file): each file
 * contributes small facts in its worker (`collect`), and `judge` sees the facts of every file.
 */
export interface ArchiveRule<F = unknown, L = AnyDecoded> extends RuleBase {
  kind: 'archive';
  collect(level: L): F | undefined;
  judge(files: readonly FileFacts<F>[], report: (file: FileFacts<F>, message: string, where?: Where) => void): void;
}

/** One file's facts for an archive rule, with the file they came from. */
export interface FileFacts<F = unknown> {
  path: string;
  member: string | null;
  facts: F;
}

export type Rule = LevelRule<never> | ArchiveRule<never, never>;
