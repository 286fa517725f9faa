// Writing outputs without losing data and without leaving the output folder. Every output path is
// known (and checked for clashes) before the first write, an existing file is kept unless the
// caller forces, and each file is written whole to a temporary name in its folder and then moved
// into place, so a crash or a full disk never leaves a half-written level where a good one was.
//
// An output is a root folder (the one the user named) and a relative path below it. The root may
// be a symbolic link (the user's choice); nothing below it may be: a link planted at `out/images`
// would otherwise carry the files anywhere the link points. Folders below the root are entered one
// at a time, each opened with O_NOFOLLOW | O_DIRECTORY, and every later step goes through the open
// handle (/proc/self/fd/<fd>/name, Linux's openat()), so a folder swapped for a link while the
// command runs is not followed either. Without /proc (macOS, Windows) each folder is checked with
// lstat() instead, which a process racing the command in the output folder could still defeat.
import * as fs from 'node:fs';
import { resolve } from 'node:path';
import { displayName, joinBytes } from './names.js';
import { systemReason } from './read.js';

/** Why a command refused or failed to write an output: `UNSAFE_PATH` (a link or a non-folder in the way, a name that would leave the folder) or `IO`. */
export class OutputError extends Error {
  override name = 'OutputError';
  constructor(
    readonly code: 'UNSAFE_PATH' | 'IO',
    message: string,
  ) {
    super(message);
  }
}

/** Where one output goes: below `root`, at `segments` (each a single, checked file name). */
export interface OutputTarget {
  root: Buffer;
  segments: Buffer[];
  /** root/segments, for messages and clash checks. */
  path: Buffer;
}

/**
 * An output at the relative path `rel` ('/'-separated) below the folder `root`. Throws
 * OutputError `UNSAFE_PATH` for a path that could leave the folder or is not a plain file name:
 * absolute, empty, a `.` or `..` segment, a NUL byte. Such names come from inside levels
 * (a map's image names, an archive's member names), so they are never trusted.
 */
export function outputIn(root: Buffer, rel: string | Buffer): OutputTarget {
  const bytes = typeof rel === 'string' ? Buffer.from(rel, 'utf8') : rel;
  const shown = displayName(bytes);
  if (bytes.length === 0 || bytes[0] === 0x2f) throw unsafe(`'${shown}' is not a relative path below the output folder`);
  if (bytes.includes(0)) throw unsafe(`'${shown.replace(/\0/g, '\\x00')}' holds a NUL byte`);
  const segments: Buffer[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x2f) continue;
    const seg = bytes.subarray(start, i);
    const s = seg.toString('latin1');
    if (s === '' || s === '.' || s === '..') throw unsafe(`'${shown}' has a '${s}' segment; outputs stay inside the output folder`);
    segments.push(seg);
    start = i + 1;
  }
  return { root, segments, path: joinBytes(root, bytes) };
}

/** A file the user named (`convert a.graal b.nw`, `render -o x.png`): its folder is the root, its name the one segment. */
export function namedOutput(path: Buffer): OutputTarget {
  const slash = path.lastIndexOf(0x2f);
  const root = slash < 0 ? Buffer.from('.') : slash === 0 ? Buffer.from('/') : path.subarray(0, slash);
  const base = path.subarray(slash + 1);
  const s = base.toString('latin1');
  if (s === '' || s === '.' || s === '..') throw unsafe(`'${displayName(path)}' names a folder, not a file`);
  return { root, segments: [base], path };
}

/**
 * Outputs that two or more inputs would write, with those inputs. Two paths are one output when
 * outputKeys() shares a key: the same path once its folders are resolved, or the same file.
 */
export function findClashes(plan: readonly { input: Buffer; output: Buffer }[]): { output: Buffer; inputs: Buffer[] }[] {
  const byKey = new Map<string, { output: Buffer; inputs: Buffer[] }>();
  const groups: { output: Buffer; inputs: Buffer[] }[] = [];
  const folders = new Map<string, string>();
  for (const { input, output } of plan) {
    const keys = outputKeys(output, folders);
    let group = keys.map((k) => byKey.get(k)).find((g) => g !== undefined);
    if (!group) {
      group = { output, inputs: [] };
      groups.push(group);
    }
    group.inputs.push(input);
    for (const k of keys) byKey.set(k, group);
  }
  return groups.filter((c) => c.inputs.length > 1);
}

