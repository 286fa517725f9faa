// Outputs stay inside the output folder (issue 18, item 5): a symbolic link planted at a folder
// `extract`, `convert` or `render` writes into, or at an output's own name, must never carry a
// byte outside; names taken from inside a level (image names, zip members) cannot leave it with
// `..`, `/` or NUL. Run through the built binary in a temporary folder, as a user would.
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { outputIn, writeNew } from '../../src/scan/write.js';
import { bin, jsonLines } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

const MAP = join(FIXTURES, 'teeworlds', 'ddnet-all-items.map');
const GRAAL = join(FIXTURES, 'graal', 'gr-v103.graal');

/** A fresh folder holding `out/` (where commands write) and `outside/` (which must stay empty). */
function stage(): { dir: string; out: string; outside: string } {
  const dir = mkdtempSync(join(tmpdir(), 'levelkit-escape-'));
  mkdirSync(join(dir, 'out'));
  mkdirSync(join(dir, 'outside'));
  return { dir, out: join(dir, 'out'), outside: join(dir, 'outside') };
}

/** Every path under `dir`, relative, sorted (links listed, not entered). */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const n of readdirSync(d).sort()) {
      const r = rel ? `${rel}/${n}` : n;
      out.push(r);
      if (lstatSync(join(d, n)).isDirectory()) walk(join(d, n), r);
    }
  };
  walk(dir, '');
  return out;
}

describe('extract -o', () => {
  it('a link at out/images (to a folder outside): refused in one line, nothing written anywhere', () => {
    const s = stage();
    symlinkSync('../outside', join(s.out, 'images'));
    const r = bin(s.dir, 'extract', MAP, '-o', 'out');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^levelkit extract: .*ddnet-all-items\.map: UNSAFE_PATH: out\/images is a symbolic link; .*nothing was written\n$/);
    expect(tree(s.outside)).toEqual([]);
    expect(tree(s.out)).toEqual(['images']);
  });

  it('a file at out/images: refused, nothing written', () => {
    const s = stage();
    writeFileSync(join(s.out, 'images'), 'mine');
    const r = bin(s.dir, 'extract', MAP, '-o', 'out', '--json');
    expect(r.status).toBe(2);
    expect(jsonLines(r.stdout)[0]!.error).toMatchObject({ code: 'UNSAFE_PATH', message: expect.stringMatching(/out\/images is not a folder/) });
    expect(readFileSync(join(s.out, 'images'), 'utf8')).toBe('mine');
    expect(tree(s.out)).toEqual(['images']);
  });

  it('a link at an output file name: kept without --force; with it the link itself is replaced, its target untouched', () => {
    const s = stage();
    writeFileSync(join(s.outside, 'victim'), 'precious');
    symlinkSync('../outside/victim', join(s.out, 'map.json'));
    const refused = bin(s.dir, 'extract', MAP, '-o', 'out');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/OUTPUT_EXISTS: out\/map\.json already exists/);
    const forced = bin(s.dir, 'extract', MAP, '-o', 'out', '--force');
    expect(forced.status).toBe(0);
    expect(readFileSync(join(s.outside, 'victim'), 'utf8')).toBe('precious');
    expect(lstatSync(join(s.out, 'map.json')).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(join(s.out, 'map.json'), 'utf8')).format).toBe('teeworlds');
  });

  it('a dangling link at an output name (pointing outside) is never followed to create its target', () => {
    const s = stage();
    mkdirSync(join(s.out, 'images'));
    symlinkSync('../../outside/new.png', join(s.out, 'images', '1-embedded.png'));
    expect(bin(s.dir, 'extract', MAP, '-o', 'out').status).toBe(2);
    expect(bin(s.dir, 'extract', MAP, '-o', 'out', '--force').status).toBe(0);
    expect(tree(s.outside)).toEqual([]);
    expect(lstatSync(join(s.out, 'images', '1-embedded.png')).isFile()).toBe(true);
  });

  it('the output folder itself may be a link (the user chose it): written through it', () => {
    const s = stage();
    symlinkSync('outside', join(s.dir, 'via'));
    const r = bin(s.dir, 'extract', MAP, '-o', 'via');
    expect(r.status).toBe(0);
    expect(tree(s.outside)).toContain('map.json');
  });

  it('a GWZ whose member names climb, are absolute or hold control bytes: every file lands inside out/', () => {
    const s = stage();
    const lua = new TextEncoder().encode('-- cartridge\n');
    const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
    const gwz = zipSync({ '_cartridge.lua': lua, '..': jpg, '../../escape.jpg': jpg, '/etc/abs.jpg': jpg, 'a\\..\\..\\b.jpg': jpg, 'nul\u0000.jpg': jpg });
    writeFileSync(join(s.dir, 'hostile.gwz'), gwz);
    const r = bin(s.dir, 'extract', 'hostile.gwz', '-o', 'out', '--json');
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.status).toBe(0);
    const files: string[] = jsonLines(r.stdout)[0]!.files;
    for (const f of files) expect(f.split('/')).not.toContain('..');
    expect(tree(s.outside)).toEqual([]);
    expect(tree(s.dir).filter((p) => !p.startsWith('out') && !p.startsWith('outside'))).toEqual(['hostile.gwz']);
  });
});

