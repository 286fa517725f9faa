// WWD over the real-file corpus (../shared/corpus/wwd; absent: a visible skip, or a failure under CI): every file
// decodes (the deliberately bad-signature one gives BAD_MAGIC), matches its MANIFEST.tsv facts
// (counts, compression, checksum class), round-trips, gives identical results with the js and
// wasm kernels, and a sample survives the fuzz sweep.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { WwdLevel } from '../../src/formats/wwd/index.js';
import { DecodeError, wwd } from '../../src/index.js';
import { fuzz } from '../helpers/fuzz.js';
import { describeCorpus } from '../helpers/needs.js';
import { listFiles, readBytes } from '../helpers/paths.js';
import { digestArrays, wwdContent } from './wwd-content.js';

interface Expected {
  compressed: boolean;
  planes: number;
  objects: number;
  tileProps: number;
  types: Record<string, number>;
  checksum: 'wapworld' | 'wapmap';
  delta?: number;
  badSig: boolean;
}

/** The facts MANIFEST.tsv's notes state for each file. */
function manifest(d: string): Map<string, Expected> {
  const rows = readFileSync(join(d, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1);
  const out = new Map<string, Expected>();
  for (const row of rows) {
    const cols = row.split('\t');
    const file = cols[0]!,
      notes = cols[6] ?? '';
    const num = (re: RegExp) => Number(re.exec(notes)?.[1]);
    const types = Object.fromEntries([...(/types=([\d:,]+)/.exec(notes)?.[1] ?? '').matchAll(/(\d):(\d+)/g)].map((m) => [m[1]!, Number(m[2])]));
    const ww = /stored-bytes formula \+(\d+)/.exec(notes);
    out.set(file, {
      compressed: /flags=3/.test(notes),
      planes: num(/planes=(\d+)/),
      objects: num(/objects=(\d+)/),
      tileProps: num(/tileprops=(\d+)/),
      types,
      checksum: ww ? 'wapworld' : 'wapmap',
      ...(ww ? { delta: Number(ww[1]) } : {}),
      badSig: /INVALID/.test(notes),
    });
    if (!ww && !/WapMap formula exact/.test(notes)) throw new Error(`MANIFEST.tsv: no checksum note for ${file}`);
  }
  return out;
}

describeCorpus('wwd', 'wwd corpus', (dir) => {
  const files = listFiles(dir, /\.wwd$/i);
  const facts = manifest(dir);
  const table: string[] = [];

  it('has the 61 files MANIFEST.tsv lists', () => {
    expect(files.length).toBe(61);
    expect(files.map((p) => p.slice(dir.length + 1)).sort()).toEqual([...facts.keys()].sort());
  });

  it.each(files.map((p) => [p.slice(dir.length + 1), p]))('%s', (name, p) => {
    const bytes = readBytes(p);
    const want = facts.get(name)!;
    if (want.badSig) {
      // Decision (src/formats/wwd/README.md): every tool but Gruntz requires 0x5F4, and Gruntz
      // rejects values above it, which 0xADBA is: BAD_MAGIC at offset 0.
      let err: unknown;
      try {
        wwd.decode(bytes);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DecodeError);
      expect({ code: (err as DecodeError).code, offset: (err as DecodeError).offset, actual: (err as DecodeError).actual }).toEqual({
        code: 'BAD_MAGIC',
        offset: 0,
        actual: '0xadba',
      });
      table.push(`${name.padEnd(56)} BAD_MAGIC (signature 0xadba)`);
      return;
    }
    const level = wwd.decode(bytes);
    const c = level.container.checksum;
    table.push(`${name.padEnd(56)} ${c.class.padEnd(8)} ${c.class === 'wapworld' ? `+${c.wapworldDelta}` : ''}`);
    // Facts from the manifest.
    expect(level.header.compressed).toBe(want.compressed);
    expect(level.planes.length).toBe(want.planes);
    expect(level.planes.reduce((n, pl) => n + pl.objects.count, 0)).toBe(want.objects);
    expect(level.tileProperties.length).toBe(want.tileProps);
    const types: Record<string, number> = {};
    for (const t of level.tileProperties) types[t.type] = (types[t.type] ?? 0) + 1;
    expect(types).toEqual(want.types);
    expect(c.class).toBe(want.checksum);
    if (want.delta !== undefined) expect(c.wapworldDelta).toBe(want.delta);
    expect(level.warnings.filter((w) => w.code !== 'TRAILING_BYTES')).toEqual([]);
    expect(level.game).toBe(/RockySwitch/.test(name) ? 'gruntz' : 'claw');
    // Round trip: byte for byte when uncompressed, through decoding otherwise.
    const again = wwd.encode(level);
    if (!want.compressed) expect(Buffer.compare(Buffer.from(again), Buffer.from(bytes))).toBe(0);
    const back = wwd.decode(again);
    const digest = digestArrays(level) as WwdLevel;
    expect(digestArrays(wwdContent(back))).toEqual(wwdContent(digest));
    expect(back.container.checksum).toMatchObject({ class: 'wapworld', wapworldDelta: 0 });
    // Parity: the js and wasm kernel sets give identical results.
    const js = wwd.decode(bytes, { backend: 'js' }) as WwdLevel;
    const wasm = wwd.decode(bytes, { backend: 'wasm' }) as WwdLevel;
    expect(digestArrays(wasm)).toEqual(digestArrays(js));
    expect(digestArrays(js)).toEqual(digest);
    // Summary mode: same summary, nothing heavy decoded.
    const cheap = wwd.decode(bytes, { sections: 'summary' });
    expect(wwd.summarize(cheap)).toEqual(wwd.summarize(level));
    expect(cheap.tileProperties).toEqual([]);
  });

  it('checksum classes (table)', () => {
    console.log(`\nWWD corpus checksum classes (${table.length} files)\n${table.sort().join('\n')}`);
    expect(table.length).toBe(files.length);
  });

  it('a sample of corpus files survives prefixes and seeded mutations (both backends agree)', async () => {
    const bySize = files
      .filter((p) => !p.includes('badsig'))
      .map((p) => ({ name: p.slice(dir.length + 1), bytes: readBytes(p) }))
      .sort((a, b) => a.bytes.length - b.bytes.length);
    const seed = 61;
    const small = await fuzz({ files: bySize.slice(0, 3), seed, mutationsPerFile: 700, maxPrefixes: 1200, decoder: 'wwd' });
    const large = await fuzz({
      files: bySize.filter((f) => /nocompress/.test(f.name)).slice(0, 1),
      seed: seed + 1,
      mutationsPerFile: 150,
      maxPrefixes: 250,
      decoder: 'wwd',
    });
    for (const [what, r] of [
      ['3 smallest', small],
      ['uncompressed RETAIL01', large],
    ] as const) {
      console.log(
        `wwd corpus fuzz, ${what} (seed ${what === '3 smallest' ? seed : seed + 1}): ${r.cases} cases, ${r.decoded} decoded, errors ${JSON.stringify(r.errors)}`,
      );
      expect(r.failures).toEqual([]);
    }
    expect(small.cases + large.cases).toBeGreaterThan(5000);
  });
});
