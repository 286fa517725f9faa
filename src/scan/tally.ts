// The closing count of a run: files per format, warnings, errors per code, files passed over,
// files written. Every command keeps one and prints it last, so runs compare at a glance.
import type { FileRecord } from './record.js';

export class Tally {
  readonly started = performance.now();
  readonly formats = new Map<string, number>();
  readonly errors = new Map<string, number>();
  warnings = 0;
  /** Files per warning code their decode did not check (records' `unchecked`, from a summary decode). */
  readonly unchecked = new Map<string, number>();
  /** Files in folders that neither a format recognised nor were named like a level. */
  unrecognised = 0;
  /** Links to folders not walked (no --follow) and folders met a second time. */
  notFollowed = 0;
  /** Files a command skipped because they are not its input (convert: not a Graal level). */
  skipped = 0;
  /** Levels not worked on because their output is already there (`render --skip-existing`). */
  existing = 0;
  /** Files written; undefined for commands that write nothing. */
  written: number | undefined;

  add(record: FileRecord): void {
    if ('error' in record) bump(this.errors, record.error.code);
    else {
      this.decoded(record.format, record.warnings.length);
      for (const code of record.unchecked ?? []) bump(this.unchecked, code);
    }
  }

  decoded(format: string, warnings: number): void {
    bump(this.formats, format);
    this.warnings += warnings;
  }

  get failed(): number {
    let n = 0;
    for (const v of this.errors.values()) n += v;
    return n;
  }
}

function bump<K>(m: Map<K, number>, k: K): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}
