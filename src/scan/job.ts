// What a scan worker does, free of any host API so the same code runs in a Node worker thread
// (worker-node.ts) and, later, a Web Worker: the messages between the pool and its workers, and
// the step every file ends in (detect, decode to the asked depth, summarise, hash the bytes for
// duplicate finding, build the record). Reading the file is the host's (item-node.ts).
import { fileId, type IndexBatch, type LevelRowsBuilder } from '../archive-index/level-rows.js';
import { RULES } from '../check/registry.js';
import { checkLevel, type LevelCheck } from '../check/run.js';
import type { Finding, Rule } from '../check/types.js';
import {
  type AnyDecoded,
  DecodeError,
  type DecodeOptions,
  type DecodeWarning,
  decode,
  detect,
  EncodeError,
  type ErrorRecord,
  gridSignature,
  summarize,
  writeRows,
} from '../index.js';
import type { FileIdentity } from './read.js';

/** How deep a scan decodes: `cheap` = `sections: 'summary'`, `full` = every section. */
export type Depth = 'cheap' | 'full';

/**
 * Test-only fault injection (option `inject` of scan()): a file whose path or member contains
 * `hang` spins for ever in the worker, one containing `crash` kills its worker. Used to prove a
 * hung or crashed decoder is reported and replaced; never set it otherwise.
 */
export interface Inject {
  hang?: string;
  crash?: string;
}

/** One line of a scan's output. `format: null` with no `error`: a file no format recognises (listed only with `all`). */
export interface ScanRecord {
  /** The file on disk, as text (`\xNN` escapes when the name is not UTF-8; then `pathBytes` holds base64 of the exact bytes). */
  path: string;
  pathBytes?: string;
  /** The path inside the archive (`outer.zip`'s `inner.zip!/a.map` is `inner.zip/a.map`), or null for a plain file. */
  member: string | null;
  /** Size of the file or member in bytes (for a failure before reading: what the file system or zip directory says, or null). */
  bytes: number | null;
  format: string | null;
  version?: string | number;
  summary?: object;
  warnings?: { code: string; message: string; offset: number | null }[];
  /**
   * Codes of warnings this depth did not check in this file (a cheap scan leaves the blocks they
   * need deflated; `--depth full` checks them). Absent when every check ran.
   */
  unchecked?: string[];
  /** SHA-256 of the bytes (hex), for finding identical files. */
  contentDigest?: string;
  error?: ErrorRecord;
  /** With the scan's `check` setting: what the rules found in this level (`levelkit check`). */
  findings?: Finding[];
  /** With `check`: this file's facts for the rules run over all files together, by rule id. */
  checkFacts?: Record<string, unknown>;
}

/** The fields every record starts with: which file (and member) it is about. */
export type RecordBase = { path: string; pathBytes?: string; member: string | null };

/**
 * One file for a worker to read and scan. Paths travel as latin1 strings (byte for byte the
 * name: a Buffer view would carry its whole pooled slab through postMessage).
 */
export type ScanItem =
  /**
   * A file found by the walk or named by the user: the worker opens, checks and reads it. `id`: the
   * file the walk listed (device, inode), the only one the worker reads at that path; `noFollow`:
   * the listing saw no link there, so none is followed.
   */
  | { kind: 'file'; path: string; named: boolean; fault?: Fault; id?: FileIdentity; noFollow?: boolean }
  /** Bytes the scan read itself (when the caller replaced the fs functions). */
  | { kind: 'bytes'; path: string; member: string | null; bytes: Uint8Array; levelName: boolean; fault?: Fault }
  /** A zip member at a known place: the worker reads its local header and data and inflates them. */
  | ({ kind: 'member'; path: string; member: string; fault?: Fault } & MemberPlace);

/**
 * Where a zip member is: an open file descriptor of the archive (shared by the process's threads)
 * or a nested zip's bytes, and the numbers the scan's zip reader (zip.ts) checked on the main
 * thread: the layout (no overlaps, nothing in the central directory), the limits and the inflate
 * budget, all before this item was made. The worker reads the data and inflates it to exactly `size`.
 */
