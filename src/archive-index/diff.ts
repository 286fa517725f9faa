// `levelkit diff <old index> <new index>`: the files added, removed and changed (by SHA-256) between
// two archive indexes, each read through its `files` view (the latest scan of each path and member).
import * as fs from 'node:fs';
import { join } from 'node:path';
import { IndexQuery } from './query.js';

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

/** Every file of an index by `[path, member]` (as JSON). */
async function filesOf(dir: string): Promise<Map<string, IndexedFile>> {
  const index = await IndexQuery.open(dir);
  try {
    const { rows } = await index.run('SELECT path, member, sha256, bytes, format FROM files');
    return new Map(
      rows.map(([path, member, sha256, bytes, format]) => [
        JSON.stringify([path, member ?? null]),
        {
          sha256: (sha256 as string | null) ?? null,
          bytes: bytes === null || bytes === undefined ? null : Number(bytes),
          format: (format as string | null) ?? null,
        },
      ]),
    );
  } finally {
    index.close();
  }
}
