// `levelkit check`'s own options, checked before any worker starts: which rules run (--rule,
// --skip-rule: an unknown id is a usage error naming it, with the closest known id), and the
// severity that fails the run (--fail-on).
import { RULE_IDS } from '../../check/registry.js';
import { SEVERITIES, type Severity } from '../../check/types.js';
import { closest } from '../../core/suggest.js';
import { printable } from '../../scan/names.js';
import { type Parsed, UsageError } from '../options.js';

export type FailOn = Severity | 'never';

export interface CheckSettings {
  /** Rule ids to run, in registry order. */
  rules: string[];
  failOn: FailOn;
  output: 'text' | 'json' | 'sarif';
}

export function checkSettings({ raw, options }: Parsed): CheckSettings {
  const asked = (raw.rule as string[] | undefined) ?? [];
  const skipped = (raw['skip-rule'] as string[] | undefined) ?? [];
  for (const [flag, ids] of [
    ['--rule', asked],
    ['--skip-rule', skipped],
  ] as const)
    for (const id of ids) if (!RULE_IDS.includes(id)) throw new UsageError(unknownRule(flag, id));
  const chosen = asked.length > 0 ? RULE_IDS.filter((id) => asked.includes(id)) : [...RULE_IDS];
  const rules = chosen.filter((id) => !skipped.includes(id));
  const failOn = (raw['fail-on'] ?? 'error') as string;
  if (failOn !== 'never' && !(SEVERITIES as readonly string[]).includes(failOn))
    throw new UsageError(`--fail-on must be error, warning, note or never; got '${printable(failOn)}'`);
  if (options.json && raw.sarif === true) throw new UsageError('--json and --sarif are two outputs; give one');
  return { rules, failOn: failOn as FailOn, output: raw.sarif === true ? 'sarif' : options.json ? 'json' : 'text' };
}

function unknownRule(flag: string, id: string): string {
  const guess = closest(id, RULE_IDS);
  return `${flag}: unknown rule '${printable(id)}'${guess ? ` (did you mean '${guess}'?)` : ''} (levelkit check --list-rules lists them)`;
}

/** True when `severity` is at or above `failOn`. */
export function fails(severity: Severity, failOn: FailOn): boolean {
  return failOn !== 'never' && SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(failOn);
}
