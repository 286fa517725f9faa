// The summary of a scan, built from its records alone so that shard outputs merged later
// (`levelkit report a.jsonl b.jsonl`) give the same summary one big run gives. Only the timing
// comes from the run itself.
import { DigestCounts } from './digest-counts.js';
import { printable } from './names.js';
import type { ScanRecord } from './scan.js';

export interface ScanReport {
  /** Records counted (files and members; unknown files only when they were listed with `all`). */
  files: number;
  /** Bytes of those files. */
  bytes: number;
  /**
   * Decoded files per format, and per version within it. This and the other tables keyed by text
   * from files (`versions`, `errors`, `warnings`) are objects without a prototype, so a key such as
   * `__proto__` or `constructor` is an ordinary entry (use `Object.hasOwn`, not `.hasOwnProperty`).
   */
  formats: Record<string, { files: number; versions: Record<string, number> }>;
  /** Files of no known format that were listed (`--all`). */
  unknown: number;
  /** Failed files per error code. */
  errors: Record<string, number>;
  /** Warnings per code. */
  warnings: Record<string, number>;
  /**
   * Files per warning code whose check their scan's depth did not run (records' `unchecked`: a
   * cheap scan leaves the blocks those checks need deflated). `warnings` counts none of these
   * files for that code, so it is a lower bound there; `--depth full` checks them.
   */
  unchecked: Record<string, number>;
  /** Groups of files sharing a digest (groups with 2 or more files) and the files in them. */
  duplicates: { contentDigest: { groups: number; files: number }; gridDigest: { groups: number; files: number } };
  /** Lines of record files that were not valid records and were skipped (`levelkit report --lenient` only). */
  skippedLines?: number;
  /** Wall time and throughput of the run; absent for a report merged from record files. */
  timing?: { seconds: number; filesPerSecond: number; megabytesPerSecond: number };
}

/**
 * Builds a report incrementally; `reportOf` is the one-call form. Every count keyed by a record's
 * text (format, version, codes) is kept in a Map: record files are input like any other, and a
 * format named `__proto__` must be counted, not written onto Object.prototype.
 */
export class ReportBuilder {
  private files = 0;
  private bytes = 0;
  private unknown = 0;
  private skipped: number | undefined;
  private readonly formats = new Map<string, { files: number; versions: Map<string, number> }>();
  private readonly errors = new Map<string, number>();
  private readonly warnings = new Map<string, number>();
  private readonly unchecked = new Map<string, number>();
  /** Files per digest, for the duplicate groups: typed arrays, not strings (digest-counts.ts), as a scan meets one per file. */
  private readonly content = new DigestCounts();
  private readonly grid = new DigestCounts();
  private readonly errorExamples = new Map<string, Examples>();
  private readonly warningExamples = new Map<string, Examples>();

  /** Counts one record. Throws RangeError, counting nothing, when its bytes would make the total inexact (past 2^53−1). */
  add(rec: ScanRecord): void {
    const bytes = this.bytes + (rec.bytes ?? 0);
    if (!Number.isSafeInteger(bytes) || bytes < 0) throw new RangeError(`the total of bytes would be ${bytes}, not a whole number below 2^53`);
    this.files++;
    this.bytes = bytes;
    if (rec.error) {
      bump(this.errors, rec.error.code);
      keepExample(this.errorExamples, rec.error.code, recordName(rec));
    } else if (rec.format === null) this.unknown++;
    else {
      let f = this.formats.get(rec.format);
      if (!f) {
        f = { files: 0, versions: new Map() };
        this.formats.set(rec.format, f);
      }
      f.files++;
      bump(f.versions, String(rec.version));
      for (const w of rec.warnings ?? []) bump(this.warnings, w.code);
      for (const code of new Set(rec.warnings?.map((w) => w.code))) keepExample(this.warningExamples, code, recordName(rec));
      for (const code of rec.unchecked ?? []) bump(this.unchecked, code);
      const grid = (rec.summary as { gridDigest?: unknown } | undefined)?.gridDigest;
      if (typeof grid === 'string') this.grid.add(grid);
    }
    if (rec.contentDigest) this.content.add(rec.contentDigest);
  }

  /** Counts a line of a record file that was skipped as invalid; the report then has `skippedLines`. */
  skip(): void {
    this.skipped = (this.skipped ?? 0) + 1;
  }

  /** Makes `skippedLines` part of the report even when no line was skipped (`report --lenient` says how many, 0 included). */
  countSkipped(): void {
    this.skipped ??= 0;
  }

  /**
   * A few files per error and warning code, for the table (reportTable): the first EXAMPLES by
   * name, so shards merged in any order, or a scan finishing in any order, name the same ones.
   * Not part of the report itself, whose size must not grow with the files.
   */
  examples(): ReportExamples {
    return { errors: sortedTable(this.errorExamples, (v) => v), warnings: sortedTable(this.warningExamples, (v) => v) };
  }

