// The archive index as a sink (scan --index): a thin adapter over the index writer
// (src/archive-index/writer.ts), which takes each record's files and warnings rows here and each
// worker message's level rows through scan()'s `index` option. See src/scan/README.md ("Sinks").
import type { IndexWriter } from '../../archive-index/writer.js';
import type { ScanRecord } from '../job.js';
import type { ScanOptions } from '../scan-options.js';
import type { Sink } from './sink.js';

export class IndexSink implements Sink {
  constructor(readonly writer: IndexWriter) {}

  /** scan()'s `index` option: the workers' level rows go to the writer, each message's before its records. */
  get scanOption(): NonNullable<ScanOptions['index']> {
    return { run: this.writer.run, onRows: this.writer.addRows };
  }

  add(record: ScanRecord, mtimeMs: number | null): void {
    this.writer.addRecord(record, mtimeMs);
  }

  /** Writes the rest as parts and waits for every part; throws the first write's failure. */
  close(): Promise<void> {
    return this.writer.close();
  }
}