export interface MemberPlace {
  source: { fd: number; size: number } | { shared: SharedArrayBuffer; size: number };
  /** Offset of the member's data in the source (past its local header). */
  dataStart: number;
  compressedSize: number;
  /** Uncompressed size the central directory declares. */
  size: number;
  method: number;
  /** How deep its archive is nested (1: a zip on disk). */
  level: number;
  /** Return the inflated bytes themselves (a nested zip about to be listed), not a record. */
  open?: boolean;
}

export type Fault = 'hang' | 'crash';

/** What every item of a batch is scanned with. */
export interface ScanConfig {
  depth: Depth;
  decode: DecodeOptions;
  maxBytes: number;
  all: boolean;
  /** Files never read (the scan's own outputs), matched on the open handle. */
  exclude?: readonly FileIdentity[];
  /** Writing an archive index (`--index`): each decoded level's rows are added, under ids made from `run`. */
  index?: { run: string; digests?: SharedArrayBuffer | ArrayBuffer };
  /** Running check rules on each level after its full-depth decode (`levelkit check`): the rule ids (all when absent). */
  check?: { rules?: string[] };
}

/** One message to a worker: several items, scanned in order. `C`: what every item is worked on with (a scan's ScanConfig; render's job). */
export interface BatchMessage<C = ScanConfig> {
  batch: number;
  items: ScanItem[];
  config: C;
  /** Int32 slots the worker writes as it goes (see PROGRESS_*), read by the pool on a timeout or crash. */
  progress: SharedArrayBuffer;
  /** The pool's clock origin (performance.timeOrigin + performance.now() in ms) for PROGRESS_STARTED. */
  epoch: number;
}

/** The answer for one item. */
export type ItemResult =
  | { record: ScanRecord }
  /** A record as the text of its JSON line (what workers send: see line.ts). */
  | { line: string }
  /** A file that is a zip archive: the scan opens it and lists its members. */
  | { zip: true }
  /** A file the scan must not read (one of `exclude`): it has no record. */
  | { excluded: true }
  /** A member that is itself a zip: the scan asks for its bytes again (`open`) when it can hold them. */
  | { nestedZip: true }
  /** The bytes of a member asked for with `open`. */
  | { opened: SharedArrayBuffer; size: number };

/** Milliseconds a worker spent per stage, summed over items. */
export interface StageTimes {
  read: number;
  detect: number;
  decode: number;
  hash: number;
  record: number;
}

export function noStageTimes(): StageTimes {
  return { read: 0, detect: 0, decode: 0, hash: 0, record: 0 };
}

/** A worker's answers for `results.length` items of `batch` from index `from`; `done` on the last message of the batch. `R`: an item's answer (a scan's ItemResult). */
export interface BatchResult<R = ItemResult> {
  batch: number;
  from: number;
  /** One per item answered, in order; null: the item's record is the next line of `lines` (a scan's answers only). */
  results: (R | null)[];
  /**
   * The JSON lines (line.ts) of the items whose result is null, joined by newlines (JSON text
   * has none of its own): one string crosses threads several times cheaper than one object per record.
   */
  lines: string;
  done: boolean;
  /** With `config.index`: the index rows of the levels answered in this message (level-rows.ts). */
  index?: IndexBatch;
  stages: StageTimes;
  /** The worker thread's CPU time so far (ms, start-up included), where the host can tell; else -1. */
  cpuMs: number;
}

// The progress slots (Int32) a worker writes before each item: which batch, which item, and when
// it started (ms since `epoch` of the pool, so both threads read the same clock).
export const PROGRESS_BATCH = 0;
export const PROGRESS_INDEX = 1;
export const PROGRESS_STARTED = 2;
/** Which check rule the item is in (its index in RULES + 1; 0 while decoding), so a TIMEOUT names the rule that ran out of time. */
export const PROGRESS_RULE = 3;
export const PROGRESS_SLOTS = 4;

/** The running worker's progress slots (the worker loop sets them per batch; null outside a worker). */
let progressSlots: Int32Array | null = null;

/** Makes scanBytes() mark in `slots` which check rule it runs. */
export function markRulesIn(slots: Int32Array | null): void {
  progressSlots = slots;
}

function markRule(rule: Rule | null): void {
  if (progressSlots) Atomics.store(progressSlots, PROGRESS_RULE, rule ? RULES.indexOf(rule) + 1 : 0);
}

