// What `info`, `render` and `extract` take besides files and folders (issue 28): `-` (standard
// input, sniffed by content, read no further than --max-bytes), zips of levels walked as scan walks
// them (nested zips too; a .gwz stays a cartridge), one member as `archive.zip::path`, outputs of
// members mirrored below the output folder without leaving it; and render of a folder on a worker
// pool: the same PNG bytes as one file rendered alone, --skip-existing to resume, captions on the
// contact sheet. Run through the built binary (npm run build) as a user would.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode as decodePng } from 'fast-png';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BIN, bin, jsonLines } from './helpers/cli.js';
import { FIXTURES, ROOT } from './helpers/paths.js';

const ZIP = join(FIXTURES, 'zip', 'levels.zip');
const GRAAL = join(FIXTURES, 'graal', 'gr-v103.graal');
const MEMBERS = ['claw-compressed.wwd', 'levels/gr-v103.graal', 'levels/ddrace-v2.map', 'more.zip/tw07-skip.map', 'more.zip/crlf.nw'];

/** `levelkit …args` (built) with `input` on its standard input. */
function binWithInput(input: Uint8Array, ...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, input, encoding: 'utf8', timeout: 30_000 });
}

const tmp = () => mkdtempSync(join(tmpdir(), 'levelkit-inputs-'));

describe('- is standard input', () => {
  it('info - reads the level from stdin and tells its format by content', () => {
    const r = binWithInput(readFileSync(GRAAL), 'info', '-', '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(jsonLines(r.stdout)).toMatchObject([{ file: '-', format: 'graal', version: 'GR-V1.03' }]);
  });

  it('a GWZ on stdin is a cartridge; any other zip on stdin is walked as a zip of levels', () => {
    const gwz = binWithInput(readFileSync(join(FIXTURES, 'gwc', 'sample.gwz')), 'info', '-', '--json');
    expect(jsonLines(gwz.stdout)).toMatchObject([{ file: '-', format: 'gwz' }]);
    const zip = binWithInput(readFileSync(ZIP), 'info', '-', '--json');
    expect(zip.status, zip.stderr).toBe(0);
    expect(jsonLines(zip.stdout).map((l) => l.member)).toEqual(MEMBERS);
  });

  it('stops reading past --max-bytes: a LIMIT_EXCEEDED record, exit 2', () => {
    const r = binWithInput(new Uint8Array(64 * 1024).fill(7), 'info', '-', '--max-bytes', '1k', '--json');
    expect(r.status).toBe(2);
    expect(jsonLines(r.stdout)[0]).toMatchObject({ file: '-', error: { code: 'LIMIT_EXCEEDED' } });
  });

  it('render - -o x.png and extract - -o dir', () => {
    const dir = tmp();
    const r = binWithInput(readFileSync(GRAAL), 'render', '-', '-o', join(dir, 'x.png'));
    expect(r.status, r.stderr).toBe(0);
    const single = bin(dir, 'render', GRAAL, '-o', join(dir, 'y.png'));
    expect(single.status, single.stderr).toBe(0);
    expect(readFileSync(join(dir, 'x.png'))).toEqual(readFileSync(join(dir, 'y.png')));
    const e = binWithInput(readFileSync(GRAAL), 'extract', '-', '-o', join(dir, 'out'));
    expect(e.status, e.stderr).toBe(0);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['level.json', 'level.nw']);
  });

  it('- twice is a usage error', () => {
    expect(binWithInput(new Uint8Array(0), 'info', '-', '-').status).toBe(1);
  });
});

