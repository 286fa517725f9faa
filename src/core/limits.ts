// Hard caps and the option bag every decoder accepts. Any size read from a file is checked
// against what remains of the input and against these caps before anything is allocated.

import type { Kernels } from '../kernels/types.js';

export interface Limits {
  /** Largest inflated size of one zlib block, in bytes. Default 256 MiB. */
  maxInflatedBytes: number;
  /** Largest number of tile-grid cells (width × height) one decode may allocate: per grid, and over all grids of a level, which share one budget (WWD planes, Teeworlds tile layers). Default 2^26 (64 Mi cells). */
  maxGridCells: number;
  /** Largest number of records in one table (objects, items, links…). Default 2^24. */
  maxRecords: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxInflatedBytes: 256 * 1024 * 1024,
  maxGridCells: 1 << 26,
  maxRecords: 1 << 24,
});

/** Which kernel implementation runs the hot loops. `auto`: WASM when it instantiates, else JS. */
export type Backend = 'auto' | 'wasm' | 'js';

/** Which inflater: `native` is node:zlib (Node only), `pako` works everywhere. Default: native when available. */
export type InflaterChoice = 'auto' | 'native' | 'pako';

export interface DecodeOptions {
  /** Kernel set for hot loops. Default `auto`. */
  backend?: Backend;
  /** A kernel set to use instead of `backend` (tests, custom builds). */
  kernels?: Kernels;
  /** zlib implementation. Default `auto` (native under Node, pako elsewhere). */
  inflate?: InflaterChoice;
  /** Throw on recoverable faults instead of returning warnings. Default false. */
  strict?: boolean;
  /** Override individual caps. */
  limits?: Partial<Limits>;
  /**
   * Code page for text fields (`windows-1252` by default). Any label TextDecoder knows;
   * raw bytes are always kept next to the decoded text.
   */
  encoding?: string;
  /**
   * `all` (default) decodes everything. `summary` decodes only what summarize() needs (header,
   * counts, the main grid for gridDigest) and leaves heavy sections (other grids, pixels, sounds)
   * undecoded, for bulk scans. Each format documents what it skips.
   */
  sections?: 'all' | 'summary';
}

export function resolveLimits(opts?: DecodeOptions): Limits {
  return opts?.limits ? { ...DEFAULT_LIMITS, ...opts.limits } : DEFAULT_LIMITS;
}
