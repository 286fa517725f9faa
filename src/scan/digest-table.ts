// A table keyed by SHA-256 digests in typed arrays, outside V8's heap: each entry is its 32 bytes
// and a 32-bit value (~44 bytes with the slot table, at most half full), where a Map of 64-digit
// hex strings costs ~150 bytes of heap per entry. What a scan keeps per file (the summary's
// duplicate counts, a resume's indexed files) is kept here, so the main thread's heap does not grow
// with the archive. Keys are compared whole, never by a prefix.

/** 32-bit words of a SHA-256 digest. */
export const DIGEST_WORDS = 8;
const EMPTY = 0;

export class DigestTable {
  /** Entry i's key is words i·8 … i·8+7. */
  private keys = new Uint32Array(DIGEST_WORDS * 1024);
  private values = new Uint32Array(1024);
  /** Open addressing (linear probing): entry index + 1, EMPTY for none; at most half full. */
  private slots = new Uint32Array(2048);
  private entries = 0;
  /** Mixed into the slot hash, so keys chosen to share slots in one process do not in another. */
  private readonly seed = (Math.random() * 2 ** 32) >>> 0;

  get size(): number {
    return this.entries;
  }

  /** The entry of `key` (DIGEST_WORDS words), or -1. */
  find(key: Uint32Array): number {
    const mask = this.slots.length - 1;
    for (let s = this.home(key, 0) & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s]!;
      if (e === EMPTY) return -1;
      if (this.keyIs(e - 1, key)) return e - 1;
    }
  }

  /** Adds `key`, which find() does not know, with `value`. */
  insert(key: Uint32Array, value: number): void {
    if ((this.entries + 1) * 2 > this.slots.length) this.grow();
    const i = this.entries++;
    if (i === this.values.length) {
      this.values = grown(this.values, this.values.length * 2);
      this.keys = grown(this.keys, this.keys.length * 2);
    }
    this.keys.set(key.subarray(0, DIGEST_WORDS), i * DIGEST_WORDS);
    this.values[i] = value >>> 0;
    this.place(i);
  }

  value(entry: number): number {
    return this.values[entry]!;
  }

  setValue(entry: number, value: number): void {
    this.values[entry] = value >>> 0;
  }

  /** Every entry's value, in insertion order. */
  *allValues(): Generator<number> {
    for (let i = 0; i < this.entries; i++) yield this.values[i]!;
  }

  private place(i: number): void {
    const mask = this.slots.length - 1;
    let s = this.home(this.keys, i * DIGEST_WORDS) & mask;
    while (this.slots[s] !== EMPTY) s = (s + 1) & mask;
    this.slots[s] = i + 1;
  }

  private grow(): void {
    this.slots = new Uint32Array(this.slots.length * 2);
    for (let i = 0; i < this.entries; i++) this.place(i);
  }

  private home(words: Uint32Array, at: number): number {
    let h = this.seed;
    for (let w = 0; w < DIGEST_WORDS; w++) h = Math.imul(h ^ words[at + w]!, 0x9e3779b1) ^ (h >>> 15);
    return (h ^ (h >>> 16)) >>> 0;
  }

  private keyIs(i: number, key: Uint32Array): boolean {
    const at = i * DIGEST_WORDS;
    for (let w = 0; w < DIGEST_WORDS; w++) if (this.keys[at + w] !== key[w]) return false;
    return true;
  }
}

function grown(a: Uint32Array<ArrayBuffer>, length: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(length);
  b.set(a);
  return b;
}

/** `hex` as words into `out` when it is 64 lower-case hex digits (a SHA-256 as scan writes it); false otherwise. */
export function hexDigestWords(hex: string, out: Uint32Array): boolean {
  if (hex.length !== 2 * 4 * DIGEST_WORDS) return false;
  for (let w = 0; w < DIGEST_WORDS; w++) {
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

/** A 32-byte digest (node:crypto's) as words into `out`. */
export function digestWords(digest: Uint8Array, out: Uint32Array): void {
  const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
  for (let w = 0; w < DIGEST_WORDS; w++) out[w] = view.getUint32(w * 4);
}
