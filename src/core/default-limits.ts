// The default decode caps as plain data, in a module of their own with nothing to import: the
// `levelkit` entry checks a command line against them (cli/options.ts) before it loads the library
// and starts a scan's workers. The caps themselves are explained in limits.ts.
import type { Limits } from './limits.js';

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxInflatedBytes: 256 * 1024 * 1024,
  maxTotalInflatedBytes: 1024 * 1024 * 1024,
  maxGridCells: 0x7fffffff,
  maxRecords: 1 << 24,
  maxLevelObjects: 1 << 18,
  maxZipRatio: 100,
});

/** The names of the caps, as `limits` takes them. */
export const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as readonly (keyof Limits)[];