/** One file's bytes for a worker (the single-file form, also what the in-process reference scan runs). */
export interface JobMessage {
  id: number;
  bytes: Uint8Array;
  depth: Depth;
  decode: DecodeOptions;
  /** Set by the pool only when the test-only injection matched this file. */
  fault?: Fault;
  /**
   * Decode with `layers: 'lazy'` first (the index's rows read one deflated block at a time); a
   * DecodeError there or in `onValue` decodes again eagerly, which gives the file's error as a scan
   * without the index gives it. Only for a full-depth job whose onValue reads blocks uncached.
   */
  lazy?: true;
}

/** What a worker finds in one file's bytes. */
export type JobResult =
  | {
      id: number;
      ok: {
        format: string;
        version: string | number;
        summary: object;
        warnings: { code: string; message: string; offset: number | null }[];
        unchecked?: string[];
      };
      contentDigest: string;
    }
  | { id: number; error: ErrorRecord; format: string | null; contentDigest: string };

/** A decoded file's record fields: its summary, the decode's warnings, then those of summarize() (a field it cut). */
export function summaryFields(value: AnyDecoded): Extract<JobResult, { ok: unknown }>['ok'] {
  const s = summarize(value);
  const w = warningFields(value);
  const warnings = [...w.warnings, ...(s.warnings ?? []).map(({ code, message, offset }) => ({ code, message, offset: offset ?? null }))];
  return { format: value.format, version: s.version, summary: s.summary, warnings, ...(w.unchecked ? { unchecked: w.unchecked } : {}) };
}

/** Decodes `job.bytes`; never throws (a decoder bug becomes an INTERNAL error result). `hash`: hex SHA-256. `times`, when given, gets the hash and decode time added. */
export function runJob(job: JobMessage, hash: (bytes: Uint8Array) => string, exit: () => void, times?: StageTimes, onValue?: OnValue): JobResult {
  if (job.fault === 'hang')
    for (;;) {
      /* test-only: a decoder stuck in a loop */
    }
  if (job.fault === 'crash') exit();
  const t0 = performance.now();
  const contentDigest = hash(job.bytes);
  const t1 = performance.now();
  try {
    if (job.lazy) {
      const ok = decodedLazily(job, onValue);
      if (ok) return { id: job.id, ok, contentDigest };
    }
    const value = decode(job.bytes, decodeOptionsOf(job.decode, job.depth));
    const then = onValue?.(value);
    const ok = summaryFields(value);
    then?.(ok.summary);
    return { id: job.id, ok, contentDigest };
  } catch (e) {
    if (e instanceof DecodeError) return { id: job.id, error: e.toJSON(), format: e.format === 'unknown' ? null : e.format, contentDigest };
    if (e instanceof EncodeError) return { id: job.id, error: e.toJSON(), format: null, contentDigest };
    return {
      id: job.id,
      error: { code: 'INTERNAL', offset: null, path: '', message: `levelkit bug: ${String((e as Error)?.stack ?? e)}` },
      format: null,
      contentDigest,
    };
  } finally {
    if (times) {
      times.hash += t1 - t0;
      times.decode += performance.now() - t1;
    }
  }
}

/**
 * runJob's lazy attempt: the record's fields, or undefined when the file (or one of its deferred
 * blocks, read by onValue) fails to decode, to be decoded again eagerly. Which error an eager
 * decode meets first depends on its order of reading, so the eager decode is what names it: a
 * scan's records are the same with or without `lazy`, and so are the rows added for them
 * (onValue adds a level's rows only once everything it reads has been read).
 */
function decodedLazily(job: JobMessage, onValue: OnValue | undefined): JobResultOk | undefined {
  try {
    const value = decode(job.bytes, decodeOptionsOf(job.decode, job.depth, true));
    // onValue reads the deferred grids first: a Teeworlds map's warnings then take each grid's
    // from that read instead of inflating it a second time (teeworlds/README.md §Memory).
    const then = onValue?.(value);
    const ok = summaryFields(value);
    then?.(ok.summary);
    return ok;
  } catch (e) {
    if (e instanceof DecodeError) return undefined;
    throw e;
  }
}

type JobResultOk = Extract<JobResult, { ok: unknown }>['ok'];

/**
 * What a scan does with a decoded level besides its record (check it, make its index rows): called
 * before the record's fields are made, it returns what to do once the summary is known.
 */
