// Robustness: prefixes and seeded byte mutations of the .wdata fixtures, decoded with both kernel
// sets in a worker with a timeout: only results or DecodeErrors, never a hang, a wasm/js
// disagreement or a mutated input.
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzz } from '../helpers/fuzz.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

const files = listFiles(join(FIXTURES, 'wdata'), /\.wdata$/).map((p) => ({ name: basename(p), bytes: readBytes(p) }));

describe('wdata fuzz', () => {
  it('fixtures: prefixes and mutations give results or DecodeErrors only', async () => {
    const seed = 20261124;
    const report = await fuzz({ files, seed, mutationsPerFile: 200, maxPrefixes: 300 });
    console.log(`wdata fuzz (fixtures, seed ${seed}): ${report.cases} cases, ${report.decoded} decoded, errors ${JSON.stringify(report.errors)}`);
    expect(report.failures).toEqual([]);
    expect(files.length).toBe(27);
    expect(report.cases).toBeGreaterThan(10_000);
  }, 120_000);
});
