// Families: the versions of a level. Levels whose main grids are the same (one grid_digest) or
// near the same (estimated Jaccard similarity of their signatures ≥ the threshold, signature.ts)
// are one family. Candidates come from locality-sensitive hashing (banding the signatures), never
// from comparing every pair; each is verified before it joins. See README.md "Families".
import { SIGNATURE_BYTES, signatureBytes, similarity } from './signature.js';

/** A family: `key` (its smallest grid_digest, so the same family has the same key in every run), its files' ids (grid by grid, each grid's in the order given), and whether all share one grid. */
export interface Family {
  key: string;
  ids: string[];
  exact: boolean;
}

/** The default similarity a pair needs to be one family (README.md "Families": the evidence). */
export const FAMILY_THRESHOLD = 0.7;
/** LSH: 32 bands of 4 bytes; a pair of similarity J is a candidate in some band with chance 1 − (1 − J⁴)³², 0.9997 at 0.7. */
const BANDS = 32;
const ROWS = SIGNATURE_BYTES / BANDS;
/** Each member of a band's bucket is verified against at most this many members before it: a bucket of m costs ≤ 8m checks, never m². */
const BUCKET_WINDOW = 8;

/**
 * The families among `rows` (one per file; rows without a grid_digest belong to none). Rows with
 * one grid_digest are one family whatever their signatures (`exact` when that is all it holds);
 * grids with signatures join when similar (`threshold`, default FAMILY_THRESHOLD), transitively.
 * A lone level is no family. Sorted by key. Memory: linear in the rows (the distinct digests, one
 * 128-byte signature per digest, and one band's keys at a time).
 */
export function familiesOf(rows: Iterable<{ id: string; gridDigest: string | null; signature: string | null }>, options?: { threshold?: number }): Family[] {
  const threshold = options?.threshold ?? FAMILY_THRESHOLD;
  if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`levelkit: families threshold must be between 0 and 1; got ${threshold}`);
  const grids = new Grids();
  for (const r of rows) if (r.gridDigest !== null) grids.add(r.id, r.gridDigest, r.signature);
  const parent = Int32Array.from({ length: grids.digests.length }, (_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  linkSimilar(grids, threshold, root, parent);
  return familiesFrom(grids, root);
}

/** The distinct grids: their digests, which files hold each, and one signature per grid that has one. */
class Grids {
  readonly digests: string[] = [];
  readonly ids: string[][] = [];
  private readonly byDigest = new Map<string, number>();
  /** Grids with a signature (indices into digests), and their bytes back to back. */
  signed: number[] = [];
  bytes = new Uint8Array(SIGNATURE_BYTES * 64);

  add(id: string, digest: string, signature: string | null): void {
    let g = this.byDigest.get(digest);
    if (g === undefined) {
      g = this.digests.length;
      this.byDigest.set(digest, g);
      this.digests.push(digest);
      this.ids.push([]);
      const sig = signature === null ? null : signatureBytes(signature);
      if (sig) this.sign(g, sig);
    }
    this.ids[g]!.push(id);
  }

  private sign(g: number, sig: Uint8Array): void {
    const at = this.signed.length * SIGNATURE_BYTES;
    if (at + SIGNATURE_BYTES > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes.set(sig, at);
    this.signed.push(g);
  }
}

/**
 * Joins grids whose signatures agree in some band and are verified similar. One band at a time:
 * each signed grid's band bytes and its number are packed into one float (key × 2^bits + n), the
 * floats sorted, and equal keys (a bucket) walked in order, each member checked against the
 * BUCKET_WINDOW before it that are not yet in its family.
 */
function linkSimilar(grids: Grids, threshold: number, root: (i: number) => number, parent: Int32Array): void {
  const n = grids.signed.length;
  if (n < 2) return;
  const indexBits = Math.max(1, Math.ceil(Math.log2(n)));
  // 53 bits of a double hold the key and the index exactly; a million grids leave 33 for the key.
  const keyScale = 2 ** Math.max(0, 32 - (53 - indexBits));
  const packed = new Float64Array(n);
  const { bytes } = grids;
  for (let band = 0; band < BANDS; band++) {
    for (let s = 0; s < n; s++) {
      const at = s * SIGNATURE_BYTES + band * ROWS;
      const key = (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
      packed[s] = Math.floor(key / keyScale) * 2 ** indexBits + s;
    }
    packed.sort();
    let start = 0;
    for (let i = 1; i <= n; i++) {
      if (i < n && Math.floor(packed[i]! / 2 ** indexBits) === Math.floor(packed[start]! / 2 ** indexBits)) {
        const s = packed[i]! % 2 ** indexBits;
        for (let j = Math.max(start, i - BUCKET_WINDOW); j < i; j++) {
          const t = packed[j]! % 2 ** indexBits;
          const a = root(grids.signed[s]!);
          const b = root(grids.signed[t]!);
          if (a !== b && similarity(bytes, bytes, s * SIGNATURE_BYTES, t * SIGNATURE_BYTES) >= threshold) parent[Math.max(a, b)] = Math.min(a, b);
        }
        continue;
      }
      start = i;
    }
  }
}

/** The families: grids grouped by their root, each group with two files or more. */
function familiesFrom(grids: Grids, root: (i: number) => number): Family[] {
  const members = new Map<number, number[]>();
  for (let g = 0; g < grids.digests.length; g++) {
    const r = root(g);
    const list = members.get(r);
    if (list) list.push(g);
    else members.set(r, [g]);
  }
  const families: Family[] = [];
  for (const list of members.values()) {
    const ids = list.flatMap((g) => grids.ids[g]!);
    if (ids.length < 2) continue;
    let key = grids.digests[list[0]!]!;
    for (const g of list) if (grids.digests[g]! < key) key = grids.digests[g]!;
    families.push({ key, ids, exact: list.length === 1 });
  }
  return families.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
