// `levelkit diff` as a user runs it: exit 0 for the same level, 1 for different ones, 2 for a file
// that does not decode or two formats; --json lines parse; --png writes a PNG and never overwrites
// without --force; a zip member names a level; two archive indexes list files added, removed, changed.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYER_COLOURS } from '../../src/cli/diff-png.js';
import { decodePng, render, teeworlds } from '../../src/index.js';
import { cli, jsonLines } from '../helpers/cli.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

const MAP = join(FIXTURES, 'teeworlds/ddnet-all-items.map');
let tmp: string;
let changed: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'levelkit-diff-'));
  const m = teeworlds.decode(readBytes(MAP));
  const game = m.groups.flatMap((g) => g.layers).find((l) => l.kind === 'game')!;
  if (game.kind !== 'game') throw new Error('no game layer');
  for (const at of [1, 2]) game.tiles!.index[at] = 9;
  changed = join(tmp, 'changed.map');
  writeFileSync(changed, teeworlds.encode(m));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('levelkit diff <a> <b>', () => {
  it('the same level: nothing printed, exit 0', () => {
    const r = cli('diff', MAP, MAP);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('');
    expect(r.status).toBe(0);
  });

  it('different levels: counts, then the cells as one rectangle, exit 1', () => {
    const r = cli('diff', MAP, changed);
    expect(r.status).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/: 1 change: tile 1$/);
    // The layer by number, kind and the names the editor shows; the tiles by what they mean.
    expect(lines[1]).toMatch(/^ {2}tile {2}layer \d+ \(game\) "Game" in group "#1 Game" {2}at 1,0 {2}2×1 {2}.* → \{"index":9\} {2}\(.* → freeze\)$/);
    expect(lines).toHaveLength(2);
  });

  it('--json: one change per line, each with kind, where, from and to', () => {
    const r = cli('diff', '--json', MAP, changed);
    expect(r.status).toBe(1);
    const [c, ...rest] = jsonLines(r.stdout);
    expect(rest).toEqual([]);
    expect(c).toMatchObject({ kind: 'tile', layerKind: 'game', layerName: 'Game', group: 1, groupName: '#1 Game', x: 1, y: 0, w: 2, h: 1, to: { index: 9 } });
    expect(c).toMatchObject({ toMeaning: 'freeze' });
  });

  it('a level inside a zip, named a.zip::member', () => {
    const zip = join(tmp, 'maps.zip');
    writeFileSync(zip, zipSync({ 'maps/one.map': readBytes(MAP) }));
    expect(cli('diff', `${zip}::maps/one.map`, MAP).status).toBe(0);
    expect(cli('diff', `${zip}::maps/one.map`, changed).status).toBe(1);
  });

  it('exit 2: a file that does not decode, two formats, a missing file, bad usage', () => {
    const broken = join(tmp, 'broken.map');
    writeFileSync(broken, readBytes(MAP).subarray(0, 100));
    const bad = cli('diff', MAP, broken);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/broken\.map: TRUNCATED|broken\.map: [A-Z_]+:/);
    const formats = cli('diff', MAP, join(FIXTURES, 'wwd/claw-compressed.wwd'));
    expect(formats.status).toBe(2);
    expect(formats.stderr).toContain('cannot be compared');
    expect(cli('diff', MAP, join(tmp, 'missing.map')).status).toBe(2);
    expect(cli('diff', MAP).status).toBe(2);
    const stdinTwice = cli('diff', '-', '-');
    expect(stdinTwice.status).toBe(2);
    expect(stdinTwice.stderr).toContain('- (standard input) can be given once');
  });

  it('--png: the new level with the changed cells marked, a valid PNG; refused when it exists unless --force', () => {
    const out = join(tmp, 'diff.png');
    const r = cli('diff', MAP, changed, '--png', out);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('1 changed rectangle marked');
    const png = decodePng(readBytes(out));
    expect(png.width).toBeGreaterThan(0);
    // The marked cells differ from the same level drawn without changes.
    const plain = join(tmp, 'plain.png');
    expect(cli('diff', changed, changed, '--png', plain).status).toBe(0);
    expect(Buffer.compare(readFileSync(out), readFileSync(plain))).not.toBe(0);
    const again = cli('diff', MAP, changed, '--png', out);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('exists (--force overwrites it)');
    expect(cli('diff', MAP, changed, '--png', out, '--force').status).toBe(1);
  });

  it('--png: a legend below the level, in the colour of the changed layer; the text only with --text', () => {
    const out = join(tmp, 'legend.png');
    const r = cli('diff', MAP, changed, '--png', out);
    expect(r.status).toBe(1);
    // The picture is the answer: no text diff on stdout unless asked for.
    expect(r.stdout).toBe('');
    const png = decodePng(readBytes(out));
    const level = render(teeworlds.decode(readBytes(changed)), { markers: false });
    // The legend: a band below the level, holding the swatch of the changed layer's colour.
    expect(png.height).toBeGreaterThan(level.height + 20);
    const colour = LAYER_COLOURS[0]!;
    let swatch = false;
    for (let i = level.height * png.width * 4; i < png.pixels.length && !swatch; i += 4)
      swatch = png.pixels[i] === colour[0] && png.pixels[i + 1] === colour[1] && png.pixels[i + 2] === colour[2];
    expect(swatch).toBe(true);
    const both = cli('diff', MAP, changed, '--png', join(tmp, 'legend2.png'), '--text');
    expect(both.status).toBe(1);
    expect(both.stdout).toMatch(/: 1 change: tile 1\n {2}tile {2}layer/);
    const json = cli('diff', MAP, changed, '--png', join(tmp, 'legend3.png'), '--json');
    expect(jsonLines(json.stdout)).toHaveLength(1);
  });

  it('--text: only with --png and not with --json (exit 2, one line); --png on a level with nothing to draw is trouble', () => {
    const alone = cli('diff', MAP, changed, '--text');
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('--text goes with --png');
    expect(cli('diff', MAP, changed, '--png', join(tmp, 'x.png'), '--text', '--json').status).toBe(2);
    const gwc = join(FIXTURES, 'gwc/basic.gwc');
    const none = cli('diff', gwc, gwc, '--png', join(tmp, 'none.png'));
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^levelkit diff: --png: nothing to draw \(.*\); .*none\.png not written\n$/);
    expect(existsSync(join(tmp, 'none.png'))).toBe(false);
  });

  it('--help: --text, and the exit status with --png', () => {
    const r = cli('diff', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--text\b.*\s{2}with --png: print the text diff too/);
    expect(r.stdout).toMatch(/--png\b.*exit status as without it \(0 same, 1 different\), 2 when the PNG cannot be drawn or written/);
  });
});

