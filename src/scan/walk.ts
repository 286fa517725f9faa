// Turns the paths a user names into the files to read. Named paths are always kept; folders are
// walked in byte order of names. Symbolic links to folders are followed only when asked, and then
// each folder is entered once (by device and inode), so link loops end. A folder is entered only
// as the folder its parent listed: it is opened without following a link (O_NOFOLLOW), checked
// by device and inode against what the walk saw, and listed through that handle
// (/proc/self/fd/<fd> on Linux), so a folder swapped for a link to another place after its
// parent was listed leads nowhere. See src/scan/README.md, "The walk".
import * as nodeFs from 'node:fs';
import { joinBytes, pathBytes } from './names.js';
import { type FileIdentity, ioFailure, type ReadFailure, sameIdentity } from './read.js';

/** The fs functions a walk needs; tests pass failing ones to reach errors root cannot provoke (or to swap a folder mid-walk). */
export type WalkFs = Pick<typeof nodeFs, 'statSync' | 'lstatSync' | 'readdirSync' | 'openSync' | 'fstatSync' | 'closeSync'>;

export type WalkEntry =
  /**
   * A file to read. `named`: given by the user, not found in a folder. `rel`: path below the named
   * folder (a named file: its own path). `at`: the same file reached through the handle of the
   * folder being listed (valid until the walk goes on), for a `stat` no swapped folder above it can
   * redirect. `noFollow`: the listing saw a regular file (or other non-link), so opening it must not follow a link.
   */
  | { kind: 'file'; path: Buffer; rel: Buffer; named: boolean; at?: Buffer; noFollow?: boolean }
  /** A folder that could not be listed, or that was no longer the folder its parent listed. */
  | { kind: 'unreadable'; path: Buffer; failure: ReadFailure }
  /** A link to a folder, not followed (no --follow), or a folder already walked. */
  | { kind: 'not-followed'; path: Buffer };

export interface WalkOptions {
  /** Walk into symbolic links to folders. Default false. */
  follow?: boolean;
  fs?: WalkFs;
}

const FLAGS = nodeFs.constants;
/** A folder, opened so that it can be neither a FIFO that blocks nor anything but a folder. */
const OPEN_FOLDER = (FLAGS.O_RDONLY ?? 0) | (FLAGS.O_DIRECTORY ?? 0) | (FLAGS.O_NONBLOCK ?? 0);
/** Where a process's open handles can be named as paths (Linux); elsewhere folders are listed by path and checked again after. */
const HANDLES = nodeFs.existsSync('/proc/self/fd') ? '/proc/self/fd/' : undefined;

/** What the message of a folder that changed under the walk says. */
export const SWAPPED = 'replaced while the scan ran (by a link or another folder); not entered';

/**
 * The entries under `paths`, named ones first-come and folder contents depth-first with a
 * folder's files before its subfolders. fs errors never escape: a folder that cannot be listed
 * is an `unreadable` entry, and a file that cannot be stat'ed is yielded for reading to report.
 */
export function* walk(paths: readonly (string | Buffer)[], opts: WalkOptions = {}): Generator<WalkEntry> {
  const fs = opts.fs ?? nodeFs;
  const visited = new Set<string>();
  for (const given of paths) {
    const root = pathBytes(given);
    let st: nodeFs.BigIntStats | undefined;
    try {
      st = fs.statSync(root, { bigint: true });
    } catch {
      /* reading it reports why */
    }
    if (st?.isDirectory()) yield* walkFolder(fs, root, st, visited, opts.follow ?? false);
    else yield { kind: 'file', path: root, rel: root, named: true };
  }
}

interface Pending {
  path: Buffer;
  rel: Buffer;
  /** The folder as the walk saw it (through its parent's handle); entered only if the one opened is the same. */
  id: FileIdentity;
  /** Named, or a link followed with --follow: opened through the link. */
  viaLink: boolean;
}

