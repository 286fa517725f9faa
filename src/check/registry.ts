// Every check rule, by id. Rule ids are a contract with users (--rule, --skip-rule, SARIF
// results, the index's findings table): never rename one; retire it instead.
import { GRAAL_LINK_RULE, GRAAL_RULES } from './graal.js';
import { GWC_RULES } from './gwc.js';
import { GWC_OBJECT_RULES } from './gwc-objects.js';
import { TEEWORLDS_RULES } from './teeworlds.js';
import { TEEWORLDS_RELEASE_RULES } from './teeworlds-release.js';
import type { Rule, RuleFormat } from './types.js';
import { WDATA_RULES } from './wdata.js';
import { WWD_RULES } from './wwd.js';
import { WWD_POSITION_RULES } from './wwd-positions.js';

export const RULES: readonly Rule[] = [
  ...TEEWORLDS_RULES,
  ...TEEWORLDS_RELEASE_RULES,
  ...WWD_RULES,
  ...WWD_POSITION_RULES,
  ...GRAAL_RULES,
  GRAAL_LINK_RULE,
  ...GWC_RULES,
  ...GWC_OBJECT_RULES,
  ...WDATA_RULES,
] as Rule[];

export const RULE_IDS: readonly string[] = RULES.map((r) => r.id);

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.id === id);
}

/** The rule family a decoded value's `format` belongs to. */
export function ruleFormatOf(format: string): RuleFormat | undefined {
  if (format === 'teeworlds' || format === 'wwd' || format === 'wdata') return format;
  if (format === 'graal' || format === 'graal-nw' || format === 'graal-gmap') return 'graal';
  if (format === 'gwc' || format === 'gwz') return 'gwc';
  return undefined;
}
