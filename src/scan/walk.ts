// Turns the paths a user names into the files to read. Named paths are always kept; folders are
// walked in byte order of names. Symbolic links to folders are followed only when asked, and then
// each folder is entered once (by device and inode), so link loops end.
import * as nodeFs from 'node:fs';
import { joinBytes, pathBytes } from './names.js';
import { ioFailure, type ReadFailure } from './read.js';

/** The fs functions a walk needs; tests pass failing ones to reach errors root cannot provoke. */
export type WalkFs = Pick<typeof nodeFs, 'statSync' | 'readdirSync'>;

export type WalkEntry =
  /** A file to read. `named`: given by the user, not found in a folder. `rel`: path below the named folder (a named file: its own path). */
  | { kind: 'file'; path: Buffer; rel: Buffer; named: boolean }
  /** A folder that could not be listed. */
  | { kind: 'unreadable'; path: Buffer; failure: ReadFailure }
  /** A link to a folder, not followed (no --follow), or a folder already walked. */
  | { kind: 'not-followed'; path: Buffer };

export interface WalkOptions {
  /** Walk into symbolic links to folders. Default false. */
  follow?: boolean;
  fs?: WalkFs;
}

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
    let st: nodeFs.Stats | undefined;
    try {
      st = fs.statSync(root);
    } catch {
      /* reading it reports why */
    }
    if (st?.isDirectory()) yield* walkFolder(fs, root, st, visited, opts.follow ?? false);
    else yield { kind: 'file', path: root, rel: root, named: true };
  }
}

function* walkFolder(fs: WalkFs, root: Buffer, rootStat: nodeFs.Stats, visited: Set<string>, follow: boolean): Generator<WalkEntry> {
  // Depth-first, children in name order; an explicit stack so a deep tree cannot overflow the call stack.
  const stack: { path: Buffer; rel: Buffer; st: nodeFs.Stats }[] = [{ path: root, rel: Buffer.alloc(0), st: rootStat }];
  while (stack.length) {
    const dir = stack.pop()!;
    const key = `${dir.st.dev}:${dir.st.ino}`;
    if (visited.has(key)) {
      yield { kind: 'not-followed', path: dir.path };
      continue;
    }
    visited.add(key);
    let names: nodeFs.Dirent<Buffer>[];
    try {
      names = fs.readdirSync(dir.path, { withFileTypes: true, encoding: 'buffer' });
    } catch (e) {
      yield { kind: 'unreadable', path: dir.path, failure: ioFailure(e) };
      continue;
    }
    names.sort((a, b) => Buffer.compare(a.name, b.name));
    const subfolders: typeof stack = [];
    for (const d of names) {
      const path = joinBytes(dir.path, d.name);
      const rel = dir.rel.length ? joinBytes(dir.rel, d.name) : d.name;
      if (!d.isDirectory() && !d.isSymbolicLink()) {
        yield { kind: 'file', path, rel, named: false };
        continue;
      }
      let st: nodeFs.Stats;
      try {
        st = fs.statSync(path);
      } catch {
        // A dangling link or a folder that vanished: reading it reports the error as this entry's.
        yield { kind: 'file', path, rel, named: false };
        continue;
      }
      if (!st.isDirectory()) yield { kind: 'file', path, rel, named: false };
      else if (d.isSymbolicLink() && !follow) yield { kind: 'not-followed', path };
      else subfolders.push({ path, rel, st });
    }
    // Folders after the files of their parent, in name order.
    for (let i = subfolders.length - 1; i >= 0; i--) stack.push(subfolders[i]!);
  }
}
