// The folder `levelkit site` writes: created when missing, refused when it holds anything and is
// not a site (no `.levelkit-site` marker) unless --force, so a mistyped -o never mixes pages into
// someone's files. Every file is written whole (a temporary name, then renamed: scan/write.ts),
// never through a link below the folder. A re-run replaces pages and keeps what is keyed by
// content (thumbs/, files/, diffs/); the pages of levels gone from the index are removed.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { displayName, pathBytes } from '../scan/names.js';
import { systemReason } from '../scan/read.js';
import { OutputError, outputIn, writeNew } from '../scan/write.js';

/** The marker that makes a folder a site levelkit may write into again. */
export const SITE_MARKER = '.levelkit-site';

/** A folder that is not a site and holds files: nothing is written (exit 2). */
export class FolderRefused extends Error {
  override name = 'FolderRefused';
}

export class SiteFolder {
  /** Files written by this run, by relative path: what the prune keeps. */
  private readonly written = new Set<string>();
  private readonly rootBytes: Buffer;

  private constructor(readonly root: string) {
    this.rootBytes = pathBytes(root);
  }

  /** FolderRefused when `out` may not be written (a file, or a folder with files and no marker, without `force`); writes nothing. */
  static check(out: string, force: boolean): void {
    SiteFolder.existing(out, force);
  }

  /** Opens (or creates) `out`; FolderRefused as check(), OutputError when it cannot be made. */
  static open(out: string, force: boolean): SiteFolder {
    const st = SiteFolder.existing(out, force);
    try {
      if (!st) fs.mkdirSync(out, { recursive: true });
    } catch (e) {
      throw new OutputError('IO', `cannot make ${out}: ${systemReason(e as NodeJS.ErrnoException)}`);
    }
    const folder = new SiteFolder(out);
    folder.write(SITE_MARKER, 'levelkit site: this folder is written by `levelkit site`; a re-run replaces its pages\n');
    return folder;
  }

  private static existing(out: string, force: boolean): fs.Stats | undefined {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(out);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new OutputError('IO', `cannot read ${out}: ${systemReason(e as NodeJS.ErrnoException)}`);
    }
    if (st && !st.isDirectory()) throw new FolderRefused(`${out} is not a folder`);
    if (st && !force && fs.readdirSync(out).length > 0 && !isMarker(join(out, SITE_MARKER)))
      throw new FolderRefused(`${out} holds files and is not a levelkit site (no ${SITE_MARKER}); nothing was written (--force writes into it)`);
    return st;
  }

  /** Writes `rel` whole (temp + rename); OutputError naming the path when the disk refuses. */
  write(rel: string, data: string | Uint8Array): void {
    writeNew(outputIn(this.rootBytes, rel), typeof data === 'string' ? Buffer.from(data, 'utf8') : data, true);
    this.written.add(rel);
  }

  /** Whether `rel` is a regular file already, in a real folder (a link is not: it is replaced when written, and a folder that is a link is never looked into). */
  has(rel: string): boolean {
    return this.inRealFolder(rel) && isFile(join(this.root, rel));
  }

  /** Whether every folder on the way to `rel` below the root is a folder, not a link to one. */
  private inRealFolder(rel: string): boolean {
    const segments = rel.split('/').slice(0, -1);
    for (let i = 1; i <= segments.length; i++)
      try {
        if (!fs.lstatSync(join(this.root, ...segments.slice(0, i))).isDirectory()) return false;
      } catch {
        return false;
      }
    return true;
  }

  /** A file of the site as it is (one this builder wrote: a link is not read). */
  read(rel: string): Buffer {
    const path = join(this.root, rel);
    if (!isFile(path)) throw new OutputError('IO', `cannot read ${path}: not a regular file`);
    return fs.readFileSync(path);
  }

  /** Marks `rel`, already there from an earlier run, as part of this site (the prune keeps it). */
  keep(rel: string): void {
    this.written.add(rel);
  }

  /** Removes the files of `dir` this run neither wrote nor kept (pages of levels gone from the index). Returns how many. */
  prune(dir: string): number {
    let entries: fs.Dirent[];
    // A folder swapped for a link is never listed: its files are not the site's to remove.
    if (!this.inRealFolder(`${dir}/-`)) return 0;
    try {
      entries = fs.readdirSync(join(this.root, dir), { withFileTypes: true });
    } catch {
      return 0;
    }
    let removed = 0;
    for (const e of entries) {
      const rel = `${dir}/${e.name}`;
      // Only files and links (unlink removes a link, never what it points to); folders are left alone.
      if (this.written.has(rel) || e.isDirectory()) continue;
      try {
        fs.unlinkSync(join(this.root, rel));
        removed++;
      } catch (err) {
        throw new OutputError('IO', `cannot remove ${displayName(pathBytes(join(this.root, rel)))}: ${systemReason(err as NodeJS.ErrnoException)}`);
      }
    }
    return removed;
  }
}

function isFile(path: string): boolean {
  try {
    return fs.lstatSync(path).isFile();
  } catch {
    return false;
  }
}

function isMarker(path: string): boolean {
  return isFile(path);
}
