// Everything one decode carries around: the kernel set, limits, inflater, text code page, the
// warning sink and the budgets that hold for the file as a whole. Core does not choose kernels:
// formats/decode-context.ts resolves the caller's options, picks the set and builds this.

import type { Kernels } from '../kernels/types.js';
import { decodeError, type FormatId, WarningSink } from './errors.js';
import { checkInflateSize, type InflateResult, type InflateSite, inflateExact } from './inflate.js';
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
  /**
   * What inflate() checks and charges before inflating, without inflating: for a cheap decode that
   * leaves the block deflated but must refuse what the full decode refuses (budget, size, ratio).
   */
  reserve(storedLength: number, expectedSize: number, site: Omit<InflateSite, 'format'>): void;
  /**
   * Charges `bytes` a decoder allocates beyond what it inflated (a tile-skip expansion) to the same
   * per-file budget: LIMIT_EXCEEDED, before allocating, when it is spent.
   */
  charge(bytes: number, site: Omit<InflateSite, 'format'>): void;
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
    inflate(src, expectedSize, site) {
      const at = { ...site, format };
      this.charge(expectedSize, site);
      return inflateExact(src, expectedSize, opts.inflate, limits, at, opts.blocks);
    },
    reserve(storedLength, expectedSize, site) {
      checkInflateSize(storedLength, expectedSize, limits, { ...site, format });
      this.charge(expectedSize, site);
    },
    charge(bytes, site) {
      if (!Number.isSafeInteger(bytes) || bytes < 0) return;
      if (inflatedSoFar + bytes > limits.maxTotalInflatedBytes) {
        throw inflateBudgetError({ ...site, format }, inflatedSoFar, bytes, limits.maxTotalInflatedBytes);
      }
      inflatedSoFar += bytes;
    },
  };
}

function inflateBudgetError(site: InflateSite, before: number, size: number, max: number) {
  return decodeError(site.format, 'LIMIT_EXCEEDED', {
    offset: site.offset,
    path: site.path,
    expected: `≤ ${max} inflated or expanded bytes per file (limits.maxTotalInflatedBytes)`,
    actual: before + size,
    detail: `${before} bytes inflated or expanded before these ${size}`,
  });
}
