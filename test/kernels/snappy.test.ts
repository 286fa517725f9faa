// Snappy compression (snappyCompress): every output decompresses to its input through an
// independent decompressor (hyparquet's, from the npm registry: the reader browsers use), and the two kernel sets write the
// same bytes: random, incompressible and highly repetitive data, empty input, inputs across the
// 64 KiB block boundary, real index pages and real level files.
import { snappyUncompress } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { TableBuilder } from '../../src/archive-index/parquet/columns.js';
import { tableOf } from '../../src/archive-index/schema.js';
import { jsKernels } from '../../src/kernels/js/index.js';
import { snappyBound } from '../../src/kernels/js/snappy.js';
import { Status } from '../../src/kernels/status.js';
import { wasmKernels } from '../../src/kernels/wasm/index.js';
import { KERNEL_SETS } from '../helpers/kernels.js';
import { itCorpus } from '../helpers/needs.js';
import { listFiles, readBytes } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';

function compress(k: typeof jsKernels, src: Uint8Array): Uint8Array {
  const dst = new Uint8Array(snappyBound(src.length));
  const n = k.snappyCompress(src, dst);
  expect(n).toBeGreaterThanOrEqual(0);
  return dst.slice(0, n);
}

/** Both sets' outputs: equal bytes, and each decompresses back to `src`. */
function roundTrip(src: Uint8Array): Uint8Array {
  const copy = src.slice();
  const js = compress(jsKernels, src);
  const wasm = compress(wasmKernels(), src);
  expect(Buffer.from(wasm).equals(Buffer.from(js))).toBe(true);
  const back = new Uint8Array(src.length);
  snappyUncompress(js, back);
  expect(Buffer.from(back).equals(Buffer.from(src))).toBe(true);
  expect(Buffer.from(src).equals(Buffer.from(copy))).toBe(true);
  return js;
}

/** A PLAIN page of `tiles`-like rows: a string id repeated per level, small integers. */
function indexPage(levels: number): Uint8Array {
  const b = new TableBuilder(tableOf('tiles'));
  const rng = new Prng(7);
  for (let l = 0; l < levels; l++) {
    const id = rng
      .int(2 ** 31)
      .toString(16)
      .padStart(16, '0');
    for (let t = 0; t < 40; t++) b.row([id, 0, 'board', rng.int(4096), 1 + rng.int(200)]);
  }
  const batch = b.take()!;
  return Buffer.concat(batch.columns.flatMap((c) => [c.defs, c.values]));
}

describe('snappyCompress', () => {
  it('empty input is its length alone', () => {
    expect([...roundTrip(new Uint8Array(0))]).toEqual([0]);
  });
  it('short inputs, below a hash probe and at it', () => {
    for (let n = 1; n < 40; n++) roundTrip(new Prng(n).bytes(n));
    roundTrip(new TextEncoder().encode('abcdabcdabcdabcdabcdabcd'));
  });
  it('random (incompressible) data stays within the bound, across 64 KiB blocks', () => {
    for (const n of [1000, 65535, 65536, 65537, 300_000]) {
      const out = roundTrip(new Prng(n).bytes(n));
      expect(out.length).toBeLessThanOrEqual(snappyBound(n));
      expect(out.length).toBeGreaterThan(n);
    }
  });
  it('highly repetitive data shrinks to about 3 bytes per 64 (long copies split)', () => {
    for (const n of [64, 67, 68, 200, 65536 * 3 + 5]) roundTrip(new Uint8Array(n).fill(0x41));
    expect(roundTrip(new Uint8Array(1 << 20).fill(9)).length).toBeLessThan((1 << 20) / 20);
  });
  it('mixed data: seeded differential runs', () => {
    const rng = new Prng(39);
    for (let r = 0; r < 30; r++) {
      const n = rng.int(150_000);
      const src = rng.bytes(n);
      // Runs and repeats of earlier bytes at near and far offsets (copy-1 and copy-2 tags).
      for (let i = 16; i < n; i++) if (rng.int(3) !== 0) src[i] = src[i - 1 - (rng.int(rng.int(2) ? 16 : 4000) % i)]!;
      roundTrip(src);
    }
  });
  it('index pages compress', () => {
    const page = indexPage(500);
    expect(roundTrip(page).length).toBeLessThan(page.length / 2);
  });
  it('refuses a destination shorter than the bound', () => {
    for (const [, k] of KERNEL_SETS) expect(k.snappyCompress(new Uint8Array(100), new Uint8Array(snappyBound(100) - 1))).toBe(Status.OVERFLOW);
  });
  itCorpus('graal', 'real level files', (dir) => {
    for (const p of listFiles(dir, /\.(nw|graal|zelda)$/i).slice(0, 40)) roundTrip(readBytes(p));
  });
  itCorpus('wwd', 'real WWD files (large, compressed blocks)', (dir) => {
    for (const p of listFiles(dir, /\.wwd$/i).slice(0, 3)) roundTrip(readBytes(p));
  });
});
