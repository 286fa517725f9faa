// The level files an index names, read again for the site (the bytes its pages draw, and the
// thumbnails): only regular files, their size checked against the index before a byte is read,
// and their bytes against the index's sha256, so a file changed or gone since the scan gets no
// picture and is marked instead of showing what the index does not describe. A zip is listed once
// for all its members (the index's rows come in path order, so a zip's members come together).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { pathBytes } from '../scan/names.js';
import { readFileSafe } from '../scan/read.js';
import { BytesReader, FileHandleReader, type FileMember, isZipHead, MAX_ZIP_DEPTH, memberBytes, members, type ZipSource } from '../scan/zip.js';

/** A file as the index has it. */
export interface IndexedFile {
  path: string;
  member: string | null;
  bytes: number;
  /** Modification time in ms since the epoch (of the zip, for a member), null when unknown. */
  mtime: number | null;
  sha256: string | null;
}

/** Its bytes as the index saw them, or why not: gone, changed since the scan, or unreadable. */
export type LevelBytes = { bytes: Uint8Array } | { stale: string };

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A zip listed once, kept open while its members are read. */
interface OpenZip {
  path: string;
  fd: number;
  source: ZipSource;
  byName: Map<string, FileMember>;
}

export class LevelFiles {
  private zip: OpenZip | { path: string; failed: string } | undefined;

  constructor(private readonly maxBytes: number) {}

  /**
   * Whether the file on disk is still the size and date the index gives (stat only): then its
   * sha256 is trusted without reading it, as `scan --resume` trusts it. A link is never followed.
   */
  unchanged(f: IndexedFile): boolean {
    try {
      const st = fs.lstatSync(pathBytes(f.path));
      if (!st.isFile() || f.mtime === null || Math.floor(st.mtimeMs) !== Math.floor(f.mtime)) return false;
      return f.member !== null || st.size === f.bytes;
    } catch {
      return false;
    }
  }

  /** The file's bytes when they still hash to the index's sha256; else why not. */
  async read(f: IndexedFile): Promise<LevelBytes> {
    const got = f.member === null ? this.plain(f) : await this.member(f.path, f.member, f.bytes);
    if ('stale' in got) return got;
    if (f.sha256 !== null && sha256Hex(got.bytes) !== f.sha256) return { stale: 'changed since the index was made (its sha256 differs)' };
    return got;
  }

  close(): void {
    if (this.zip && 'fd' in this.zip) fs.closeSync(this.zip.fd);
    this.zip = undefined;
  }

  private plain(f: IndexedFile): LevelBytes {
    const path = pathBytes(f.path);
    let size: number;
    try {
      const st = fs.lstatSync(path);
      if (!st.isFile()) return { stale: 'no longer a regular file' };
      size = st.size;
    } catch {
      return { stale: 'gone since the index was made' };
    }
    // Checked before reading: a file of another size is another file.
    if (size !== f.bytes) return { stale: `changed since the index was made (${size} bytes, not ${f.bytes})` };
    const r = readFileSafe(path, { maxBytes: this.maxBytes, noFollow: true });
    if ('bytes' in r) return r;
    return { stale: 'failure' in r ? `unreadable: ${r.failure.message}` : 'unreadable' };
  }

  private async member(path: string, member: string, size: number): Promise<LevelBytes> {
    if (this.zip?.path !== path) {
      this.close();
      this.zip = await openZip(path, this.maxBytes);
    }
    const zip = this.zip;
    if ('failed' in zip) return { stale: zip.failed };
    try {
      return await memberOf(zip.source, zip.byName, member, size, this.maxBytes, 1);
    } catch (e) {
      return { stale: `unreadable: ${(e as Error).message}` };
    }
  }
}

async function openZip(path: string, maxBytes: number): Promise<OpenZip | { path: string; failed: string }> {
  let fd: number | undefined;
  try {
    // O_NOFOLLOW | O_NONBLOCK: never a link, never a FIFO that would wait for a writer.
    fd = fs.openSync(pathBytes(path), fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Error('not a regular file');
    const source = new FileHandleReader(fd, st.size);
    return { path, fd, source, byName: await listed(source, maxBytes) };
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd);
    const code = (e as NodeJS.ErrnoException).code;
    return { path, failed: code === 'ENOENT' ? 'its zip is gone since the index was made' : `its zip is unreadable: ${(e as Error).message}` };
  }
}

async function listed(source: ZipSource, maxBytes: number): Promise<Map<string, FileMember>> {
  const byName = new Map<string, FileMember>();
  for (const m of await members(source, maxBytes)) if (m.kind === 'file') byName.set(m.name, m);
  return byName;
}

/** A member, or one inside a nested zip (the index names it `inner.zip/level.map`). */
async function memberOf(source: ZipSource, byName: Map<string, FileMember>, name: string, size: number, maxBytes: number, depth: number): Promise<LevelBytes> {
  const m = byName.get(name);
  if (m) {
    if (m.size !== size) return { stale: `changed since the index was made (${m.size} bytes, not ${size})` };
    if (m.size > maxBytes) return { stale: `unreadable: ${m.size} bytes, over the ${maxBytes}-byte limit` };
    return { bytes: await memberBytes(source, m) };
  }
  for (let at = name.indexOf('/'); at > 0 && depth < MAX_ZIP_DEPTH; at = name.indexOf('/', at + 1)) {
    const outer = byName.get(name.slice(0, at));
    if (!outer || outer.size > maxBytes) continue;
    const bytes = await memberBytes(source, outer);
    if (!isZipHead(bytes)) continue;
    const inner = new BytesReader(bytes);
    return memberOf(inner, await listed(inner, maxBytes), name.slice(at + 1), size, maxBytes, depth + 1);
  }
  return { stale: 'no longer in its zip' };
}
