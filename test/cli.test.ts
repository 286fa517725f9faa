// The `levelkit` command as a user runs it: JSON lines, readable output, exit codes 0 / 2 / 1.
import { copyFileSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from '../src/index.js';
import { cli, cliChild } from './helpers/cli.js';
import { FIXTURES, listFiles, ROOT, readBytes } from './helpers/paths.js';

const FILES = listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap|gwc|gwz|wdata)$/i).filter((p) => !p.includes('/bad/'));

describe('levelkit info', () => {
  it('prints one JSON object per file with the contract fields, exit 0', () => {
    const r = cli('info', '--json', ...FILES.map((f) => relative(ROOT, f)));
    // stderr holds only the closing tally
    expect(r.stderr).toMatch(/^levelkit info: \d+ decoded \(.*\)[^\n]*\n$/);
    expect(r.status).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(FILES.length);
    for (const l of lines) {
      // `unchecked` only when the cheap decode left a check undone (README: --depth).
      const keys = Object.keys(l);
      expect(keys.filter((k) => k !== 'unchecked')).toEqual(['file', 'format', 'version', 'summary', 'warnings']);
      if (keys.includes('unchecked')) expect(l.unchecked).toEqual(expect.arrayContaining([expect.any(String)]));
      expect(typeof l.summary).toBe('object');
    }
  });

  it('reports a file that fails as {file, error} and exits 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'levelkit-'));
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, 'not a level');
    const r = cli('info', '--json', junk, relative(ROOT, FILES[0]!));
    expect(r.status).toBe(2);
    const [bad, good] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(bad).toEqual({ file: junk, error: { code: 'BAD_MAGIC', offset: 0, path: '', message: expect.any(String) } });
    expect(good.format).toBeDefined();
    const missing = cli('info', '--json', join(dir, 'missing.wwd'));
    expect(missing.status).toBe(2);
    expect(JSON.parse(missing.stdout).error.code).toBe('IO');
  });

  it('scans folders, skipping files no format recognises', () => {
    const r = cli('info', '--json', 'fixtures');
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // Every fixture is found; the malformed ones under bad/ are found too and fail. A zip of
    // levels is walked as scan walks it: each level in it is a record with its member.
    const zip = lines.filter((l) => l.file.endsWith('.zip'));
    expect(zip.map((l) => [l.member, l.error?.code])).toEqual(
      ['claw-compressed.wwd', 'levels/gr-v103.graal', 'levels/ddrace-v2.map', 'more.zip/tw07-skip.map', 'more.zip/crlf.nw'].map((m) => [m, undefined]),
    );
    expect(lines.filter((l) => !l.file.includes('/bad/') && !l.file.endsWith('.zip')).length).toBe(FILES.length);
    expect(lines.every((l) => l.file.includes('/bad/') || l.file.endsWith('.zip') || l.format)).toBe(true);
  });

  it("a file under a folder that cannot be read is reported as that file's IO error; the scan goes on", () => {
    const dir = mkdtempSync(join(tmpdir(), 'levelkit-'));
    symlinkSync(join(dir, 'gone.wwd'), join(dir, 'a-dangling-link.wwd'));
    copyFileSync(FILES[0]!, join(dir, `b-level${extname(FILES[0]!)}`));
    const r = cli('info', '--json', dir);
    expect(r.status).toBe(2);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.error?.code ?? l.format)).toEqual(['IO', detect(readBytes(FILES[0]!))]);
  });

  it('stops quietly when its reader closes the pipe (info --json … | head)', async () => {
    const child = cliChild('info', '--json', ...Array(200).fill(relative(ROOT, FILES[0]!)));
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((done) => child.on('close', done));
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  });

  it('prints a readable summary without --json', () => {
    const r = cli('info', relative(ROOT, FILES[0]!));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/format +\w+/);
  });

  it('exits 1 on bad usage', () => {
    expect(cli('info').status).toBe(1);
    expect(cli('info', '--backend', 'gpu', 'x').status).toBe(1);
    expect(cli('nonsense').status).toBe(1);
    const enc = cli('info', '--encoding', 'no-such-code-page', relative(ROOT, FILES[0]!));
    expect(enc.status).toBe(1);
    expect(enc.stderr).toMatch(/unknown code page/);
    // An option's value forgotten before the next option: one line naming what is missing.
    const sheet = cli('render', relative(ROOT, FILES[0]!), '--sheet', '-o', 'x.png');
    expect(sheet.status).toBe(1);
    expect(sheet.stderr.split('\n')[0]).toBe("levelkit render: --sheet needs a value (one starting with '-' is written --sheet=-…)");
    const help = cli('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/levelkit info/);
  });
});

describe('levelkit extract on every format', () => {
  it.each([
    ['wwd/claw-compressed.wwd', ['level.json']],
    ['graal/gr-v105-layers.graal', ['level.json', 'level.nw']],
    ['graal/world.gmap', ['map.json']],
  ])('%s gives %j, the JSON readable and objects as rows', (fixture, expected) => {
    const dir = mkdtempSync(join(tmpdir(), 'levelkit-extract-'));
    const r = cli('extract', join(FIXTURES, fixture), '-o', dir);
    expect(r.status, r.stderr).toBe(0);
    for (const name of expected) expect(readFileSync(join(dir, name)).length, name).toBeGreaterThan(0);
    const json = JSON.parse(readFileSync(join(dir, expected[0]!), 'utf8'));
    if (fixture.endsWith('.wwd')) {
      const plane = json.planes.find((p: { objects: unknown[] }) => p.objects.length > 0);
      expect(plane.objects[0]).toHaveProperty('x');
      expect(typeof plane.objects[0].name).toBe('string');
    }
    if (fixture.endsWith('.graal')) expect(readFileSync(join(dir, 'level.nw'), 'latin1')).toMatch(/^GLEVNW01/);
    // A second run refuses to overwrite.
    expect(cli('extract', join(FIXTURES, fixture), '-o', dir).status).toBe(2);
  });
});
