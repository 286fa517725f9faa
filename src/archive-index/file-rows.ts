// A record's row of the index's `files` table (schema.ts column order), and whether a table's
// folder holds a part yet (the writer gives a table with none an empty part: writer.ts commit).
import * as fs from 'node:fs';
import type { ScanRecord } from '../scan/job.js';
import type { Cell } from './parquet/columns.js';

/** What a run puts in every files row: its name, when it started, and the options that shaped the rows (or null). */
export interface RunFacts {
  run: string;
  startedMs: number;
  rowOptions: string | null;
}

/** The `files` row of record `r` (file id `id`); `mtimeMs`: what the walk saw (scan's recordMtimeMs). */
export function fileRow(id: string, r: ScanRecord, mtimeMs: number | null, run: RunFacts): Cell[] {
  const summary = r.summary as { gridDigest?: unknown } | undefined;
  return [
    id,
    r.path,
    r.member,
    r.bytes,
    mtimeMs === null ? null : Math.round(mtimeMs),
    r.contentDigest ?? null,
    r.format,
    r.version === undefined ? null : String(r.version),
    r.error?.code ?? null,
    r.error?.message ?? null,
    // null without a grid, or for a blank one (the formats' summarize: core/digest.ts gridDigestOf).
    typeof summary?.gridDigest === 'string' ? summary.gridDigest : null,
    r.warnings?.length ?? 0,
    run.run,
    run.startedMs,
    run.rowOptions,
  ];
}

/**
 * Whether the table folder `at` holds a part (`part-*.parquet`, committed by any run or shard), so
 * `read_parquet('<dir>/<table>/*.parquet')` has a file to read.
 */
export function hasPart(at: string): boolean {
  return fs.readdirSync(at).some((n) => n.startsWith('part-') && n.endsWith('.parquet'));
}
