// Standard output for every command: the one place its writes go, so the one place that notices
// when they stop landing. Two ways they can stop:
// - its reader has gone (`levelkit info --json dir | head -1`: EPIPE). That is the reader's
//   choice, not an error: the command stops quietly and exits 0, as `scan` always has;
// - a write failed (`> /dev/full`: ENOSPC, EIO, EFBIG past `ulimit -f`, …). The output is not what
//   the user asked for, so the command stops and ends with one IO line and exit 2 (main.ts asks
//   stdoutFailure() once the command is done), never exit 0 and never a stack trace.
// Node reports both as 'error' events on process.stdout, at the write or later (a pipe, a final
// flush), and never throws from write() itself; so both are caught here, whoever wrote.
import * as fs from 'node:fs';
import { systemReason } from '../scan/read.js';
import { OutputError } from '../scan/write.js';

const stop = new AbortController();
let failure: OutputError | undefined;

/**
 * Aborted once standard output takes no more: its reader has gone (EPIPE) or a write failed
 * (then stdoutFailure() says why). Commands' loops check it; scan() takes it as its stop signal.
 */
export const stdoutGone: AbortSignal = stop.signal;

process.stdout.on('error', noteStdoutError);

function noteStdoutError(e: NodeJS.ErrnoException): void {
  // Writes queued before the first error was known fail again as "destroyed": not a second cause.
  if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') failure ??= stdoutError(e);
  stop.abort();
}

/** `cannot write standard output: no space left on device (ENOSPC)` */
export function stdoutError(e: NodeJS.ErrnoException): OutputError {
  const reason = typeof e?.code === 'string' ? systemReason(e) : String(e?.message ?? e);
  return new OutputError('IO', `cannot write standard output: ${reason}`);
}

/** Writes to standard output unless it takes no more (its reader has gone, or a write failed). */
export function writeStdout(chunk: string | Uint8Array): void {
  if (!stop.signal.aborted) process.stdout.write(chunk);
}

/**
 * Resolves true when the command may go on producing output, false once standard output takes
 * no more. A write to a pipe that could not finish at once (the pipe is full, or failing) is
 * waited for before more work is done: Node learns of EPIPE only when that write completes, and
 * a loop that never waits would queue every record in memory and never hear of it. So work done
 * after the reader leaves is bounded by what the pipe holds, not by the size of the input.
 */
export function stdoutReady(): boolean | Promise<boolean> {
  if (stop.signal.aborted) return false;
  const out = process.stdout;
  if (out.writableLength === 0) return true;
  return new Promise<boolean>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      stop.signal.removeEventListener('abort', done);
      resolve(!stop.signal.aborted);
    };
    stop.signal.addEventListener('abort', done);
    out.once('close', done);
    // 'drain' comes only after a write returned false; below that mark one turn of the event loop lets the pending write finish or fail.
    if (out.writableNeedDrain) out.once('drain', done);
    else setImmediate(done);
  });
}

/** The fs calls the final flush makes: node:fs; tests pass their own to fail as a disk or NFS server can. */
export interface FlushFs {
  fstatSync(fd: number): { isFile(): boolean };
  fsyncSync(fd: number): void;
}

/**
 * Waits until every write to standard output has landed, then, when it is a regular file, has it
 * synced (what close() would report on a network or quota-bound file system comes back there):
 * the failure of any of them, or of an earlier write, as an IO error; undefined when all went
 * well or the reader has gone. main.ts calls it once the command is done, before choosing the
 * exit code.
 */
export async function stdoutFailure(io: FlushFs = fs): Promise<OutputError | undefined> {
  if (!stop.signal.aborted) {
    // Writes complete in order: this empty one's callback runs once all before it have, with their error if one failed.
    await new Promise<void>((resolve) =>
      process.stdout.write('', (e) => {
        if (e) noteStdoutError(e);
        resolve();
      }),
    );
  }
  if (!stop.signal.aborted) syncIfFile(process.stdout.fd, io);
  return failure;
}

function syncIfFile(fd: number, io: FlushFs): void {
  try {
    if (!io.fstatSync(fd).isFile()) return;
    io.fsyncSync(fd);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // No fd 1 at all (`>&-`), or a file system that has no fsync: nothing to learn there.
    if (code === 'EBADF' || code === 'EINVAL' || code === 'ENOTSUP') return;
    noteStdoutError(e as NodeJS.ErrnoException);
  }
}
