// One record per file: what a scan prints, as JSON lines or as text. A file either decodes to
// {file, format, version, summary, warnings} or fails with {file, error: {code, offset, path, message}}.
// See README "Command line" for the contract.
import {
  DecodeError,
  type DecodeOptions,
  decode,
  detect,
  EncodeError,
  type EncodeErrorCode,
  type ErrorCode,
  type ErrorRecord as ErrorFields,
  type FormatId,
  LEVEL_EXTENSIONS,
} from '../index.js';
import { summaryFields } from './job.js';
import { extOf, fileFields, pathBytes } from './names.js';
import { ioFailure, type ReadFailureCode, type ReadFs, readFileSafe } from './read.js';
import type { WalkEntry } from './walk.js';
import { OutputError } from './write.js';
import { isZipHead } from './zip-directory.js';

/**
 * Error codes of records: the decoder's, plus the scan's own. `UNKNOWN_FORMAT`: a file found in
 * a folder whose extension promises a level but whose content no format recognises. `INTERNAL`:
 * a levelkit bug met on this file. `NOT_SUPPORTED`: a level this command does not handle.
 * `UNENCODABLE`: the level cannot be written in the asked format. `OUTPUT_EXISTS`, `OUTPUT_CLASH`:
 * a command refused to write (an output is there already; two inputs would write one output).
 * `UNSAFE_PATH`: an output would leave its folder (a symbolic link or a file where a folder
 * should be, a name with `..`). `CORRUPT_ARCHIVE`: a zip of levels (or a member) that cannot be read, as in scan records.
 * `NOT_FOUND`: `archive.zip::member` names no member of the archive.
 */
export type RecordCode =
  | ErrorCode
  | EncodeErrorCode
  | ReadFailureCode
  | 'UNKNOWN_FORMAT'
  | 'INTERNAL'
  | 'NOT_SUPPORTED'
  | 'UNENCODABLE'
  | 'OUTPUT_EXISTS'
  | 'OUTPUT_CLASH'
  | 'UNSAFE_PATH'
  | 'CORRUPT_ARCHIVE'
  | 'NOT_FOUND';

/** `offset`: null when the fault has no one place in the file (IO errors, most encode errors). */
export interface RecordWarning {
  code: string;
  message: string;
  offset: number | null;
}

/**
 * `fileBytes`: base64 of the name's bytes, present only when the name is not valid UTF-8 (then
 * `file` has `\xNN` escapes). `member`: the level's path inside the zip `file` (nested zips joined
 * with `/`, as scan records name them), absent for a plain file. `unchecked`: codes of warnings
 * the summary decode did not check (a full decode may give them); absent when every check ran.
 */
export type OkRecord = {
  file: string;
  fileBytes?: string;
  member?: string;
  format: FormatId;
  version: string | number;
  summary: object;
  warnings: RecordWarning[];
  unchecked?: string[];
};
export type FailedRecord = { file: string; fileBytes?: string; member?: string; error: ErrorFields };
export type FileRecord = OkRecord | FailedRecord;

export function errorRecord(path: Buffer, code: RecordCode, message: string): FailedRecord {
  return { ...fileFields(path), error: { code, offset: null, path: '', message } };
}

/** A level file's extension (`.wwd`…), from the formats' own declarations. */
function hasLevelExtension(ext: string): boolean {
  return LEVEL_EXTENSIONS.includes(ext);
}

/** A thrown value as this file's error record: decode errors and fs errors keep their code; anything else is ours. */
export function recordFromError(path: Buffer, e: unknown): FailedRecord {
  return { ...fileFields(path), error: errorOf(e) };
}

/** A thrown value as a record's `error` (see recordFromError); also what a render worker sends back. */
export function errorOf(e: unknown): ErrorFields {
  if (e instanceof DecodeError || e instanceof EncodeError) return e.toJSON();
  const fields = (code: RecordCode, message: string): ErrorFields => ({ code, offset: null, path: '', message });
  if (e instanceof OutputError) return fields(e.code, e.message);
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err.code === 'string' && err.syscall) return fields('IO', ioFailure(e).message);
  // A decoder bug must not cost a bulk scan the rest of its files: it is this file's failure
  // (exit 2) with a code that says it is ours, not the file's.
  return fields('INTERNAL', `levelkit bug: ${String((e as Error)?.stack ?? e)}`);
}

export interface LoadOptions {
  maxBytes: number;
  fs?: ReadFs;
  /** Answer 'zip' (reading only the head) for a zip not named like a level, as scan tells a zip of levels from a `.gwz`. */
  archives?: boolean;
}

/**
 * The bytes of a walked or named file, or its error record, or 'unrecognised' for a file found
 * in a folder that is neither a known format nor named like a level (counted, not reported).
 * A named file is always read whole, so its decode error says what is wrong with it.
 */
export function loadFile(entry: Extract<WalkEntry, { kind: 'file' }>, opts: LoadOptions): { bytes: Uint8Array } | FailedRecord | 'unrecognised' | 'zip' {
  const levelName = hasLevelExtension(extOf(entry.path));
  let zip = false;
  const wanted = (head: Uint8Array) => {
    zip = opts.archives === true && !levelName && isZipHead(head);
    return !zip && (entry.named || levelName || detect(head) !== undefined);
  };
  const r = readFileSafe(entry.path, {
    maxBytes: opts.maxBytes,
    ...(opts.fs ? { fs: opts.fs } : {}),
    ...(entry.named && !opts.archives ? {} : { wanted }),
  });
  if (zip) return 'zip';
  // No exclusions are asked for here, so `excluded` cannot come back; it would count as unrecognised.
  if ('unwanted' in r || 'excluded' in r) return 'unrecognised';
  if ('failure' in r) return errorRecord(entry.path, r.failure.code, r.failure.message);
  if (!entry.named && detect(r.bytes) === undefined) {
    return errorRecord(entry.path, 'UNKNOWN_FORMAT', 'named like a level, but no levelkit format recognises its content');
  }
  return r;
}

/** Decodes just enough for the summary (`sections: 'summary'`) and builds the record. */
export function summaryRecord(path: Buffer, bytes: Uint8Array, opts: DecodeOptions): FileRecord {
  try {
    const value = decode(bytes, { ...opts, sections: 'summary' });
    return { ...fileFields(path), ...summaryFields(value), format: value.format };
  } catch (e) {
    return recordFromError(path, e);
  }
}

/** A file the user named (commands that take one file): its bytes or its error record. */
export function loadNamed(path: string | Buffer, opts: LoadOptions): { bytes: Uint8Array } | FailedRecord {
  const p = pathBytes(path);
  // A named file is never 'unrecognised': that answer is only for files found in folders.
  return loadFile({ kind: 'file', path: p, rel: p, named: true }, { ...opts, archives: false }) as { bytes: Uint8Array } | FailedRecord;
}
