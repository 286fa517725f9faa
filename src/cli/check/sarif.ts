// The findings of a check as one SARIF 2.1.0 log (OASIS), the shape code-scanning services
// (GitHub, GitLab, Azure DevOps) read: one run, levelkit as the tool with every rule it ran, one
// result per finding at the file, with the level's own place in the result's properties (levels
// have no text lines to point at). The file is an RFC 3986 URI relative to SRCROOT (sarif-uri.ts);
// a zip member points at its zip, the file a repository holds, with the member's name in the
// location's properties (`member`). The log's text is escaped as every other JSON output (jsonText).
// Where in the level a finding is: `region.byteOffset` when it has a byte offset (SARIF's region of
// a binary artifact), and `logicalLocations` (logical.ts) for its layer, object and x/y. Files that
// could not be decoded are results of the `decode` rule, which is always among the rules.
import { RULES } from '../../check/registry.js';
import { DECODE_RULE, DECODE_WHY } from '../../check/run.js';
import type { Severity } from '../../check/types.js';
import { logicalLocations } from './logical.js';
import type { CheckedFinding } from './output.js';
import { artifactLocation, baseUri, SRCROOT } from './sarif-uri.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', note: 'note' };

/** The log of `findings`; relative paths and those under `root` (the folder check ran in) are relative to SRCROOT = `root`. */
export function sarifLog(findings: readonly CheckedFinding[], ruleIds: readonly string[], version: string, root = process.cwd()): object {
  const rules = [...RULES.filter((r) => ruleIds.includes(r.id)), { id: DECODE_RULE, why: DECODE_WHY, severity: 'error' as const, format: 'any' }];
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
        originalUriBaseIds: { [SRCROOT]: { uri: baseUri(root) } },
        results: findings.map((f) => ({
          ruleId: f.rule,
          ...(indexOf.has(f.rule) ? { ruleIndex: indexOf.get(f.rule) } : {}),
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: {
                  ...artifactLocation(f.pathBytes === undefined ? Buffer.from(f.path, 'utf8') : Buffer.from(f.pathBytes, 'base64'), root),
                  ...(f.member === null ? {} : { properties: { member: f.member } }),
                },
                ...(f.where.offset !== undefined ? { region: { byteOffset: f.where.offset } } : {}),
              },
              ...logicalLocations(f.where),
            },
          ],
          ...(Object.keys(f.where).length || f.omitted !== undefined
            ? { properties: { ...(Object.keys(f.where).length ? { where: f.where } : {}), ...(f.omitted === undefined ? {} : { omitted: f.omitted }) } }
            : {}),
        })),
      },
    ],
  };
}
