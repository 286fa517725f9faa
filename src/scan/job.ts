// What a scan worker does, free of any host API so the same code runs in a Node worker thread
// (worker-node.ts) and, later, a Web Worker: the step every file ends in (detect, decode to the
// asked depth, summarise, hash the bytes for duplicate finding, build the record). The messages
// between the pool and its workers are messages.ts's, the records job-records.ts's; both are
// re-exported here. Reading the file is the host's (item-node.ts).
import { fileId, type LevelRowsBuilder } from '../archive-index/level-rows.js';
import { RULES } from '../check/registry.js';
import { checkLevel, type LevelCheck } from '../check/run.js';
import type { Rule } from '../check/types.js';
import {
  type AnyDecoded,
  DecodeError,
  type DecodeOptions,
  type DecodeWarning,
  decode,
  detect,
  EncodeError,
  gridSignature,
  summarize,
  writeRows,
} from '../index.js';
import { errorFields, recordOf } from './job-records.js';
import {
  type Depth,
  type Fault,
  type JobMessage,
  type JobResult,
  PROGRESS_RULE,
  type RecordBase,
  type ScanConfig,
  type ScanRecord,
  type StageTimes,
} from './messages.js';

// Importers keep finding the messages and records here, where they were before these files.
export * from './job-records.js';
export * from './messages.js';

/** The running worker's progress slots (the worker loop sets them per batch; null outside a worker). */
let progressSlots: Int32Array | null = null;

/** Makes scanBytes() mark in `slots` which check rule it runs. */
export function markRulesIn(slots: Int32Array | null): void {
  progressSlots = slots;
}

function markRule(rule: Rule | null): void {
  if (progressSlots) Atomics.store(progressSlots, PROGRESS_RULE, rule ? RULES.indexOf(rule) + 1 : 0);
}

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
