// A CLI that helps (issue 11): --version, per-command --help listing every option, and
// readable output without raw JSON or null.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { FIXTURES, ROOT } from './helpers/paths.js';

describe('levelkit help', () => {
  it('--version prints the package version', () => {
    const r = cli('--version');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`levelkit ${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`);
  });

  it.each([
    ['info', ['--json', '--strict', '--backend', '--inflate', '--encoding', '--max-bytes', '--max-zip-ratio', '--follow']],
    ['extract', ['--out', '--json', '--strict', '--backend', '--inflate', '--encoding', '--max-bytes', '--max-zip-ratio', '--force']],
    ['scan', ['--out', '--report', '--max-bytes', '--max-zip-ratio', '--workers', '--timeout']],
    ['convert', ['--to', '--version', '--force', '--json', '--strict', '--backend', '--inflate', '--encoding', '--max-bytes', '--follow']],
    ['render', ['--out', '--scale', '--layer', '--sheet', '--max-bytes', '--max-zip-ratio', '--max-cells', '--force']],
    ['diff', ['--json', '--png', '--force', '--strict', '--backend', '--max-bytes', '--max-zip-ratio']],
  ])('%s --help: the command in one line, then every option with its help', (name, flags) => {
    const r = cli(name, '--help');
    expect(r.status).toBe(0);
    const [usage, summary, , heading, ...rows] = r.stdout.trimEnd().split('\n');
    expect(usage).toMatch(new RegExp(`^usage: levelkit ${name} `));
    expect(summary!.length).toBeGreaterThan(10);
    expect(heading).toBe('options:');
    for (const f of [...flags, '--help']) expect(rows.some((l) => new RegExp(`${f}\\b.*\\s{2}\\S`).test(l))).toBe(true);
  });

  it('the overview names every command', () => {
    const r = cli('--help');
    for (const c of ['info', 'extract', 'convert']) expect(r.stdout).toContain(`levelkit ${c} `);
  });

  it('readable output shows nested summary values as words, not JSON or null', () => {
    const r = cli('info', join(FIXTURES, 'teeworlds', 'ddrace-v2.map'));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/gameLayer +width 6, height 5\n/);
    expect(r.stdout).not.toMatch(/[{}"]|null/);
  });
});
