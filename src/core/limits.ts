// Hard caps and the option bag every decoder accepts, and their validation. Any size read from a
// file is checked against what remains of the input and against these caps before anything is
// allocated; the caps hold per file as a whole, not only per block.

import type { Backend, Kernels } from '../kernels/types.js';
import { DEFAULT_LIMITS, LIMIT_NAMES } from './default-limits.js';
import type { BlockSource } from './prefetch.js';
import { canonicalEncoding } from './text.js';

export type { Backend } from '../kernels/types.js';
export { DEFAULT_LIMITS, LIMIT_NAMES } from './default-limits.js';

// Defaults are sized to admit every real map of the largest community (DDNet) and to refuse bombs
// by memory, not by a shape real maps exceed. DDNet's own bounds: its editor lets a tile layer be
// 2–100,000 tiles wide and high; its loader needs width × height to fit an int (< 2^31 cells); its
// client downloads maps of at most 1 GiB; its datafile reader refuses a file needing more than
// 2 GiB. The largest real map seen (issue 19) has 39 tile layers, 145.5 M cells, 620 MB inflated,
// its largest layer 9,611 × 3,318 (127.6 MB as CTiles). So the budget that holds is the per-file
// one in bytes, `maxTotalInflatedBytes`, which also pays for what a decoder expands beyond the
// inflated bytes (0.7 tile-skip grids); the cell cap is DDNet's own.

export interface Limits {
  /** Largest inflated size of one zlib block, in bytes. Default 256 MiB (2× the largest real map layer). */
  maxInflatedBytes: number;
  /**
   * The per-file memory budget: bytes inflated from all zlib blocks of one file together, plus what
   * a decoder expands beyond them (Teeworlds 0.7 tile-skip grids), in bytes. Default 1 GiB (1.7× the
   * largest real map's 620 MB; DDNet's client downloads maps up to 1 GiB).
   */
  maxTotalInflatedBytes: number;
  /**
   * Largest number of tile-grid cells (width × height): per grid, and over all grids of a level,
   * which share one budget (WWD planes, Teeworlds tile layers). Default 2^31 − 1, DDNet's own bound
   * (width × height must fit an int); memory is bounded by `maxTotalInflatedBytes`.
   */
  maxGridCells: number;
  /** Largest number of records in one table (objects, items, links…). Default 2^24. */
  maxRecords: number;
  /**
   * Largest number of objects one level holds, all its tables together (Graal: links, NPCs, signs,
   * chests, baddies and kept unknown lines; .gmap: grid cells). Each costs heap whatever its bytes
   * (a 132 MB .nw of 6 M LINK lines ran out of memory), so text formats need a count, not only a
   * size. Default 2^18 (real Graal levels hold a few hundred).
   */
  maxLevelObjects: number;
  /**
   * Bytes a zip (a GWZ; in a scan, every archive) may inflate, all members together, as a
   * multiple of the zip's own size; at least ZIP_INFLATE_ALLOWANCE whatever the ratio. Default
   * 100, as zip readers hardened against zip bombs use (real levels compress up to about 85:1 one
   * by one, archives of them far less).
   */
  maxZipRatio: number;
}

/** Bytes every zip may inflate whatever its ratio (1 MiB), so a tiny zip of a very compressible level still reads. */
export const ZIP_INFLATE_ALLOWANCE = 1 << 20;

/** Bytes a zip of `zipBytes` bytes may inflate under `ratio` (limits.maxZipRatio). */
export function zipInflateBudget(zipBytes: number, ratio: number): number {
  return Math.max(ratio * zipBytes, ZIP_INFLATE_ALLOWANCE);
}

/**
 * Which inflater: `native` is node:zlib (Node only), `wasm` the WebAssembly inflater (throws where
 * WebAssembly is unavailable), `pako` pure TypeScript, everywhere. `auto`: native when available,
 * else the kernel set's own (WASM for `backend: 'wasm'`, or `auto` when it instantiates; pako for `js`).
 * A format may pick per block under `auto`: Teeworlds gives CTile grids and small blocks to the WASM
 * inflater when the WASM kernels run (src/formats/teeworlds/README.md §Container).
 */
export type InflaterChoice = 'auto' | 'native' | 'wasm' | 'pako';

/** How much to decode: everything, or only what summarize() needs. */
export type Sections = 'all' | 'summary';

/** When tile-layer grids are inflated: during decode, or on first read of each grid. */
export type LayerLoading = 'eager' | 'lazy';

