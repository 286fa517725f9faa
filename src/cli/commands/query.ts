// `levelkit query <index> "<SQL>"`: SQL over an archive index (`scan --index`), read-only. Rows as
// an aligned table, or --json (one object per line), or --csv. A broken part is one line naming it.
import { EngineMissing } from '../../archive-index/engine.js';
import { BrokenPart } from '../../archive-index/parts.js';
import { IndexQuery, QueryError } from '../../archive-index/query.js';
import { printable } from '../../scan/names.js';
import type { Command } from '../command.js';
import { UsageError } from '../options.js';
import { stdoutReady, writeStdout } from '../stdout.js';

export const queryCommand: Command = {
  usage: 'levelkit query <index folder> "<SQL>" [--json|--csv]',
  summary: 'Runs a read-only SQL query over an archive index written by scan --index (tables: levelkit schema).',
  options: ['json', 'csv'],
  optionHelp: { json: 'one JSON object per row, one per line' },
  async run({ options, positionals, raw }) {
    if (positionals.length !== 2) throw new UsageError('query needs the index folder and one SQL query (quote it)');
    if (options.json && raw.csv) throw new UsageError('--json and --csv: choose one');
    const [dir, sql] = positionals as [string, string];
    let index: IndexQuery;
    try {
      index = await IndexQuery.open(dir);
    } catch (e) {
      if (e instanceof BrokenPart) return fail(`broken index part: ${e.message}`);
      if (e instanceof EngineMissing) return fail(e.message);
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`no index at ${dir} (scan … --index ${dir} writes one)`);
      throw e;
    }
    try {
      const { columns, rows } = await index.run(sql);
      const text = options.json ? jsonLines(columns, rows) : raw.csv ? csv(columns, rows) : table(columns, rows);
      await writeOut(text);
      return 0;
    } catch (e) {
      if (e instanceof QueryError) return fail(e.message);
      throw e;
    } finally {
      index.close();
    }
  },
};

/** Writes `text` in pieces, waiting for a full pipe; stops when the reader has gone (`| head`). */
async function writeOut(text: string): Promise<void> {
  const CHUNK = 1 << 16;
  for (let i = 0; i < text.length; i += CHUNK) {
    writeStdout(text.slice(i, i + CHUNK));
    const ready = stdoutReady();
    if (ready !== true && !(await ready)) return;
  }
}

function fail(message: string): number {
  process.stderr.write(`levelkit query: ${printable(message)}\n`);
  return 1;
}

/** A cell as JSON can hold it: big integers as numbers when exact, else strings; dates as ISO text. */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : String(v);
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

function text(v: unknown): string {
  const p = plain(v);
  if (p === null || p === undefined) return '';
  return typeof p === 'object' ? JSON.stringify(p) : String(p);
}

function jsonLines(columns: string[], rows: unknown[][]): string {
  return rows.map((r) => `${JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, plain(r[i])])))}\n`).join('');
}

function csvCell(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

function csv(columns: string[], rows: unknown[][]): string {
  return [columns, ...rows.map((r) => r.map(text))].map((r) => `${r.map(csvCell).join(',')}\r\n`).join('');
}

/** Widest cell shown in the aligned table; the rest of a longer one is cut with `…` (--json and --csv keep it whole). */
const MAX_CELL = 60;

function table(columns: string[], rows: unknown[][]): string {
  const cells = rows.map((r) => r.map((v) => clip(printable(text(v)))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const numeric = columns.map((_, i) => rows.length > 0 && rows.every((r) => r[i] === null || typeof r[i] === 'number' || typeof r[i] === 'bigint'));
  const row = (r: string[]) =>
    `${r
      .map((s, i) => (numeric[i] ? s.padStart(widths[i]!) : s.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd()}\n`;
  const rule = row(widths.map((w) => '─'.repeat(w)));
  return `${row(columns)}${rule}${cells.map(row).join('')}(${rows.length} row${rows.length === 1 ? '' : 's'})\n`;
}

function clip(s: string): string {
  const one = s.replace(/[\r\n\t]+/g, ' ');
  return one.length > MAX_CELL ? `${one.slice(0, MAX_CELL - 1)}…` : one;
}
