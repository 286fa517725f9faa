// How `levelkit query` prints rows: an aligned table, JSON lines or CSV, each made a batch at a
// time so a result of any size streams through in bounded memory. Cells and column names come from
// files (a level's name, a sign's text) or from the query itself, so they are escaped as every
// other command escapes such text: printable() in the table and CSV, JSON's own \uNNNN escapes in
// JSON, and CSV cells that would start a spreadsheet formula neutralised as `report --csv` does.
import type { JsonCells } from '../archive-index/json-columns.js';
import { jsonText } from '../scan/json-text.js';
import { printable } from '../scan/names.js';
import { csvField } from './records-csv.js';

/** One output format: the text for each batch of rows as it comes, then the text that ends it. */
export interface RowsOutput {
  rows(batch: readonly unknown[][]): string;
  end(): string;
}

/**
 * One JSON object per row and line, keyed by column name (a repeated name gets `:1`, `:2` …, so no
 * cell is lost). `json[i]`: where column i holds JSON text (json-columns.ts), given as the JSON it
 * is, as `duckdb -json` gives a JSON column.
 */
export function jsonLinesOutput(columns: readonly string[], json: readonly JsonCells[] = []): RowsOutput {
  const keys = uniqueNames(columns);
  return {
    rows: (batch) => {
      let out = '';
      for (const r of batch) {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < keys.length; i++) Object.defineProperty(o, keys[i]!, { value: plain(parsedJson(r[i], json[i] ?? null)), enumerable: true });
        out += `${jsonText(o)}\n`;
      }
      return out;
    },
    end: () => '',
  };
}

/** RFC 4180 CSV: a header line, then one line per row, CRLF; numbers as they are, text through report --csv's csvField. */
export function csvOutput(columns: readonly string[]): RowsOutput {
  let header = `${columns.map(csvField).join(',')}\r\n`;
  const cell = (v: unknown) => (typeof v === 'number' || typeof v === 'bigint' ? String(v) : csvField(v === null || v === undefined ? null : text(v)));
  const rows = (batch: readonly unknown[][]) => {
    let out = header;
    header = '';
    for (const r of batch) out += `${r.map(cell).join(',')}\r\n`;
    return out;
  };
  return { rows, end: () => rows([]) };
}

/** Widest cell shown in the aligned table; the rest of a longer one is cut with `…` (--json and --csv keep it whole). */
const MAX_CELL = 60;

/**
 * How many rows set the table's column widths. They are held until then (or until the result
 * ends), and every later row is printed as it comes with the same widths: a later cell wider than
 * its column pushes the rest of its row along rather than being cut.
 */
export const TABLE_SAMPLE_ROWS = 1000;

/** The aligned table: a header, a rule, the rows, then `(n rows)`. `numeric[i]`: column i is right-aligned. */
export class TableOutput implements RowsOutput {
  private readonly names: string[];
  private held: string[][] | null = [];
  private widths: number[] = [];
  private count = 0;

  constructor(
    columns: readonly string[],
    private readonly numeric: readonly boolean[],
  ) {
    this.names = columns.map((c) => clip(printable(c)));
  }

  rows(batch: readonly unknown[][]): string {
    this.count += batch.length;
    const cells = batch.map((r) => r.map((v) => clip(printable(text(v)))));
    if (this.held === null) return this.lines(cells);
    for (const r of cells) this.held.push(r);
    return this.held.length >= TABLE_SAMPLE_ROWS ? this.release() : '';
  }

  end(): string {
    return `${this.held === null ? '' : this.release()}(${this.count} row${this.count === 1 ? '' : 's'})\n`;
  }

  /** The header, the rule and the held rows, widths set from them. */
  private release(): string {
    const held = this.held ?? [];
    this.held = null;
    this.widths = this.names.map((c) => c.length);
    for (const r of held) for (let i = 0; i < r.length; i++) this.widths[i] = Math.max(this.widths[i]!, r[i]!.length);
    return this.lines([this.names, this.widths.map((w) => '─'.repeat(w)), ...held]);
  }

  private lines(rows: readonly string[][]): string {
    let out = '';
    for (const r of rows) {
      const padded = r.map((s, i) => (this.numeric[i] ? s.padStart(this.widths[i]!) : s.padEnd(this.widths[i]!)));
      out += `${padded.join('  ').trimEnd()}\n`;
    }
    return out;
  }
}