export interface DecodeOptions {
  /** Kernel set for hot loops. Default `auto` (WASM when it instantiates, else TypeScript); `wasm` throws where WASM is unavailable. */
  backend?: Backend;
  /** A kernel set to use instead of `backend` (tests, custom builds). */
  kernels?: Kernels;
  /** zlib implementation. Default `auto` (native under Node; elsewhere WASM when the kernel set is WASM, else pako). */
  inflate?: InflaterChoice;
  /** Throw DecodeError `STRICT` on recoverable faults instead of returning them as warnings. Default false. */
  strict?: boolean;
  /** Override individual caps (whole numbers ≥ 0). */
  limits?: Partial<Limits>;
  /**
   * Code page for text fields of WWD and Graal (`windows-1252` by default; Teeworlds text is
   * UTF-8). Any label TextDecoder knows; the raw bytes are always kept next to the decoded text.
   */
  encoding?: string;
  /**
   * `all` (default) decodes everything. `summary` decodes only what summarize() needs (header,
   * counts, the main grid for gridDigest) and leaves heavy sections (other grids, pixels, sounds)
   * undecoded, for bulk scans. Each format's README says what it skips.
   */
  sections?: Sections;
  /**
   * Teeworlds and WWD (other formats decode as `eager`). `eager` (default) inflates every grid
   * during decode. Teeworlds, `lazy`: each tile-layer grid (and a 2007 map's data) is checked as
   * `eager` checks it up to its zlib stream (index, sizes, limits, the per-file budget) and kept
   * as its compressed bytes (a copy); it is inflated when its field is first read, and a damaged
   * stream throws its DecodeError then (Teeworlds README §Memory). WWD, `lazy` (a compressed file):
   * the main block is inflated and checked as `eager` does; the main plane's tiles are kept, every
   * other plane's are inflated again from a copy of the stream on first read (WWD README).
   */
  layers?: LayerLoading;
  /**
   * Called after each zlib block is inflated (every format, synchronously, inside decode; with
   * `layers: 'lazy'` also when a grid is inflated on first read), so a viewer can show how far a
   * big file is. See DecodeProgress. Errors it throws propagate out of decode.
   */
  onProgress?: (progress: DecodeProgress) => void;
}

/**
 * How far a decode is: `done` compressed bytes of the input inflated so far, of `total` (the
 * input's size). done ÷ total is the share of the file inflated; it ends below 1 by the bytes
 * that are not compressed (headers, item tables, raw sections). `inflatedBytes` is what they gave.
 */
export interface DecodeProgress {
  stage: 'inflate';
  done: number;
  total: number;
  inflatedBytes: number;
}

/** DecodeOptions after validation, with every default filled in (kernels are chosen by the caller). */
export interface ResolvedOptions {
  backend: Backend;
  kernels: Kernels | undefined;
  inflate: InflaterChoice;
  strict: boolean;
  limits: Limits;
  encoding: string;
  sections: Sections;
  layers: LayerLoading;
  onProgress: ((progress: DecodeProgress) => void) | undefined;
  /** Pre-inflated blocks (decodeAsync only; never set by callers, see core/prefetch.ts). */
  blocks: BlockSource | undefined;
}

/**
 * Where decodeAsync() puts its BlockSource on the options it passes to decode(). A symbol, so it
 * is not a public option: Object.keys() (and so the unknown-option check) does not see it.
 */
export const BLOCK_SOURCE: unique symbol = Symbol('levelkit.blockSource');

const BACKENDS: readonly Backend[] = ['auto', 'wasm', 'js'];
const INFLATERS: readonly InflaterChoice[] = ['auto', 'native', 'wasm', 'pako'];
const SECTIONS: readonly Sections[] = ['all', 'summary'];
const LAYER_LOADING: readonly LayerLoading[] = ['eager', 'lazy'];
const OPTION_NAMES: readonly string[] = ['backend', 'kernels', 'inflate', 'strict', 'limits', 'encoding', 'sections', 'layers', 'onProgress'];

/**
 * Validates `opts` and fills in defaults. TypeError for a wrong type, RangeError for a value
 * outside what is allowed; each message names the option and lists what it accepts.
 */
