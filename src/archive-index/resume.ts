// `scan --index <dir> --resume`: what the index already holds, as the keys scan()'s `skip` checks
// (path, member, size, modification time), so an unchanged archive costs a walk and a stat.
import type { ResumeKey } from '../scan/scan.js';
import { loadEngine, sqlString } from './engine.js';
import { namingBrokenParts, partsOf } from './parts.js';

export function resumeKey(k: ResumeKey): string {
  return `${k.path}\0${k.member ?? ''}\0${k.bytes}\0${Math.round(k.mtimeMs)}`;
}

/** The keys of every file row in the index at `dir` (every run's: a file back as it was is unchanged too). */
export async function indexedKeys(dir: string): Promise<Set<string>> {
  const parts = partsOf(dir, 'files');
  const keys = new Set<string>();
  if (parts.length === 0) return keys;
  const { DuckDBInstance } = await loadEngine();
  const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
  const db = await instance.connect();
  try {
    const list = parts.map(sqlString).join(', ');
    const reader = await namingBrokenParts(parts, () =>
      db.runAndReadAll(
        `SELECT path, member, bytes, epoch_ms(mtime) FROM read_parquet([${list}], union_by_name = true) WHERE mtime IS NOT NULL AND bytes IS NOT NULL`,
      ),
    );
    for (const [path, member, bytes, mtime] of reader.getRows())
      keys.add(resumeKey({ path: String(path), member: member === null ? null : String(member), bytes: Number(bytes), mtimeMs: Number(mtime) }));
  } finally {
    db.closeSync();
  }
  return keys;
}
