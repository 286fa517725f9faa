// Where the records of a scan go. Each output (JSON lines, the archive index, the summary) is a
// sink: it takes the records one by one as scan() yields them, and is closed once at the end. A
// new output is one file here that implements Sink. See src/scan/README.md ("Sinks").
import type { ScanRecord } from '../job.js';
import { recordMtimeMs } from '../schedule.js';

export interface Sink {
  /**
   * Takes one record. `mtimeMs`: the modification time the walk saw of its file (for a member, its
   * zip's), null when unknown. Returns a promise only while its destination is busy: the next record
   * waits for it, so a slow reader slows the scan instead of filling memory. Throws (an OutputError)
   * when the destination fails; the scan stops there.
   */
  add(record: ScanRecord, mtimeMs: number | null): void | Promise<void>;
  /** Writes what it still holds and lets its destination go. Called once, after the last record, a stop or a failure; throws the first failure of its writes. */
  close(): void | Promise<void>;
  /** Aborted once its destination has gone (standard output's reader left): feeding stops there, quietly. */
  readonly gone?: AbortSignal;
}

/**
 * Adds every record of `scanning()` to every sink, in the sinks' order, and then closes them all in
 * that order, also after a failure (a scan refused at the call included). Stops early, without an
 * error, once a sink's destination has gone.
 */
export async function feed(scanning: () => AsyncIterable<ScanRecord>, sinks: readonly Sink[]): Promise<void> {
  const gone = sinks.flatMap((s) => (s.gone ? [s.gone] : []));
  try {
    for await (const record of scanning()) {
      const mtimeMs = recordMtimeMs(record);
      for (const sink of sinks) {
        // Awaited only when the sink is busy: a microtask per record is measurable here.
        const busy = sink.add(record, mtimeMs);
        if (busy) await busy;
      }
      if (gone.some((g) => g.aborted)) break;
    }
  } finally {
    await closeAll(sinks);
  }
}

/** Closes every sink, in order, even when one fails; throws the first failure. */
async function closeAll(sinks: readonly Sink[]): Promise<void> {
  let failure: { error: unknown } | null = null;
  for (const sink of sinks)
    try {
      await sink.close();
    } catch (error) {
      failure ??= { error };
    }
  if (failure) throw failure.error;
}
