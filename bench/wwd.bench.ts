// WWD: each of its kernels (sumBytes, scanTileGrid, gatherRecords), WASM vs TS at 1 KB / 64 KB /
// 1 MB / 16 MB with outputs checked equal before timing, then whole-corpus decode per backend.
// Run alone: npx tsx bench/index.ts wwd

import { OBJECT_FIELDS } from '../src/formats/wwd/objects.js';
import { wwd } from '../src/index.js';
import { jsKernels } from '../src/kernels/js/index.js';
import { wasmKernels } from '../src/kernels/wasm/index.js';
import { corpusDir, listFiles, readBytes } from '../test/helpers/paths.js';
import { Prng } from '../test/helpers/prng.js';
import { assertSameOutputs, comparePair, interleavedRatios, SIZES } from './lib.js';

const wasm = wasmKernels();
const rng = new Prng(42);
const eqArrays = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.prototype.every.call(a, (v: number, i: number) => v === b[i]);

await comparePair(
  'sumBytes (checksum summation)',
  SIZES.map(([name, n]) => ({ name, bytes: n, input: rng.bytes(n) })),
  (b) => jsKernels.sumBytes(b),
  (b) => wasm.sumBytes(b),
  (a, b) => a === b,
);

const dir = corpusDir('wwd');
const corpus = dir
  ? listFiles(dir, /\.wwd$/i)
      .filter((f) => !f.includes('badsig'))
      .map(readBytes)
  : [];

/**
 * Grid cells to scan: every plane of the real corpus levels, concatenated and repeated to the
 * size (a synthetic Claw-like grid when the corpus is absent).
 */
function gridSource(): Uint32Array {
  if (!corpus.length) {
    const g = new Uint32Array(1 << 16);
    for (let i = 0; i < g.length; i++) {
      const k = rng.int(10);
      g[i] = k < 4 ? 0xffffffff : k === 4 ? 0xeeeeeeee : ((rng.int(3) << 16) | rng.int(900)) >>> 0;
    }
    return g;
  }
  const grids = corpus.flatMap((b) => wwd.decode(b).planes.map((p) => p.tiles));
  const out = new Uint32Array(grids.reduce((n, g) => n + g.length, 0));
  let at = 0;
  for (const g of grids) {
    out.set(g, at);
    at += g.length;
  }
  return out;
}
const source = gridSource();
function grid(cells: number): Uint32Array {
  const g = new Uint32Array(cells);
  for (let at = 0; at < cells; at += source.length) g.set(source.subarray(0, Math.min(source.length, cells - at)), at);
  return g;
}
const scan = (k: typeof jsKernels) => (g: Uint32Array) => {
  const counts = new Uint32Array(4),
    maxIds = new Int32Array(4).fill(-1);
  k.scanTileGrid(g, counts, maxIds);
  return [...counts, ...maxIds];
};
await comparePair(
  `scanTileGrid (tile-grid scan, ${corpus.length ? 'real corpus grids' : 'synthetic grid'})`,
  SIZES.map(([name, n]) => ({ name, bytes: n, input: grid(n / 4) })),
  scan(jsKernels),
  scan(wasm),
  eqArrays,
);

/** Object tables of WWD records (284 bytes + short strings) filling about `bytes`. */
function objectBlock(bytes: number): { src: Uint8Array; count: number } {
  const recs: Uint8Array[] = [];
  let total = 0,
    count = 0;
  while (total < bytes) {
    const lens = [rng.int(3), 4 + rng.int(12), rng.int(16), rng.int(20)];
    const rec = new Uint8Array(284 + lens.reduce((a, b) => a + b, 0));
    const dv = new DataView(rec.buffer);
    for (let w = 0; w < 71; w++) dv.setInt32(w * 4, rng.next() | 0, true);
    lens.forEach((l, k) => {
      dv.setUint32(4 + k * 4, l, true);
    });
    recs.push(rec);
    total += rec.length;
    count++;
  }
  const src = new Uint8Array(total);
  let at = 0;
  for (const r of recs) {
    src.set(r, at);
    at += r.length;
  }
  return { src, count };
}
const LAYOUT = { fixedWords: OBJECT_FIELDS.length, lenIndex: 1, lenCount: 4 };
// Outputs are allocated once per case (the kernel is timed, not the allocator); each variant
// returns a copy of what it wrote for the equality check.
type GatherCase = { src: Uint8Array; count: number; cols: Int32Array[]; strings: Uint8Array; starts: Uint32Array };
const gather = (k: typeof jsKernels) => (c: GatherCase) => ({ end: k.gatherRecords(c.src, 0, c.count, LAYOUT, c.cols, c.strings, c.starts) });
// The outputs are filled with a sentinel first, so a cell one side leaves unwritten cannot pass
// for the value the other side wrote into the shared buffers.
const snapshot = (k: typeof jsKernels) => (c: GatherCase) => {
  for (const col of c.cols) col.fill(0x5a5a5a5a);
  c.strings.fill(0xa5);
  c.starts.fill(0xa5a5a5a5);
  const r = gather(k)(c);
  return { end: r.end, cols: c.cols.map((col) => col.slice()), strings: c.strings.slice(), starts: c.starts.slice() };
};
const gatherCases = SIZES.map(([name, n]) => {
  const { src, count } = objectBlock(n);
  const cols = Array.from({ length: LAYOUT.fixedWords }, () => new Int32Array(count));
  return {
    name,
    bytes: src.length,
    input: { src, count, cols, strings: new Uint8Array(src.length - count * LAYOUT.fixedWords * 4), starts: new Uint32Array(count) },
  };
});
for (const c of gatherCases) {
  const a = snapshot(jsKernels)(c.input),
    b = snapshot(wasm)(c.input);
  if (!(a.end === b.end && a.cols.every((col, w) => eqArrays(col, b.cols[w]!)) && eqArrays(a.strings, b.strings) && eqArrays(a.starts, b.starts)))
    throw new Error(`gatherRecords ${c.name}: js and wasm differ`);
}
await comparePair('gatherRecords (object table → columns and packed strings)', gatherCases, gather(jsKernels), gather(wasm), (a, b) => a.end === b.end);

if (corpus.length) {
  const files = corpus;
  const all =
    (backend: 'js' | 'wasm', sections: 'all' | 'summary' = 'all') =>
    () => {
      for (const b of files) wwd.decode(b, { backend, sections });
    };
  for (const sections of ['all', 'summary'] as const) {
    assertSameOutputs(
      `WWD corpus, sections ${sections}`,
      files,
      (b) => wwd.decode(b, { backend: 'js', sections }),
      (b) => wwd.decode(b, { backend: 'wasm', sections }),
    );
  }
  // The end-to-end figure: js time ÷ wasm time per alternating round (the wasm ≥ 1.5× js goal).
  interleavedRatios(
    `whole WWD corpus decode (${files.length} files), time ÷ wasm full decode`,
    ['wasm', all('wasm')],
    [
      ['js', all('js')],
      ['js, sections: summary', all('js', 'summary')],
      ['wasm, sections: summary', all('wasm', 'summary')],
    ],
    9,
  );
}
