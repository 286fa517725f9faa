// The findings of a check as one SARIF 2.1.0 log (OASIS), the shape code-scanning services
// (GitHub, GitLab, Azure DevOps) read: one run, levelkit as the tool with every rule it ran, one
// result per finding at the file (a zip member as `zip!/member`), with the level's own place in
// the result's properties (levels have no text lines to point at).
import { RULES } from '../../check/registry.js';
import type { Severity } from '../../check/types.js';
import type { CheckedFinding } from './output.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', note: 'note' };

export function sarifLog(findings: readonly CheckedFinding[], ruleIds: readonly string[], version: string): object {
  const rules = RULES.filter((r) => ruleIds.includes(r.id));
  const indexOf = new Map(rules.map((r, i) => [r.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'levelkit',
            version,
            informationUri: 'https://github.com/levelkit/levelkit',
            rules: rules.map((r) => ({
              id: r.id,
              shortDescription: { text: r.why },
              defaultConfiguration: { level: LEVEL[r.severity] },
              properties: { format: r.format },
            })),
          },
        },
        results: findings.map((f) => ({
          ruleId: f.rule,
          ...(indexOf.has(f.rule) ? { ruleIndex: indexOf.get(f.rule) } : {}),
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: artifactUri(f.path, f.member) },
                ...(f.where.offset !== undefined ? { region: { byteOffset: f.where.offset } } : {}),
              },
            },
          ],
          ...(Object.keys(f.where).length ? { properties: { where: f.where } } : {}),
        })),
      },
    ],
  };
}

/** A relative URI reference for the file (forward slashes, each segment percent-encoded). */
function artifactUri(path: string, member: string | null): string {
  const full = member === null ? path : `${path}!/${member}`;
  return full
    .replaceAll('\\', '/')
    .split('/')
    .map((s) => encodeURIComponent(s).replaceAll('%21', '!'))
    .join('/');
}
