// A level's index rows as the text DuckDB loads (CSV, one line per row, columns in schema.ts
// order). Workers write it, so rows cross to the main thread as a few strings per batch that no
// JavaScript parses again: the main thread appends them to its buffers and DuckDB's own CSV reader
// turns them into Parquet. Host-independent (the hash function is given).
import type { LevelRows } from '../formats/define.js';
import type { TableName } from './schema.js';

/**
 * The tables a worker writes, in IndexText order: a level's rows, and `warnings` only for a level
 * whose rows could not be made (files and the decoders' warnings come from the records, on the main thread).
 */
export const WORKER_TABLES = ['levels', 'layers', 'tiles', 'objects', 'texts', 'images', 'warnings'] as const satisfies readonly TableName[];
/** The slot of `warnings` in IndexText. */
export const INDEX_FAILURES = 6;

/** CSV text per table of WORKER_TABLES, in that order (possibly empty strings). */
export type IndexText = string[];

export function emptyIndexText(): IndexText {
  return WORKER_TABLES.map(() => '');
}

/** Longest text stored whole (UTF-16 units); a longer one is cut there and ends with `…`, so no one file can swell the index. */
export const MAX_TEXT = 1 << 20;

export type Cell = string | number | boolean | null | undefined;

/**
 * One field: null/undefined empty, numbers as they print (non-finite ones empty), strings always
 * quoted (so an empty string is not null) with quotes doubled. NUL becomes U+FFFD: DuckDB's CSV
 * reader stops at it, and no level text means it.
 */
export function field(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  let s = v;
  if (s.includes('"')) s = s.replaceAll('"', '""');
  if (s.includes('\0')) s = s.replaceAll('\0', '\uFFFD');
  return `"${s}"`;
}

/** One CSV line (with its newline). */
export function line(cells: readonly Cell[]): string {
  let s = field(cells[0]);
  for (let i = 1; i < cells.length; i++) s += `,${field(cells[i])}`;
  return `${s}\n`;
}

/** Appends a level's rows to `out` (one string per table, WORKER_TABLES order). `hash`: hex SHA-256. */
export function appendLevel(out: IndexText, id: string, format: string, summary: object, rows: LevelRows, hash: (b: Uint8Array) => string): void {
  const q = JSON.stringify;
  const l = rows.level;
  out[0] += line([
    id,
    format,
    l.name,
    l.title,
    l.author,
    l.flavour,
    l.game,
    l.width,
    l.height,
    rows.layers.length,
    rows.objects.length,
    rows.texts.length,
    rows.images.length,
    q(summary),
  ]);
  let s = '';
  for (const r of rows.layers) s += line([id, r.layer, r.group, r.kind, r.name, r.width, r.height, r.image]);
  out[1] += s;
  s = '';
  for (const r of rows.tiles) s += `${field(id)},${r.layer},${field(r.kind)},${r.tile},${r.count}\n`;
  out[2] += s;
  s = '';
  for (const r of rows.objects)
    s += line([id, r.kind, r.index, r.layer, r.name, r.logic, r.image, r.x, r.y, r.width, r.height, r.target, r.fields ? q(r.fields) : null]);
  out[3] += s;
  s = '';
  for (const r of rows.texts) s += line([id, r.source, r.text.length > MAX_TEXT ? `${r.text.slice(0, MAX_TEXT)}…` : r.text]);
  out[4] += s;
  s = '';
  for (const r of rows.images) s += line([id, r.index, r.name, r.width, r.height, r.external, r.pixels ? hash(r.pixels) : null, r.data ? hash(r.data) : null]);
  out[5] += s;
}

/**
 * The id of a file's rows: the first 16 hex digits of SHA-256 over the run and the file's path and
 * member, computed the same way by the worker (level rows) and the main thread (the files row).
 * 64 bits: a collision in an index of a billion files has odds of about 1 in 30 million.
 */
export function fileId(run: string, path: string, member: string | null, hash: (b: Uint8Array) => string): string {
  return hash(new TextEncoder().encode(`${run}\0${path}\0${member ?? ''}`)).slice(0, 16);
}
