// `levelkit check` as a user runs it: exit codes and --fail-on, rule selection (an unknown id is
// a usage error naming it), --json lines, SARIF validated against the official 2.1.0 schema, and
// the whole corpus checked with no crash and only known rule ids.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as draft04 from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { findingRow } from '../../src/archive-index/findings-rows.js';
import { tableOf } from '../../src/archive-index/schema.js';
import { RULE_IDS } from '../../src/check/registry.js';
import { DECODE_RULE, INTERNAL_RULE } from '../../src/check/run.js';
import { CLI_ARGV, cli, jsonLines } from '../helpers/cli.js';
import { corpus, itWith } from '../helpers/needs.js';
import { ROOT } from '../helpers/paths.js';

const CLEAN = join(ROOT, 'fixtures/wdata/main-v01.wdata');
// The fixture of every Teeworlds item: errors (no spawn), warnings and notes.
const FLAGGED = join(ROOT, 'fixtures/teeworlds/ddnet-all-items.map');

describe('levelkit check', () => {
  it('exits 0 with nothing found, 1 with a finding at or above --fail-on, an undecodable file among them', () => {
    expect(cli('check', '--quiet', CLEAN).status).toBe(0);
    expect(cli('check', '--quiet', FLAGGED).status).toBe(1);
    const dir = mkdtempSync(join(tmpdir(), 'lk-check-'));
    writeFileSync(join(dir, 'broken.map'), Buffer.from('DATA\x04\x00\x00\x00garbage'));
    const broken = cli('check', '--quiet', dir, CLEAN);
    expect(broken.status).toBe(1);
    expect(broken.stdout).toMatch(/broken\.map: error decode: /);
  });

  it('--fail-on decides which severity fails the run', () => {
    // Only notes: fail on note, not on warning.
    const notes = ['--rule', 'tw/empty-layer', FLAGGED];
    expect(cli('check', '--quiet', '--fail-on', 'warning', ...notes).status).toBe(0);
    expect(cli('check', '--quiet', '--fail-on', 'note', ...notes).status).toBe(1);
    expect(cli('check', '--quiet', '--fail-on', 'never', FLAGGED).status).toBe(0);
    const bad = cli('check', '--fail-on', 'sometimes', FLAGGED);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--fail-on must be error, warning, note or never; got 'sometimes'/);
  });

  it('--rule and --skip-rule select; an unknown id is a usage error naming it, with the closest id', () => {
    const only = jsonLines(cli('check', '--json', '--quiet', '--rule', 'tw/no-spawn', FLAGGED).stdout);
    expect(only.map((f) => f.rule)).toEqual(['tw/no-spawn']);
    expect(only[0]).toMatchObject({ path: FLAGGED, member: null, severity: 'error', where: {} });
    const skipped = jsonLines(cli('check', '--json', '--quiet', '--skip-rule', 'tw/no-spawn', FLAGGED).stdout);
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.map((f) => f.rule)).not.toContain('tw/no-spawn');
    const typo = cli('check', '--rule', 'tw/no-spwan', FLAGGED);
    expect(typo.status).toBe(1);
    expect(typo.stderr).toMatch(/--rule: unknown rule 'tw\/no-spwan' \(did you mean 'tw\/no-spawn'\?\)/);
  });

  it('--list-rules prints every rule with its severity, why and source', () => {
    const r = cli('check', '--list-rules');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(RULE_IDS);
    for (const l of lines) expect(l).toMatch(/^\S+\s+(error|warning|note)\s+\S.* \[source: \S[^\]]*\]$/);
    expect(lines.find((l) => l.startsWith('tw/meaningless-rotation '))).toMatch(/\[source: twmap-check-ddnet: /);
    expect(lines.find((l) => l.startsWith('tw/no-time-checkpoint '))).toMatch(/\[source: DDNet map rules: time checkpoints\]/);
  });

  it('--sarif is a valid SARIF 2.1.0 log (the official schema) with one result per finding', () => {
    const json = jsonLines(cli('check', '--json', '--quiet', FLAGGED).stdout);
    const r = cli('check', '--sarif', '--quiet', FLAGGED);
    expect(r.status).toBe(1);
    const log = JSON.parse(r.stdout);
    const require = createRequire(import.meta.url);
    const schemaPath = join(require.resolve('@microsoft/jest-sarif/package.json'), '../lib/schemas/sarif-2.1.0-rtm.5.json');
    const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
    // The schema's `format` keywords (uri, date-time) are annotations here: ajv checks the structure.
    // unicodeRegExp off: one of the schema's patterns (language tags) is not valid with the u flag.
    const ajv = new draft04.default.default({ strict: false, validateFormats: false, allErrors: true, unicodeRegExp: false });
    const valid = ajv.validate(schema, log);
    expect(ajv.errors ?? [], 'schema errors').toEqual([]);
    expect(valid).toBe(true);
    expect(log.runs[0].results).toHaveLength(json.length);
    expect(log.runs[0].results.map((x: { ruleId: string }) => x.ruleId)).toEqual(json.map((f) => f.rule));
  });
});

itWith(
  corpus(''),
  'the whole corpus is checked with no crash and every finding of a known rule id',
  (root) => {
    // ~5,300 files: longer than cli()'s 30 s on a loaded machine.
    const r = spawnSync(process.execPath, [...CLI_ARGV, 'check', '--json', '--quiet', '--fail-on', 'never', root], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 280_000,
      maxBuffer: 256 * 2 ** 20,
    });
    // Two corpus files are not levels levelkit decodes (a bad signature kept on purpose): decode
    // findings, which --fail-on never lets pass.
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/INTERNAL|WORKER_CRASHED|TIMEOUT|levelkit bug/);
    const findings = jsonLines(r.stdout);
    expect(findings.length).toBeGreaterThan(0);
    const undecoded = findings.filter((f) => f.rule === DECODE_RULE);
    expect(undecoded.length).toBeGreaterThan(0);
    for (const f of undecoded) expect(f.message).not.toMatch(/^(INTERNAL|WORKER_CRASHED|TIMEOUT)|levelkit bug/);
    for (const f of findings.filter((x) => x.rule !== DECODE_RULE)) {
      expect(RULE_IDS).toContain(f.rule);
      expect(f.rule).not.toBe(INTERNAL_RULE);
    }
  },
  300_000,
);

describe('findings as index rows', () => {
  it('one row per finding, in the findings table’s column order, null where a finding has no place', () => {
    expect(tableOf('findings').columns.map((c) => c.name)).toEqual(['id', 'rule', 'severity', 'message', 'layer', 'x', 'y', 'object', 'offset']);
    expect(findingRow('f1', { rule: 'tw/no-spawn', severity: 'error', message: 'the map has no spawn tile', where: {} })).toEqual([
      'f1',
      'tw/no-spawn',
      'error',
      'the map has no spawn tile',
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(findingRow('f1', { rule: 'wwd/unknown-logic', severity: 'warning', message: 'm', where: { layer: 1, x: 64, y: -2, object: 7 } })).toEqual([
      'f1',
      'wwd/unknown-logic',
      'warning',
      'm',
      1,
      64,
      -2,
      7,
      undefined,
    ]);
  });
});
