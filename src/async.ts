// decodeAsync(): decode() with the zlib blocks inflated by the host's native, asynchronous
// inflater (DecompressionStream) where decode() would use pako, i.e. in browsers. Core stays
// synchronous; see core/prefetch.ts for the two passes. Under Node (node:zlib, synchronous and
// native) and where DecompressionStream is missing, it is decode() in a promise.

import { hasNativeZlib } from './core/inflate.js';
import { BLOCK_SOURCE, type DecodeOptions } from './core/limits.js';
import { blockCollector, blockTable, inflateWithStream, nativeStreamInflater } from './core/prefetch.js';
import { inputBytes } from './core/reader.js';

/** Which inflater decodeAsync() uses with these options in this host. */
export function asyncInflater(opts?: DecodeOptions): 'stream' | 'native' | 'pako' {
  const choice = opts?.inflate ?? 'auto';
  if (choice === 'pako') return 'pako';
  if (choice === 'native' || hasNativeZlib()) return 'native';
  return nativeStreamInflater() ? 'stream' : 'pako';
}

/**
 * Runs `decode` (any synchronous decode entry: levelkit's decode() or a namespace's) with every
 * zlib block it needs inflated beforehand by DecompressionStream('deflate'). The result, warnings
 * and errors are those of `decode(bytes, opts)`: a block the stream could not inflate to exactly
 * the expected bytes is left to the synchronous inflater, which reports it as decode() does.
 */
export async function decodeAsyncWith<T>(
  decode: (bytes: Uint8Array, opts?: DecodeOptions) => T,
  input: Uint8Array | ArrayBuffer | ArrayBufferView,
  opts?: DecodeOptions,
): Promise<T> {
  const bytes = inputBytes(input);
  const Ctor = asyncInflater(opts) === 'stream' ? nativeStreamInflater() : undefined;
  if (!Ctor) return decode(bytes, opts);
  // Pass 1: which blocks does this decode ask for? Zero-filled stand-ins let it walk on; whatever
  // it throws on them is of no interest (pass 2 decides the outcome).
  const collect = blockCollector();
  try {
    decode(bytes, { ...opts, [BLOCK_SOURCE]: collect.source } as DecodeOptions);
  } catch {
    // ignored: see above
  }
  if (collect.requests.length === 0) return decode(bytes, opts);
  const done = await Promise.all(
    collect.requests.map(async (request) => ({ request, bytes: await inflateWithStream(Ctor, request.src, request.expectedSize) })),
  );
  const inflated = done.filter((d): d is { request: (typeof d)['request']; bytes: Uint8Array } => d.bytes !== undefined);
  // Pass 2: the real decode, its blocks answered from the table.
  return decode(bytes, { ...opts, [BLOCK_SOURCE]: blockTable(inflated) } as DecodeOptions);
}