function* walkFolder(fs: WalkFs, root: Buffer, rootStat: nodeFs.BigIntStats, visited: Set<string>, follow: boolean): Generator<WalkEntry> {
  // Depth-first, children in name order; an explicit stack so a deep tree cannot overflow the call stack.
  const stack: Pending[] = [{ path: root, rel: Buffer.alloc(0), id: identity(rootStat), viaLink: true }];
  while (stack.length) {
    const dir = stack.pop()!;
    const key = `${dir.id.dev}:${dir.id.ino}`;
    if (visited.has(key)) {
      yield { kind: 'not-followed', path: dir.path };
      continue;
    }
    visited.add(key);
    let fd: number;
    try {
      fd = fs.openSync(dir.path, OPEN_FOLDER | (dir.viaLink ? 0 : (FLAGS.O_NOFOLLOW ?? 0)));
    } catch (e) {
      // ELOOP: the folder is a link now (O_NOFOLLOW); ENOTDIR: a file now.
      const code = (e as NodeJS.ErrnoException)?.code;
      yield { kind: 'unreadable', path: dir.path, failure: code === 'ELOOP' || code === 'ENOTDIR' ? swapped() : ioFailure(e) };
      continue;
    }
    try {
      // A folder above it swapped for a link leads the open elsewhere: another device and inode.
      if (!sameIdentity(fs.fstatSync(fd, { bigint: true }), dir.id)) {
        yield { kind: 'unreadable', path: dir.path, failure: swapped() };
        continue;
      }
      const held = HANDLES ? Buffer.from(`${HANDLES}${fd}`) : dir.path;
      let names: nodeFs.Dirent<Buffer>[];
      try {
        names = fs.readdirSync(held, { withFileTypes: true, encoding: 'buffer' });
        // Listed by path (no /proc): the path must still name the folder held open.
        if (!HANDLES && !sameIdentity(fs.statSync(dir.path, { bigint: true }), dir.id)) {
          yield { kind: 'unreadable', path: dir.path, failure: swapped() };
          continue;
        }
      } catch (e) {
        yield { kind: 'unreadable', path: dir.path, failure: ioFailure(e) };
        continue;
      }
      names.sort((a, b) => Buffer.compare(a.name, b.name));
      const subfolders: Pending[] = [];
      for (const d of names) {
        const path = joinBytes(dir.path, d.name);
        const at = joinBytes(held, d.name);
        const rel = dir.rel.length ? joinBytes(dir.rel, d.name) : d.name;
        const link = d.isSymbolicLink();
        if (!d.isDirectory() && !link) {
          yield { kind: 'file', path, rel, named: false, at, noFollow: true };
          continue;
        }
        let st: nodeFs.BigIntStats;
        try {
          // A folder's own entry, not what a link swapped in since would lead to.
          st = link ? fs.statSync(at, { bigint: true }) : fs.lstatSync(at, { bigint: true });
        } catch {
          // A dangling link or a folder that vanished: reading it reports the error as this entry's.
          yield { kind: 'file', path, rel, named: false };
          continue;
        }
        // Listed as a folder, something else now: swapped since the listing.
        if (!link && !st.isDirectory()) yield { kind: 'unreadable', path, failure: swapped() };
        else if (!st.isDirectory()) yield { kind: 'file', path, rel, named: false, at };
        else if (link && !follow) yield { kind: 'not-followed', path };
        else subfolders.push({ path, rel, id: identity(st), viaLink: link });
      }
      // Folders after the files of their parent, in name order.
      for (let i = subfolders.length - 1; i >= 0; i--) stack.push(subfolders[i]!);
    } finally {
      fs.closeSync(fd);
    }
  }
}

function swapped(): ReadFailure {
  return { code: 'IO', message: SWAPPED };
}

function identity(st: nodeFs.BigIntStats): FileIdentity {
  return { dev: st.dev, ino: st.ino };
}
