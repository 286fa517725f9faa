// The summary as a sink: every record is counted (summary.ts's ReportBuilder) as it comes, and the
// summary (`--report`, the table on stderr) is built at the end. See src/scan/README.md ("Sinks").
import type { ScanRecord } from '../job.js';
import { ReportBuilder, type ScanReport } from '../summary.js';
import type { Sink } from './sink.js';

export class ReportSink implements Sink {
  readonly builder = new ReportBuilder();
  private readonly started = performance.now();

  add(record: ScanRecord): void {
    this.builder.add(record);
  }

  close(): void {}

  /** The summary of every record added, timed from when this sink was made. */
  report(): ScanReport {
    return this.builder.build((performance.now() - this.started) / 1000);
  }
}
