// How many files share each SHA-256 digest, for the summary's duplicate groups (summary.ts). A
// scan of a million files meets a million digests: as a Map of hex strings that was ~150 bytes
// each (the 64-character string, the entry, the table), and the main thread's heap grew with the
// archive. Here each distinct digest is its 32 bytes and a count in typed arrays (~44 bytes with
// the slot table), outside V8's heap. The whole digest is the key, never a prefix: two files share
// a group only when all 32 bytes are equal, whatever their first bytes (record files are input).

const WORDS = 8;
const EMPTY = 0;

export class DigestCounts {
  /** Entry i's digest is words i·8 … i·8+7 (big-endian, as the hex reads). */
  private digests = new Uint32Array(WORDS * 1024);
  private counts = new Uint32Array(1024);
  /** Open addressing (linear probing) over entries: entry index + 1, EMPTY for none; at most half full. */
  private slots = new Uint32Array(2048);
  private size = 0;
  /** Anything that is not 64 lower-case hex digits (a library caller's record): counted by its text. */
  private readonly other = new Map<string, number>();
  private readonly key = new Uint32Array(WORDS);
  /** Mixed into the slot hash, so digests chosen to share slots in one process do not in another. */
  private readonly seed = (Math.random() * 2 ** 32) >>> 0;

  add(digest: string): void {
    if (!parseDigest(digest, this.key)) {
      this.other.set(digest, (this.other.get(digest) ?? 0) + 1);
      return;
    }
    const mask = this.slots.length - 1;
    for (let s = this.home(this.key) & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s]!;
      if (e === EMPTY) break;
      if (this.equals(e - 1)) {
        this.counts[e - 1]!++;
        return;
      }
    }
    this.insert();
  }

  /** Groups of 2 or more files sharing a digest, and the files in them. */
  groups(): { groups: number; files: number } {
    let groups = 0;
    let files = 0;
    const tally = (n: number) => {
      if (n > 1) {
        groups++;
        files += n;
      }
    };
    for (let i = 0; i < this.size; i++) tally(this.counts[i]!);
    for (const n of this.other.values()) tally(n);
    return { groups, files };
  }

  private insert(): void {
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    const i = this.size++;
    if (i === this.counts.length) {
      this.counts = grown(this.counts, this.counts.length * 2);
      this.digests = grown(this.digests, this.digests.length * 2);
    }
    this.digests.set(this.key, i * WORDS);
    this.counts[i] = 1;
    this.place(i);
  }

  private place(i: number): void {
    const mask = this.slots.length - 1;
    let s = this.home(this.digests.subarray(i * WORDS, i * WORDS + WORDS)) & mask;
    while (this.slots[s] !== EMPTY) s = (s + 1) & mask;
    this.slots[s] = i + 1;
  }

  private grow(): void {
    this.slots = new Uint32Array(this.slots.length * 2);
    for (let i = 0; i < this.size; i++) this.place(i);
  }

  private home(words: Uint32Array): number {
    let h = this.seed;
    for (let w = 0; w < WORDS; w++) h = Math.imul(h ^ words[w]!, 0x9e3779b1) ^ (h >>> 15);
    return (h ^ (h >>> 16)) >>> 0;
  }

  private equals(i: number): boolean {
    const at = i * WORDS;
    for (let w = 0; w < WORDS; w++) if (this.digests[at + w] !== this.key[w]) return false;
    return true;
  }
}

function grown(a: Uint32Array<ArrayBuffer>, length: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(length);
  b.set(a);
  return b;
}

/** `hex` as 8 words into `out` when it is 64 lower-case hex digits (what scan writes); false otherwise. */
function parseDigest(hex: string, out: Uint32Array): boolean {
  if (hex.length !== 64) return false;
  for (let w = 0; w < WORDS; w++) {
    let v = 0;
    for (let j = 0; j < 8; j++) {
      const c = hex.charCodeAt(w * 8 + j);
      const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
      if (d < 0) return false;
      v = (v << 4) | d;
    }
    out[w] = v >>> 0;
  }
  return true;
}
