// `levelkit check` in CI: a file that does not decode is a `decode` error in every output and
// --fail-on judges it like any rule's (never: exit 0); --exclude leaves files and zip members out
// before they are read (a malformed glob is a usage error naming it); one rule repeating in one
// file is its first --max-per-rule findings and a count; a retired rule's id is still taken by
// --skip-rule; progress on a terminal's stderr.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { excluder } from '../../src/cli/check/exclude.js';
import { teeworlds, textFrom } from '../../src/index.js';
import { CLI_ARGV, cli, jsonLines } from '../helpers/cli.js';
import { itWith, type Need } from '../helpers/needs.js';
import { FIXTURES, ROOT, readBytes } from '../helpers/paths.js';

const MAP = join(FIXTURES, 'teeworlds/ddnet-all-items.map');
const CLEAN = join(ROOT, 'fixtures/wdata/main-v01.wdata');
const BROKEN = Buffer.from('DATA\x04\x00\x00\x00garbage');
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'lk-check-ci-'));
  mkdirSync(join(tmp, 'maps'));
  mkdirSync(join(tmp, 'vendor'));
  writeFileSync(join(tmp, 'maps', 'broken.map'), BROKEN);
  copyFileSync(CLEAN, join(tmp, 'maps', 'clean.wdata'));
  copyFileSync(MAP, join(tmp, 'vendor', 'flagged.map'));
  writeFileSync(join(tmp, 'pack.zip'), zipSync({ 'in/broken.map': BROKEN, 'in/clean.wdata': readBytes(CLEAN) }));
  // 25 images no layer uses: 25 findings of tw/unused-image in one file.
  const m = teeworlds.decode(readBytes(MAP));
  for (let i = 0; i < 25; i++)
    m.images.push({ version: 1, name: textFrom(`unused${i}`, 'utf-8'), width: 1, height: 1, external: false, pixels: Uint8Array.of(1, 2, 3, 4) });
  writeFileSync(join(tmp, 'flood.map'), teeworlds.encode(m));
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('files that do not decode are findings of rule decode', () => {
  it('in text, JSON lines and SARIF, with the error code, message and byte offset', () => {
    const broken = join(tmp, 'maps', 'broken.map');
    const text = cli('check', '--quiet', broken);
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(/broken\.map: error decode: TRUNCATED: .* \[offset 0x8\]\n$/);
    expect(text.stderr).toBe('');
    const [json] = jsonLines(cli('check', '--json', '--quiet', broken).stdout);
    expect(json).toMatchObject({ path: broken, member: null, rule: 'decode', severity: 'error', where: { offset: 8 } });
    expect(json!.message).toMatch(/^TRUNCATED: /);
    const log = JSON.parse(cli('check', '--sarif', '--quiet', broken).stdout);
    const run = log.runs[0];
    expect(run.results).toHaveLength(1);
    expect(run.results[0]).toMatchObject({ ruleId: 'decode', level: 'error', locations: [{ physicalLocation: { region: { byteOffset: 8 } } }] });
    expect(run.tool.driver.rules[run.results[0].ruleIndex].id).toBe('decode');
  });

  it('a zip member that does not decode is one too, with its member', () => {
    const found = jsonLines(cli('check', '--json', '--quiet', join(tmp, 'pack.zip')).stdout);
    expect(found).toEqual([expect.objectContaining({ path: join(tmp, 'pack.zip'), member: 'in/broken.map', rule: 'decode' })]);
  });

  it('--fail-on judges them like any error; --fail-on never exits 0 whatever is found', () => {
    const dir = join(tmp, 'maps');
    // maps/ holds a clean file and a broken one: the decode error alone fails the run.
    expect(cli('check', '--quiet', dir).status).toBe(1);
    expect(cli('check', '--quiet', '--fail-on', 'never', dir, join(tmp, 'vendor')).status).toBe(0);
  });
});