/**
 * What tells whether two output paths name one file: the absolute path with its folders resolved
 * through links (as far as they exist; `out/../x` and a link to the folder are the same place)
 * and, when something is there, its device and inode (a link to the file, a hard link, another
 * spelling). `folders` caches resolved folders across calls.
 */
export function outputKeys(path: Buffer, folders = new Map<string, string>()): string[] {
  // latin1 maps bytes to characters one to one, so resolve() works on any name without changing it.
  const keys: string[] = [];
  let abs = resolve(path.toString('latin1'));
  // A link is also the path it points to, even dangling: opening it would create that file.
  for (let hops = 0; hops < 40; hops++) {
    const slash = abs.lastIndexOf('/');
    const real = joinLatin1(realFolder(abs.slice(0, slash) || '/', folders), abs.slice(slash + 1));
    keys.push(`path:${real}`);
    let target: string;
    try {
      target = fs.readlinkSync(Buffer.from(real, 'latin1'), { encoding: 'buffer' }).toString('latin1');
    } catch {
      break; // not a link (or nothing there)
    }
    abs = resolve(real.slice(0, real.lastIndexOf('/')) || '/', target);
  }
  let st: fs.BigIntStats | undefined;
  try {
    st = fs.statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    // a folder on the way that is a file, a link loop: nothing is there to share
  }
  if (st) keys.push(`file:${st.dev}:${st.ino}`);
  return keys;
}

function realFolder(dir: string, folders: Map<string, string>): string {
  let real = folders.get(dir);
  if (real !== undefined) return real;
  try {
    real = fs.realpathSync(Buffer.from(dir, 'latin1'), { encoding: 'buffer' }).toString('latin1');
  } catch {
    // Not there (yet): the folder above it resolved, and this name below it.
    const up = dir.lastIndexOf('/');
    real = dir === '/' ? '/' : joinLatin1(realFolder(dir.slice(0, up) || '/', folders), dir.slice(up + 1));
  }
  folders.set(dir, real);
  return real;
}

function joinLatin1(dir: string, name: string): string {
  return dir.endsWith('/') ? dir + name : `${dir}/${name}`;
}

/** Whether anything (a file, a folder, even a dangling link) is at the path. */
export function exists(path: Buffer): boolean {
  try {
    fs.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks what already exists of the target's folders, creating nothing: undefined when writing
 * can go ahead, else why not (a link or a file where a folder should be). Lets a command refuse
 * a whole plan before its first write; writeNew() checks again as it goes.
 */
export function unsafeReason(t: OutputTarget): string | undefined {
  let dir = t.root;
  for (const seg of t.segments.slice(0, -1)) {
    dir = joinBytes(dir, seg);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dir);
    } catch {
      return undefined; // missing: it will be created as a real folder
    }
    const why = notAFolder(st);
    if (why) return `${displayName(dir)} ${why}`;
  }
  if (isFolder(t.path)) return `${displayName(t.path)} is a folder`;
  return undefined;
}

/** Whether a folder (not a link to one) is at the path; false when nothing, or nothing reachable, is. */
function isFolder(path: Buffer): boolean {
  try {
    return fs.lstatSync(path).isDirectory();
  } catch {
    return false; // writeNew() meets the same fault and reports it with the system's reason
  }
}

/** Whether anything is at the target (its folders are not entered when unsafe: then nothing is). */
export function targetExists(t: OutputTarget): boolean {
  return unsafeReason(t) === undefined && exists(t.path);
}

/**
 * Writes `bytes` to the target through a temporary file in the same folder, creating the folders
 * below the root as needed. Returns false, writing nothing, when something is already at the
 * target and `force` is not set (a link there is replaced with --force, never written through).
 * Throws OutputError: `UNSAFE_PATH` when a link or a file stands where a folder should be, `IO`
 * (with the path and the system's reason) when the file system refuses.
 */