describe('convert', () => {
  it('a folder: a link at out/sub fails the files below it (UNSAFE_PATH), the others are written', () => {
    const s = stage();
    mkdirSync(join(s.dir, 'in', 'sub'), { recursive: true });
    copyFileSync(GRAAL, join(s.dir, 'in', 'top.graal'));
    copyFileSync(GRAAL, join(s.dir, 'in', 'sub', 'deep.graal'));
    symlinkSync('../outside', join(s.out, 'sub'));
    const r = bin(s.dir, 'convert', 'in', 'out', '--to', 'nw');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/in\/sub\/deep\.graal: UNSAFE_PATH: out\/sub is a symbolic link/);
    expect(r.stderr).toMatch(/; 1 written;/);
    expect(tree(s.outside)).toEqual([]);
    expect(tree(s.out)).toEqual(['sub', 'top.nw']);
  });

  it('a named output that is a link: refused, then replaced (not written through) with --force', () => {
    const s = stage();
    writeFileSync(join(s.outside, 'victim.nw'), 'precious');
    symlinkSync('../outside/victim.nw', join(s.out, 'level.nw'));
    expect(bin(s.dir, 'convert', GRAAL, 'out/level.nw').status).toBe(2);
    expect(bin(s.dir, 'convert', GRAAL, 'out/level.nw', '--force').status).toBe(0);
    expect(readFileSync(join(s.outside, 'victim.nw'), 'utf8')).toBe('precious');
    expect(readFileSync(join(s.out, 'level.nw'), 'utf8')).toMatch(/^GLEVNW01/);
  });
});

describe('render', () => {
  it('a folder: a link at previews/sub is refused for the files below it; nothing lands outside', () => {
    const s = stage();
    mkdirSync(join(s.dir, 'in', 'sub'), { recursive: true });
    copyFileSync(GRAAL, join(s.dir, 'in', 'top.graal'));
    copyFileSync(GRAAL, join(s.dir, 'in', 'sub', 'deep.graal'));
    symlinkSync('../outside', join(s.out, 'sub'));
    const r = bin(s.dir, 'render', 'in', '-o', 'out');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/in\/sub\/deep\.graal: UNSAFE_PATH: out\/sub is a symbolic link/);
    expect(tree(s.outside)).toEqual([]);
    expect(tree(s.out)).toEqual(['sub', 'top.graal.png']);
  });

  it('--sheet at a link: replaced with --force, its target untouched', () => {
    const s = stage();
    writeFileSync(join(s.outside, 'victim.png'), 'precious');
    symlinkSync('../outside/victim.png', join(s.out, 'sheet.png'));
    const refused = bin(s.dir, 'render', GRAAL, '--sheet', 'out/sheet.png');
    expect(refused.stderr).toMatch(/--sheet: OUTPUT_EXISTS: out\/sheet\.png already exists/);
    expect(refused.status).toBe(2);
    expect(bin(s.dir, 'render', GRAAL, '--sheet', 'out/sheet.png', '--force').status).toBe(0);
    expect(readFileSync(join(s.outside, 'victim.png'), 'utf8')).toBe('precious');
    expect(lstatSync(join(s.out, 'sheet.png')).isFile()).toBe(true);
  });
});

describe('writeNew / outputIn (the library both modes share)', () => {
  it('names that would leave the folder are refused before anything is touched', () => {
    const root = Buffer.from('/nonexistent-root');
    for (const rel of ['../x', 'a/../../x', '/etc/passwd', 'a//b', './x', 'a/.', '', 'a\0b'])
      expect(() => outputIn(root, rel), JSON.stringify(rel)).toThrow(expect.objectContaining({ code: 'UNSAFE_PATH' }));
    expect(outputIn(root, 'images/1-a.png').segments.map(String)).toEqual(['images', '1-a.png']);
  });

  for (const mode of ['proc', 'lstat'] as const)
    it(`${mode}: a link or a file on the way is refused; a real folder is created and written`, () => {
      const s = stage();
      symlinkSync('../outside', join(s.out, 'link'));
      writeFileSync(join(s.out, 'file'), '');
      const write = (rel: string) => writeNew(outputIn(Buffer.from(s.out), rel), new Uint8Array([1, 2, 3]), false, mode);
      expect(() => write('link/x.bin')).toThrow(/out\/link is a symbolic link/);
      expect(() => write('file/x.bin')).toThrow(/out\/file is not a folder/);
      expect(write('real/deeper/x.bin')).toBe(true);
      expect([...readFileSync(join(s.out, 'real', 'deeper', 'x.bin'))]).toEqual([1, 2, 3]);
      expect(write('real/deeper/x.bin')).toBe(false);
      expect(tree(s.outside)).toEqual([]);
      expect(readlinkSync(join(s.out, 'link'))).toBe('../outside');
      expect(existsSync(join(s.out, 'real', 'deeper'))).toBe(true);
      expect(tree(s.out).filter((p) => p.endsWith('.tmp'))).toEqual([]);
    });
});
