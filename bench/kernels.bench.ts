// Each kernel, WASM vs TS, at 1 KB / 64 KB / 1 MB / 16 MB, outputs checked equal before timing.
import { jsKernels } from '../src/kernels/js/index.js';
import { wasmKernels } from '../src/kernels/wasm/index.js';
import { comparePair, SIZES } from './lib.js';
import { Prng } from '../test/helpers/prng.js';

const wasm = wasmKernels();
const rng = new Prng(42);

await comparePair('sumBytes (checksum summation)',
  SIZES.map(([name, n]) => ({ name, bytes: n, input: rng.bytes(n) })),
  (b) => jsKernels.sumBytes(b), (b) => wasm.sumBytes(b), (a, b) => a === b);