export function writeNew(t: OutputTarget, bytes: Uint8Array, force: boolean, mode: WriteMode = defaultMode()): boolean {
  const opened: number[] = [];
  try {
    let dir = openRoot(t.root, t.path, mode, opened);
    let shown = t.root;
    for (const seg of t.segments.slice(0, -1)) {
      shown = joinBytes(shown, seg);
      dir = enter(dir, seg, shown, mode, opened);
    }
    return writeInFolder(dir, t.segments[t.segments.length - 1]!, t.path, bytes, force);
  } catch (e) {
    if (e instanceof OutputError) throw e;
    throw ioError(t.path, e);
  } finally {
    for (const fd of opened) fs.closeSync(fd);
  }
}

/** `proc`: every step through an open folder handle (Linux); `lstat`: checks by path (elsewhere, and in tests of that path). */
export type WriteMode = 'proc' | 'lstat';

let procWorks: boolean | undefined;
function defaultMode(): WriteMode {
  if (procWorks === undefined) {
    // /proc may be missing (macOS) or mounted without fd links (some sandboxes): test it once.
    let fd: number | undefined;
    try {
      fd = fs.openSync('.', fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0));
      procWorks = fs.statSync(`/proc/self/fd/${fd}/.`).isDirectory();
    } catch {
      procWorks = false;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }
  return procWorks ? 'proc' : 'lstat';
}

/** A folder being written into: the prefix its names are reached through. */
type Folder = Buffer;

const O_DIR = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0);
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

