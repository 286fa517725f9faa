// Bounds on what summarize() returns, shared by every format (through define.ts). A summary's
// strings come from the file (a cartridge name, a map's credits), and one scan record is one JSON
// line: a 100 MB name made `info` crash V8 and a 12 MB one a 72 MB line that `report` refuses.

import type { DecodeWarning } from '../core/errors.js';

/** Longest summary string kept whole, in UTF-16 code units; a longer one is cut and ends with `…`. */
export const MAX_SUMMARY_STRING = 4096;
/**
 * What one summary may hold in all, counted as string and key lengths plus one per value (in
 * UTF-16 code units): past it, strings are cut to `…` and lists and dictionaries (counts keyed by
 * labels) lose their rest; the summary's own fields are always there.
 * JSON escapes a unit as at most 6 characters, so a record's summary stays under ~400 KB.
 */
export const MAX_SUMMARY_UNITS = 64 * 1024;

const ELLIPSIS = '…';

/** The warning a summary carries when a bound cut it: `path` names the field (`summary.name`). */
export type SummaryWarningCode = 'SUMMARY_TRUNCATED';

/** Optional bounds (tests lower them to exercise the mechanism cheaply). */
export interface SummaryBounds {
  maxString?: number;
  maxUnits?: number;
}

/**
 * `{ version, summary }` with every string at most `maxString` units and the whole within
 * `maxUnits`, plus one SUMMARY_TRUNCATED warning per field it cut (in `warnings`, which is
 * absent when nothing was cut). Objects are returned as they are when nothing in them was cut;
 * a cut one is copied with its prototype (dictionaries stay prototype-free). Never mutates.
 */
export function boundSummary<T extends { version: string | number; summary: object }>(
  value: T,
  bounds: SummaryBounds = {},
): T & { warnings?: DecodeWarning<SummaryWarningCode>[] } {
  const state: Budget = { maxString: bounds.maxString ?? MAX_SUMMARY_STRING, left: bounds.maxUnits ?? MAX_SUMMARY_UNITS, warnings: [] };
  const version = bounded(value.version, 'version', state) as T['version'];
  const summary = bounded(value.summary, 'summary', state) as T['summary'];
  if (state.warnings.length === 0) return value;
  return { ...value, version, summary, warnings: state.warnings };
}

interface Budget {
  maxString: number;
  left: number;
  warnings: DecodeWarning<SummaryWarningCode>[];
}

function bounded(v: unknown, path: string, b: Budget): unknown {
  if (typeof v === 'string') return boundedString(v, path, b);
  if (v === null || typeof v !== 'object') {
    b.left--;
    return v;
  }
  if (Array.isArray(v)) return boundedList(v, path, b);
  const proto = Object.getPrototypeOf(v);
  if (proto === null || proto === Object.prototype) return boundedObject(v as Record<string, unknown>, path, b);
  b.left--; // no format puts anything else in a summary; never taken apart
  return v;
}

function boundedString(s: string, path: string, b: Budget): string {
  const room = Math.min(b.maxString, Math.max(b.left, 1));
  if (s.length <= room) {
    b.left -= Math.max(s.length, 1);
    return s;
  }
  let end = room - ELLIPSIS.length;
  // Never split a surrogate pair: half of one is not text, and JSON writes it as an escape.
  if (end > 0 && isHighSurrogate(s.charCodeAt(end - 1))) end--;
  const cut = s.slice(0, Math.max(end, 0)) + ELLIPSIS;
  b.left -= cut.length;
  warn(b, path, `${s.length} characters, cut to ${cut.length}`);
  return cut;
}

function boundedList(list: unknown[], path: string, b: Budget): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    if (b.left <= 0) {
      warn(b, path, `${list.length} entries, ${list.length - i} left out`);
      return (out ?? list).slice(0, i);
    }
    const item = list[i];
    const kept = bounded(item, `${path}[${i}]`, b);
    if (kept !== item) out ??= list.slice();
    if (out) out[i] = kept;
  }
  return out ?? list;
}

function boundedObject(obj: Record<string, unknown>, path: string, b: Budget): Record<string, unknown> {
  const keys = Object.keys(obj);
  // Counts keyed by labels from the file are dictionary()s (no prototype): those may lose their
  // rest like a list. A summary's own records keep every field, so its shape never changes.
  const droppable = Object.getPrototypeOf(obj) === null;
  let out: Record<string, unknown> | undefined;
  const copy = (upTo: number) => {
    const c = Object.create(Object.getPrototypeOf(obj)) as Record<string, unknown>;
    for (let j = 0; j < upTo; j++) c[keys[j]!] = obj[keys[j]!];
    return c;
  };
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (droppable && (b.left - key.length <= 0 || key.length > b.maxString)) {
      warn(b, path, `${keys.length} entries, ${keys.length - i} left out`);
      return out ?? copy(i);
    }
    b.left -= key.length;
    const item = obj[key];
    const kept = bounded(item, `${path}.${key}`, b);
    if (kept !== item) out ??= copy(i);
    if (out) out[key] = kept;
  }
  return out ?? obj;
}

function warn(b: Budget, path: string, what: string): void {
  b.warnings.push({ code: 'SUMMARY_TRUNCATED', message: `${path}: ${what} (summaries are bounded so that a record stays small)`, path });
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}
