// `levelkit check`'s own options, checked before any worker starts: which rules run (--rule,
// --skip-rule: an unknown id is a usage error naming it, with the closest known id; a retired one
// is skipped as asked, and --rule says where it went), and the
// severity that fails the run (--fail-on), the files left out (--exclude, exclude.ts) and how many
// findings of one rule in one file are listed (--max-per-rule, cap.ts).
import { RULE_IDS } from '../../check/registry.js';
import { RETIRED_RULES } from '../../check/retired.js';
import { SEVERITIES, type Severity } from '../../check/types.js';
import { closest } from '../../core/suggest.js';
import { printable } from '../../scan/names.js';
import { type Parsed, UsageError } from '../options.js';
import { DEFAULT_MAX_PER_RULE } from './cap.js';
import { type Excluded, excluder } from './exclude.js';

export type FailOn = Severity | 'never';

export interface CheckSettings {
  /** Rule ids to run, in registry order. */
  rules: string[];
  failOn: FailOn;
  output: 'text' | 'json' | 'sarif';
  /** --exclude: whether a file or member is left out; undefined when none is. */
  excluded?: Excluded;
  /** --max-per-rule: findings of one rule listed per file (Infinity: all). */
  maxPerRule: number;
}

export function checkSettings({ raw, options }: Parsed): CheckSettings {
  const asked = (raw.rule as string[] | undefined) ?? [];
  const skipped = (raw['skip-rule'] as string[] | undefined) ?? [];
  for (const [flag, ids] of [
    ['--rule', asked],
    ['--skip-rule', skipped],
  ] as const)
    for (const id of ids) {
      if (RULE_IDS.includes(id) || (flag === '--skip-rule' && id in RETIRED_RULES)) continue;
      throw new UsageError(id in RETIRED_RULES ? `${flag}: rule '${id}' is retired: ${RETIRED_RULES[id]}` : unknownRule(flag, id));
    }
  const chosen = asked.length > 0 ? RULE_IDS.filter((id) => asked.includes(id)) : [...RULE_IDS];
  const rules = chosen.filter((id) => !skipped.includes(id));
  const failOn = (raw['fail-on'] ?? 'error') as string;
  if (failOn !== 'never' && !(SEVERITIES as readonly string[]).includes(failOn))
    throw new UsageError(`--fail-on must be error, warning, note or never; got '${printable(failOn)}'`);
  if (options.json && raw.sarif === true) throw new UsageError('--json and --sarif are two outputs; give one');
  const excluded = excluder((raw.exclude as string[] | undefined) ?? []);
  return {
    rules,
    failOn: failOn as FailOn,
    output: raw.sarif === true ? 'sarif' : options.json ? 'json' : 'text',
    ...(excluded ? { excluded } : {}),
    maxPerRule: maxPerRule(raw['max-per-rule'] as string | undefined),
  };
}

function maxPerRule(given: string | undefined): number {
  if (given === undefined) return DEFAULT_MAX_PER_RULE;
  if (given === 'all') return Number.POSITIVE_INFINITY;
  if (!/^[0-9]{1,9}$/.test(given) || Number(given) < 1)
    throw new UsageError(`--max-per-rule must be a whole number of at least 1, or all; got '${printable(given)}'`);
  return Number(given);
}

function unknownRule(flag: string, id: string): string {
  const guess = closest(id, RULE_IDS);
  return `${flag}: unknown rule '${printable(id)}'${guess ? ` (did you mean '${guess}'?)` : ''} (levelkit check --list-rules lists them)`;
}

/** True when `severity` is at or above `failOn`. */
export function fails(severity: Severity, failOn: FailOn): boolean {
  return failOn !== 'never' && SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(failOn);
}
