// A file of JSON lines written as the records come (scan --out), that holds only whole lines
// whatever happens: a write the system takes only part of is continued, and when the disk is
// full (or fails) the file is cut back to its last whole line, so `levelkit report` can still
// read every record in it. See src/scan/README.md ("Records").
import * as fs from 'node:fs';
import { displayName } from './names.js';
import { systemReason } from './read.js';
import { OutputError } from './write.js';

/** The fs calls a LineFile makes: node:fs by default; tests pass their own to return short counts and fail with ENOSPC. */
export interface LineFileFs {
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  ftruncateSync(fd: number, length: number): void;
  fstatSync(fd: number): { isFile(): boolean };
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
}

export class LineFile {
  /** Bytes of whole lines written: where the file is cut back to when a write fails. */
  private whole = 0;
  /** Lines written whole. */
  lines = 0;

  /** `fd` is open for writing at offset 0 (a new or truncated file, or a device); `path` names it in messages. */
  constructor(
    readonly fd: number,
    readonly path: Buffer,
    private readonly io: LineFileFs = fs,
  ) {}

  /**
   * Writes `line` (ending in a newline) whole. Throws OutputError `IO` when the system refuses;
   * the file then ends at the last whole line before it, and the message says so.
   */
  write(line: string): void {
    const bytes = Buffer.from(line, 'utf8');
    let done = 0;
    try {
      while (done < bytes.length) {
        const n = this.io.writeSync(this.fd, bytes, done, bytes.length - done);
        // A count of 0 for a non-empty write would repeat for ever.
        if (!(n > 0)) throw Object.assign(new Error('write took no bytes'), { code: 'EIO', syscall: 'write' });
        done += n;
      }
    } catch (e) {
      throw this.cutBack(e, done);
    }
    this.whole += bytes.length;
    this.lines++;
  }

  /**
   * Syncs the file when it is a regular one, then closes it. What a disk (or a network or quota-
   * bound file system) could not hold after all is reported there, not at the write: OutputError
   * `IO` naming the path, so a scan whose records did not all land never ends as a success.
   */
  close(): void {
    try {
      try {
        if (this.isFile()) this.io.fsyncSync(this.fd);
      } finally {
        this.io.closeSync(this.fd);
      }
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (!err || typeof err.code !== 'string') throw e;
      throw new OutputError('IO', `cannot write ${displayName(this.path)}: ${systemReason(err)}`);
    }
  }

  private cutBack(e: unknown, torn: number): unknown {
    const err = e as NodeJS.ErrnoException;
    if (!err || typeof err.code !== 'string') return e;
    let note = '';
    // Only a regular file keeps what was written and can be cut back; a device or pipe has passed it on.
    if (this.isFile()) {
      note = `; it ends at its last whole record (${this.lines} record${this.lines === 1 ? '' : 's'})`;
      if (torn > 0)
        try {
          this.io.ftruncateSync(this.fd, this.whole);
        } catch {
          note = '; its last record is cut short';
        }
    } else if (torn > 0) note = '; its last record is cut short';
    return new OutputError('IO', `cannot write ${displayName(this.path)}: ${systemReason(err)}${note}`);
  }

  private isFile(): boolean {
    try {
      return this.io.fstatSync(this.fd).isFile();
    } catch {
      return false;
    }
  }
}