export function resolveOptions(opts: DecodeOptions | undefined): ResolvedOptions {
  // A frozen plain options object (and frozen plain limits) cannot change between calls, so it
  // is resolved once: a bulk scan decodes thousands of files with one such object, and validating
  // it (the encoding label above all) cost more per file than decoding a small level's header.
  const known = opts ? resolvedFrozen.get(opts) : undefined;
  if (known) return known;
  const resolved = resolveFresh(opts);
  if (!opts || !isFrozenPlain(opts) || (opts.limits !== undefined && !isFrozenPlain(opts.limits))) return resolved;
  const kept = Object.freeze({ ...resolved, limits: Object.freeze({ ...resolved.limits }) });
  resolvedFrozen.set(opts, kept);
  return kept;
}

const resolvedFrozen = new WeakMap<object, ResolvedOptions>();

/**
 * Frozen, with only own data properties and a plain prototype: what it says can never change.
 * (A frozen object can still answer through getters, or through a prototype that changes.)
 * Checked once, when its resolution is stored: a frozen object cannot gain a getter later.
 */
function isFrozenPlain(o: unknown): boolean {
  if (typeof o !== 'object' || o === null || !Object.isFrozen(o)) return false;
  const proto = Object.getPrototypeOf(o);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(Object.getOwnPropertyDescriptors(o)).every((d) => 'value' in d);
}

function resolveFresh(opts: DecodeOptions | undefined): ResolvedOptions {
  if (opts === undefined || opts === null) opts = {};
  if (typeof opts !== 'object') throw new TypeError(`levelkit: options must be an object, got ${typeof opts}`);
  for (const key of Object.keys(opts)) {
    if (!OPTION_NAMES.includes(key)) throw new TypeError(`levelkit: unknown option '${key}' (known: ${OPTION_NAMES.join(', ')})`);
  }
  const strict = opts.strict ?? false;
  if (typeof strict !== 'boolean') throw new TypeError(`levelkit: option 'strict' must be true or false, got ${String(strict)}`);
  const encoding = opts.encoding ?? 'windows-1252';
  if (typeof encoding !== 'string') throw new TypeError(`levelkit: option 'encoding' must be a string (a TextDecoder label)`);
  try {
    canonicalEncoding(encoding);
  } catch {
    throw new RangeError(`levelkit: option 'encoding': '${encoding}' is not a code page TextDecoder knows here (e.g. windows-1252, windows-1250, utf-8)`);
  }
  if (opts.kernels !== undefined && (typeof opts.kernels !== 'object' || opts.kernels === null)) {
    throw new TypeError(`levelkit: option 'kernels' must be a Kernels object (jsKernels, wasmKernels())`);
  }
  if (opts.onProgress !== undefined && typeof opts.onProgress !== 'function')
    throw new TypeError(`levelkit: option 'onProgress' must be a function, got ${opts.onProgress === null ? 'null' : typeof opts.onProgress}`);
  return {
    backend: oneOf('backend', opts.backend ?? 'auto', BACKENDS),
    kernels: opts.kernels,
    inflate: oneOf('inflate', opts.inflate ?? 'auto', INFLATERS),
    strict,
    limits: resolveLimits(opts.limits),
    encoding,
    sections: oneOf('sections', opts.sections ?? 'all', SECTIONS),
    layers: oneOf('layers', opts.layers ?? 'eager', LAYER_LOADING),
    onProgress: opts.onProgress,
    blocks: (opts as { [BLOCK_SOURCE]?: BlockSource })[BLOCK_SOURCE],
  };
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  const hit = allowed.find((a) => a === value);
  if (hit === undefined)
    throw new RangeError(`levelkit: option '${name}' must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${JSON.stringify(value)}`);
  return hit;
}

/** The caps with `overrides` applied; each override must be a whole number ≥ 0 (NaN would silently disable a cap). */
export function resolveLimits(overrides: Partial<Limits> | undefined): Limits {
  if (overrides === undefined) return DEFAULT_LIMITS;
  if (typeof overrides !== 'object' || overrides === null) throw new TypeError(`levelkit: option 'limits' must be an object`);
  const limits: Limits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(overrides)) {
    const name = LIMIT_NAMES.find((n) => n === key);
    if (name === undefined) throw new TypeError(`levelkit: unknown option 'limits.${key}' (known: ${LIMIT_NAMES.join(', ')})`);
    if (value === undefined) continue;
    if (typeof value !== 'number') throw new TypeError(`levelkit: option 'limits.${key}' must be a number, got ${typeof value}`);
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`levelkit: option 'limits.${key}' must be a whole number ≥ 0, got ${value}`);
    limits[name] = value;
  }
  return limits;
}
