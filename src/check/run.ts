// Running rules: over one decoded level (in a scan worker, after a full decode) and, once every
// file has been checked, the archive rules over the facts the files left.
import type { AnyDecoded } from '../index.js';
import { RULES, ruleFormatOf } from './registry.js';
import type { ArchiveRule, FileFacts, Finding, LevelRule, Rule, Where } from './types.js';

/** What a file's check leaves on its record: its findings and, per archive rule, its facts. */
export interface LevelCheck {
  findings: Finding[];
  facts?: Record<string, unknown>;
}

/** The rules of `ids` (all when undefined), in registry order. */
export function selectRules(ids: readonly string[] | undefined): Rule[] {
  if (ids === undefined) return [...RULES];
  const wanted = new Set(ids);
  return RULES.filter((r) => wanted.has(r.id));
}

/**
 * Runs the level rules of `ids` that apply to `level`'s format and collects the archive rules'
 * facts (`onRule` is told each rule before it runs: a scan worker marks it, so a timeout can name
 * it). A rule that throws is levelkit's bug: it becomes a `check/internal` error finding, so one
 * rule cannot lose the others' findings or the file's record.
 */
export function checkLevel(level: AnyDecoded, ids?: readonly string[], onRule?: (rule: Rule) => void): LevelCheck {
  const family = ruleFormatOf(level.format);
  const findings: Finding[] = [];
  let facts: Record<string, unknown> | undefined;
  for (const rule of selectRules(ids)) {
    if (rule.format !== family) continue;
    onRule?.(rule);
    try {
      if (rule.kind === 'level') {
        const r = rule as LevelRule<AnyDecoded>;
        r.check(level, (message, where = {}) => findings.push({ rule: r.id, severity: r.severity, message, where }));
      } else {
        const f = (rule as ArchiveRule<unknown, AnyDecoded>).collect(level);
        if (f !== undefined) {
          facts ??= {};
          facts[rule.id] = f;
        }
      }
    } catch (e) {
      findings.push({ rule: INTERNAL_RULE, severity: 'error', message: `levelkit bug in rule ${rule.id}: ${String((e as Error)?.message ?? e)}`, where: {} });
    }
  }
  return facts ? { findings, facts } : { findings };
}

/** The id of findings that report a rule's own failure (not a rule one can select). */
export const INTERNAL_RULE = 'check/internal';

/**
 * The id of findings for files that could not be decoded, so not checked (not one a rule reports:
 * the scan's record says so). An error like any rule's, so --fail-on decides what it does to a run.
 */
export const DECODE_RULE = 'decode';
export const DECODE_WHY = 'a file that cannot be decoded cannot be checked, and the game or editor would refuse or misread it';

/** The decode finding of a file whose record is `error`: its code and message, at its byte offset when it has one. */
export function decodeFinding(error: { code: string; message: string; offset: number | null }): Finding {
  return { rule: DECODE_RULE, severity: 'error', message: `${error.code}: ${error.message}`, where: error.offset === null ? {} : { offset: error.offset } };
}

/** A finding of the archive phase, with the file it is about. */
export interface ArchiveFinding extends Finding {
  path: string;
  member: string | null;
}

/** Runs the archive rules of `ids` over the facts every file left (`files`: per file, its `facts` record field). */
export function checkArchive(
  files: readonly { path: string; member: string | null; facts?: Record<string, unknown> }[],
  ids?: readonly string[],
): ArchiveFinding[] {
  const out: ArchiveFinding[] = [];
  for (const rule of selectRules(ids)) {
    if (rule.kind !== 'archive') continue;
    const r = rule as ArchiveRule<unknown>;
    const mine: FileFacts[] = [];
    for (const f of files) if (f.facts && r.id in f.facts) mine.push({ path: f.path, member: f.member, facts: f.facts[r.id] });
    if (mine.length === 0) continue;
    r.judge(mine, (file, message, where: Where = {}) => out.push({ rule: r.id, severity: r.severity, message, where, path: file.path, member: file.member }));
  }
  return out;
}
