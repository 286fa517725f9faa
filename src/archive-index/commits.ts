// The index's commits: one small JSON file per commit of a run, `<dir>/_commits/<shard>-<run>-<seq>.json`,
// listing the parts that commit made whole (table, file name, bytes). A commit's parts (row groups
// appended under a temporary name, then the footer) are fsync'd and renamed into their table
// folders first; the commit is written under a temporary name, fsync'd and renamed into `_commits`
// last, and the folder fsync'd: its rename is the instant the commit's rows join the index, all
// tables at once. Readers (parts.ts) take only the parts a commit lists, so a crash or a full disk
// before it leaves parts no reader sees, and `--resume` decodes their files again. See README.md
// ("Commits").
import type { TableName } from './schema.js';

/** The folder of the commits, beside the table folders. */
export const COMMITS = '_commits';

/** What a commit file says it is, and its layout's version. */
const FORMAT = 'levelkit-index-commit';
const VERSION = 1;

/** A committed part: its table folder, its file name there, and its size when whole. */
export interface CommittedPart {
  table: TableName;
  name: string;
  bytes: number;
}

export interface Commit {
  parts: CommittedPart[];
}

/** A commit's file name; an index written before commits is adopted as `legacy-<run>.json`. */
export function commitName(shard: string, run: string, seq: number): string {
  return `${shard}-${run}-${String(seq).padStart(4, '0')}.json`;
}

/** The shard and run of a commit named by commitName; null for an adopted legacy commit or a name levelkit does not make. */
export function commitRun(name: string): { shard: string; run: string } | null {
  const m = /^(all|s\d+of\d+)-(.+)-\d{4,}\.json$/.exec(name);
  return m ? { shard: m[1]!, run: m[2]! } : null;
}

export function legacyCommitName(run: string): string {
  return `legacy-${run}.json`;
}

/** A name a reader takes as a commit: temporary files start with a dot and end otherwise. */
export function isCommitName(name: string): boolean {
  return !name.startsWith('.') && name.endsWith('.json');
}

/** A part's file name as a commit may list it: one plain name in its table folder (never a path). */
const PART_NAME = /^part-[A-Za-z0-9_-]+\.parquet$/;

export function commitText(parts: readonly CommittedPart[]): string {
  return `${JSON.stringify({ format: FORMAT, version: VERSION, parts })}\n`;
}

/** The commit in `text`, or why it is not one. */
export function parseCommit(text: string): Commit | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'is not JSON (damaged?)';
  }
  const c = v as { format?: unknown; version?: unknown; parts?: unknown };
  if (c === null || typeof c !== 'object' || c.format !== FORMAT) return `is not a ${FORMAT} file`;
  if (c.version !== VERSION) return `is a commit of version ${String(c.version)}; this levelkit reads version ${VERSION}`;
  if (!Array.isArray(c.parts)) return 'lists no parts';
  for (const p of c.parts as Partial<CommittedPart>[]) {
    if (typeof p?.table !== 'string' || !/^[a-z_]+$/.test(p.table)) return `lists a part of a table named ${JSON.stringify(p?.table)}`;
    if (typeof p.name !== 'string' || !PART_NAME.test(p.name)) return `lists a part named ${JSON.stringify(p?.name)}`;
    if (!Number.isSafeInteger(p.bytes) || (p.bytes as number) < 12) return `lists ${p.name} with a size of ${JSON.stringify(p.bytes)}`;
  }
  return { parts: c.parts as CommittedPart[] };
}
