// decodeAsync(): decode() with the zlib blocks inflated by the host's native, asynchronous
// inflater (DecompressionStream) where decode() would use pako: browsers without WebAssembly, or
// `inflate: 'pako'`. Core stays synchronous; see core/prefetch.ts for the two passes. Where
// decode() inflates with node:zlib or the WASM inflater (≈ native speed, see bench/README.md),
// and where DecompressionStream is missing, it is decode() in a promise.

import { checkBlockSize } from './core/context.js';
import { BLOCK_SOURCE, type DecodeOptions, type Limits, resolveOptions } from './core/limits.js';
import type { BlockRequest } from './core/prefetch.js';
import { blockCollector, blockTable, inflateWithStream, nativeStreamInflater } from './core/prefetch.js';
import { inputBytes } from './core/reader.js';
import { chooseInflater } from './formats/decode-context.js';
import { openDatafile } from './formats/teeworlds/datafile.js';
import { sniff as sniffTeeworlds } from './formats/teeworlds/index.js';
import { chooseKernels } from './kernels/select.js';

/**
 * Which inflater decodeAsync() uses with these options in this host: decode()'s own (`native`,
 * `wasm`) when it has one faster than pako, else `stream` (DecompressionStream) for big blocks,
 * or `pako` where there is no DecompressionStream.
 */
export function asyncInflater(opts?: DecodeOptions): 'stream' | 'native' | 'wasm' | 'pako' {
  let inflater: ReturnType<typeof chooseInflater>;
  try {
    inflater = chooseInflater(opts?.inflate ?? 'auto', chooseKernels(opts?.backend ?? 'auto', opts?.kernels));
  } catch {
    return 'wasm'; // WASM asked for where it cannot run: decode() reports that
  }
  if (inflater === 'native') return 'native';
  if (inflater.name === 'wasm') return 'wasm';
  return nativeStreamInflater() ? 'stream' : 'pako';
}

/**
 * Runs `decode` (any synchronous decode entry: levelkit's decode() or a namespace's) with every
 * zlib block it needs inflated beforehand by DecompressionStream('deflate'). The result, warnings
 * and errors are those of `decode(bytes, opts)`: a block the stream could not inflate to exactly
 * the expected bytes is left to the synchronous inflater, which reports it as decode() does.
 * Blocks that inflate to fewer than `tuning.minStreamBytes` (default 64 KiB) are left to it too:
 * a stream's set-up costs more than pako's whole inflate of such a block. With `layers: 'lazy'`
 * it is decode(): lazy grids inflate synchronously when read.
 */
export async function decodeAsyncWith<T>(
  decode: (bytes: Uint8Array, opts?: DecodeOptions) => T,
  input: Uint8Array | ArrayBuffer | ArrayBufferView,
  opts?: DecodeOptions,
  tuning: { minStreamBytes?: number } = {},
): Promise<T> {
  const bytes = inputBytes(input);
  const Ctor = asyncInflater(opts) === 'stream' ? nativeStreamInflater() : undefined;
  // A lazy decode inflates its grids when they are read, synchronously: inflating them all here
  // would hold every one at once, which is what `layers: 'lazy'` is asked to avoid.
  if (!Ctor || opts?.layers === 'lazy') return decode(bytes, opts);
  const minStreamBytes = tuning.minStreamBytes ?? MIN_STREAM_BYTES;
  const requests = withinLimits(
    (listedBlocks(bytes, opts) ?? collectedBlocks(decode, bytes, opts)).filter((r) => r.expectedSize >= minStreamBytes),
    resolveOptions(opts).limits,
  );
  if (requests.length === 0) return decode(bytes, opts);
  const inflated: { request: BlockRequest; bytes: Uint8Array }[] = [];
  // A few streams at a time: each holds its output while it runs, and hundreds at once only
  // add memory and scheduling, not speed.
  let next = 0;
  const lane = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      const out = await inflateWithStream(Ctor, request.src, request.expectedSize);
      if (out) inflated.push({ request, bytes: out });
    }
  };
  await Promise.all(Array.from({ length: Math.min(STREAMS, requests.length) }, lane));
  // Pass 2: the real decode, its blocks answered from the table.
  return decode(bytes, { ...opts, [BLOCK_SOURCE]: blockTable(inflated) } as DecodeOptions);
}

/**
 * Blocks smaller than this (inflated) are not worth a stream (see decodeAsyncWith). Streams only
 * ever replace pako: the WASM inflater runs at about node:zlib's speed, and a DecompressionStream
 * is that same native zlib plus stream set-up, promises and chunk copies, so it never wins.
 */
const MIN_STREAM_BYTES = 64 * 1024;

/**
 * The requests a stream may inflate before the decode has checked anything: each within the
 * block limits (maxInflatedBytes, DEFLATE's ratio) and all together within the per-file budget.
 * The rest are left to the synchronous decode, which refuses them with its typed error before
 * allocating; a stream would have allocated their declared size first.
 */
function withinLimits(requests: BlockRequest[], limits: Limits): BlockRequest[] {
  let budget = limits.maxTotalInflatedBytes;
  return requests.filter((r) => {
    try {
      checkBlockSize(r.site.format, r.src.length, r.expectedSize, limits, r.site);
    } catch {
      return false;
    }
    if (r.expectedSize > budget) return false;
    budget -= r.expectedSize;
    return true;
  });
}

/** Streams inflating at once. */
const STREAMS = 4;

/**
 * Pass 1, for any format: which blocks does this decode ask for? Zero-filled stand-ins let it walk
 * on; whatever it throws on them is of no interest (pass 2 decides the outcome). Costs about a
 * decode without inflating.
 */
function collectedBlocks<T>(decode: (bytes: Uint8Array, opts?: DecodeOptions) => T, bytes: Uint8Array, opts: DecodeOptions | undefined): BlockRequest[] {
  const collect = blockCollector();
  try {
    // The caller hears of the real decode only (pass 2), not of this walk over stand-ins.
    decode(bytes, { ...opts, onProgress: undefined, [BLOCK_SOURCE]: collect.source } as DecodeOptions);
  } catch {
    // ignored: see above
  }
  return collect.requests;
}

/**
 * The blocks of a file whose container lists them, without a first decode: a Teeworlds datafile
 * (v4) names every data block's offset, stored and inflated size in its header, and a full decode
 * inflates them all. undefined (use collectedBlocks) for other formats, `sections: 'summary'`
 * (which needs only some), and anything openDatafile refuses (pass 2 reports it).
 */
function listedBlocks(bytes: Uint8Array, opts: DecodeOptions | undefined): BlockRequest[] | undefined {
  if ((opts?.sections ?? 'all') !== 'all' || !sniffTeeworlds(bytes.subarray(0, 64))) return undefined;
  try {
    const { version, blocks } = openDatafile(bytes, { ...opts, inflate: 'pako' });
    if (version !== 4) return [];
    return blocks
      .filter((b) => b.byteLength > 0)
      .map((b) => ({
        src: bytes.subarray(b.offset, b.offset + b.storedByteLength),
        expectedSize: b.byteLength,
        site: { format: 'teeworlds', offset: b.offset, path: '' },
      }));
  } catch {
    return undefined;
  }
}
