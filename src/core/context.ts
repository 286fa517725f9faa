// Everything one decode carries around: the kernel set, limits, inflater, text code page, the
// warning sink and the budgets that hold for the file as a whole. Core does not choose kernels:
// formats/decode-context.ts resolves the caller's options, picks the set and builds this.

import type { Kernels } from '../kernels/types.js';
import { decodeError, type FormatId, WarningSink } from './errors.js';
import { type InflateResult, type Inflater, type InflateSite, inflateExact, inflateTilesExact } from './inflate.js';
import type { InflaterChoice, Limits, ResolvedOptions } from './limits.js';

export interface DecodeContext<W extends string = string> {
  readonly format: FormatId;
  readonly kernels: Kernels;
  readonly limits: Limits;
  readonly inflateChoice: InflaterChoice;
  readonly encoding: string;
  readonly strict: boolean;
  readonly summaryOnly: boolean;
  readonly warnings: WarningSink<W>;
  /**
   * Inflates one zlib block of exactly `expectedSize` bytes, after charging it to the file's
   * `maxTotalInflatedBytes` budget (LIMIT_EXCEEDED before anything is allocated when it is spent).
   */
  inflate(src: Uint8Array, expectedSize: number, site: Omit<InflateSite, 'format'>): InflateResult;
  /** inflate() of a block of `cells` 4-byte tile records, split into index and flags columns (see core/inflate.ts inflateTilesExact). */
  inflateTiles(src: Uint8Array, cells: number, site: Omit<InflateSite, 'format'>): { columns: Uint8Array; dirty: number };
}

/** `inflater` is what `opts.inflate` resolved to (formats/decode-context.ts), as `kernels` is for `opts.backend`. */
export function makeContext<W extends string = string>(format: FormatId, opts: ResolvedOptions, kernels: Kernels, inflater: Inflater): DecodeContext<W> {
  let inflatedSoFar = 0;
  const limits = opts.limits;
  // Every block is charged to the file's maxTotalInflatedBytes before it is inflated.
  const charge = (at: InflateSite, expectedSize: number) => {
    if (!Number.isSafeInteger(expectedSize) || expectedSize < 0) return; // inflateExact reports it
    if (inflatedSoFar + expectedSize > limits.maxTotalInflatedBytes) throw inflateBudgetError(at, inflatedSoFar, expectedSize, limits.maxTotalInflatedBytes);
    inflatedSoFar += expectedSize;
  };
  return {
    format,
    kernels,
    limits,
    inflateChoice: opts.inflate,
    encoding: opts.encoding,
    strict: opts.strict,
    summaryOnly: opts.sections === 'summary',
    warnings: new WarningSink<W>(format, opts.strict),
    inflate(src, expectedSize, site) {
      const at = { ...site, format };
      charge(at, expectedSize);
      return inflateExact(src, expectedSize, inflater, limits, at, opts.blocks);
    },
    inflateTiles(src, cells, site) {
      const at = { ...site, format };
      charge(at, cells * 4);
      return inflateTilesExact(src, cells, inflater, kernels, limits, at, opts.blocks);
    },
  };
}

function inflateBudgetError(site: InflateSite, before: number, size: number, max: number) {
  return decodeError(site.format, 'LIMIT_EXCEEDED', {
    offset: site.offset,
    path: site.path,
    expected: `≤ ${max} inflated bytes per file (limits.maxTotalInflatedBytes)`,
    actual: before + size,
    detail: `${before} bytes inflated before this block of ${size}`,
  });
}
