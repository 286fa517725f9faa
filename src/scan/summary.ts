// The summary of a scan, built from its records alone so that shard outputs merged later
// (`levelkit report a.jsonl b.jsonl`) give the same summary one big run gives. Only the timing
// comes from the run itself.
import type { ScanRecord } from './scan.js';

export interface ScanReport {
  /** Records counted (files and members; unknown files only when they were listed with `all`). */
  files: number;
  /** Bytes of those files. */
  bytes: number;
  /** Decoded files per format, and per version within it. */
  formats: Record<string, { files: number; versions: Record<string, number> }>;
  /** Files of no known format that were listed (`--all`). */
  unknown: number;
  /** Failed files per error code. */
  errors: Record<string, number>;
  /** Warnings per code. */
  warnings: Record<string, number>;
  /** Groups of files sharing a digest (groups with 2 or more files) and the files in them. */
  duplicates: { contentDigest: { groups: number; files: number }; gridDigest: { groups: number; files: number } };
  /** Wall time and throughput of the run; absent for a report merged from record files. */
  timing?: { seconds: number; filesPerSecond: number; megabytesPerSecond: number };
}

/** Builds a report incrementally; `reportOf` is the one-call form. */
export class ReportBuilder {
  private readonly r: ScanReport = {
    files: 0,
    bytes: 0,
    formats: {},
    unknown: 0,
    errors: {},
    warnings: {},
    duplicates: { contentDigest: { groups: 0, files: 0 }, gridDigest: { groups: 0, files: 0 } },
  };
  private readonly content = new Map<string, number>();
  private readonly grid = new Map<string, number>();

  add(rec: ScanRecord): void {
    const r = this.r;
    r.files++;
    r.bytes += rec.bytes ?? 0;
    if (rec.error) bump(r.errors, rec.error.code);
    else if (rec.format === null) r.unknown++;
    else {
      r.formats[rec.format] ??= { files: 0, versions: {} };
      const f = r.formats[rec.format]!;
      f.files++;
      bump(f.versions, String(rec.version));
      for (const w of rec.warnings ?? []) bump(r.warnings, w.code);
      const grid = (rec.summary as { gridDigest?: unknown } | undefined)?.gridDigest;
      if (typeof grid === 'string') this.grid.set(grid, (this.grid.get(grid) ?? 0) + 1);
    }
    if (rec.contentDigest) this.content.set(rec.contentDigest, (this.content.get(rec.contentDigest) ?? 0) + 1);
  }

  /** The report; `seconds` (wall time of the run) adds the timing. */
  build(seconds?: number): ScanReport {
    const dup = (m: Map<string, number>) => {
      let groups = 0;
      let files = 0;
      for (const n of m.values())
        if (n > 1) {
          groups++;
          files += n;
        }
      return { groups, files };
    };
    const out: ScanReport = { ...this.r, formats: sortKeys(this.r.formats), errors: sortKeys(this.r.errors), warnings: sortKeys(this.r.warnings) };
    for (const f of Object.values(out.formats)) f.versions = sortKeys(f.versions);
    out.duplicates = { contentDigest: dup(this.content), gridDigest: dup(this.grid) };
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

/** The summary as the table printed on stderr at the end of a scan. */
export function reportTable(r: ScanReport): string {
  const rows: [string, string][] = [];
  rows.push(['files', `${r.files} (${mb(r.bytes)})`]);
  for (const [fmt, f] of Object.entries(r.formats)) {
    rows.push([
      `  ${fmt}`,
      `${f.files}   versions: ${Object.entries(f.versions)
        .map(([v, n]) => `${v} ×${n}`)
        .join(', ')}`,
    ]);
  }
  if (r.unknown) rows.push(['  unknown format', String(r.unknown)]);
  const failed = Object.values(r.errors).reduce((a, b) => a + b, 0);
  rows.push([
    'errors',
    failed
      ? `${failed}: ${Object.entries(r.errors)
          .map(([c, n]) => `${c} ${n}`)
          .join(', ')}`
      : '0',
  ]);
  const warned = Object.values(r.warnings).reduce((a, b) => a + b, 0);
  rows.push([
    'warnings',
    warned
      ? `${warned}: ${Object.entries(r.warnings)
          .map(([c, n]) => `${c} ${n}`)
          .join(', ')}`
      : '0',
  ]);
  rows.push([
    'duplicates',
    `same bytes: ${r.duplicates.contentDigest.files} files in ${r.duplicates.contentDigest.groups} groups; same main grid: ${r.duplicates.gridDigest.files} files in ${r.duplicates.gridDigest.groups} groups`,
  ]);
  if (r.timing) rows.push(['time', `${r.timing.seconds.toFixed(2)} s, ${r.timing.filesPerSecond} files/s, ${r.timing.megabytesPerSecond} MB/s`]);
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}\n`).join('');
}

function bump(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1;
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function round(n: number, d: number): number {
  return Math.round(n * 10 ** d) / 10 ** d;
}

function mb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}
