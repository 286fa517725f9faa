// The durable-write primitives of an index folder, apart from what the writer writes: folders
// opened once and never through a link, files written whole (short writes continued), each fs
// step's failure an OutputError IO naming the path, and the commit of an index written before
// commits (its parts adopted as they are). The writer (writer.ts) builds its commits from these.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { pathBytes } from '../scan/names.js';
import { ioError, OutputError } from '../scan/write.js';
import { COMMITS, type CommittedPart, commitText, legacyCommitName } from './commits.js';
import { BrokenPart, partsOf } from './parts.js';
import { TABLES } from './schema.js';

/** The file operations the writer makes (node:fs/promises); a test injects a disk that fills or a crash that never returns. */
export type IndexFs = Pick<typeof fs.promises, 'open' | 'rename' | 'unlink' | 'mkdir' | 'rm'>;

/** A folder the writer writes into: opened once (never through a link), named through its handle where /proc allows. */
export interface Folder {
  /** The path the user would know it by, for messages. */
  shown: string;
  /** The prefix names in it are reached through: /proc/self/fd/<fd> on Linux, else `shown`. */
  at: string;
  handle: fs.promises.FileHandle;
}

/** Runs an fs step; its failure becomes an OutputError IO naming `shown` (the system's reason: ENOSPC, EIO …). */
export async function step<T>(shown: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof OutputError || e instanceof BrokenPart) throw e;
    throw ioError(pathBytes(shown), e);
  }
}

/** Writes every piece, continuing short writes. Returns the bytes written. */
export async function writeAll(fh: fs.promises.FileHandle, pieces: readonly Uint8Array[]): Promise<number> {
  let rest = pieces.filter((p) => p.length > 0);
  let total = 0;
  while (rest.length) {
    const { bytesWritten } = await fh.writev(rest as Uint8Array[]);
    if (bytesWritten === 0) throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO', syscall: 'write', errno: -5 });
    total += bytesWritten;
    let n = bytesWritten;
    while (rest.length && n >= rest[0]!.length) n -= rest.shift()!.length;
    if (n > 0) rest = [rest[0]!.subarray(n), ...rest.slice(1)];
  }
  return total;
}

/** The folder `name` in `dir`, created when missing and opened without following a link: OutputError UNSAFE_PATH when it is one, or not a folder. */
export async function openFolder(dir: string, name: string, io: IndexFs): Promise<Folder> {
  const shown = join(dir, name);
  await step(shown, () => io.mkdir(shown).catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e))));
  let handle: fs.promises.FileHandle;
  try {
    handle = await io.open(shown, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ELOOP' && code !== 'ENOTDIR') throw ioError(pathBytes(shown), e);
    // O_DIRECTORY refuses a link to a folder with ENOTDIR before O_NOFOLLOW's ELOOP: lstat tells them apart.
    if (fs.lstatSync(shown, { throwIfNoEntry: false })?.isSymbolicLink())
      throw new OutputError('UNSAFE_PATH', `${shown} is a symbolic link; levelkit writes an index only into real folders`);
    throw new OutputError('UNSAFE_PATH', `${shown} is not a folder`);
  }
  // Through the handle where /proc allows (Linux's openat()): a folder swapped for a link meanwhile is not followed.
  const proc = `/proc/self/fd/${handle.fd}`;
  let at = shown;
  try {
    if (fs.statSync(`${proc}/.`).isDirectory()) at = proc;
  } catch {
    // no /proc (macOS): by path, checked above
  }
  return { shown, at, handle };
}

/**
 * Commits the parts of an index written before commits, as they are, in the same rename that
 * creates `_commits` (built as `_commits.<run>.tmp` first), so no reader ever sees `_commits`
 * without them. Another writer adopting them at the same instant wins the rename; ours is removed.
 */
export async function adoptLegacy(dir: string, run: string, io: IndexFs): Promise<void> {
  const listed: CommittedPart[] = [];
  for (const t of TABLES)
    for (const file of partsOf(dir, t.name)) listed.push({ table: t.name, name: file.slice(file.lastIndexOf('/') + 1), bytes: fs.statSync(file).size });
  const target = join(dir, COMMITS);
  if (listed.length === 0) return;
  const tmp = join(dir, `${COMMITS}.${run}.tmp`);
  await step(tmp, () => io.mkdir(tmp));
  try {
    const folder = await openFolder(dir, `${COMMITS}.${run}.tmp`, io);
    try {
      const name = legacyCommitName(run);
      const fh = await step(join(tmp, name), () => io.open(join(tmp, name), 'wx'));
      try {
        await step(join(tmp, name), () => writeAll(fh, [Buffer.from(commitText(listed))]));
        await step(join(tmp, name), () => fh.sync());
      } finally {
        await fh.close();
      }
      await step(tmp, () => folder.handle.sync());
    } finally {
      await folder.handle.close();
    }
    await step(target, () => io.rename(tmp, target));
  } catch (e) {
    await io.rm(tmp, { recursive: true, force: true });
    // Another writer created `_commits` first (with these parts in it): theirs stands.
    if (!fs.lstatSync(target, { throwIfNoEntry: false })) throw e;
    return;
  }
  const handle = await step(dir, () => io.open(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY));
  try {
    await step(dir, () => handle.sync());
  } finally {
    await handle.close();
  }
}
