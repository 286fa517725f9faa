// Everything one decode carries around: the kernel set, limits, inflater, text code page, the
// warning sink and the budgets that hold for the file as a whole. Core does not choose kernels:
// formats/decode-context.ts resolves the caller's options, picks the set and builds this. Inflating
// is core/inflate.ts's inflateBlock(ctx, …) / inflateTileBlock(ctx, …), not a method here, so a
// format that never inflates (and an app bundling only it) does not carry the inflating code.

import type { Kernels } from '../kernels/types.js';
import { decodeError, type ErrorFormat, type FormatId, WarningSink } from './errors.js';
import type { InflaterChoice, Limits, ResolvedOptions } from './limits.js';
import type { BlockSource } from './prefetch.js';

/** How blocks are inflated once options are resolved: node:zlib, or a kernel set's inflateZlib (formats/decode-context.ts picks). */
export type Inflater = 'native' | Pick<Kernels, 'inflateZlib' | 'inflateTiles' | 'inflateResident'>;

/** Where a block is, for error messages: its absolute offset and model path. */
export interface BlockSite {
  offset: number;
  path: string;
}

export interface DecodeContext<W extends string = string> {
  readonly format: FormatId;
  readonly kernels: Kernels;
  readonly limits: Limits;
  readonly inflateChoice: InflaterChoice;
  /** What `inflateChoice` resolved to. */
  readonly inflater: Inflater;
  readonly encoding: string;
  readonly strict: boolean;
  readonly summaryOnly: boolean;
  /** `layers: 'lazy'`: grids are checked and reserved during decode and inflated on first read. */
  readonly lazyLayers: boolean;
  readonly warnings: WarningSink<W>;
  /** Pre-inflated blocks (decodeAsync), asked before inflating. */
  readonly blocks: BlockSource | undefined;
  /**
   * Charges `bytes` inflated or otherwise allocated (a tile-skip expansion) to the file's
   * `maxTotalInflatedBytes` budget: LIMIT_EXCEEDED, before anything is allocated, when it is spent.
   * inflateBlock() calls it for every block.
   */
  charge(bytes: number, site: BlockSite): void;
  /**
   * What inflateBlock() checks and charges before inflating, without inflating: for a cheap decode
   * that leaves the block deflated but must refuse what the full decode refuses (budget, size, ratio).
   */
  reserve(storedLength: number, expectedSize: number, site: BlockSite): void;
  /** Tells the caller's onProgress (when given) that a block of `storedLength` bytes inflated to `inflatedLength`. */
  inflated(storedLength: number, inflatedLength: number): void;
}

/**
 * `inflater` is what `opts.inflate` resolved to (formats/decode-context.ts), as `kernels` is for
 * `opts.backend`; `inputLength` is the size of the file decoded (onProgress's `total`).
 */
export function makeContext<W extends string = string>(
  format: FormatId,
  opts: ResolvedOptions,
  kernels: Kernels,
  inflater: Inflater,
  inputLength = 0,
): DecodeContext<W> {
  let inflatedSoFar = 0;
  let storedDone = 0;
  let inflatedDone = 0;
  const onProgress = opts.onProgress;
  const limits = opts.limits;
  const charge = (bytes: number, site: BlockSite) => {
    if (!Number.isSafeInteger(bytes) || bytes < 0) return; // the size check reports a bad size
    if (inflatedSoFar + bytes > limits.maxTotalInflatedBytes) {
      throw inflateBudgetError(format, site, inflatedSoFar, bytes, limits.maxTotalInflatedBytes);
    }
    inflatedSoFar += bytes;
  };
  return {
    format,
    kernels,
    limits,
    inflateChoice: opts.inflate,
    inflater,
    encoding: opts.encoding,
    strict: opts.strict,
    summaryOnly: opts.sections === 'summary',
    lazyLayers: opts.layers === 'lazy',
    warnings: new WarningSink<W>(format, opts.strict),
    blocks: opts.blocks,
    charge,
    reserve(storedLength, expectedSize, site) {
      checkBlockSize(format, storedLength, expectedSize, limits, site);
      charge(expectedSize, site);
    },
    inflated(storedLength, inflatedLength) {
      if (!onProgress) return;
      // A lazy grid read again inflates again: `done` stays within the file.
      storedDone = Math.min(inputLength, storedDone + storedLength);
      inflatedDone += inflatedLength;
      onProgress({ stage: 'inflate', done: storedDone, total: inputLength, inflatedBytes: inflatedDone });
    },
  };
}

/** The largest output per input byte a deflate stream can have (RFC 1951: 258 bytes per 2-bit code, rounded up). */
const MAX_DEFLATE_RATIO = 1032;

/**
 * The checks every inflate starts with, alone (so a cheap decode that leaves a block deflated
 * still refuses what the full decode would refuse before touching the stream): LIMIT_EXCEEDED
 * beyond `maxInflatedBytes`; CORRUPT_COMPRESSED beyond DEFLATE's ratio.
 */
export function checkBlockSize(format: ErrorFormat, storedLength: number, expectedSize: number, limits: Limits, site: BlockSite): void {
  if (!Number.isInteger(expectedSize) || expectedSize < 0 || expectedSize > limits.maxInflatedBytes) {
    throw decodeError(format, 'LIMIT_EXCEEDED', {
      offset: site.offset,
      path: site.path,
      detail: 'inflated size',
      expected: `≤ ${limits.maxInflatedBytes} (limits.maxInflatedBytes)`,
      actual: expectedSize,
    });
  }
  // Deflate cannot expand more than ~1032:1 (a 258-byte match per ~2 bits), so a size beyond
  // that is a lie told by the header: reject it before the inflater allocates an output for it.
  if (expectedSize > storedLength * MAX_DEFLATE_RATIO + 64) {
    throw decodeError(format, 'CORRUPT_COMPRESSED', {
      offset: site.offset,
      path: site.path,
      detail: `${storedLength} compressed bytes cannot inflate to ${expectedSize}`,
    });
  }
}

function inflateBudgetError(format: FormatId, site: BlockSite, before: number, size: number, max: number) {
  return decodeError(format, 'LIMIT_EXCEEDED', {
    offset: site.offset,
    path: site.path,
    expected: `≤ ${max} inflated or expanded bytes per file (limits.maxTotalInflatedBytes)`,
    actual: before + size,
    detail: `${before} bytes inflated or expanded before these ${size}`,
  });
}
