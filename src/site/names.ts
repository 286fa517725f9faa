// Page keys and the names levels point to each other by. A level's key is its file name made safe
// for a URL (kept readable) and a digest of its path and member (kept unique); Graal links and
// gmap cells name a level by file name, found in the same folder or the same zip folder.
import { createHash } from 'node:crypto';
import type { IndexedFile } from './level-files.js';

/** Zip siblings listed on a level's page (a zip of 10,000 maps would list 10,000 on each). */
export const MAX_SIBLINGS = 50;

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

function folderOf(p: string): string {
  return p.slice(0, p.lastIndexOf('/') + 1);
}

/** The level page's key: unique per (path, member), readable, safe in a URL and a file name. */
export function pageKey(path: string, member: string | null): string {
  const slug =
    baseName(member ?? path)
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[.-]+/, '')
      .slice(0, 48) || 'level';
  return `${slug}-${createHash('sha256')
    .update(`${path}\0${member ?? ''}`)
    .digest('hex')
    .slice(0, 12)}`;
}

/** Where a level's links are looked for: its folder, or its folder in its zip. */
function scopeOf(path: string, member: string | null): string {
  return member === null ? folderOf(path) : `${path}::${folderOf(member)}`;
}

/** The file name a link names, as the lookup keys it (Graal names are case-blind on the servers' Windows roots). */
function nameKey(scope: string, name: string): string {
  return `${scope}\0${baseName(name.replace(/\\/g, '/')).toLowerCase()}`;
}

export interface Named {
  key: string | null;
  file: IndexedFile;
}

/** The levels of the index by folder and file name, and each zip's members: what links resolve against. */
export class NameIndex {
  private readonly byName = new Map<string, Named>();
  private readonly siblings = new Map<string, { name: string; key: string }[]>();

  /** Adds a file; `key` is null when it has no page. Only names links can reach are kept (Graal), and members for siblings. */
  add(f: IndexedFile, format: string | null, key: string | null): void {
    if (format?.startsWith('graal')) {
      const k = nameKey(scopeOf(f.path, f.member), f.member ?? f.path);
      if (!this.byName.has(k)) this.byName.set(k, { key, file: { path: f.path, member: f.member, bytes: f.bytes, mtime: f.mtime, sha256: f.sha256 } });
    }
    if (f.member !== null && key !== null) {
      const list = this.siblings.get(f.path) ?? [];
      if (list.length <= MAX_SIBLINGS) list.push({ name: f.member, key });
      this.siblings.set(f.path, list);
    }
  }

  /** The level `name` as seen from (path, member). */
  find(path: string, member: string | null, name: string): Named | undefined {
    return this.byName.get(nameKey(scopeOf(path, member), name));
  }

  /** The other members of a zip with pages (at most MAX_SIBLINGS): their member names and keys. */
  siblingsOf(path: string, member: string | null, own: string): { name: string; key: string }[] {
    if (member === null) return [];
    return (this.siblings.get(path) ?? []).filter((s) => s.key !== own).slice(0, MAX_SIBLINGS);
  }
}
