// `levelkit convert` and `levelkit info` on Graal files, run as a user runs them.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as graal from '../../src/formats/graal/index.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

const fx = (name: string) => join(FIXTURES, 'graal', name);
const content = (l: graal.GraalLevel) => {
  const { format: _f, version: _v, warnings: _w, lineEnding: _e, ...rest } = l;
  return rest;
};

describe('levelkit convert (graal)', () => {
  const out = mkdtempSync(join(tmpdir(), 'levelkit-graal-'));

  it('.graal → .nw → .graal keeps the level', () => {
    const nw = join(out, 'one.nw'),
      back = join(out, 'one.graal');
    expect(cli('convert', fx('gr-v105-layers.graal'), nw).status).toBe(0);
    expect(cli('convert', nw, back).status).toBe(0);
    const a = graal.decodeBinary(readBytes(fx('gr-v105-layers.graal')));
    expect(content(graal.decodeNw(readBytes(nw)))).toEqual(content(a));
    expect(readFileSync(back)).toEqual(readFileSync(fx('gr-v105-layers.graal')));
  });

  it('--version picks the binary header', () => {
    const z = join(out, 'old.zelda');
    expect(cli('convert', fx('z3-v104.zelda'), z, '--version', 'Z3-V1.04').status).toBe(0);
    expect(readFileSync(z)).toEqual(readFileSync(fx('z3-v104.zelda')));
  });

  it('a whole folder with --to nw mirrors the tree; failures give exit 2', () => {
    const dst = join(out, 'tree');
    const r = cli('convert', join(FIXTURES, 'graal'), dst, '--to', 'nw');
    // bad/ holds four malformed binary levels and one malformed .nw that detect() does not recognise
    expect(r.status).toBe(2);
    // one line per written file on stdout; the tally (written, failed, skipped) on stderr
    expect(r.stdout).toMatch(/gr-v100\.graal → .*gr-v100\.nw\n/);
    expect(r.stderr).toMatch(/^levelkit convert: \d+ decoded .*; \d+ failed .*; \d+ written; \d+ skipped/m);
    expect(existsSync(join(dst, 'gr-v100.nw'))).toBe(true);
    expect(existsSync(join(dst, 'layers.nw'))).toBe(true);
    expect(existsSync(join(dst, 'world.nw'))).toBe(false);
    expect(content(graal.decodeNw(readBytes(join(dst, 'gr-v100.nw'))))).toEqual(content(graal.decodeBinary(readBytes(fx('gr-v100.graal')))));
  });

  it('bad usage exits 1', () => {
    expect(cli('convert', fx('gr-v103.graal')).status).toBe(1);
    expect(cli('convert', fx('gr-v103.graal'), join(out, 'x.png')).status).toBe(1);
    expect(cli('convert', FIXTURES, join(out, 'dir')).status).toBe(1);
    expect(cli('convert', fx('gr-v103.graal'), join(out, 'x.graal'), '--version', 'GR-V2').status).toBe(1);
  });
});

describe('levelkit info (graal)', () => {
  it('prints the summary fields for levels and maps', () => {
    const r = cli('info', '--json', fx('gr-v103.graal'), fx('layers.nw'), fx('world.gmap'));
    expect(r.status).toBe(0);
    const [bin, nw, map] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(bin.format).toBe('graal');
    expect(Object.keys(bin.summary)).toEqual(['header', 'layers', 'links', 'baddies', 'npcs', 'chests', 'signs', 'gridDigest']);
    expect(nw).toMatchObject({ format: 'graal-nw', version: 'GLEVNW01', summary: { layers: 3 } });
    expect(map).toMatchObject({ format: 'graal-gmap', summary: { width: 3, height: 2, levels: 4 } });
  });
});
