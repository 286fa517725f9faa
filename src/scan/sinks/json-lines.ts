// The JSON lines sink: one line per record (line.ts: the worker's own text), to a file (--out,
// through line-file.ts: whole lines even on a full disk) or to standard output (the CLI's, which
// waits for a pending write and notices when its reader has gone). See src/scan/README.md ("Sinks").
import type { ScanRecord } from '../job.js';
import { recordLine } from '../line.js';
import type { LineFile } from '../line-file.js';
import type { Sink } from './sink.js';

/** Where the lines go. */
export interface LineOutput {
  /** Writes one line (ending in a newline) whole; throws OutputError when the destination fails. */
  write(line: string): void;
  /** After a write: true when more may be written now, else a promise of it (false: the reader has gone). Absent: always ready. */
  ready?(): boolean | Promise<boolean>;
  /** Aborted once the reader has gone. */
  readonly gone?: AbortSignal;
  /** Lets the destination go. */
  close?(): void;
}

export class JsonLinesSink implements Sink {
  readonly gone?: AbortSignal;

  constructor(private readonly out: LineOutput) {
    if (out.gone) this.gone = out.gone;
  }

  /** Lines to a file opened for writing (scan --out), closed at the end. */
  static toFile(file: LineFile): JsonLinesSink {
    return new JsonLinesSink({ write: (line) => file.write(line), close: () => file.close() });
  }

  add(record: ScanRecord): void | Promise<void> {
    this.out.write(`${recordLine(record)}\n`);
    const ready = this.out.ready?.();
    if (ready === undefined || typeof ready === 'boolean') return;
    return ready.then(() => {});
  }

  close(): void {
    this.out.close?.();
  }
}