function openRoot(root: Buffer, shown: Buffer, mode: WriteMode, opened: number[]): Folder {
  // The root is the user's: created when missing, and followed when it is a link.
  try {
    fs.mkdirSync(root, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw e;
    throw new OutputError('IO', `cannot write ${displayName(shown)}: ${displayName(root)} (or a folder above it) is not a folder (${code})`);
  }
  if (mode === 'lstat') return root;
  const fd = fs.openSync(root, O_DIR);
  opened.push(fd);
  return Buffer.from(`/proc/self/fd/${fd}`);
}

/** The sub-folder `name` of `dir`, created when missing; OutputError when it is a link or not a folder. */
function enter(dir: Folder, name: Buffer, shown: Buffer, mode: WriteMode, opened: number[]): Folder {
  const p = joinBytes(dir, name);
  try {
    fs.mkdirSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  if (mode === 'lstat') {
    const why = notAFolder(fs.lstatSync(p));
    if (why) throw unsafe(`${displayName(shown)} ${why}`);
    return p;
  }
  let fd: number;
  try {
    fd = fs.openSync(p, O_DIR | O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ELOOP' && code !== 'ENOTDIR') throw e;
    throw unsafe(`${displayName(shown)} ${notAFolder(fs.lstatSync(p)) ?? 'is not a folder'}`);
  }
  opened.push(fd);
  return Buffer.from(`/proc/self/fd/${fd}`);
}

function notAFolder(st: fs.Stats): string | undefined {
  if (st.isSymbolicLink()) return 'is a symbolic link; levelkit writes only into real folders below the output folder';
  if (!st.isDirectory()) return 'is not a folder';
  return undefined;
}

function writeInFolder(dir: Folder, base: Buffer, shown: Buffer, bytes: Uint8Array, force: boolean): boolean {
  const target = joinBytes(dir, base);
  const there = fs.lstatSync(target, { throwIfNoEntry: false });
  if (there && !there.isFile() && !there.isSymbolicLink() && !there.isDirectory()) {
    if (!force) return false;
    writeInto(target, shown, there, bytes, false);
    return true;
  }
  // A link to a device or a pipe (`/dev/stdout` → /proc/self/fd/1) names a stream, as it does to a
  // shell's `>`: written into, not replaced by a file (as root that would replace /dev/stdout itself).
  // A link to anything else is replaced with --force, never written through.
  const followed = there?.isSymbolicLink() ? fs.statSync(target, { throwIfNoEntry: false }) : undefined;
  if (followed && (followed.isCharacterDevice() || followed.isFIFO())) {
    if (!force) return false;
    writeInto(target, shown, followed, bytes, true);
    return true;
  }
  const tmp = joinBytes(
    dir,
    Buffer.concat([Buffer.from('.'), base.subarray(0, 100), Buffer.from(`.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`)]),
  );
  // O_EXCL | O_NOFOLLOW: a name planted where the temporary file goes is never opened.
  const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | O_NOFOLLOW;
  const fd = fs.openSync(tmp, flags, 0o666);
  try {
    try {
      for (let off = 0; off < bytes.length; ) off += fs.writeSync(fd, bytes, off, bytes.length - off);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    const st = fs.lstatSync(target, { throwIfNoEntry: false });
    if (st?.isDirectory()) throw unsafe(`${displayName(shown)} is a folder`);
    // rename() replaces a link at the target itself; it never writes through it.
    if (force) fs.renameSync(tmp, target);
    else if (!linkNoClobber(tmp, target)) return false;
    return true;
  } finally {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* renamed away */
    }
  }
}

/**
 * Writes into what stands at the target when it is a stream, not a file: a character device
 * (`--report /dev/full`, `-o /dev/null`) or a named pipe, as a shell's `>` would. Moving a file
 * over it would replace the device node (as root, in /dev) and report success for bytes nobody
 * got; written into, a device that refuses says so (ENOSPC) and the command fails. A block
 * device or a socket is refused: neither is a place for a file.
 */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

function writeInto(target: Buffer, shown: Buffer, st: fs.Stats, bytes: Uint8Array, throughLink: boolean): void {
  if (!st.isCharacterDevice() && !st.isFIFO())
    throw unsafe(`${displayName(shown)} is a ${st.isBlockDevice() ? 'block device' : 'socket'}, not a file levelkit can write`);
  // No O_CREAT: if the device went away meanwhile, nothing is created in its place. A pipe is
  // opened without blocking: with no reader that is ENXIO at once, not a command that waits for ever.
  const fd = fs.openSync(target, fs.constants.O_WRONLY | (throughLink ? 0 : O_NOFOLLOW) | (st.isFIFO() ? (fs.constants.O_NONBLOCK ?? 0) : 0));
  try {
    // Through a link, what was opened must still be a stream: a link switched to a file meanwhile is
    // refused before a byte is written (no O_TRUNC, so the file is untouched).
    const opened = fs.fstatSync(fd);
    if (throughLink && !opened.isCharacterDevice() && !opened.isFIFO())
      throw unsafe(`${displayName(shown)} changed while being opened: it now leads to a file, which levelkit does not write through a link`);
    for (let off = 0; off < bytes.length; ) {
      let n: number;
      try {
        n = fs.writeSync(fd, bytes, off, bytes.length - off);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
        Atomics.wait(PAUSE, 0, 0, 10); // the pipe is full: its reader is behind
        continue;
      }
      // A count of 0 for a non-empty write would repeat for ever.
      if (!(n > 0)) throw Object.assign(new Error('EIO: write took no bytes, write'), { code: 'EIO', syscall: 'write' });
      off += n;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * link() fails when the target exists, so unlike a check followed by a rename it cannot
 * overwrite a file that appeared in between. File systems without hard links fall back to that
 * check and a rename.
 */
function linkNoClobber(tmp: Buffer, path: Buffer): boolean {
  try {
    fs.linkSync(tmp, path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw e;
    if (exists(path)) return false;
    fs.renameSync(tmp, path);
    return true;
  }
}

function unsafe(message: string): OutputError {
  return new OutputError('UNSAFE_PATH', message);
}

/** An fs failure while writing `path` as one line: the path, what failed and the system's reason (`no space left on device (ENOSPC)`). */
export function ioError(path: Buffer, e: unknown): OutputError {
  const err = e as NodeJS.ErrnoException;
  if (!err || typeof err.code !== 'string' || !err.syscall) throw e;
  return new OutputError('IO', `cannot write ${displayName(path)}: ${systemReason(err)}`);
}
