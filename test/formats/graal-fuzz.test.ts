// Robustness: every prefix (or a sample of prefixes for long files) and seeded byte mutations of
// the Graal fixtures and of a sample of corpus files, decoded with both kernel sets in a worker
// with a timeout: only results or DecodeErrors, never a hang, a wasm/js disagreement or a mutated input.
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzz } from '../helpers/fuzz.js';
import { itCorpus } from '../helpers/needs.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

const fixtureFiles = listFiles(join(FIXTURES, 'graal'), /\.(graal|zelda|nw|gmap)$/).map((p) => ({ name: basename(p), bytes: readBytes(p) }));

/** Every `step`-th file of each kind, so the sample covers every version and folder. */
function corpusSample(root: string) {
  const files = listFiles(root, /\.(graal|zelda|nw|gmap)$/);
  const pick = (re: RegExp, step: number) => files.filter((f) => re.test(f)).filter((_, i) => i % step === 0);
  return [...pick(/\.(graal|zelda)$/, 30), ...pick(/\.nw$/, 60), ...pick(/\.gmap$/, 4)].map((p) => ({ name: basename(p), bytes: readBytes(p) }));
}

describe('graal fuzz', () => {
  it('fixtures: prefixes and mutations give results or DecodeErrors only', async () => {
    const seed = 20261122;
    const report = await fuzz({ files: fixtureFiles, seed, mutationsPerFile: 300, maxPrefixes: 400 });
    console.log(`graal fuzz (fixtures, seed ${seed}): ${report.cases} cases, ${report.decoded} decoded, errors ${JSON.stringify(report.errors)}`);
    expect(report.failures).toEqual([]);
    expect(report.cases).toBeGreaterThan(5000);
  }, 120_000);

  itCorpus(
    'graal',
    'corpus sample: prefixes and mutations give results or DecodeErrors only',
    async (dir) => {
      const seed = 777;
      const files = corpusSample(dir);
      const report = await fuzz({ files, seed, mutationsPerFile: 60, maxPrefixes: 150 });
      console.log(
        `graal fuzz (${files.length} corpus files, seed ${seed}): ${report.cases} cases, ${report.decoded} decoded, errors ${JSON.stringify(report.errors)}`,
      );
      expect(report.failures).toEqual([]);
      expect(files.length).toBeGreaterThan(30);
    },
    120_000,
  );
});