export type OnValue = (value: AnyDecoded) => ((summary: object) => void) | undefined;

/** A decoded value's warnings as records hold them, and `unchecked` when its depth left checks out. */
export function warningFields(value: { warnings: readonly DecodeWarning[]; uncheckedWarnings?: string[] }): {
  warnings: { code: string; message: string; offset: number | null }[];
  unchecked?: string[];
} {
  const warnings = value.warnings.map(({ code, message, offset }) => ({ code, message, offset: offset ?? null }));
  return value.uncheckedWarnings?.length ? { warnings, unchecked: value.uncheckedWarnings } : { warnings };
}

/**
 * The options every file of a scan is decoded with, built once per (options, depth) and frozen:
 * decode() then validates them once, not per file (see resolveOptions). A worker receives the
 * scan's options as a new copy with every batch, so they are also known by their JSON text.
 */
function decodeOptionsOf(given: DecodeOptions, depth: Depth, lazy = false): DecodeOptions {
  let byDepth = optionsOfObject.get(given);
  if (!byDepth) {
    const text = JSON.stringify(given);
    byDepth = optionsOfText.get(text);
    if (!byDepth) {
      byDepth = {};
      // One entry per distinct options a process scans with: a scan has one.
      if (optionsOfText.size >= 16) optionsOfText.clear();
      optionsOfText.set(text, byDepth);
    }
    optionsOfObject.set(given, byDepth);
  }
  const key = lazy ? 'full-lazy' : depth;
  let options = byDepth[key];
  if (!options) {
    options = Object.freeze({
      ...given,
      ...(given.limits ? { limits: Object.freeze({ ...given.limits }) } : {}),
      sections: depth === 'cheap' ? ('summary' as const) : ('all' as const),
      ...(lazy ? { layers: 'lazy' as const } : {}),
    });
    byDepth[key] = options;
  }
  return options;
}

type OptionsByDepth = Partial<Record<Depth | 'full-lazy', DecodeOptions>>;
const optionsOfObject = new WeakMap<DecodeOptions, OptionsByDepth>();
const optionsOfText = new Map<string, OptionsByDepth>();

/** As many bytes as content detection looks at. */
export const DETECT_BYTES = 64;

/**
 * The record of a file or member whose bytes were read: to the decoder when a format may claim
 * them, else UNKNOWN_FORMAT (`levelName`: named like a level, or named by the user) or a record
 * of no known format.
 */
export function scanBytes(
  base: RecordBase,
  bytes: Uint8Array,
  levelName: boolean,
  config: ScanConfig,
  fault: Fault | undefined,
  hash: (bytes: Uint8Array) => string,
  exit: () => void,
  times: StageTimes,
  index?: LevelRowsBuilder,
): ScanRecord {
  const t0 = performance.now();
  const known = detect(bytes.subarray(0, DETECT_BYTES)) !== undefined;
  times.detect += performance.now() - t0;
  if (!known) {
    if (levelName)
      return {
        ...base,
        bytes: bytes.length,
        format: null,
        error: errorFields('UNKNOWN_FORMAT', 'named like a level, but no levelkit format recognises its content'),
      };
    return { ...base, bytes: bytes.length, format: null };
  }
  let checked: LevelCheck | undefined;
  const indexed = config.index && index;
  const onValue: OnValue | undefined =
    indexed || config.check
      ? (v) => {
          if (config.check) {
            checked = checkLevel(v, config.check.rules, markRule);
            markRule(null);
          }
          return indexed ? rowsOf(index, fileId(config.index!.run, base.path, base.member, hash), v, config.decode) : undefined;
        }
      : undefined;
  // Indexed without checks, a level is only summarized and turned into rows, both of which read its
  // deflated blocks one at a time: decoded lazily, the largest maps hold one grid, not all of them.
  const lazy = indexed && !config.check && config.depth === 'full';
  const answer = runJob(
    { id: 0, bytes, depth: config.depth, decode: config.decode, ...(fault ? { fault } : {}), ...(lazy ? { lazy: true as const } : {}) },
    hash,
    exit,
    times,
    onValue,
  );
  const t1 = performance.now();
  const record = recordOf(base, bytes.length, answer);
  if (checked) {
    record.findings = checked.findings;
    if (checked.facts) record.checkFacts = checked.facts;
  }
  times.record += performance.now() - t1;
  return record;
}

