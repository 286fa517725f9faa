// `scan --index <dir> --resume`: what the index already holds, as the keys scan()'s `skip` checks
// (path, member, size, modification time) and the options each file's rows were made with, so an
// unchanged archive costs a walk and a stat, and a resume with other options decodes again what
// they could change. See README.md ("Resume").
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DEFAULT_LIMITS } from '../core/default-limits.js';
import { DIGEST_WORDS, DigestTable, digestWords } from '../scan/digest-table.js';
import type { ResumeKey, ScanOptions } from '../scan/scan.js';
import { sizeCaps } from '../scan/scan-options.js';
import { openEngine, sqlString } from './engine.js';
import { disjointRuns, namingBrokenParts, partsOf } from './parts.js';

export function resumeKey(k: ResumeKey): string {
  return `${k.path}\0${k.member ?? ''}\0${k.bytes}\0${Math.round(k.mtimeMs)}`;
}

/**
 * The options that shape a file's rows, as canonical JSON (`files.options`): the depth, the size
 * caps and every decode limit with its default filled in, strict, the code page, and the check
 * rules run. Not the kernels (`backend`, `inflate`: both give the same rows), nor what chooses
 * files rather than shapes them (`all`, `follow`, `shard`), nor the time and memory a worker gets:
 * a file those stopped is decoded again by every resume (see `indexedFiles`). `allRules`: the rule
 * ids `check` runs when it names none.
 */
export function rowOptions(options: ScanOptions, allRules: readonly string[]): string {
  const { maxBytes, maxZipRatio } = sizeCaps(options);
  const given: Record<string, number> = { ...DEFAULT_LIMITS, ...options.decode?.limits, maxZipRatio };
  const limits = Object.fromEntries(
    Object.keys(given)
      .sort()
      .map((k) => [k, given[k]]),
  );
  const encoding = options.decode?.encoding;
  return JSON.stringify({
    depth: options.depth ?? 'cheap',
    maxBytes,
    limits,
    strict: options.decode?.strict === true,
    // Aliases (cp1250, windows-1250) name one code page.
    encoding: encoding === undefined ? null : new TextDecoder(encoding).encoding,
    check: options.check ? [...(options.check.rules ?? allRules)].sort() : null,
  });
}

/**
 * With `--index`, each path the user gives as the index will name it: absolute, a folder by its
 * real path (so `./maps`, `maps`, `maps/`, `/abs/maps` and a link to it are one folder, whatever
 * the current folder), a file by its folder's real path and its own name. One file is then one
 * `files.path` in every run, on every machine that mounts the archive at the same place.
 */
export function indexedPath(given: string): string {
  const abs = resolve(given);
  try {
    if (fs.statSync(abs).isDirectory()) return fs.realpathSync(abs);
    return join(fs.realpathSync(dirname(abs)), basename(abs));
  } catch {
    // Missing or unreadable: the scan reports it under the absolute name.
    return abs;
  }
}

/** Error codes whose rows say what the machine did, not what the file holds: a resume decodes the file again. */
const RETRIED_CODES = ['TIMEOUT', 'WORKER_CRASHED', 'IO'];

/**
 * The files an index holds, by resumeKey, each with whether its rows were made with the options
 * asked. A resume of a million files holds a million keys: as a Map of strings (an absolute path
 * each) that was ~200 bytes of heap per file; here each key is its SHA-256 in a DigestTable (~44
 * bytes, outside V8's heap). Two keys are one only when their SHA-256 are equal, the same trust the
 * index puts in a file's content digest.
 */
export class IndexedFiles {
  private readonly table = new DigestTable();
  private readonly words = new Uint32Array(DIGEST_WORDS);

  get size(): number {
    return this.table.size;
  }

  /** Records `key` (resumeKey) with whether its rows were made with the options asked; a key given twice keeps its first answer. */
  set(key: string, sameOptions: boolean): void {
    if (this.find(key) < 0) this.table.insert(this.words, sameOptions ? 1 : 0);
  }

