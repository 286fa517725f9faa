// `levelkit report --csv`: scan records as one flat CSV (RFC 4180) for spreadsheets and data tools.
// The columns are fixed, then every summary field met (nested ones by dotted name, e.g.
// `summary.gameLayer.width`) in name order, so the same records give the same columns whatever
// their order; the records are therefore held until the last is read.
import { printable } from '../scan/names.js';
import type { ScanRecord } from '../scan/scan.js';

/** The columns every CSV starts with, in this order. */
export const CSV_COLUMNS = [
  'path',
  'member',
  'bytes',
  'format',
  'version',
  'error_code',
  'error_offset',
  'error_path',
  'error_message',
  'warning_count',
  'warning_codes',
  'content_digest',
] as const;

type Cell = string | number | boolean | null | undefined;

/** Collects records, then writes them as CSV text. */
export class RecordsCsv {
  private readonly rows: Map<string, Cell>[] = [];
  private readonly summaryColumns = new Set<string>();

  add(rec: ScanRecord): void {
    const row = new Map<string, Cell>([
      ['path', rec.path],
      ['member', rec.member],
      ['bytes', rec.bytes],
      ['format', rec.format],
      ['version', rec.version],
      ['error_code', rec.error?.code],
      ['error_offset', rec.error?.offset],
      ['error_path', rec.error?.path],
      ['error_message', rec.error?.message],
      ['warning_count', rec.warnings?.length],
      // Each code once, in order of first appearance: the count column says how many there were.
      ['warning_codes', rec.warnings ? [...new Set(rec.warnings.map((w) => w.code))].join(' ') : undefined],
      ['content_digest', rec.contentDigest],
    ]);
    if (rec.summary) flatten(rec.summary, 'summary', row);
    for (const k of row.keys()) if (k.startsWith('summary.')) this.summaryColumns.add(k);
    this.rows.push(row);
  }

  /** The CSV: a header line, then one line per record, each ending in CRLF as RFC 4180 says. */
  *lines(): Generator<string> {
    const columns = [...CSV_COLUMNS, ...[...this.summaryColumns].sort()];
    yield `${columns.map(csvField).join(',')}\r\n`;
    for (const row of this.rows) yield `${columns.map((c) => csvField(row.get(c))).join(',')}\r\n`;
  }
}

/** A summary's fields into `row`: objects by dotted name, lists as JSON text (so their items stay apart). */
function flatten(value: object, prefix: string, row: Map<string, Cell>): void {
  for (const [k, v] of Object.entries(value)) {
    const name = `${prefix}.${k}`;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v, name, row);
    else row.set(name, Array.isArray(v) ? JSON.stringify(v) : (v as Cell));
  }
}

/**
 * One field: empty for no value; text as a terminal may show it (printable: control and bidi
 * characters escaped) and, when it would start a spreadsheet formula (`=`, `+`, `-`, `@`), after
 * a `'` as OWASP advises against CSV injection; quoted (quotes doubled) when it holds a comma,
 * a quote or a line break.
 */
export function csvField(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v !== 'string') return String(v);
  let s = printable(v);
  if (/^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
