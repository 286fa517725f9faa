// Everything one decode carries around: the kernel set, limits, inflater choice, text code page,
// the warning sink and the budgets that hold for the file as a whole. Core does not choose kernels:
// formats/decode-context.ts resolves the caller's options, picks the set and builds this. Inflating
// is core/inflate.ts's inflateBlock(ctx, …), not a method here, so a format that never inflates
// (and an app bundling only it) does not carry the inflater.

import type { Kernels } from '../kernels/types.js';
import { decodeError, type FormatId, WarningSink } from './errors.js';
import type { InflaterChoice, Limits, ResolvedOptions } from './limits.js';
import type { BlockSource } from './prefetch.js';

export interface DecodeContext<W extends string = string> {
  readonly format: FormatId;
  readonly kernels: Kernels;
  readonly limits: Limits;
  readonly inflateChoice: InflaterChoice;
  readonly encoding: string;
  readonly strict: boolean;
  readonly summaryOnly: boolean;
  readonly warnings: WarningSink<W>;
  /** Pre-inflated blocks (decodeAsync), asked before inflating. */
  readonly blocks: BlockSource | undefined;
  /**
   * Charges a block of `expectedSize` inflated bytes to the file's `maxTotalInflatedBytes` budget:
   * LIMIT_EXCEEDED, before anything is allocated, when it is spent. inflateBlock() calls it.
   */
  chargeInflated(expectedSize: number, site: { offset: number; path: string }): void;
}

export function makeContext<W extends string = string>(format: FormatId, opts: ResolvedOptions, kernels: Kernels): DecodeContext<W> {
  let inflatedSoFar = 0;
  const limits = opts.limits;
  return {
    format,
    kernels,
    limits,
    inflateChoice: opts.inflate,
    encoding: opts.encoding,
    strict: opts.strict,
    summaryOnly: opts.sections === 'summary',
    warnings: new WarningSink<W>(format, opts.strict),
    blocks: opts.blocks,
    chargeInflated(expectedSize, site) {
      if (Number.isSafeInteger(expectedSize) && expectedSize >= 0) {
        if (inflatedSoFar + expectedSize > limits.maxTotalInflatedBytes) {
          throw inflateBudgetError({ ...site, format }, inflatedSoFar, expectedSize, limits.maxTotalInflatedBytes);
        }
        inflatedSoFar += expectedSize;
      }
    },
  };
}

function inflateBudgetError(site: { format: FormatId; offset: number; path: string }, before: number, size: number, max: number) {
  return decodeError(site.format, 'LIMIT_EXCEEDED', {
    offset: site.offset,
    path: site.path,
    expected: `≤ ${max} inflated bytes per file (limits.maxTotalInflatedBytes)`,
    actual: before + size,
    detail: `${before} bytes inflated before this block of ${size}`,
  });
}
