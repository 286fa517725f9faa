// Teeworlds corpus round-trip: for every map, decode(encode(decode(file))) deep-equals
// decode(file) (warnings, container version and magic aside). zlib level 1 keeps the suite fast;
// the level changes only the compressed bytes, never what decodes from them.
import { expect, it } from 'vitest';
import { teeworlds } from '../../src/index.js';
import { describeCorpus } from '../helpers/needs.js';
import { listFiles, readBytes } from '../helpers/paths.js';
import { sameMap } from './teeworlds-helpers.js';

describeCorpus('teeworlds', 'teeworlds corpus round-trip', (dir) => {
  it('every map survives decode → encode (v4, keeping its flavour) → decode', () => {
    const files = listFiles(dir, /\.map$/);
    const diffs: string[] = [];
    const t0 = performance.now();
    for (const f of files) {
      const m = teeworlds.decode(readBytes(f));
      const again = teeworlds.decode(teeworlds.encode(m, { level: 1 }));
      const d = sameMap(again, m) ?? (again.flavour === m.flavour && again.datafileVersion === 4 ? null : 'flavour or version changed');
      if (d) diffs.push(`${f.slice(dir.length + 1)}: ${d}`);
    }
    console.log(`[teeworlds corpus] ${files.length} maps round-tripped in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    expect(diffs).toEqual([]);
  });
});
