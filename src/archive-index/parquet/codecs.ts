// The page codec the index's writer uses: Snappy, which every Parquet reader has (DuckDB, Arrow,
// Spark, Trino, and browser readers such as hyparquet without a plug-in) and which decodes several
// times faster than gzip. Parts written with GZIP before still read: the codec is per column chunk.
// The library's entry, not kernels/ directly: the CLI's bundle then carries one copy of the kernels.
import { jsKernels, type Kernels, snappyBound, wasmKernels } from '../../index.js';
import { CODEC, type Codec } from './file.js';

/** Snappy pages through `kernels` (by default WASM where it instantiates, else the TS reference: the same bytes), chosen at the first page. */
export function snappyCodec(kernels?: Kernels): Codec {
  return {
    id: CODEC.SNAPPY,
    compress: async (page) => {
      kernels ??= wasmOrJs();
      const out = new Uint8Array(snappyBound(page.length));
      const n = kernels.snappyCompress(page, out);
      if (n < 0) throw new Error(`levelkit: internal: a ${page.length}-byte page did not compress (status ${n})`);
      return out.subarray(0, n);
    },
  };
}

/** The WASM kernels where they instantiate, else the TS reference (as backend 'auto' picks). */
function wasmOrJs(): Kernels {
  try {
    return wasmKernels();
  } catch {
    return jsKernels;
  }
}
