// `scan --index --check`: the findings table holds exactly what `levelkit check` prints for the
// same files — per-file rules and the rules that judge files together (Graal links) — so "every
// map with an unpaired teleporter" is one query. Fixtures only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, jsonLines, runBin } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-findings-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const key = (f: Record<string, unknown>) => `${f.path}\0${f.member}\0${f.rule}\0${f.severity}\0${f.message}`;

describe('scan --index --check', () => {
  it('writes the findings levelkit check prints, each under its file', async () => {
    const fixtures = join(ROOT, 'fixtures');
    const printed = cli('check', fixtures, '--json', '--fail-on', 'never', '--max-per-rule', 'all', '--quiet', '--timeout', '60');
    expect(printed.status).toBe(0);
    // The fixtures hold malformed files on purpose: check prints them as findings of rule decode,
    // the index keeps them as the files table's errors.
    const all = jsonLines(printed.stdout);
    expect(all.some((f) => f.rule === 'decode')).toBe(true);
    const want = all
      .filter((f) => f.rule !== 'decode')
      .map(key)
      .sort();
    expect(want.length).toBeGreaterThan(10);
    expect(want.some((k) => k.includes('\0graal/link-target\0'))).toBe(true);

    const index = join(tmp, 'index');
    const scanned = await runBin(['scan', fixtures, '--index', index, '--check', '--timeout', '60', '--quiet']);
    expect(scanned.code, scanned.stderr).toBe(2);
    const q = await runBin(['query', index, 'SELECT f.path, f.member, x.rule, x.severity, x.message FROM findings x JOIN files f USING (id)', '--json']);
    expect(q.code, q.stderr).toBe(0);
    expect(jsonLines(q.stdout).map(key).sort()).toEqual(want);
  }, 180_000);

  it('is refused without --index, as a usage error', () => {
    const r = cli('scan', join(ROOT, 'fixtures/wwd'), '--check');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^levelkit scan: --check .*needs --index.*\nusage: levelkit scan/);
  });
});
