// The archive index as a sink (scan --index): a thin adapter over the index writer
// (src/archive-index/writer.ts), which takes each record's files and warnings rows here and each
// worker message's level rows through scan()'s `index` option. See src/scan/README.md ("Sinks").
import type { IndexWriter } from '../../archive-index/writer.js';
import { checkArchive } from '../../check/run.js';
import type { ScanRecord } from '../job.js';
import type { ScanOptions } from '../scan-options.js';
import type { Sink } from './sink.js';

export class IndexSink implements Sink {
  /** With `checks` (scan --check): what each file left for the rules that judge files together (Graal links), run at the end. */
  private readonly facts: { path: string; member: string | null; facts: Record<string, unknown> }[] = [];

  constructor(
    readonly writer: IndexWriter,
    private readonly checks?: { rules: readonly string[] },
  ) {}

  /** scan()'s `index` option: the workers' level rows go to the writer, each message's before its records. */
  get scanOption(): NonNullable<ScanOptions['index']> {
    return { run: this.writer.run, onRows: this.writer.addRows };
  }

  /** A promise while the writer has too many rows in flight: the scan waits for it (and so stops reading files). */
  add(record: ScanRecord, mtimeMs: number | null): undefined | Promise<void> {
    const busy = this.writer.addRecord(record, mtimeMs);
    if (this.checks && record.checkFacts) this.facts.push({ path: record.path, member: record.member, facts: record.checkFacts });
    return busy;
  }

  /** The archive rules' findings, then the rest as parts; waits for every part and throws the first write's failure. */
  close(): Promise<void> {
    if (this.checks) for (const f of checkArchive(this.facts, [...this.checks.rules])) this.writer.addFinding(f.path, f.member, f);
    return this.writer.close();
  }
}
