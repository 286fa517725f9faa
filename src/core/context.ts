// Everything one decode carries around: the kernel set, limits, inflater, text code page, the
// warning sink and the budgets that hold for the file as a whole. Core does not choose kernels:
// formats/decode-context.ts resolves the caller's options, picks the set and builds this.

import type { Kernels } from '../kernels/types.js';
import { decodeError, type FormatId, WarningSink } from './errors.js';
import { checkInflateSize, type InflateResult, type Inflater, type InflateSite, inflateExact, inflateTilesExact } from './inflate.js';
import type { InflaterChoice, Limits, ResolvedOptions } from './limits.js';

export interface DecodeContext<W extends string = string> {
  readonly format: FormatId;
  readonly kernels: Kernels;
  readonly limits: Limits;
  readonly inflateChoice: InflaterChoice;
  readonly encoding: string;
  readonly strict: boolean;
  readonly summaryOnly: boolean;
  /** `layers: 'lazy'`: grids are checked and reserved during decode and inflated on first read. */
  readonly lazyLayers: boolean;
  readonly warnings: WarningSink<W>;
  /**
   * Inflates one zlib block of exactly `expectedSize` bytes, after charging it to the file's
   * `maxTotalInflatedBytes` budget (LIMIT_EXCEEDED before anything is allocated when it is spent).
   * `prepaid`: reserve() already charged this block (a lazy grid inflated on first read).
   */
  inflate(src: Uint8Array, expectedSize: number, site: Omit<InflateSite, 'format'>, prepaid?: boolean): InflateResult;
  /** inflate() of a block of `cells` 4-byte tile records, split into index and flags columns (see core/inflate.ts inflateTilesExact). */
  inflateTiles(src: Uint8Array, cells: number, site: Omit<InflateSite, 'format'>, prepaid?: boolean): { columns: Uint8Array; dirty: number };
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

/** `inflater` is what `opts.inflate` resolved to (formats/decode-context.ts), as `kernels` is for `opts.backend`. */
export function makeContext<W extends string = string>(format: FormatId, opts: ResolvedOptions, kernels: Kernels, inflater: Inflater): DecodeContext<W> {
  let inflatedSoFar = 0;
  const limits = opts.limits;
  // Every block (and every expansion) is charged to the file's maxTotalInflatedBytes first.
  const charge = (bytes: number, site: Omit<InflateSite, 'format'>) => {
    if (!Number.isSafeInteger(bytes) || bytes < 0) return; // inflateExact reports a bad size
    if (inflatedSoFar + bytes > limits.maxTotalInflatedBytes) {
      throw inflateBudgetError({ ...site, format }, inflatedSoFar, bytes, limits.maxTotalInflatedBytes);
    }
    inflatedSoFar += bytes;
  };
  return {
    format,
    kernels,
    limits,
    inflateChoice: opts.inflate,
    encoding: opts.encoding,
    strict: opts.strict,
    summaryOnly: opts.sections === 'summary',
    lazyLayers: opts.layers === 'lazy',
    warnings: new WarningSink<W>(format, opts.strict),
    inflate(src, expectedSize, site, prepaid = false) {
      const at = { ...site, format };
      if (!prepaid) charge(expectedSize, site);
      return inflateExact(src, expectedSize, inflater, limits, at, opts.blocks);
    },
    inflateTiles(src, cells, site, prepaid = false) {
      const at = { ...site, format };
      if (!prepaid) charge(cells * 4, site);
      return inflateTilesExact(src, cells, inflater, kernels, limits, at, opts.blocks);
    },
    reserve(storedLength, expectedSize, site) {
      checkInflateSize(storedLength, expectedSize, limits, { ...site, format });
      charge(expectedSize, site);
    },
    charge,
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