/**
 * A decoded level's index rows, and what adds them to `index` with the summary. A failure here is
 * levelkit's bug, not the file's: the record stands, and the index says so in the file's warnings
 * instead of losing the scan. A DecodeError is the file's (a lazy level's deferred block that
 * fails to inflate): it propagates, and runJob decodes the file again eagerly.
 */
function rowsOf(index: LevelRowsBuilder, id: string, value: AnyDecoded, options: DecodeOptions): (summary: object) => void {
  const failed = (e: unknown) => {
    if (e instanceof DecodeError) throw e;
    index.addFailure(id, 'INDEX_ROWS_FAILED', `levelkit bug: ${String((e as Error)?.message ?? e)}`);
  };
  let finish: (summary: object, signature: string | null) => void;
  try {
    finish = index.addLevel(id, value.format, (sink) => writeRows(value, sink));
  } catch (e) {
    failed(e);
    return () => {};
  }
  return (summary) => {
    try {
      finish(summary, signatureOf(value, summary, options));
    } catch (e) {
      failed(e);
    }
  };
}

/**
 * The level's grid signature for levels.grid_signature (archive-index/families.ts): made only for
 * the index, only for a grid that has a grid_digest (not blank), with the kernels of its decode.
 */
function signatureOf(value: AnyDecoded, summary: object, options: DecodeOptions): string | null {
  if (typeof (summary as { gridDigest?: unknown }).gridDigest !== 'string') return null;
  return gridSignature(value, options);
}

export function errorFields(code: string, message: string): ErrorRecord {
  return { code, offset: null, path: '', message };
}

/** A decoder's answer as the file's record (the key order is the JSON line's). Built field by field: a spread of `base` cost more than the rest of the record. */
export function recordOf(base: RecordBase, size: number, a: JobResult): ScanRecord {
  const r: ScanRecord = startRecord(base, size, 'ok' in a ? a.ok.format : a.format);
  if ('ok' in a) {
    r.version = a.ok.version;
    r.summary = a.ok.summary;
    r.warnings = a.ok.warnings;
    if (a.ok.unchecked) r.unchecked = a.ok.unchecked;
    r.contentDigest = a.contentDigest;
  } else {
    r.contentDigest = a.contentDigest;
    r.error = a.error;
  }
  return r;
}

function startRecord(base: RecordBase, bytes: number | null, format: string | null): ScanRecord {
  return base.pathBytes === undefined
    ? { path: base.path, member: base.member, bytes, format }
    : { path: base.path, pathBytes: base.pathBytes, member: base.member, bytes, format };
}

/** Why a file has no answer from its worker: it hung past its time limit, or its worker died (`outOfMemory`: at its heap limit). */
export type LostItem = { timeout: number; rule?: number } | { crashed: string; outOfMemory?: true };

/** What ran out of time: check rule number `rule` (PROGRESS_RULE), or the decoding. */
function timedOut(rule: number | undefined): string {
  const id = rule ? RULES[rule - 1]?.id : undefined;
  return id ? `check rule ${id}` : 'decoding';
}

/** The record of a file whose worker hung past its time limit or died; `memoryMb`: the workers' heap limit (--worker-memory), if one was given. */
export function lostRecord(base: RecordBase, size: number | null, lost: LostItem, memoryMb?: number): ScanRecord {
  if ('timeout' in lost)
    return {
      ...base,
      bytes: size,
      format: null,
      error: errorFields('TIMEOUT', `${timedOut(lost.rule)} took longer than ${lost.timeout} ms (--timeout); its worker was replaced`),
    };
  if (lost.outOfMemory)
    return {
      ...base,
      bytes: size,
      format: null,
      error: errorFields(
        'LIMIT_EXCEEDED',
        `decoding needed more memory than a worker may use (${memoryMb === undefined ? 'the limit Node gives it' : `${memoryMb} MiB`}, --worker-memory); its worker was replaced`,
      ),
    };
  return { ...base, bytes: size, format: null, error: errorFields('WORKER_CRASHED', `the worker decoding this file died (${lost.crashed}); it was replaced`) };
}