describe('--exclude', () => {
  it('leaves out the files a glob matches, by name at any depth or by trailing folders, members too', () => {
    const files = (...args: string[]) =>
      jsonLines(cli('check', '--json', '--quiet', '--fail-on', 'never', ...args).stdout).map((f) => (f.member ? `${f.path}!${f.member}` : f.path));
    const all = files(tmp);
    expect(all).toContain(join(tmp, 'maps', 'broken.map'));
    expect(all).toContain(`${join(tmp, 'pack.zip')}!in/broken.map`);
    expect(all).toContain(join(tmp, 'vendor', 'flagged.map'));
    const noVendor = files('--exclude', 'vendor/**', '--exclude', '*.zip', tmp);
    expect(noVendor.filter((f) => f.includes('vendor') || f.includes('pack.zip'))).toEqual([]);
    expect(noVendor).toContain(join(tmp, 'maps', 'broken.map'));
    // By name at any depth, a zip member's too (its path is under its zip's).
    const noBroken = files('--exclude', 'broken.*', tmp);
    expect(noBroken.filter((f) => f.includes('broken'))).toEqual([]);
    expect(noBroken).toContain(join(tmp, 'vendor', 'flagged.map'));
  });

  it('an excluded file is not read, so it cannot fail the run; the count says how many were left out', () => {
    const r = cli('check', '--exclude', 'broken.map', join(tmp, 'maps'));
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/levelkit check: 1 file, 0 findings, 1 excluded\n$/);
  });

  it('a malformed glob is a usage error naming --exclude', () => {
    for (const [glob, said] of [
      ['maps/[ab', /--exclude: 'maps\/\[ab' has a '\[' with no '\]'/],
      ['[z-a].map', /--exclude: '\[z-a\]\.map' has a set that is not a valid range/],
    ] as const) {
      const r = cli('check', '--exclude', glob, CLEAN);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(said);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('glob semantics: * and ? within a segment, ** across segments, sets, / first anchors to the whole path', () => {
    const ex = (glob: string) => excluder([glob])!;
    expect(ex('*.bak')('a/b/c.bak', null)).toBe(true);
    expect(ex('*.bak')('a/b/c.bak.map', null)).toBe(false);
    expect(ex('c?.map')('x/c1.map', null)).toBe(true);
    expect(ex('c?.map')('x/c12.map', null)).toBe(false);
    expect(ex('a/*.map')('root/a/x.map', null)).toBe(true);
    expect(ex('a/*.map')('root/a/b/x.map', null)).toBe(false);
    expect(ex('a/**/*.map')('a/x.map', null)).toBe(true);
    expect(ex('a/**/*.map')('a/b/c/x.map', null)).toBe(true);
    expect(ex('/a/*.map')('root/a/x.map', null)).toBe(false);
    expect(ex('/a/*.map')('a/x.map', null)).toBe(true);
    expect(ex('[!x]*.map')('d/x1.map', null)).toBe(false);
    expect(ex('[a-c]*.map')('d/b1.map', null)).toBe(true);
    expect(ex('./a.map')('./a.map', null)).toBe(false);
    expect(ex('a.map')('./a.map', null)).toBe(true);
    expect(ex('in/*.map')('pack.zip', 'in/a.map')).toBe(true);
    expect(ex('*.zip')('pack.zip', 'in/a.map')).toBe(false);
    expect(ex('a+b(1).map')('a+b(1).map', null)).toBe(true);
    expect(excluder([])).toBeUndefined();
    expect(() => excluder([''])).toThrow(/--exclude needs a glob/);
  });
});

describe('--max-per-rule', () => {
  const flood = () => join(tmp, 'flood.map');
  const unused = (...args: string[]) => jsonLines(cli('check', '--json', '--quiet', '--rule', 'tw/unused-image', ...args, flood()).stdout);

  it('lists one rule’s first 20 findings per file by default, then one saying how many more', () => {
    const found = unused();
    expect(found).toHaveLength(21);
    expect(found[20]).toMatchObject({ rule: 'tw/unused-image', severity: 'warning', omitted: 6, where: {} });
    expect(found[20]!.message).toBe('… and 6 more in this file (--max-per-rule)');
    expect(found.slice(0, 20).every((f) => f.omitted === undefined)).toBe(true);
  });

  it('--max-per-rule n lists n, all lists every one; text and SARIF say the same; the count and exit see all', () => {
    expect(unused('--max-per-rule', '3').map((f) => f.omitted)).toEqual([undefined, undefined, undefined, 23]);
    expect(unused('--max-per-rule', 'all')).toHaveLength(26);
    const text = cli('check', '--rule', 'tw/unused-image', '--max-per-rule', '2', '--fail-on', 'warning', flood());
    expect(text.status).toBe(1);
    expect(text.stdout.trim().split('\n')).toHaveLength(3);
    expect(text.stdout).toMatch(/: warning tw\/unused-image: … and 24 more in this file \(--max-per-rule\)\n$/);
    expect(text.stderr).toMatch(/1 file, 26 findings/);
    const log = JSON.parse(cli('check', '--sarif', '--quiet', '--rule', 'tw/unused-image', '--max-per-rule', '2', flood()).stdout);
    expect(log.runs[0].results).toHaveLength(3);
    expect(log.runs[0].results[2].properties).toEqual({ omitted: 24 });
  });

  it('is a whole number of at least 1, or all: anything else is a usage error naming it', () => {
    for (const bad of ['0', '-1', 'many']) {
      const r = cli('check', `--max-per-rule=${bad}`, CLEAN);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/--max-per-rule must be a whole number of at least 1, or all; got '/);
    }
  });
});

it('--help lists --exclude and --max-per-rule, and not --check (a scan option: check always checks)', () => {
  const help = cli('check', '--help').stdout;
  expect(help).toMatch(/^\s+--exclude <glob>\s+leave out files/m);
  expect(help).toMatch(/^\s+--max-per-rule <n>\s+.*default 20/m);
  expect(help).not.toMatch(/^\s+--check\b/m);
});

describe('a retired rule', () => {
  it('--skip-rule still takes its id (a CI script naming it keeps working); --rule says where it went', () => {
    expect(cli('check', '--quiet', '--skip-rule', 'wwd/treasure-totals', CLEAN).status).toBe(0);
    const r = cli('check', '--rule', 'wwd/treasure-totals', CLEAN);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--rule: rule 'wwd\/treasure-totals' is retired: treasure totals are facts, not problems: levelkit info .* summary\.treasure/);
  });
});

/** What a live progress line starts with, and what clears it: carriage return, erase to the end of the line. */
const CLEAR_LINE = '\r\x1b[K';
/** util-linux `script`, to give check a terminal for stderr. */
const SCRIPT: Need<string> = existsSync('/usr/bin/script')
  ? { ok: true, value: '/usr/bin/script' }
  : { ok: false, missing: '/usr/bin/script (util-linux) not found' };

itWith(
  SCRIPT,
  'on a terminal, progress is a live line on stderr, cleared before each finding and at the end',
  (script) => {
    const dir = join(tmp, 'many');
    mkdirSync(dir);
    for (let i = 0; i < 40; i++) copyFileSync(MAP, join(dir, `m${i}.map`));
    const command = [process.execPath, ...CLI_ARGV, 'check', '--fail-on', 'never', '--workers', '1', '--rule', 'tw/no-spawn', dir]
      .map((a) => `'${a}'`)
      .join(' ');
    const r = spawnSync(script, ['-qec', command, '/dev/null'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    // The worker's start alone outlasts the first redraw's 250 ms: at least one live line is drawn.
    expect(r.stdout).toMatch(new RegExp(`${CLEAR_LINE.replace('[', '\\[')}check: \\d+ files, [\\d.]+ MB, \\d+ files/s`));
    // As a terminal shows it: each \r\x1b[K clears the line; no finding shares a line with progress.
    const shown = r.stdout.split('\n').map((line) => line.split(CLEAR_LINE).pop()!.replace(/\r$/, ''));
    expect(shown.filter((l) => l.includes('tw/no-spawn'))).toHaveLength(40);
    expect(shown.filter((l) => l.includes('files/s'))).toEqual([]);
  },
  90_000,
);
