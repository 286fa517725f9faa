// Standard output for every command: one place that notices its reader has gone (`levelkit info
// --json dir | head -1`), so each command's loop stops there instead of decoding, drawing and
// writing the rest for nobody. A closed pipe is the reader's choice, not an error: the command
// stops quietly and exits 0, as `scan` always has.

const gone = new AbortController();

/** Aborted once standard output's reader has gone (EPIPE). Commands' loops check it; scan() takes it as its stop signal. */
export const stdoutGone: AbortSignal = gone.signal;

process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  // Writes queued before the EPIPE was known fail again as "destroyed": the same closed pipe.
  if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') gone.abort();
  else throw e;
});

/** Writes to standard output unless its reader has gone. */
export function writeStdout(chunk: string | Uint8Array): void {
  if (!gone.signal.aborted) process.stdout.write(chunk);
}

/**
 * Resolves true when the command may go on producing output, false once the reader has gone.
 * A write to a pipe that could not finish at once (the pipe is full, or failing) is waited for
 * before more work is done: Node learns of EPIPE only when that write completes, and a loop that
 * never waits would queue every record in memory and never hear of it. So work done after the
 * reader leaves is bounded by what the pipe holds, not by the size of the input.
 */
export function stdoutReady(): boolean | Promise<boolean> {
  if (gone.signal.aborted) return false;
  const out = process.stdout;
  if (out.writableLength === 0) return true;
  return new Promise<boolean>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      gone.signal.removeEventListener('abort', done);
      resolve(!gone.signal.aborted);
    };
    gone.signal.addEventListener('abort', done);
    out.once('close', done);
    // 'drain' comes only after a write returned false; below that mark one turn of the event loop lets the pending write finish or fail.
    if (out.writableNeedDrain) out.once('drain', done);
    else setImmediate(done);
  });
}
