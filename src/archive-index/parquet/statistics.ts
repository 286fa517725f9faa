// A column chunk's min and max as Parquet's Statistics store them (min_value / max_value, the
// PLAIN bytes of the value, a string without its length), in the order its type defines: text
// as unsigned bytes, integers and times signed, doubles by value with NaN left out (and a zero
// written -0 as a min, +0 as a max, as the format asks), false before true. The footer declares
// that order (ColumnOrder TYPE_ORDER), so readers prune row groups by them. Host-independent.
import type { ColumnType } from '../schema.js';
import type { ColumnBatch } from './columns.js';
import type { Dictionary } from './encodings.js';
import { WIDTH } from './encodings.js';

/** Text bounds longer than this are left out (exact or none, never cut): a footer holds one per chunk. */
const STAT_BYTES = 64;

export interface Bounds {
  min?: Uint8Array;
  max?: Uint8Array;
}

/** The bounds of the chunk's present values: its dictionary's entries where it has one (the same set, far fewer), else `parts`' PLAIN values. */
export function boundsOf(type: ColumnType, parts: readonly ColumnBatch[], dictionary: Dictionary | null): Bounds {
  const walk = new Walk(type);
  if (dictionary) for (let e = 0; e < dictionary.size; e++) walk.add(dictionary.page, dictionary.starts[e]!);
  else {
    const width = WIDTH[type];
    for (const p of parts) {
      const v = p.values;
      for (let i = 0, at = 0; i < p.present; i++) {
        walk.add(v, at);
        at += width || 4 + (v[at]! | (v[at + 1]! << 8) | (v[at + 2]! << 16) | (v[at + 3]! << 24));
      }
    }
  }
  return walk.bounds();
}

const scratch = new DataView(new ArrayBuffer(8));

/** The running min and max: as numbers for numeric types, as places in the PLAIN bytes for text. */
class Walk {
  private minN = Number.POSITIVE_INFINITY;
  private maxN = Number.NEGATIVE_INFINITY;
  private minBuf: Uint8Array | null = null;
  private minAt = 0;
  private maxBuf: Uint8Array | null = null;
  private maxAt = 0;
  constructor(private readonly type: ColumnType) {}

  add(b: Uint8Array, at: number): void {
    if (this.type === 'VARCHAR') {
      if (this.minBuf === null || compareText(b, at, this.minBuf, this.minAt) < 0) {
        this.minBuf = b;
        this.minAt = at;
      }
      if (this.maxBuf === null || compareText(b, at, this.maxBuf, this.maxAt) > 0) {
        this.maxBuf = b;
        this.maxAt = at;
      }
      return;
    }
    const x = numberAt(this.type, b, at);
    // NaN compares false both ways: left out.
    if (x < this.minN) this.minN = x;
    if (x > this.maxN) this.maxN = x;
  }

  bounds(): Bounds {
    const { type } = this;
    if (type === 'VARCHAR') {
      const text = (b: Uint8Array | null, at: number) => {
        if (b === null) return undefined;
        const n = lengthAt(b, at);
        return n > STAT_BYTES ? undefined : b.slice(at + 4, at + 4 + n);
      };
      return { min: text(this.minBuf, this.minAt), max: text(this.maxBuf, this.maxAt) };
    }
    if (this.minN > this.maxN) return {};
    return { min: plainOf(type, this.minN, true), max: plainOf(type, this.maxN, false) };
  }
}

function lengthAt(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/** Two PLAIN strings (length, then UTF-8) by their bytes, unsigned; a prefix first. */
function compareText(a: Uint8Array, at: number, b: Uint8Array, bt: number): number {
  const na = lengthAt(a, at);
  const nb = lengthAt(b, bt);
  const n = Math.min(na, nb);
  for (let i = 4; i < n + 4; i++) {
    const d = a[at + i]! - b[bt + i]!;
    if (d !== 0) return d;
  }
  return na - nb;
}

/** A PLAIN numeric value (or boolean as 0/1) as a number: 64-bit integers are within ±2^53 (columns.ts), exact. */
function numberAt(type: ColumnType, b: Uint8Array, at: number): number {
  switch (type) {
    case 'BOOLEAN':
      return b[at]!;
    case 'INTEGER':
      return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
    case 'DOUBLE':
      for (let i = 0; i < 8; i++) scratch.setUint8(i, b[at + i]!);
      return scratch.getFloat64(0, true);
    default: {
      const lo = (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
      const hi = b[at + 4]! | (b[at + 5]! << 8) | (b[at + 6]! << 16) | (b[at + 7]! << 24);
      return hi * 2 ** 32 + lo;
    }
  }
}

/** A number as its type's PLAIN bytes; `min` says which zero a double's zero is. */
function plainOf(type: ColumnType, x: number, min: boolean): Uint8Array {
  const out = new Uint8Array(WIDTH[type]);
  const view = new DataView(out.buffer);
  if (type === 'BOOLEAN') out[0] = x;
  else if (type === 'INTEGER') view.setInt32(0, x, true);
  else if (type === 'DOUBLE') view.setFloat64(0, x === 0 ? (min ? -0 : 0) : x, true);
  else {
    const hi = Math.floor(x / 2 ** 32);
    view.setUint32(0, x - hi * 2 ** 32, true);
    view.setInt32(4, hi, true);
  }
  return out;
}
