// Robustness: every prefix (or a sample of prefixes) and seeded byte mutations of the Teeworlds
// fixtures and of a sample of corpus maps give a map or a DecodeError with both kernel sets —
// never another exception, a hang (the worker has a deadline), a js/wasm disagreement or a
// mutated input.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzz } from '../helpers/fuzz.js';
import { itCorpus } from '../helpers/needs.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

const named = (paths: string[], base: string) => paths.map((p) => ({ name: p.slice(base.length + 1), bytes: readBytes(p) }));

describe('teeworlds fuzz', () => {
  it('fixtures: prefixes and mutations', async () => {
    const dir = join(FIXTURES, 'teeworlds');
    const files = named(listFiles(dir, /\.map$/), dir);
    const report = await fuzz({ files, seed: 20261122, mutationsPerFile: 1500, maxPrefixes: 400, decoder: 'teeworlds' }, 110_000);
    console.log(`[teeworlds fuzz] fixtures: ${report.cases} cases, ${report.decoded} decoded, errors ${JSON.stringify(report.errors)}`);
    expect(report.failures).toEqual([]);
    expect(report.cases).toBeGreaterThan(files.length * 300);
  });

  itCorpus('teeworlds', 'a sample of corpus maps (each flavour, v3, ATAD, legacy, header bug, zero sizes): prefixes and mutations', async (corpus) => {
    const pick = [
      'ddnet__ddnet/data__maps__coverage@edfd8ab7.map',
      'KoG-teeworlds__maps-workflow/tests__maps__tiny_finishable_map@8fa5e630.map',
      'teeworlds__teeworlds-maps/dm1@149e0b54.map',
      'teeworlds__teeworlds/data__maps__dm1@b597e95f.map',
      'teeworlds__teeworlds/data__maps__Test@cbfd3553.map',
      'teeworlds__teeworlds/data__maps__ctf1@b7a4f7ae.map',
      'infclass__teeworlds-infclassR/data__maps__skip@596be134.map',
      'synthetic/v3__tiny_finishable_map.map',
      'synthetic/v4_ATAD__ddnet_coverage.map',
      'ddnet__ddnet/data__themes__winter_day@a2c13e04.map',
    ];
    const files = pick.map((p) => ({ name: p, bytes: readBytes(join(corpus, p)) }));
    const report = await fuzz({ files, seed: 7, mutationsPerFile: 600, maxPrefixes: 300, decoder: 'teeworlds' }, 110_000);
    console.log(`[teeworlds fuzz] corpus sample: ${report.cases} cases, ${report.decoded} decoded, errors ${JSON.stringify(report.errors)}`);
    expect(report.failures).toEqual([]);
  });
});
