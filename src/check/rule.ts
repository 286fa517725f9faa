// One way to declare a level rule, so each format's file lists only ids, severities, reasons and checks.
import type { LevelRule, Report, RuleFormat, Severity } from './types.js';

/**
 * A maker of `format`'s rules (each with where it comes from: see `RuleBase.source`) with ids `<prefix>/<name>`. `applies` narrows what a rule sees
 * (Graal rules take levels, not gmaps; GWC rules cartridges, not GWZ source zips).
 */
export function ruleMaker<All, L extends All = All>(format: RuleFormat, prefix: string, applies?: (level: All) => level is L) {
  return (name: string, severity: Severity, source: string, why: string, check: (level: L, report: Report) => void): LevelRule<All> => ({
    kind: 'level',
    id: `${prefix}/${name}`,
    severity,
    why,
    source,
    format,
    check: (level, report) => {
      if (!applies || applies(level)) check(level as L, report);
    },
  });
}
