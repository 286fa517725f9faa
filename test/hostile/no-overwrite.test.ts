// `convert` and `extract -o` never lose data (issue 11): all outputs are planned first; two
// inputs for one output stop the run before anything is written; an existing output is kept
// unless --force; outputs go through a temporary file and a rename, and the tally counts files
// actually written. The old convert wrote castle.nw twice (the second input won) and
// overwrote whatever was there.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, jsonLines } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';

const fx = (name: string) => join(FIXTURES, 'graal', name);
const tmp = () => mkdtempSync(join(tmpdir(), 'levelkit-write-'));

describe('convert never loses data', () => {
  it('castle.graal and castle.nw with --to nw: an error naming both, nothing written', () => {
    const src = join(tmp(), 'in');
    mkdirSync(src);
    copyFileSync(fx('gr-v103.graal'), join(src, 'castle.graal'));
    copyFileSync(fx('layers.nw'), join(src, 'castle.nw'));
    copyFileSync(fx('gr-v100.graal'), join(src, 'other.graal'));
    const dst = join(src, '..', 'out');
    const r = cli('convert', src, dst, '--to', 'nw', '--json');
    expect(r.status).toBe(2);
    const errors = jsonLines(r.stdout);
    expect(errors.map((l) => l.error.code)).toEqual(['OUTPUT_CLASH', 'OUTPUT_CLASH']);
    expect(errors[0]!.error.message).toMatch(/castle\.graal and .*castle\.nw would both be written to .*out\/castle\.nw/);
    expect(existsSync(dst)).toBe(false);
    expect(r.stderr).toMatch(/; 0 written;/);
  });

  it('an existing output is refused without --force (left as it was), replaced with it; no temp files remain', () => {
    const dir = tmp();
    const out = join(dir, 'level.nw');
    writeFileSync(out, 'precious');
    const refused = cli('convert', fx('gr-v103.graal'), out);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/OUTPUT_EXISTS: .*level\.nw exists \(--force overwrites\)\n$/);
    expect(readFileSync(out, 'utf8')).toBe('precious');
    const forced = cli('convert', fx('gr-v103.graal'), out, '--force');
    expect(forced.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^GLEVNW01/);
    expect(forced.stderr).toMatch(/1 written/);
    expect(readdirSync(dir)).toEqual(['level.nw']);
  });

  it('in a folder, a refused file does not stop the others; the tally counts only files written', () => {
    const dst = tmp();
    writeFileSync(join(dst, 'gr-v100.nw'), 'precious');
    const r = cli('convert', fx(''), dst, '--to', 'nw');
    expect(readFileSync(join(dst, 'gr-v100.nw'), 'utf8')).toBe('precious');
    expect(existsSync(join(dst, 'gr-v101.nw'))).toBe(true);
    const written = r.stdout.trim().split('\n').length;
    expect(r.stderr).toMatch(new RegExp(`OUTPUT_EXISTS 1.*; ${written} written;`));
  });
});

describe('extract -o never overwrites', () => {
  it('a second extraction into the same folder is refused as a whole unless --force', () => {
    const out = join(tmp(), 'x');
    const map = join(FIXTURES, 'teeworlds', 'ddnet-all-items.map');
    const first = cli('extract', map, '-o', out);
    expect(first.status).toBe(0);
    writeFileSync(join(out, 'map.json'), 'edited');
    const again = cli('extract', map, '-o', out);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/OUTPUT_EXISTS: .*map\.json.* \(--force overwrites\)/);
    expect(readFileSync(join(out, 'map.json'), 'utf8')).toBe('edited');
    const forced = cli('extract', map, '-o', out, '--force');
    expect(forced.status).toBe(0);
    expect(readFileSync(join(out, 'map.json'), 'utf8')).not.toBe('edited');
    expect(readdirSync(out).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
