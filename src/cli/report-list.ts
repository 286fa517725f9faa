// `levelkit report --list errors|warnings|duplicates`: the files behind the summary table's counts,
// one line each, text escaped for the terminal. Errors and warnings are listed as their records
// are read; duplicates need every digest, so their groups are listed at the end.
import { printable } from '../scan/names.js';
import type { ScanRecord } from '../scan/scan.js';
import { recordName } from '../scan/summary.js';
import { warningText } from './readable.js';

/** What `--list` takes (OPTIONS.list.choices). */
export type ListKind = 'errors' | 'warnings' | 'duplicates';

export class RecordList {
  /** Names of the files per digest, for duplicates: same bytes, then same main grid. */
  private readonly sameBytes = new Map<string, string[]>();
  private readonly sameGrid = new Map<string, string[]>();

  constructor(
    private readonly kind: ListKind,
    private readonly write: (text: string) => void,
  ) {}

  add(rec: ScanRecord): void {
    const name = () => printable(recordName(rec));
    if (this.kind === 'errors' && rec.error) this.write(`${name()}: ${rec.error.code}: ${printable(rec.error.message)}\n`);
    else if (this.kind === 'warnings') for (const w of rec.warnings ?? []) this.write(`${name()}: ${warningText(w)}\n`);
    else if (this.kind === 'duplicates') {
      if (rec.contentDigest) push(this.sameBytes, rec.contentDigest, name());
      const grid = (rec.summary as { gridDigest?: unknown } | undefined)?.gridDigest;
      if (!rec.error && typeof grid === 'string') push(this.sameGrid, grid, name());
    }
  }

  /** Writes what waits for the end: the duplicate groups, largest first, as `same bytes (sha256 9f2c…): 3 files` and the names indented. */
  finish(): void {
    for (const [what, groups] of [
      ['same bytes', this.sameBytes],
      ['same main grid', this.sameGrid],
    ] as const) {
      const shared = [...groups].filter(([, names]) => names.length > 1).sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
      for (const [digest, names] of shared)
        this.write(`${what} (sha256 ${digest.slice(0, 12)}…): ${names.length} files\n${names.map((n) => `  ${n}\n`).join('')}`);
    }
  }
}

function push(m: Map<string, string[]>, k: string, v: string): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
