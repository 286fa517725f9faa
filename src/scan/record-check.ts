// Checks that a value read back from a record file (`levelkit report a.jsonl …`) has the shape
// `scan` writes, before anything is counted. A record file is input like any other: a line with
// `"bytes":"12"` or `1e400` would otherwise be added as text or infinity, and one whose format is
// `__proto__` would be a key of the summary. See src/scan/README.md "Shards".
import { FORMAT_IDS } from '../index.js';
import type { ScanRecord } from './scan.js';

/** A value that is not a scan record; `message` names the field and what was wrong with it. */
export class RecordShapeError extends Error {}

/** Error and warning codes as the decoders and the scan write them: `TRUNCATED`, `LIMIT_EXCEEDED`. */
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Versions are header strings such as `GR-V1.03` or small numbers: printable ASCII, short. */
const VERSION_TEXT = /^[\x20-\x7e]{1,64}$/;

const RECORD_FIELDS = new Set([
  'path',
  'pathBytes',
  'member',
  'bytes',
  'format',
  'version',
  'summary',
  'warnings',
  'unchecked',
  'contentDigest',
  'error',
  'findings',
  'checkFacts',
]);
const WARNING_FIELDS = new Set(['code', 'message', 'offset']);
const ERROR_FIELDS = new Set(['code', 'offset', 'path', 'message']);

/**
 * `value` as a ScanRecord when it has exactly the shape scan writes; otherwise throws
 * RecordShapeError naming the first bad field. Checked: every field's type; `bytes` and offsets
 * are whole numbers from 0 to 2^53−1 (or null); `format` is a levelkit format id or null; codes
 * look like codes; digests are SHA-256 hex; no field scan does not write. `summary` is only
 * checked to be an object (and its `gridDigest`, the one part a report counts).
 */
export function checkRecord(value: unknown): ScanRecord {
  const r = object(value, 'the line');
  for (const k of Object.keys(r)) if (!RECORD_FIELDS.has(k)) fail(`unknown field ${quote(k)}`);
  text(r.path, 'path');
  if (r.path === '') fail('path is empty');
  if (r.pathBytes !== undefined && !(typeof r.pathBytes === 'string' && BASE64.test(r.pathBytes))) fail('pathBytes must be base64 text');
  if (r.member !== null) text(r.member, 'member');
  if (r.bytes !== null) count(r.bytes, 'bytes');
  if (r.format !== null && !(typeof r.format === 'string' && (FORMAT_IDS as readonly string[]).includes(r.format)))
    fail(`format must be one of ${FORMAT_IDS.join(', ')} or null; got ${shown(r.format)}`);
  if (r.contentDigest !== undefined && !(typeof r.contentDigest === 'string' && SHA256_HEX.test(r.contentDigest)))
    fail('contentDigest must be 64 lower-case hex digits');
  if (r.error !== undefined) {
    const e = object(r.error, 'error');
    for (const k of Object.keys(e)) if (!ERROR_FIELDS.has(k)) fail(`unknown field error.${quote(k)}`);
    code(e.code, 'error.code');
    if (e.offset !== null) count(e.offset, 'error.offset');
    text(e.path, 'error.path');
    text(e.message, 'error.message');
    for (const k of ['version', 'summary', 'warnings', 'unchecked'] as const) if (r[k] !== undefined) fail(`a failed file's record has no ${k}`);
    return r as unknown as ScanRecord;
  }
  if (r.format === null) {
    for (const k of ['version', 'summary', 'warnings', 'unchecked'] as const) if (r[k] !== undefined) fail(`a record of no known format has no ${k}`);
    return r as unknown as ScanRecord;
  }
  // A decoded file: version, summary and warnings are all there.
  if (typeof r.version === 'number') count(r.version, 'version');
  else if (!(typeof r.version === 'string' && VERSION_TEXT.test(r.version)))
    fail(`version must be a whole number or up to 64 printable ASCII characters; got ${shown(r.version)}`);
  const summary = object(r.summary, 'summary');
  const grid = summary.gridDigest;
  if (grid !== undefined && grid !== null && !(typeof grid === 'string' && SHA256_HEX.test(grid)))
    fail('summary.gridDigest must be 64 lower-case hex digits or null');
  if (!Array.isArray(r.warnings)) fail(`warnings must be a list; got ${shown(r.warnings)}`);
  (r.warnings as unknown[]).forEach((w, i) => {
    const o = object(w, `warnings[${i}]`);
    for (const k of Object.keys(o)) if (!WARNING_FIELDS.has(k)) fail(`unknown field warnings[${i}].${quote(k)}`);
    code(o.code, `warnings[${i}].code`);
    text(o.message, `warnings[${i}].message`);
    if (o.offset !== null) count(o.offset, `warnings[${i}].offset`);
  });
  if (r.unchecked !== undefined) {
    if (!Array.isArray(r.unchecked)) fail(`unchecked must be a list; got ${shown(r.unchecked)}`);
    (r.unchecked as unknown[]).forEach((c, i) => code(c, `unchecked[${i}]`));
  }
  return r as unknown as ScanRecord;
}

function fail(message: string): never {
  throw new RecordShapeError(message);
}

function object(v: unknown, name: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(`${name} must be a JSON object; got ${shown(v)}`);
  return v as Record<string, unknown>;
}

function text(v: unknown, name: string): void {
  if (typeof v !== 'string') fail(`${name} must be text; got ${shown(v)}`);
}

/** A byte count or offset: a whole number a float holds exactly, so sums of them stay exact. */
function count(v: unknown, name: string): void {
  if (!(typeof v === 'number' && Number.isSafeInteger(v) && v >= 0)) fail(`${name} must be a whole number from 0 to 2^53-1; got ${shown(v)}`);
}

function code(v: unknown, name: string): void {
  if (!(typeof v === 'string' && CODE.test(v))) fail(`${name} must be a code such as TRUNCATED (A-Z, 0-9, _); got ${shown(v)}`);
}

/** A value as it appeared in the JSON, shortened and with control characters escaped, for messages. */
function shown(v: unknown): string {
  const s = v === undefined ? 'nothing' : typeof v === 'number' && !Number.isFinite(v) ? String(v) : JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function quote(k: string): string {
  return shown(k);
}
