// `levelkit scan`'s progress on stderr (and `levelkit check`'s, named by `label`), as a sink of the
// scan's records: a live line on a terminal, a plain line every few seconds otherwise, nothing
// with --quiet. Cleared when closed, before the summary table is printed.
import type { ScanRecord } from '../scan/job.js';
import type { ScanStats } from '../scan/scan-options.js';
import type { Sink } from '../scan/sinks/sink.js';

const LIVE_MS = 250;
const PLAIN_MS = 5000;

export class Progress implements Sink {
  private files = 0;
  private bytes = 0;
  private errors = 0;
  private last = performance.now();
  private readonly started = performance.now();
  private drawn = false;
  private readonly live = process.stderr.isTTY === true;

  constructor(
    private readonly quiet: boolean,
    private readonly stats: ScanStats,
    private readonly label = 'scan',
  ) {}

  add(record: ScanRecord): void {
    this.files++;
    this.bytes += record.bytes ?? 0;
    if (record.error !== undefined) this.errors++;
    if (this.quiet) return;
    const now = performance.now();
    if (now - this.last < (this.live ? LIVE_MS : PLAIN_MS)) return;
    this.last = now;
    const s = (now - this.started) / 1000;
    const rate = this.files / s;
    let line = `${this.label}: ${this.files} files, ${(this.bytes / 2 ** 20).toFixed(1)} MB, ${rate.toFixed(0)} files/s, ${(this.bytes / 2 ** 20 / s).toFixed(1)} MB/s, ${this.errors} errors`;
    // The total is known only once the walk has ended; members of zips are not in it.
    if (this.stats.walkDone && this.stats.found > this.files) line += `, ETA ${Math.ceil((this.stats.found - this.files) / Math.max(rate, 1e-9))} s`;
    if (this.live) {
      process.stderr.write(`\r\x1b[K${line}`);
      this.drawn = true;
    } else process.stderr.write(`${line}\n`);
  }

  close(): void {
    if (this.drawn) process.stderr.write('\r\x1b[K');
    this.drawn = false;
  }
}