describe('levelkit diff <old index> <new index>', () => {
  it('lists files added, removed and changed between two scans', () => {
    const archive = join(tmp, 'archive');
    cpSync(MAP, join(archive, 'kept.map'));
    cpSync(MAP, join(archive, 'edited.map'));
    cpSync(MAP, join(archive, 'gone.map'));
    const scan = (index: string) => {
      const r = cli('scan', archive, '--index', index, '--workers', '1', '--timeout', '60', '--quiet');
      expect(r.status, r.stderr).toBe(0);
    };
    scan(join(tmp, 'old'));
    cpSync(changed, join(archive, 'edited.map'));
    rmSync(join(archive, 'gone.map'));
    cpSync(MAP, join(archive, 'new.map'));
    scan(join(tmp, 'new'));
    const r = cli('diff', '--json', join(tmp, 'old'), join(tmp, 'new'));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const rows = jsonLines(r.stdout).map((c) => [c.kind, c.path.slice(archive.length + 1)]);
    expect(rows).toEqual([
      ['file-changed', 'edited.map'],
      ['file-removed', 'gone.map'],
      ['file-added', 'new.map'],
    ]);
    expect(cli('diff', join(tmp, 'new'), join(tmp, 'new')).status).toBe(0);
    expect(existsSync(join(tmp, 'new', 'files'))).toBe(true);
  }, 120_000);
});
