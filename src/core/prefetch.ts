// Pre-inflated zlib blocks for decodeAsync(). Core stays synchronous: a decode asks inflateBlock()
// for each block as it goes, and an injected BlockSource may answer first. decodeAsync uses two:
// a collector (first pass: records every block asked for and hands back zero-filled bytes of the
// asked size, so the decode walks on to the next block), then a table of blocks the browser's
// native inflater produced (second pass). A block the table lacks falls through to the built-in
// inflater, so the second pass is always an ordinary decode, only faster.

import type { InflateResult, InflateSite } from './inflate.js';

/**
 * Supplies an inflated zlib block, or undefined to let the built-in inflater do it. Called after
 * the size and budget checks; a result is used only when it has exactly `expectedSize` bytes.
 */
export type BlockSource = (src: Uint8Array, expectedSize: number, site: InflateSite) => InflateResult | undefined;

/** One zlib block a decode asked for. */
export interface BlockRequest {
  src: Uint8Array;
  expectedSize: number;
  site: InflateSite;
}

const key = (src: Uint8Array, expectedSize: number, site: InflateSite) => `${site.offset}:${src.length}:${expectedSize}`;

/** A BlockSource that records requests and answers with zero-filled blocks of the asked size. */
export function blockCollector(): { source: BlockSource; requests: BlockRequest[] } {
  const requests: BlockRequest[] = [];
  const seen = new Set<string>();
  const source: BlockSource = (src, expectedSize, site) => {
    const k = key(src, expectedSize, site);
    if (!seen.has(k)) {
      seen.add(k);
      requests.push({ src, expectedSize, site });
    }
    return { bytes: new Uint8Array(expectedSize), consumed: src.length };
  };
  return { source, requests };
}

/** A BlockSource that answers from blocks inflated beforehand (keyed by where the request was made). */
export function blockTable(done: ReadonlyArray<{ request: BlockRequest; bytes: Uint8Array }>): BlockSource {
  const table = new Map<string, Uint8Array>();
  for (const { request: r, bytes } of done) table.set(key(r.src, r.expectedSize, r.site), bytes);
  return (src, expectedSize, site) => {
    const k = key(src, expectedSize, site);
    const bytes = table.get(k);
    if (!bytes || bytes.length !== expectedSize) return undefined;
    // Each block is handed out once: a decode owns the bytes it gets (it may write into them).
    table.delete(k);
    return { bytes, consumed: src.length };
  };
}

interface DecompressionStreamCtor {
  new (format: 'deflate'): { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> };
}

/** The host's DecompressionStream (browsers, Deno, Node ≥ 18), or undefined. */
export function nativeStreamInflater(): DecompressionStreamCtor | undefined {
  return (globalThis as { DecompressionStream?: DecompressionStreamCtor }).DecompressionStream;
}

/**
 * Inflates one zlib stream with DecompressionStream('deflate') into exactly `expectedSize` bytes.
 * Resolves to undefined (never rejects) when the stream is damaged, has bytes after its end,
 * or inflates to another size: the synchronous pass then meets the block again and reports it
 * exactly as decode() would.
 */
export async function inflateWithStream(Ctor: DecompressionStreamCtor, src: Uint8Array, expectedSize: number): Promise<Uint8Array | undefined> {
  const out = new Uint8Array(expectedSize);
  let written = 0;
  const fits = await streamChunks(Ctor, src, (chunk) => {
    if (written + chunk.length > expectedSize) return false;
    out.set(chunk, written);
    written += chunk.length;
    return true;
  });
  if (!fits || written !== expectedSize) return undefined;
  // decode() learns how many input bytes the stream used (WWD keeps what follows it). Where the
  // host's stream rejects bytes after the end (Chromium does), a stream that succeeded used all
  // of `src`. Elsewhere: a stream that used all of `src` ends with the Adler-32 of its output;
  // when the last four bytes are not that, something follows the stream, and the synchronous
  // inflater must find where.
  if (await rejectsTrailingBytes(Ctor)) return out;
  return src.length >= 6 && readU32BE(src, src.length - 4) === adler32(out) ? out : undefined;
}

/**
 * Runs `src` through a DecompressionStream('deflate'), handing each output chunk to `take` (which
 * returns false to stop). Resolves to false when the stream failed or was stopped, never rejects.
 */
async function streamChunks(Ctor: DecompressionStreamCtor, src: Uint8Array, take: (chunk: Uint8Array) => boolean): Promise<boolean> {
  try {
    const ds = new Ctor('deflate');
    const writer = ds.writable.getWriter();
    // Errors surface on the read side; swallow the writer's copies so none goes unhandled.
    writer.write(src).catch(() => {});
    writer.close().catch(() => {});
    const reader = ds.readable.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      if (!take(value)) {
        reader.cancel().catch(() => {});
        return false;
      }
    }
  } catch {
    return false;
  }
}

/** zlib of the empty string, then one byte that is not part of it. */
const EMPTY_THEN_JUNK = new Uint8Array([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00]);
const probes = new WeakMap<object, Promise<boolean>>();

/** Whether this host's DecompressionStream fails on bytes after the end of the stream (asked once). */
function rejectsTrailingBytes(Ctor: DecompressionStreamCtor): Promise<boolean> {
  let p = probes.get(Ctor);
  if (!p) {
    p = streamChunks(Ctor, EMPTY_THEN_JUNK, () => true).then((ok) => !ok);
    probes.set(Ctor, p);
  }
  return p;
}

function readU32BE(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

/** Adler-32 (RFC 1950) of `data`. */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  const n = data.length;
  for (let i = 0; i < n; ) {
    // 5552 bytes is the longest run zlib sums before reducing mod 65521 (b stays below 2^32).
    const end = Math.min(n, i + 5552);
    for (; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}
