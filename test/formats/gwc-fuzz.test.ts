// Robustness: every prefix (or a sample for long files) and seeded byte mutations of the GWC/GWZ
// fixtures and of a sample of corpus cartridges and zips, decoded with both kernel sets in a worker
// with a timeout: only results or DecodeErrors, never a hang, a wasm/js disagreement or a mutated input.

import { statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzz } from '../helpers/fuzz.js';
import { itCorpus } from '../helpers/needs.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

const fixtureFiles = listFiles(join(FIXTURES, 'gwc'), /\.(gwc|gwz)$/).map((p) => ({ name: basename(p), bytes: readBytes(p) }));

describe('gwc fuzz', () => {
  it('fixtures: prefixes and mutations give results or DecodeErrors only', async () => {
    const seed = 20261124;
    const report = await fuzz({ files: fixtureFiles, seed, mutationsPerFile: 400, maxPrefixes: 800, decoder: 'gwc' });
    console.log(`gwc fuzz (fixtures, seed ${seed}): ${report.cases} cases, ${report.decoded} decoded, errors ${JSON.stringify(report.errors)}`);
    expect(report.failures).toEqual([]);
    expect(report.cases).toBeGreaterThan(5000);
  }, 120_000);

  itCorpus(
    'gwc',
    'corpus sample: the smaller cartridges and zips, prefixes and mutations',
    async (dir) => {
      const seed = 4242;
      const small = (p: string) => statSync(p).size < 200_000;
      const files = [
        ...listFiles(dir, /\.gwc$/)
          .filter(small)
          .filter((_, i) => i % 2 === 0),
        ...listFiles(join(dir, 'gwz'), /\.gwz$/)
          .filter(small)
          .filter((_, i) => i % 3 === 0),
      ].map((p) => ({ name: basename(p), bytes: readBytes(p) }));
      const report = await fuzz({ files, seed, mutationsPerFile: 60, maxPrefixes: 150, decoder: 'gwc' });
      console.log(
        `gwc fuzz (${files.length} corpus files, seed ${seed}): ${report.cases} cases, ${report.decoded} decoded, errors ${JSON.stringify(report.errors)}`,
      );
      expect(report.failures).toEqual([]);
      expect(files.length).toBeGreaterThan(8);
    },
    120_000,
  );
});
