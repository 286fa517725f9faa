// The messages between the scan's pool and its workers: what a batch carries (items, config,
// progress slots), what comes back (each item's answer, the stage times, index rows), the
// single-file form (JobMessage, JobResult), and the record a scan yields for each file.
import type { IndexBatch } from '../archive-index/level-rows.js';
import type { Finding } from '../check/types.js';
import type { DecodeOptions, ErrorRecord } from '../index.js';
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
