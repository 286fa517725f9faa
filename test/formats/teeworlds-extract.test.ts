// `levelkit extract`: PNGs that decode back to the map's pixels, .opus files equal to the sound
// data, and a map.json of the rest; exit 2 for a damaged map, 1 for bad usage.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode as decodePng } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { teeworlds } from '../../src/index.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

describe('levelkit extract', () => {
  it('writes embedded images as PNG, sounds as .opus and map.json', () => {
    const out = mkdtempSync(join(tmpdir(), 'levelkit-extract-'));
    const src = join(FIXTURES, 'teeworlds/ddnet-all-items.map');
    const r = cli('extract', src, '-o', out);
    expect(r.stderr).toMatch(/^levelkit extract: 1 decoded \(teeworlds 1\); \d+ written; [\d.]+ s\n$/); // the tally only
    expect(r.status).toBe(0);
    const map = teeworlds.decode(readBytes(src));
    const json = JSON.parse(readFileSync(join(out, 'map.json'), 'utf8'));
    expect(json.flavour).toBe('ddnet');
    expect(json.groups[1].layers[0].kind).toBe('game');
    expect(json.images[1].file).toBe('images/1-embedded.png');
    const png = decodePng(readFileSync(join(out, json.images[1].file)));
    expect([png.width, png.height, png.channels]).toEqual([4, 2, 4]);
    expect(Uint8Array.from(png.data)).toEqual(map.images[1]!.pixels);
    expect(new Uint8Array(readFileSync(join(out, json.sounds[0].file)))).toEqual(map.sounds[0]!.data);
    expect(readdirSync(join(out, 'images'))).toEqual(['1-embedded.png']);
  });

  it('keeps RGB (0.7 format 0) images as 3-channel PNGs', () => {
    const out = mkdtempSync(join(tmpdir(), 'levelkit-extract-'));
    expect(cli('extract', join(FIXTURES, 'teeworlds/tw07-skip.map'), '-o', out).status).toBe(0);
    expect(decodePng(readFileSync(join(out, 'images/2-rgb.png'))).channels).toBe(3);
  });

  it('exits 2 on a damaged map and 1 without -o', () => {
    const out = mkdtempSync(join(tmpdir(), 'levelkit-extract-'));
    expect(cli('extract', join(FIXTURES, 'teeworlds/bad/truncated-data.map'), '-o', out).status).toBe(2);
    expect(cli('extract', join(FIXTURES, 'teeworlds/ddnet-all-items.map')).status).toBe(1);
  });
});