  /** Whether `key`'s rows were made with the options asked; undefined when the index does not hold it. */
  get(key: string): boolean | undefined {
    const e = this.find(key);
    return e < 0 ? undefined : this.table.value(e) === 1;
  }

  /** How many files were indexed with the options asked, and with others. */
  counts(): { same: number; other: number } {
    let same = 0;
    for (const v of this.table.allValues()) same += v;
    return { same, other: this.table.size - same };
  }

  private find(key: string): number {
    digestWords(createHash('sha256').update(key).digest(), this.words);
    return this.table.find(this.words);
  }
}

/** What DuckDB may hold while it finds the latest row of each file for --resume. */
const RESUME_MEMORY = '64MB';

/**
 * The latest rows of each (path, member) in the index at `dir`, by key (resumeKey): true when they
 * were made with `options` (rowOptions), false with others or unknown ones (an index older than
 * schema 3). Files whose latest row is a failure of the machine (a timeout, a lost worker, a read
 * error, memory) are left out: every resume tries them again. Compared in the query, so a year's
 * archive is held as its keys, not as a copy of the options per file; and read a chunk of rows at
 * a time, never as one array of every row.
 */
export async function indexedFiles(dir: string, options: string): Promise<IndexedFiles> {
  const parts = partsOf(dir, 'files');
  const files = new IndexedFiles();
  if (parts.length === 0) return files;
  // The latest row per key is a window over every row: bounded, it spills instead of holding
  // the whole index's keys (532 MB of peak at 592,296 levels unbounded).
  const engine = await openEngine({ memoryLimit: RESUME_MEMORY });
  const { db } = engine;
  try {
    const list = parts.map(sqlString).join(', ');
    // The empty typed relation gives `options` to an index whose parts all predate it.
    const all = `SELECT * FROM (SELECT CAST(NULL AS VARCHAR) AS options WHERE false) UNION ALL BY NAME SELECT * FROM read_parquet([${list}], union_by_name = true)`;
    // One run (or one per shard): every row is its file's latest, and no window need hold them all.
    const latest = disjointRuns(dir)
      ? `SELECT path, member, bytes, mtime, options, error_code, error_message, 1 AS n FROM (${all})`
      : `SELECT path, member, bytes, mtime, options, error_code, error_message, row_number() OVER (PARTITION BY path, member ORDER BY scanned_at DESC, run DESC) AS n FROM (${all})`;
    const retried = RETRIED_CODES.map(sqlString).join(', ');
    await namingBrokenParts(parts, async () => {
      const result = await db.stream(
        `SELECT path, member, bytes, epoch_ms(mtime), options IS NOT DISTINCT FROM ${sqlString(options)} FROM (${latest}) WHERE n = 1 AND mtime IS NOT NULL AND bytes IS NOT NULL` +
          ` AND coalesce(error_code, '') NOT IN (${retried}) AND NOT (coalesce(error_code, '') = 'LIMIT_EXCEEDED' AND coalesce(error_message, '') LIKE '%memory%')`,
      );
      for await (const rows of result.yieldRows())
        for (const [path, member, bytes, mtime, same] of rows)
          files.set(
            resumeKey({ path: String(path), member: member === null ? null : String(member), bytes: Number(bytes), mtimeMs: Number(mtime) }),
            same === true,
          );
    });
  } finally {
    engine.close();
  }
  return files;
}

/** scan()'s `skip` for a resume (indexedFiles): counts in `otherOptions` the unchanged files it decodes again because their rows were made with other options. */
export function resumeSkip(indexed: Pick<IndexedFiles, 'get'>): { skip: (k: ResumeKey) => boolean; otherOptions: number } {
  const filter = {
    otherOptions: 0,
    skip: (k: ResumeKey): boolean => {
      const same = indexed.get(resumeKey(k));
      if (same === undefined) return false;
      if (same) return true;
      filter.otherOptions++;
      return false;
    },
  };
  return filter;
}
