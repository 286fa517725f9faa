// Reading one level file without trusting what is at the path: only regular files, never
// opened in a way that can block, sized from the open handle and checked against the limit
// before a byte is read. Every failure is a value, so a bulk scan goes on past it.
import * as nodeFs from 'node:fs';

/** The fs functions reading needs; tests pass failing ones to reach errors root cannot provoke. */
export type ReadFs = Pick<typeof nodeFs, 'statSync' | 'openSync' | 'fstatSync' | 'readSync' | 'closeSync'>;

export type ReadFailureCode = 'IO' | 'NOT_A_FILE' | 'LIMIT_EXCEEDED';
export interface ReadFailure {
  code: ReadFailureCode;
  message: string;
}

export type ReadResult = { bytes: Uint8Array } | { failure: ReadFailure } | { unwanted: true } | { excluded: true };

/** A file's identity: the same file whatever path leads to it (links, `./`, `..`). Bigints: inode numbers can pass 2^53. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
}

export interface ReadOptions {
  /** Largest file read, in bytes; a larger one is a LIMIT_EXCEEDED failure and is not read. */
  maxBytes: number;
  /**
   * Sees the first `HEAD_BYTES` bytes before the size check and the full read; false makes the
   * result `{ unwanted: true }`, so a walk skips a large unrelated file without reading it.
   */
  wanted?: (head: Uint8Array) => boolean;
  fs?: ReadFs;
  /** Files not to read (`{ excluded: true }`), matched by the identity of the open handle. */
  exclude?: readonly FileIdentity[];
  /**
   * The file the walk listed at this path: any other (a folder above it or the file itself
   * swapped since, for a link or another file) is an IO failure and is not read.
   */
  expect?: FileIdentity;
  /** Opened with O_NOFOLLOW: the walk saw a file there, not a link. */
  noFollow?: boolean;
}

/** What a file that is not the one the walk listed is. */
export const NOT_AS_LISTED = 'replaced while the scan ran (by a link or another file); not read';

/** As many bytes as content detection looks at. */
export const HEAD_BYTES = 64;

// O_NONBLOCK: opening a FIFO with no writer (or a device waiting for carrier) would otherwise
// wait for ever. The constants are missing on Windows, where neither case exists.
const OPEN_FLAGS = (nodeFs.constants.O_RDONLY ?? 0) | (nodeFs.constants.O_NONBLOCK ?? 0);

export function readFileSafe(path: Buffer, opts: ReadOptions): ReadResult {
  const fs = opts.fs ?? nodeFs;
  let fd: number | undefined;
  try {
    // Checked before opening too: opening a device can act by itself (a tape rewinds, a
    // watchdog arms), and a socket cannot be opened at all. Here, just before the open, not
    // trusting an earlier stat (the scan's walk, on the main thread): a file can wait in the
    // queue for seconds, time enough to swap it, or a folder above it, for a link to a device.
    const expect = opts.expect;
    const before = expect ? fs.statSync(path, { bigint: true }) : fs.statSync(path);
    if (expect && !sameIdentity(before as nodeFs.BigIntStats, expect)) return notAsListed();
    if (!before.isFile()) return notAFile(before);
    fd = fs.openSync(path, opts.noFollow ? OPEN_FLAGS | (nodeFs.constants.O_NOFOLLOW ?? 0) : OPEN_FLAGS);
    // The handle is what gets read: the path may have been swapped since the stat above.
    const identified = expect !== undefined || opts.exclude?.length;
    const st = identified ? fs.fstatSync(fd, { bigint: true }) : fs.fstatSync(fd);
    if (expect && !sameIdentity(st as nodeFs.BigIntStats, expect)) return notAsListed();
    if (!st.isFile()) return notAFile(st);
    if (opts.exclude?.length && opts.exclude.some((x) => sameIdentity(st as nodeFs.BigIntStats, x))) return { excluded: true };
    const size = Number(st.size);
    if (opts.wanted) {
      const head = new Uint8Array(Math.min(HEAD_BYTES, size));
      const n = readAt(fs, fd, head);
      if (!opts.wanted(head.subarray(0, n))) return { unwanted: true };
    }
    if (size > opts.maxBytes) {
      return { failure: { code: 'LIMIT_EXCEEDED', message: `${size} bytes, over the ${opts.maxBytes}-byte limit (--max-bytes)` } };
    }
    // Exactly the size fstat gave: a file still growing (a log, a download) cannot push the
    // read past the limit it was checked against. One that shrank reads short and is then
    // reported by the decoder as truncated.
    const bytes = allocate(size);
    if (!bytes) return { failure: { code: 'LIMIT_EXCEEDED', message: `${size} bytes: more than this process can hold in memory (lower --max-bytes)` } };
    const n = readAt(fs, fd, bytes);
    return { bytes: n === size ? bytes : bytes.subarray(0, n) };
  } catch (e) {
    // O_NOFOLLOW met a link where the walk listed a file.
    if (opts.noFollow && (e as NodeJS.ErrnoException)?.code === 'ELOOP') return notAsListed();
    return { failure: ioFailure(e) };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * A buffer of `size` bytes, or undefined when the engine refuses one (a --max-bytes raised past
 * what memory allows must fail this file, not the scan). Not zero-filled (the read overwrites
 * it, and a short read hands out only what was read); its own memory, not a pooled slab, and a
 * plain Uint8Array, not a Buffer (whose `slice` would not copy).
 */
function allocate(size: number): Uint8Array | undefined {
  try {
    return new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size);
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

/** Fills `dst` from offset 0 until it is full or the file ends; returns the bytes read. */
function readAt(fs: ReadFs, fd: number, dst: Uint8Array): number {
  let n = 0;
  while (n < dst.length) {
    const r = fs.readSync(fd, dst, n, dst.length - n, n);
    if (r === 0) break;
    n += r;
  }
  return n;
}

/** Whether a bigint stat is of the file `id` names. */
export function sameIdentity(st: nodeFs.BigIntStats, id: FileIdentity): boolean {
  return st.dev === id.dev && st.ino === id.ino;
}

function notAsListed(): { failure: ReadFailure } {
  return { failure: { code: 'IO', message: NOT_AS_LISTED } };
}

function notAFile(st: nodeFs.Stats | nodeFs.BigIntStats): { failure: ReadFailure } {
  const kind = st.isDirectory()
    ? 'a folder'
    : st.isFIFO()
      ? 'a FIFO'
      : st.isSocket()
        ? 'a socket'
        : st.isCharacterDevice()
          ? 'a character device'
          : st.isBlockDevice()
            ? 'a block device'
            : 'not a regular file';
  return { failure: { code: 'NOT_A_FILE', message: `${kind}; only regular files are read` } };
}

/** An fs error as a failure; anything else is a bug and is rethrown. */
export function ioFailure(e: unknown): ReadFailure {
  const err = e as NodeJS.ErrnoException;
  if (!err || typeof err.code !== 'string' || !err.syscall) throw e;
  return { code: 'IO', message: `cannot ${err.syscall}: ${systemReason(err)}` };
}

/**
 * The system's reason for an fs error, `no space left on device (ENOSPC)`. Node's message also
 * repeats the path, mangled when it is not UTF-8 (or a /proc handle when written through one);
 * callers name the path themselves.
 */
export function systemReason(err: NodeJS.ErrnoException): string {
  const reason = /^\w+: (.*?), \w+/.exec(err.message)?.[1] ?? err.message;
  return `${reason} (${err.code})`;
}
