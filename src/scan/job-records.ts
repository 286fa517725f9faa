// The record a scan yields for a file: from what its job answered (recordOf), with an error found
// outside the decoder (errorFields), or with no answer at all: a worker that hung or died (lostRecord).
import { RULES } from '../check/registry.js';
import type { ErrorRecord } from '../index.js';
import type { JobResult, RecordBase, ScanRecord } from './messages.js';

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
