// Where output goes, the same for every command: records on stdout (text, or one JSON object
// per line with --json), per-file errors and progress on stderr, and a closing tally on stderr.

import { jsonText } from '../scan/json-text.js';
import { printable } from '../scan/names.js';
import type { FailedRecord } from '../scan/record.js';
import { Tally } from '../scan/tally.js';
import { stdoutGone, writeStdout } from './stdout.js';

const PROGRESS_MS = 250;

export class Reporter {
  readonly tally = new Tally();
  private seen = 0;
  private lastDraw = 0;
  private drawn = false;
  /** No progress line (--quiet). */
  quiet = false;
  /** Files the run will handle, when known (then the progress line shows it and an ETA); updated as zips are listed. */
  total: { found: number } | undefined;
  /** Where readable records go: stderr once a command writes its own data to stdout (`render -o -`). */
  private textOut: (text: string) => void = writeStdout;

  constructor(
    private readonly command: string,
    private readonly json: boolean,
  ) {}

  /** A file's record: `record` with --json, else `text` (which should end in a newline). */
  ok(record: object, text: string): void {
    this.clearProgress();
    if (this.json) writeStdout(`${jsonText(record)}\n`);
    else this.textOut(text);
    this.tick();
  }

  /** A file that failed: counted, one line on stderr, and with --json its record on stdout too, so the JSON lines hold every file. */
  fail(record: FailedRecord): void {
    this.tally.add(record);
    this.clearProgress();
    if (this.json) writeStdout(`${jsonText(record)}\n`);
    const name = record.member === undefined ? record.file : `${record.file}::${record.member}`;
    process.stderr.write(`levelkit ${this.command}: ${printable(name)}: ${record.error.code}: ${printable(record.error.message)}\n`);
    this.tick();
  }

  /** Standard output carries the command's data (a PNG for `render -o -`): readable records go to stderr. */
  textToStderr(): void {
    this.textOut = (text) => process.stderr.write(text);
  }

  /** Counts a handled file for the progress line; callers use it directly for a file passed over without a record. */
  tick(): void {
    this.seen++;
    // Progress only for a person watching: a redirected stderr gets no carriage-return noise.
    if (!process.stderr.isTTY || this.quiet) return;
    const now = performance.now();
    if (now - this.lastDraw < PROGRESS_MS) return;
    this.lastDraw = now;
    this.drawn = true;
    process.stderr.write(`\r\x1b[K${this.command}: ${this.progressText(now)}`);
  }

  /** `120 files…`, or with a known total `120/2925 files, ETA 3 min 10 s`. */
  private progressText(now: number): string {
    const total = this.total?.found;
    if (total === undefined || total < this.seen) return `${this.seen} files…`;
    const rate = this.seen / Math.max(now - this.tally.started, 1);
    const left = Math.ceil((total - this.seen) / Math.max(rate, 1e-9) / 1000);
    return `${this.seen}/${total} files, ETA ${left >= 60 ? `${Math.floor(left / 60)} min ${left % 60} s` : `${left} s`}`;
  }

  /**
   * Prints the tally and returns the exit code: 2 when any file failed, else 0. A run whose only
   * file failed (`extract missing.map`) ends with its error line alone: a tally would add nothing.
   */
  finish(): number {
    this.clearProgress();
    // The reader of stdout left (`| head`): no tally for nobody, and no error either.
    if (stdoutGone.aborted) return 0;
    const t = this.tally;
    if (!(this.seen === 1 && t.failed === 1 && !t.written)) process.stderr.write(`levelkit ${this.command}: ${tallyText(t)}\n`);
    return t.failed ? 2 : 0;
  }

  private clearProgress(): void {
    if (this.drawn) process.stderr.write('\r\x1b[K');
    this.drawn = false;
  }
}

/** `3 decoded (wwd 2, teeworlds 1); 1 failed (IO 1); 2 warnings; 4 written; 0.12 s` — parts that are zero are left out. */
export function tallyText(t: Tally): string {
  const list = (m: Map<string, number>) => [...m].map(([k, n]) => `${k} ${n}`).join(', ');
  let decoded = 0;
  for (const n of t.formats.values()) decoded += n;
  const parts = [`${decoded} decoded${decoded ? ` (${list(t.formats)})` : ''}`];
  if (t.failed) parts.push(`${t.failed} failed (${list(t.errors)})`);
  if (t.warnings) parts.push(`${t.warnings} warning${t.warnings === 1 ? '' : 's'}`);
  if (t.unchecked.size) {
    const where = [...t.unchecked].map(([code, n]) => `${code} in ${n} file${n === 1 ? '' : 's'}`).join(', ');
    parts.push(`not checked: ${where} (levelkit scan --depth full checks them)`);
  }
  if (t.written !== undefined) parts.push(`${t.written} written`);
  if (t.skipped) parts.push(`${t.skipped} skipped (not this command's input)`);
  if (t.existing) parts.push(`${t.existing} skipped (output already there; --skip-existing)`);
  if (t.unrecognised) parts.push(`${t.unrecognised} other files not recognised`);
  if (t.notFollowed) parts.push(`${t.notFollowed} linked or repeated folders not walked (--follow walks links)`);
  parts.push(`${((performance.now() - t.started) / 1000).toFixed(2)} s`);
  return parts.join('; ');
}
