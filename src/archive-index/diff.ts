// `levelkit diff <old index> <new index>`: the files added, removed and changed (by SHA-256) between
// two archive indexes, each read through its `files` view (the latest scan of each path and member).
import * as fs from 'node:fs';
import { join } from 'node:path';
import { openEngine, sqlString } from './engine.js';
import { BrokenPart, partsOf } from './parts.js';
import { IndexQuery, QueryError } from './query.js';

/** A file as one index knows it. */
export interface IndexedFile {
  sha256: string | null;
  bytes: number | null;
  format: string | null;
}

/** One difference between two indexes: `file-added`, `file-removed` or `file-changed`. */
export interface IndexChange {
  kind: 'file-added' | 'file-removed' | 'file-changed';
  path: string;
  member: string | null;
  from?: IndexedFile;
  to?: IndexedFile;
}

/** True when `dir` is laid out as an index: a folder with a `files/` folder in it. */
export function isIndexFolder(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory() && fs.statSync(join(dir, 'files')).isDirectory();
  } catch {
    return false;
  }
}

/** The changes from index `oldDir` to index `newDir`, ordered by path and member. Errors of IndexQuery.open pass through. */
export async function diffIndexes(oldDir: string, newDir: string): Promise<IndexChange[]> {
  const [before, after] = [await filesOf(oldDir), await filesOf(newDir)];
  const out: IndexChange[] = [];
  for (const [key, from] of before) {
    const to = after.get(key);
    const [path, member] = JSON.parse(key) as [string, string | null];
    if (!to) out.push({ kind: 'file-removed', path, member, from });
    else if (to.sha256 !== from.sha256) out.push({ kind: 'file-changed', path, member, from, to });
  }
  for (const [key, to] of after) {
    if (before.has(key)) continue;
    const [path, member] = JSON.parse(key) as [string, string | null];
    out.push({ kind: 'file-added', path, member, to });
  }
  return out.sort((a, b) => (a.path === b.path ? (a.member ?? '').localeCompare(b.member ?? '') : a.path < b.path ? -1 : 1));
}

/** Every file of an index by `[path, member]` (as JSON). A row without a path is its part's fault: BrokenPart naming it. */
async function filesOf(dir: string): Promise<Map<string, IndexedFile>> {
  const index = await IndexQuery.open(dir);
  let rows: unknown[][];
  try {
    rows = (await index.run(`SELECT ${COLUMNS.join(', ')} FROM files`)).rows;
  } catch (e) {
    // A column no part has: DuckDB's binder error, which names no part.
    if (e instanceof QueryError) throw await culprit(dir, e.message);
    throw e;
  } finally {
    index.close();
  }
  const files = new Map<string, IndexedFile>();
  for (const [path, member, sha256, bytes, format] of rows) {
    if (typeof path !== 'string') throw await culprit(dir, 'a file row has no path');
    files.set(JSON.stringify([path, member ?? null]), {
      sha256: typeof sha256 === 'string' ? sha256 : null,
      bytes: bytes === null || bytes === undefined ? null : Number(bytes),
      format: typeof format === 'string' ? format : null,
    });
  }
  return files;
}

/** The columns of `files` a diff reads; `path` must be set in every row. */
const COLUMNS = ['path', 'member', 'sha256', 'bytes', 'format'];

/**
 * The part of `dir`'s files table that lacks a column diff reads or holds a row without a path
 * (parts are merged by column name, so a part without `path` reads as null paths), as a BrokenPart;
 * the files folder itself when no one part is to blame.
 */
async function culprit(dir: string, why: string): Promise<BrokenPart> {
  const engine = await openEngine();
  const { db } = engine;
  try {
    for (const part of partsOf(fs.realpathSync(dir), 'files')) {
      let nullPaths: number;
      try {
        const read = await db.runAndReadAll(
          `SELECT count(*) FILTER (WHERE path IS NULL) FROM (SELECT ${COLUMNS.join(', ')} FROM read_parquet(${sqlString(part)}))`,
        );
        nullPaths = Number(read.getRowsJS()[0]?.[0] ?? 0);
      } catch (e) {
        return new BrokenPart(part, `not a part of the files table: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
      }
      if (nullPaths > 0) return new BrokenPart(part, 'a file row with no path (null): not a part levelkit wrote');
    }
  } finally {
    engine.close();
  }
  return new BrokenPart(join(dir, 'files'), why);
}