  /** The report; `seconds` (wall time of the run) adds the timing. */
  build(seconds?: number): ScanReport {
    const formats = sortedTable(this.formats, (f) => ({ files: f.files, versions: sortedTable(f.versions, (n) => n) }));
    const out: ScanReport = {
      files: this.files,
      bytes: this.bytes,
      formats,
      unknown: this.unknown,
      errors: sortedTable(this.errors, (n) => n),
      warnings: sortedTable(this.warnings, (n) => n),
      unchecked: sortedTable(this.unchecked, (n) => n),
      duplicates: { contentDigest: this.content.groups(), gridDigest: this.grid.groups() },
    };
    if (this.skipped !== undefined) out.skippedLines = this.skipped;
    if (seconds !== undefined) {
      out.timing = {
        seconds: round(seconds, 3),
        filesPerSecond: round(out.files / Math.max(seconds, 1e-9), 1),
        megabytesPerSecond: round(out.bytes / 2 ** 20 / Math.max(seconds, 1e-9), 2),
      };
    }
    return out;
  }
}

/** The summary of `records` (any iterable, e.g. several shards' records one after another). */
export function reportOf(records: Iterable<ScanRecord>, seconds?: number): ScanReport {
  const b = new ReportBuilder();
  for (const r of records) b.add(r);
  return b.build(seconds);
}

/** Per code: how many files have it, and the first few of them by name. */
export interface Examples {
  files: number;
  first: string[];
}

/** Files named under each error and warning code in the table. */
export interface ReportExamples {
  errors: Record<string, Examples>;
  warnings: Record<string, Examples>;
}

/** Files named per code in the table. */
export const EXAMPLES = 3;

/** How a record names its file for people: the path, and for a zip member `path!/member`. */
export function recordName(rec: Pick<ScanRecord, 'path' | 'member'>): string {
  return rec.member === null ? rec.path : `${rec.path}!/${rec.member}`;
}

/** Counts a file under `code` and keeps the EXAMPLES smallest names (code-unit order), whatever order they come in. */
function keepExample(m: Map<string, Examples>, code: string, name: string): void {
  let e = m.get(code);
  if (!e) {
    e = { files: 0, first: [] };
    m.set(code, e);
  }
  e.files++;
  const list = e.first;
  if (list.length === EXAMPLES && name >= list[EXAMPLES - 1]!) return;
  list.push(name);
  list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (list.length > EXAMPLES) list.pop();
}

/**
 * The summary as the table printed at the end of a scan (text from records has its control
 * characters escaped); with `examples`, a row per error and warning code naming its first files.
 */
export function reportTable(r: ScanReport, examples?: ReportExamples): string {
  const rows: [string, string][] = [];
  rows.push(['files', `${r.files} (${mb(r.bytes)})`]);
  for (const [fmt, f] of Object.entries(r.formats)) {
    rows.push([
      `  ${printable(fmt)}`,
      `${f.files}   versions: ${Object.entries(f.versions)
        .map(([v, n]) => `${printable(v)} ×${n}`)
        .join(', ')}`,
    ]);
  }
  if (r.unknown) rows.push(['  unknown format', String(r.unknown)]);
  const failed = Object.values(r.errors).reduce((a, b) => a + b, 0);
  rows.push([
    'errors',
    failed
      ? `${failed}: ${Object.entries(r.errors)
          .map(([c, n]) => `${printable(c)} ${n}`)
          .join(', ')}`
      : '0',
  ]);
  if (examples) rows.push(...exampleRows(examples.errors));
  const warned = Object.values(r.warnings).reduce((a, b) => a + b, 0);
  rows.push([
    'warnings',
    warned
      ? `${warned}: ${Object.entries(r.warnings)
          .map(([c, n]) => `${printable(c)} ${n}`)
          .join(', ')}`
      : '0',
  ]);
  if (examples) rows.push(...exampleRows(examples.warnings));
  const unchecked = Object.entries(r.unchecked);
  if (unchecked.length)
    rows.push([
      'not checked',
      `${unchecked.map(([c, n]) => `${printable(c)} in ${n} file${n === 1 ? '' : 's'}`).join(', ')} (warnings above count none there; --depth full checks them)`,
    ]);
  rows.push([
    'duplicates',
    `same bytes: ${r.duplicates.contentDigest.files} files in ${r.duplicates.contentDigest.groups} groups; same main grid: ${r.duplicates.gridDigest.files} files in ${r.duplicates.gridDigest.groups} groups`,
  ]);
  if (r.skippedLines !== undefined) rows.push(['skipped lines', `${r.skippedLines} (not valid records; --lenient)`]);
  if (r.timing) rows.push(['time', `${r.timing.seconds.toFixed(2)} s, ${r.timing.filesPerSecond} files/s, ${r.timing.megabytesPerSecond} MB/s`]);
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}\n`).join('');
}

/** `  TRUNCATED  a.map, b.zip!/c.map, d.wwd, … (7 files)`: a row per code with the files it names. */
function exampleRows(examples: Record<string, Examples>): [string, string][] {
  return Object.entries(examples).map(([code, e]) => [
    `  ${printable(code)}`,
    `${e.first.map(printable).join(', ')}${e.files > e.first.length ? `, … (${e.files} files)` : ''}`,
  ]);
}

function bump(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** A Map as a prototype-less object (see ScanReport.formats), keys in code-unit order so reports diff cleanly. */
function sortedTable<V, T>(m: Map<string, V>, value: (v: V) => T): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const k of [...m.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) out[k] = value(m.get(k)!);
  return out;
}

function round(n: number, d: number): number {
  return Math.round(n * 10 ** d) / 10 ** d;
}

function mb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}
