// Teeworlds corpus (../shared/corpus/teeworlds, 287 maps): every map decodes with the warnings the
// notes predict, WASM and TS decodes agree, summary decodes agree with full ones, and the
// synthetic v3/ATAD files decode to the same map as their v4 sources.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { DecodeError, summarize, teeworlds } from '../../src/index.js';
import { describeCorpus } from '../helpers/needs.js';
import { listFiles, readBytes } from '../helpers/paths.js';
import { sameMap } from './teeworlds-helpers.js';

describeCorpus('teeworlds', 'teeworlds corpus', (dir) => {
  const files = listFiles(dir, /\.map$/);
  const rel = (p: string) => p.slice(dir.length + 1);
  const decoded = new Map<string, TeeworldsMap>();
  const warned = (code: string) => [...decoded].filter(([, m]) => m.warnings.some((w) => w.code === code)).map(([f]) => f);

  it('holds the 287 maps of the manifest', () => {
    expect(files.length).toBe(287);
  });

  it('every map decodes (wasm kernels), with only the predicted warnings', () => {
    const failures: string[] = [];
    for (const f of files) {
      try {
        decoded.set(rel(f), teeworlds.decode(readBytes(f), { backend: 'wasm' }));
      } catch (e) {
        failures.push(`${rel(f)}: ${e instanceof DecodeError ? e.message : String(e)}`);
      }
    }
    expect(failures).toEqual([]);
    const codes = new Set([...decoded.values()].flatMap((m) => m.warnings.map((w) => w.code)));
    expect([...codes].sort()).toEqual(['DUPLICATE_EX_ITEM', 'DUPLICATE_ITEM_ID', 'HEADER_SIZE_BUG', 'UNDERSIZED_TILES', 'ZERO_SIZE_DATA']);
    // 29 modern maps + the 13 legacy ones from 2008–2010 history carry the header-size bug.
    expect(warned('HEADER_SIZE_BUG').length).toBe(42);
    // TeeUniverse exports (infclass): zero data sizes on blocks the map never reads.
    expect(warned('ZERO_SIZE_DATA').length).toBe(6);
    expect(warned('ZERO_SIZE_DATA').every((f) => f.startsWith('infclass__'))).toBe(true);
    // The 2010 DDRace Test.map revisions with 4-byte speedup / 2-byte switch tiles.
    expect(warned('UNDERSIZED_TILES').length).toBeGreaterThan(0);
    expect(warned('UNDERSIZED_TILES').every((f) => /data__maps__Test@/.test(f))).toBe(true);
    // Old DDNet tools wrote the UUID index twice (notes: 3 maps; here the ddnet maps7 conversions),
    // and two infclass maps repeat envelope ids.
    expect(warned('DUPLICATE_EX_ITEM').length).toBe(3);
    expect(warned('DUPLICATE_ITEM_ID').every((f) => f.startsWith('infclass__'))).toBe(true);
    const flavours: Record<string, number> = {};
    for (const m of decoded.values()) flavours[m.flavour] = (flavours[m.flavour] ?? 0) + 1;
    expect(flavours.legacy).toBe(13);
    console.log(`[teeworlds corpus] ${decoded.size} maps decoded; flavours ${JSON.stringify(flavours)}`);
  });

  it('WASM and TS kernels give deep-equal maps, and summary decodes give the same summary', () => {
    const diffs: string[] = [];
    for (const f of files) {
      const bytes = readBytes(f);
      const wasm = decoded.get(rel(f)) ?? teeworlds.decode(bytes, { backend: 'wasm' });
      const js = teeworlds.decode(bytes, { backend: 'js' });
      const d = sameMap(js, wasm);
      if (d) diffs.push(`${rel(f)}: ${d}`);
      const s = summarize(teeworlds.decode(bytes, { sections: 'summary' }));
      if (JSON.stringify(s) !== JSON.stringify(summarize(wasm))) diffs.push(`${rel(f)}: summary decode differs`);
    }
    expect(diffs).toEqual([]);
  });

  it('the synthetic v3 and ATAD files decode to the same map as their v4 sources', () => {
    const manifest = readFileSync(join(dir, 'MANIFEST.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'));
    const synthetic = manifest.filter((r) => r[0]!.startsWith('synthetic/'));
    expect(synthetic.length).toBe(8);
    for (const r of synthetic) {
      const source = /of (\S+\.map)/.exec(r[7]!)?.[1];
      expect(source, r[0]).toBeDefined();
      const a = teeworlds.decode(readBytes(join(dir, r[0]!)));
      const b = teeworlds.decode(readBytes(join(dir, source!)));
      expect(a.datafileVersion === 3 || a.magic === 'ATAD', r[0]).toBe(true);
      expect(sameMap(a, b), r[0]).toBeNull();
    }
  });
});