describe('zips of levels', () => {
  it('info lists every member of a zip (nested zips too), as scan does', () => {
    const r = bin(ROOT, 'info', ZIP, '--json');
    expect(r.status, r.stderr).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.member)).toEqual(MEMBERS);
    expect(lines.every((l) => l.file === ZIP && l.format)).toBe(true);
    expect(bin(ROOT, 'info', ZIP).stdout).toContain(`${ZIP}::levels/gr-v103.graal\n  format`);
  });

  it('a .gwz is still read as a cartridge', () => {
    expect(jsonLines(bin(ROOT, 'info', join(FIXTURES, 'gwc', 'sample.gwz'), '--json').stdout)).toMatchObject([{ format: 'gwz' }]);
  });

  it('archive.zip::member names one member (also inside a nested zip); a missing one is NOT_FOUND', () => {
    const one = jsonLines(bin(ROOT, 'info', `${ZIP}::more.zip/crlf.nw`, '--json').stdout);
    expect(one).toMatchObject([{ file: ZIP, member: 'more.zip/crlf.nw', format: 'graal-nw' }]);
    const missing = bin(ROOT, 'info', `${ZIP}::nope.map`);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('levels.zip: NOT_FOUND');
  });

  it('render x.zip::member -o out.png draws that member, byte for byte as the same level on disk', () => {
    const dir = tmp();
    const r = bin(dir, 'render', `${ZIP}::levels/gr-v103.graal`, '-o', 'out.png');
    expect(r.status, r.stderr).toBe(0);
    bin(dir, 'render', GRAAL, '-o', 'disk.png');
    expect(readFileSync(join(dir, 'out.png'))).toEqual(readFileSync(join(dir, 'disk.png')));
  });

  it('extract from a zip member, and a whole zip as a folder per member', () => {
    const dir = tmp();
    const one = bin(dir, 'extract', `${ZIP}::levels/gr-v103.graal`, '-o', 'one');
    expect(one.status, one.stderr).toBe(0);
    expect(readdirSync(join(dir, 'one')).sort()).toEqual(['level.json', 'level.nw']);
    const all = bin(dir, 'extract', ZIP, '-o', 'all');
    expect(all.status, all.stderr).toBe(0);
    for (const m of MEMBERS) expect(existsSync(join(dir, 'all', 'levels.zip', m)), m).toBe(true);
    expect(readdirSync(join(dir, 'all', 'levels.zip', 'levels', 'gr-v103.graal')).sort()).toEqual(['level.json', 'level.nw']);
  });

  it('render of a zip mirrors archive.zip/path/in/zip.png; a member named to leave the folder is refused', () => {
    const dir = tmp();
    const graal = readFileSync(GRAAL);
    writeFileSync(join(dir, 'evil.zip'), zipSync({ 'ok/a.graal': graal, '../../escape.graal': graal }));
    const r = bin(dir, 'render', 'evil.zip', '-o', 'out', '--json');
    expect(r.status).toBe(2);
    expect(existsSync(join(dir, 'out', 'evil.zip', 'ok', 'a.graal.png'))).toBe(true);
    expect(jsonLines(r.stdout).find((l) => l.member === '../../escape.graal')?.error?.code).toBe('UNSAFE_PATH');
    expect(readdirSync(dir).sort()).toEqual(['evil.zip', 'out']);
    expect(existsSync(join(dir, '..', 'escape.graal.png'))).toBe(false);
  });
});

describe('render of a folder (worker pool)', () => {
  /** A folder of a few levels of different formats. */
  function levels(): string {
    const dir = tmp();
    mkdirSync(join(dir, 'in', 'sub'), { recursive: true });
    copyFileSync(GRAAL, join(dir, 'in', 'a.graal'));
    copyFileSync(join(FIXTURES, 'wwd', 'claw-compressed.wwd'), join(dir, 'in', 'b.wwd'));
    copyFileSync(join(FIXTURES, 'teeworlds', 'ddnet-all-items.map'), join(dir, 'in', 'sub', 'c.map'));
    copyFileSync(join(FIXTURES, 'graal', 'layers.nw'), join(dir, 'in', 'sub', 'd.nw'));
    return dir;
  }

  it('gives the same PNG bytes as each file rendered alone', () => {
    const dir = levels();
    const r = bin(dir, 'render', 'in', '-o', 'out', '--workers', '2');
    expect(r.status, r.stderr).toBe(0);
    for (const rel of ['a.graal', 'b.wwd', 'sub/c.map', 'sub/d.nw']) {
      const alone = bin(dir, 'render', join('in', rel), '-o', `alone-${rel.replace('/', '-')}.png`);
      expect(alone.status, alone.stderr).toBe(0);
      expect(readFileSync(join(dir, 'out', `${rel}.png`)), rel).toEqual(readFileSync(join(dir, `alone-${rel.replace('/', '-')}.png`)));
    }
  });

  it('--skip-existing: a second run writes nothing, counts every level as skipped and exits 0', () => {
    const dir = levels();
    const first = bin(dir, 'render', 'in', '-o', 'out', '--skip-existing');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/4 written/);
    const second = bin(dir, 'render', 'in', '-o', 'out', '--skip-existing');
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/0 written; 4 skipped \(output already there/);
    // Without it an existing output is still each level's failure.
    expect(bin(dir, 'render', 'in', '-o', 'out').status).toBe(2);
  });

  it('draws the file name under each cell of the contact sheet', () => {
    const dir = levels();
    const r = bin(dir, 'render', 'in', '--sheet', 'sheet.png');
    expect(r.status, r.stderr).toBe(0);
    const png = decodePng(readFileSync(join(dir, 'sheet.png')));
    // The first cell's caption band: just below its 256-pixel square (gap 8), across the cell.
    let dark = 0;
    for (let y = 8 + 256; y < 8 + 256 + 12; y++)
      for (let x = 8; x < 8 + 256; x++) {
        const o = (y * png.width + x) * png.channels;
        if (png.data[o]! < 128) dark++;
      }
    expect(dark).toBeGreaterThan(20);
  });
});