/** Column names made unique: the second `n` is `n:1`, and so on (never a name the query already has). */
function uniqueNames(columns: readonly string[]): string[] {
  const taken = new Set(columns);
  const seen = new Set<string>();
  return columns.map((c) => {
    let name = c;
    for (let k = 1; seen.has(name); k++) {
      name = `${c}:${k}`;
      if (taken.has(name)) name = c;
    }
    seen.add(name);
    return name;
  });
}

/**
 * `v` with its JSON text (where `cells` says) parsed. Text that does not parse stays text, and so
 * does an index column's text that is not an object or array (a column the query named so itself).
 */
function parsedJson(v: unknown, cells: JsonCells): unknown {
  if (cells === null || v === null || v === undefined) return v;
  if (cells === 'json' || cells === 'index') {
    if (typeof v !== 'string') return v;
    try {
      const parsed: unknown = JSON.parse(v);
      return cells === 'json' || (parsed !== null && typeof parsed === 'object') ? parsed : v;
    } catch {
      return v;
    }
  }
  if ('items' in cells) return Array.isArray(v) ? v.map((x) => parsedJson(x, cells.items)) : v;
  if (typeof v !== 'object') return v;
  const o: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v))
    Object.defineProperty(o, k, { value: Object.hasOwn(cells.fields, k) ? parsedJson(x, cells.fields[k]!) : x, enumerable: true });
  return o;
}

/** A cell as JSON can hold it: big integers as numbers when exact, else strings; dates as ISO text; bytes as DuckDB writes a BLOB. */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : String(v);
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v instanceof Uint8Array) return blobText(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(o, k, { value: plain(x), enumerable: true });
    return o;
  }
  return v;
}

function text(v: unknown): string {
  const p = plain(v);
  if (p === null || p === undefined) return '';
  return typeof p === 'object' ? JSON.stringify(p) : String(p);
}

/** Bytes as DuckDB casts a BLOB to text: printable ASCII as itself, every other byte (and `\`) as `\xNN`. */
function blobText(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x >= 0x20 && x < 0x7f && x !== 0x5c ? String.fromCharCode(x) : `\\x${x.toString(16).toUpperCase().padStart(2, '0')}`;
  return s;
}

/**
 * Fewest characters of a long cell's start kept: a path cut to its file name still says where it
 * lies (`/srv/archive/mir…/ctf1.map`).
 */
const MIN_HEAD = 16;

/**
 * A cell cut to MAX_CELL characters in its middle, with `…` where the cut is: the end is what
 * tells rows apart (a path's file name, the digits that end an id), so it is kept, a path's last
 * `/`-part whole when it fits beside MIN_HEAD characters of the start, else the last half.
 */
export function clip(s: string): string {
  if (s.length <= MAX_CELL) return s;
  const room = MAX_CELL - 1;
  const slash = s.lastIndexOf('/', s.length - 2);
  const tail = slash >= 0 && s.length - slash <= room - MIN_HEAD ? s.length - slash : Math.ceil(room / 2);
  // Never inside one character: the head ends before it, the tail starts after it.
  const head = unitAround(s, room - tail)?.[0] ?? room - tail;
  const from = unitAround(s, s.length - tail)?.[1] ?? s.length - tail;
  return `${s.slice(0, head)}…${s.slice(from)}`;
}

/** An escape printable() made (`\xNN`, `\uNNNN`) at the start of the text it is tested on. */
const ESCAPE = /^\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})/;

/**
 * The start and end of what shows one character in `s` and a cut before index `at` would split:
 * a surrogate pair (a character past U+FFFF) or an escape printable() made. Undefined for none.
 */
function unitAround(s: string, at: number): [number, number] | undefined {
  const c = s.charCodeAt(at);
  if (c >= 0xdc00 && c <= 0xdfff && at > 0) return [at - 1, at + 1];
  for (let start = at - 1; start >= Math.max(0, at - 5); start--) {
    if (s[start] !== '\\') continue;
    const shown = ESCAPE.exec(s.slice(start, start + 6))?.[0];
    if (shown && start + shown.length > at) return [start, start + shown.length];
  }
  return undefined;
}
