// Every zlib block of a Teeworlds map or WWD level, with its declared inflated size: the inputs
// of the inflater's differential suite (test/kernels/inflate.test.ts) and benchmarks (Node's
// bench/inflate.bench.ts and Chromium's in test/browser.test.ts, on the same sample).
import { createHash } from 'node:crypto';
import { BLOCK_SOURCE, type DecodeOptions } from '../../src/core/limits.js';
import { blockCollector } from '../../src/core/prefetch.js';
import { teeworlds, wwd } from '../../src/index.js';

export interface ZlibBlock {
  /** Where it came from: `file@offset`. */
  name: string;
  src: Uint8Array;
  size: number;
}

/** A Teeworlds v4 datafile lists its data blocks (offset, stored and inflated size); v3 stores them raw. */
export function teeworldsBlocks(name: string, bytes: Uint8Array): ZlibBlock[] {
  const df = teeworlds.openDatafile(bytes);
  if (df.version !== 4) return [];
  return df.blocks.map((b) => ({ name: `${name}@${b.offset}`, src: bytes.subarray(b.offset, b.offset + b.storedByteLength), size: b.byteLength }));
}

/** A compressed WWD's main block, as the decoder asks for it (its size comes from the header). */
export function wwdBlocks(name: string, bytes: Uint8Array): ZlibBlock[] {
  const collect = blockCollector();
  try {
    wwd.decode(bytes, { [BLOCK_SOURCE]: collect.source } as DecodeOptions);
  } catch {
    // The collector answers with zeros, on which the rest of a decode may fail: only the request matters.
  }
  return collect.requests.map((r) => ({ name: `${name}@${r.site.offset}`, src: r.src, size: r.expectedSize }));
}

/** Distinct blocks, then every k-th so one pass stays near `budget` inflated bytes (pako runs at ~100 MB/s). */
export function distinctSample(blocks: ZlibBlock[], budget: number): ZlibBlock[] {
  const seen = new Set<string>();
  const distinct = blocks.filter((b) => {
    const h = createHash('sha1').update(b.src).digest('hex');
    return !seen.has(h) && !!seen.add(h);
  });
  const total = distinct.reduce((n, b) => n + b.size, 0);
  const step = Math.max(1, Math.ceil(total / budget));
  return distinct.filter((_, i) => i % step === 0);
}
