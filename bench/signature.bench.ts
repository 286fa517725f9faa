// Grid signatures (kernels gridSignature, issue 41's families): WASM vs TS on synthetic grids of
// each cell width and every main grid of the corpus (both outputs checked equal first), then the
// signature's share of what `scan --index` does per level (hash, decode, index rows, summary),
// alternating, in one process. The floor: signatures add ≤ 10 % to `scan --index`.
// Run alone: npx tsx bench/index.ts signature

import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { type AnyDecoded, decode, detect, gridSignature, indexRows, mainGrid, summarize } from '../src/index.js';
import { type GridSignatureKernel, jsGridSignature, wasmGridSignature } from '../src/kernels/signature.js';
import { CORPUS, listFiles, readBytes } from '../test/helpers/paths.js';
import { Prng } from '../test/helpers/prng.js';
import { comparePair, interleavedRatios } from './lib.js';

type Grid = { width: number; height: number; cells: Uint8Array | Uint16Array | Uint32Array };
const wasm = wasmGridSignature;
const signature = (k: GridSignatureKernel) => (g: Grid) => {
  const out = new Uint8Array(128);
  const n = k(g.cells, g.width, g.height, out);
  return `${n}:${Buffer.from(out).toString('base64')}`;
};

/** A level-like grid: a blank background with rectangles of a few tiles. */
function synthetic(bytes: 1 | 2 | 4, width: number, height: number): Grid {
  const rng = new Prng(width * height + bytes);
  const cells = bytes === 1 ? new Uint8Array(width * height) : bytes === 2 ? new Uint16Array(width * height) : new Uint32Array(width * height);
  for (let r = 0; r < (width * height) / 50; r++) {
    const w = 1 + rng.int(16),
      h = 1 + rng.int(6),
      x = rng.int(width - w),
      y = rng.int(height - h),
      v = 1 + rng.int(bytes === 1 ? 8 : 400);
    for (let dy = 0; dy < h; dy++) cells.fill(v, (y + dy) * width + x, (y + dy) * width + x + w);
  }
  return { width, height, cells };
}

const cases = [
  { name: 'Graal-like 64×64 u16', input: synthetic(2, 64, 64) },
  { name: 'Teeworlds-like 300×150 u8', input: synthetic(1, 300, 150) },
  { name: 'DDNet-like 1200×650 u8', input: synthetic(1, 1200, 650) },
  { name: 'Claw-like 700×100 u32', input: synthetic(4, 700, 100) },
].map((c) => ({ ...c, bytes: c.input.cells.byteLength }));
await comparePair('gridSignature', cases, signature(jsGridSignature), signature(wasm), (a, b) => a === b);

// The corpus: every level with a main grid, decoded once up front.
const levels: { bytes: Uint8Array; value: AnyDecoded; grid: Grid }[] = [];
for (const path of listFiles(CORPUS, /./)) {
  const bytes = readBytes(path);
  if (!detect(bytes.subarray(0, 64))) continue;
  try {
    const value = decode(bytes);
    const grid = mainGrid(value);
    if (grid) levels.push({ bytes, value, grid });
  } catch {
    // files that do not decode have no signature either
  }
}
if (levels.length) {
  const grids = levels.map((l) => l.grid);
  for (const g of grids)
    if (signature(jsGridSignature)(g) !== signature(wasm)(g)) throw new Error('gridSignature: js and wasm differ on a corpus grid; not timing it');
  console.log(`gridSignature: js and wasm agree on all ${grids.length} corpus grids`);
  const all = (k: GridSignatureKernel) => () => grids.reduce((n, g) => n + k(g.cells, g.width, g.height, new Uint8Array(128)), 0);
  interleavedRatios(`gridSignature over ${grids.length} corpus grids (÷ TS)`, ['ts', all(jsGridSignature)], [['wasm', all(wasm)]], 5);
  // What scan --index does per level, with and without the signature (as the scan's workers make it).
  const indexWork = (withSignature: boolean) => () => {
    for (const l of levels) {
      createHash('sha256').update(l.bytes).digest('hex');
      const v = decode(l.bytes);
      indexRows(v);
      const s = summarize(v).summary as { gridDigest?: unknown };
      if (withSignature && typeof s.gridDigest === 'string') gridSignature(v);
    }
  };
  const r = interleavedRatios(
    `scan --index's per-level work, ${levels.length} corpus levels (with signature ÷ without)`,
    ['without', indexWork(false)],
    [['with', indexWork(true)]],
    3,
  );
  console.log(`signature share of the per-level index work: ${JSON.stringify(r)} (load ${loadavg()[0]!.toFixed(1)})`);
}
