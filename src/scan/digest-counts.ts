// How many files share each SHA-256 digest, for the summary's duplicate groups (summary.ts). A
// scan of a million files meets a million digests: as a Map of hex strings that was ~154 bytes of
// V8 heap per file, and the main thread's heap grew with the archive. Here they are counted in a
// DigestTable (typed arrays, ~44 bytes per distinct digest). Whole digests are compared, never a
// prefix: two files share a group only when all 32 bytes are equal (record files are input).
import { DIGEST_WORDS, DigestTable, hexDigestWords } from './digest-table.js';

export class DigestCounts {
  private readonly table = new DigestTable();
  /** Anything that is not 64 lower-case hex digits (a library caller's record): counted by its text. */
  private readonly other = new Map<string, number>();
  private readonly key = new Uint32Array(DIGEST_WORDS);

  add(digest: string): void {
    if (!hexDigestWords(digest, this.key)) {
      this.other.set(digest, (this.other.get(digest) ?? 0) + 1);
      return;
    }
    const e = this.table.find(this.key);
    if (e < 0) this.table.insert(this.key, 1);
    else this.table.setValue(e, this.table.value(e) + 1);
  }

  /** Groups of 2 or more files sharing a digest, and the files in them. */
  groups(): { groups: number; files: number } {
    let groups = 0;
    let files = 0;
    for (const counts of [this.table.allValues(), this.other.values()])
      for (const n of counts)
        if (n > 1) {
          groups++;
          files += n;
        }
    return { groups, files };
  }
}
