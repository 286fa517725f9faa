// What keeps the index's commits to whole files: a worker's level rows wait for the records of
// their files (the files row is what `--resume` trusts), so a message's rows join their tables
// only once every file they belong to has had its record. The writer (writer.ts) commits only
// while no message is half recorded (`partial`).
import { batchBytes, idsOf } from './batches.js';
import { type IndexBatch, WORKER_TABLES } from './level-rows.js';

/** A worker message's rows, held until every file they belong to has had its record (its files row). */
interface Waiting {
  batch: IndexBatch;
  /** Files whose record has not come yet, of `of`. */
  files: number;
  of: number;
  bytes: number;
}

/** Worker messages' rows held until their files' records come. */
export class AwaitingRecords {
  /** Worker messages some of whose files' records have not come (no more than the scan has in flight). */
  private readonly waiting = new Set<Waiting>();
  /** The messages waiting for each file id's record; an id leaves once its record came. */
  private readonly awaited = new Map<string, Waiting[]>();
  /** Messages some but not all of whose records came: no commit while there is one. */
  partial = 0;
  /** Bytes of the rows held. */
  bytes = 0;

  /** A worker message's level rows (WORKER_TABLES order): returned at once when they name no file, else held (undefined). */
  add(batch: IndexBatch): IndexBatch | undefined {
    const ids = new Set<string>();
    for (const t of ['levels', 'warnings'] as const) {
      const b = batch[WORKER_TABLES.indexOf(t)];
      if (b) for (const id of idsOf(b)) ids.add(id);
    }
    const w: Waiting = { batch, files: ids.size, of: ids.size, bytes: batch.reduce((n, b) => n + (b ? batchBytes(b) : 0), 0) };
    if (w.files === 0) return w.batch;
    for (const id of ids) {
      const list = this.awaited.get(id);
      if (list) list.push(w);
      else this.awaited.set(id, [w]);
    }
    this.waiting.add(w);
    this.bytes += w.bytes;
    return undefined;
  }

  /** File `id` had its record: the rows of the message whose files have now all had theirs, if one has. */
  recorded(id: string): IndexBatch | undefined {
    const list = this.awaited.get(id);
    if (!list) return undefined;
    const w = list.shift()!;
    if (list.length === 0) this.awaited.delete(id);
    w.files--;
    if (w.files === w.of - 1 && w.files > 0) this.partial++;
    if (w.files !== 0) return undefined;
    if (w.of > 1) this.partial--;
    this.waiting.delete(w);
    this.bytes -= w.bytes;
    return w.batch;
  }

  /**
   * The scan is over: the rows of each message some of whose records came (a stop in its middle:
   * the rest of its files never come, and their rows are orphans no files row names). One none of
   * whose records came stays, to be dropped by clear().
   */
  *partlyRecorded(): Generator<IndexBatch> {
    for (const w of this.waiting)
      if (w.files < w.of) {
        this.bytes -= w.bytes;
        yield w.batch;
      }
  }

  /** Drops every message still waiting: their files are not indexed. */
  clear(): void {
    this.waiting.clear();
    this.awaited.clear();
    this.bytes = 0;
  }
}
