// What a column chunk's pages hold beyond PLAIN values: the RLE / bit-packed hybrid (definition
// levels and dictionary indices), and the dictionary of a chunk whose values repeat (a level's
// `id` on each of its rows, `kind`, `layer`, a tile value …). The dictionary is built from the
// PLAIN bytes the workers sent (columns.ts) without making a string or an array per value: a
// hash table of entry numbers over the dictionary page's own bytes. Host-independent.
import type { ColumnType } from '../schema.js';
import type { ColumnBatch } from './columns.js';
import { varint } from './thrift.js';

/** A dictionary page larger than this is not written (the chunk goes PLAIN): readers hold it whole, and DuckDB's writer stops near it too. */
const DICTIONARY_BYTES = 4 << 20;
/** A dictionary must make the chunk's values at most this share of their PLAIN bytes, or it is not used: reading through one costs a little too. */
const PAYS = 0.8;
/**
 * Text values longer than this are never dictionary keys: hashing kilobytes of JSON or a sign's
 * text on the writer's thread costs more than a dictionary saves once GZIP has the text.
 */
const KEY_BYTES = 256;
/** Values looked at before the first check that a dictionary can still pay (hopeless()). */
const SAMPLE = 2048;
/** Share of distinct values at a checkpoint past which the column goes PLAIN (4,096 tile values, uniform, give 79% of the first 2,048). */
const SAMPLE_DISTINCT = 0.9;

/** Bytes of a PLAIN value of each fixed-width type (0: a 4-byte length, then the bytes). */
export const WIDTH: Record<ColumnType, number> = { VARCHAR: 0, BOOLEAN: 1, INTEGER: 4, BIGINT: 8, TIMESTAMP: 8, DOUBLE: 8 };

/** A growable byte buffer. */
export class ByteSink {
  buf: Uint8Array;
  len = 0;

  constructor(capacity = 1024) {
    this.buf = new Uint8Array(capacity);
  }

  push(b: number): void {
    if (this.len === this.buf.length) this.grow(1);
    this.buf[this.len++] = b;
  }

  append(bytes: Uint8Array): void {
    if (this.len + bytes.length > this.buf.length) this.grow(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  grow(n: number): void {
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    grown.set(this.buf.subarray(0, this.len));
    this.buf = grown;
  }
}

/** Bits to hold every index of a dictionary of `size` entries (at least 1: some readers refuse 0). */
export function bitWidthOf(size: number): number {
  let w = 1;
  while (2 ** w < size) w++;
  return w;
}

/**
 * `values` (each below 2^bitWidth, bitWidth ≤ 24) in Parquet's RLE / bit-packed hybrid, without a
 * length prefix: a run of 8 or more equal values where the literals before it fill whole groups
 * of 8 is an RLE run (varint(count << 1), the value in ⌈bitWidth/8⌉ bytes), the rest bit-packed
 * in groups of 8 (varint(groups << 1 | 1), values LSB first). Only the last bit-packed run may end
 * in padding: readers stop at the page's value count.
 */
export function hybrid(values: Uint32Array, bitWidth: number, out: ByteSink): void {
  const n = values.length;
  const valueBytes = (bitWidth + 7) >> 3;
  let literalFrom = 0;
  let i = 0;
  while (i < n) {
    const v = values[i]!;
    let j = i + 1;
    while (j < n && values[j] === v) j++;
    // An RLE run may start only where the literals pending fill whole groups of 8: pad them with the run's first values.
    const pad = (8 - ((i - literalFrom) & 7)) & 7;
    if (j - i >= 8 + pad) {
      bitPacked(values, literalFrom, i + pad, bitWidth, out);
      const header = varint((j - i - pad) * 2);
      if (out.len + header.length + valueBytes > out.buf.length) out.grow(header.length + valueBytes);
      out.buf.set(header, out.len);
      out.len += header.length;
      for (let b = 0, x = v; b < valueBytes; b++, x >>>= 8) out.buf[out.len++] = x & 0xff;
      literalFrom = j;
    }
    i = j;
  }
  bitPacked(values, literalFrom, n, bitWidth, out);
}

/** values[from, to) as one bit-packed run (padded with zeros to a whole group of 8); nothing when empty. */
function bitPacked(values: Uint32Array, from: number, to: number, bitWidth: number, out: ByteSink): void {
  if (to <= from) return;
  const groups = (to - from + 7) >> 3;
  const header = varint(groups * 2 + 1);
  const bytes = groups * bitWidth;
  if (out.len + header.length + bytes > out.buf.length) out.grow(header.length + bytes);
  const buf = out.buf;
  buf.set(header, out.len);
  let o = out.len + header.length;
  // At most 7 + 24 bits pending: within a 32-bit integer.
  let acc = 0;
  let bits = 0;
  const end = from + groups * 8;
  for (let k = from; k < end; k++) {
    acc |= (k < to ? values[k]! : 0) << bits;
    bits += bitWidth;
    while (bits >= 8) {
      buf[o++] = acc & 0xff;
      acc >>>= 8;
      bits -= 8;
    }
  }
  out.len = o;
}

/**
 * Definition levels of one page (0 null, 1 present, one byte per row in each part) as v1 pages
 * store them: a 4-byte length, then the hybrid: one RLE run where every row has a value (or none
 * has), else one bit-packed run.
 */
export function definitionLevels(parts: readonly ColumnBatch[], rows: number, present: number, out: ByteSink): void {
  const at = out.len;
  out.append(new Uint8Array(4));
  if (present === rows || present === 0) {
    out.append(varint(rows * 2));
    out.push(present === 0 ? 0 : 1);
  } else {
    const groups = Math.ceil(rows / 8);
    out.append(varint(groups * 2 + 1));
    if (out.len + groups > out.buf.length) out.grow(groups);
    out.buf.fill(0, out.len, out.len + groups);
    let bit = out.len * 8;
    for (const p of parts) bit = packBits(p.defs, out.buf, bit);
    out.len += groups;
  }
  new DataView(out.buf.buffer, out.buf.byteOffset).setUint32(at, out.len - at - 4, true);
}

/** Sets bit `bit + i` of `out` (LSB first) for each non-zero byte i of `bytes`; returns the next bit. */
export function packBits(bytes: Uint8Array, out: Uint8Array, bit: number): number {
  for (let i = 0; i < bytes.length; i++, bit++) if (bytes[i]) out[bit >>> 3]! |= 1 << (bit & 7);
  return bit;
}

/** A chunk's dictionary: its distinct values' PLAIN bytes in first-seen order (the dictionary page), and each present value's entry. */
export interface Dictionary {
  page: Uint8Array;
  size: number;
  /** Where entry e starts in `page`: starts[e] to starts[e + 1]. */
  starts: Uint32Array;
  indices: Uint32Array;
}

/**
 * The dictionary of a chunk's present values (`parts`' PLAIN bytes, in order), or null where it
 * does not pay: booleans (a bit each already), a text over KEY_BYTES, a column whose first
 * SAMPLE values nearly all differ, a dictionary over DICTIONARY_BYTES, or one whose page and
 * indices would not be under PAYS of the PLAIN bytes. `always` (the `id` column, whose values
 * repeat on every row of a level) skips every test but the size of the page.
 */
export function dictionaryOf(type: ColumnType, parts: readonly ColumnBatch[], present: number, plainBytes: number, always: boolean): Dictionary | null {
  if (type === 'BOOLEAN' || present === 0) return null;
  const width = WIDTH[type];
  const limit = always ? DICTIONARY_BYTES : Math.min(DICTIONARY_BYTES, plainBytes * PAYS);
  if (width !== 0) {
    const d = numberDictionary(width, parts, present, limit, always);
    return d && (always || pays(d, present, plainBytes)) ? d : null;
  }
  const page = new ByteSink(Math.min(limit, 1 << 16));
  let starts: Uint32Array = new Uint32Array(256);
  let hashes: Uint32Array = new Uint32Array(256);
  let slots: Int32Array = new Int32Array(1024);
  let mask = slots.length - 1;
  let size = 0;
  const indices = new Uint32Array(present);
  let k = 0;
  let prevAt = -1;
  let prevLen = 0;
  let prevBuf: Uint8Array | null = null;
  let prevEntry = 0;
  let checkpoint = SAMPLE;
  /** PLAIN bytes of the parts before this one. */
  let seenBefore = 0;
  for (const part of parts) {
    const v = part.values;
    let at = 0;
    for (let i = 0; i < part.present; i++) {
      if (k === checkpoint) {
        if (!always && hopeless(size, k, page.len, at + seenBefore)) return null;
        checkpoint *= 2;
      }
      const len = 4 + (v[at]! | (v[at + 1]! << 8) | (v[at + 2]! << 16) | (v[at + 3]! << 24));
      // A value like the one before (a level's id, row after row) is its entry again, found without hashing.
      if (len === prevLen && prevBuf !== null && sameBytes(v, at, prevBuf, prevAt, len)) {
        indices[k++] = prevEntry;
        at += len;
        continue;
      }
      let h = 0x811c9dc5;
      for (let b = at, end = at + len; b < end; b++) h = Math.imul(h ^ v[b]!, 0x01000193);
      h >>>= 0;
      let slot = h & mask;
      let e = -1;
      for (let s = slots[slot]!; s !== 0; slot = (slot + 1) & mask, s = slots[slot]!) {
        const c = s - 1;
        if (hashes[c] === h && starts[c + 1]! - starts[c]! === len && sameBytes(v, at, page.buf, starts[c]!, len)) {
          e = c;
          break;
        }
      }
      if (e < 0) {
        if (!always && len - 4 > KEY_BYTES) return null;
        if (page.len + len > limit) return null;
        e = size++;
        if (size + 1 >= starts.length) {
          starts = grown(starts);
          hashes = grown(hashes);
        }
        hashes[e] = h;
        starts[e] = page.len;
        if (page.len + len > page.buf.length) page.grow(len);
        // Byte by byte: most keys are short, and a subarray per new key is garbage per value in a column of few repeats.
        const buf = page.buf;
        for (let b = 0, o = page.len; b < len; b++) buf[o + b] = v[at + b]!;
        page.len += len;
        starts[e + 1] = page.len;
        slots[slot] = e + 1;
        // Half full at most, so probes stay short.
        if (size * 2 > slots.length) {
          slots = rehash(hashes, size, slots.length * 2);
          mask = slots.length - 1;
        }
      }
      indices[k++] = e;
      prevBuf = page.buf;
      prevAt = starts[e]!;
      prevLen = len;
      prevEntry = e;
      at += len;
    }
    seenBefore += v.length;
  }
  const d = { page: page.bytes(), size, starts: starts.subarray(0, size + 1), indices };
  return always || pays(d, present, plainBytes) ? d : null;
}

/**
 * At a checkpoint (SAMPLE values, then each doubling), whether a dictionary of `size` entries
 * after `k` values cannot pay: nearly every value new, or its page and indices so far over PAYS
 * of the PLAIN bytes seen: a column of few repeats is given up early, not hashed to its end.
 */
function hopeless(size: number, k: number, pageBytes: number, seenBytes: number): boolean {
  return size > k * SAMPLE_DISTINCT || pageBytes + (k * bitWidthOf(size)) / 8 > seenBytes * PAYS;
}

/** Whether the dictionary's page and its indices come under PAYS of the PLAIN bytes. */
function pays(d: Dictionary, present: number, plainBytes: number): boolean {
  return d.page.length + Math.ceil((present * bitWidthOf(d.size)) / 8) <= plainBytes * PAYS;
}

/**
 * dictionaryOf for 4- and 8-byte numbers: each value read as two 32-bit words, hashed and
 * compared as words (the numeric columns are most of the rows: tiles' tile and count).
 */
function numberDictionary(width: number, parts: readonly ColumnBatch[], present: number, limit: number, always: boolean): Dictionary | null {
  let lo: Int32Array = new Int32Array(256);
  let hi: Int32Array = new Int32Array(256);
  let slots: Int32Array = new Int32Array(1024);
  let mask = slots.length - 1;
  let size = 0;
  const indices = new Uint32Array(present);
  let k = 0;
  let prev = -1;
  let checkpoint = SAMPLE;
  const hash = (a: number, b: number) => {
    const h = Math.imul(a ^ Math.imul(b, 0x85ebca6b), 0x9e3779b1);
    return (h ^ (h >>> 15)) >>> 0;
  };
  for (const part of parts) {
    const v = part.values;
    for (let i = 0, at = 0; i < part.present; i++, at += width) {
      if (k === checkpoint) {
        // Nearly every value new: the bytes test would give up on a bounded set (4,096 tile values) before its repeats come.
        if (!always && size > k * SAMPLE_DISTINCT) return null;
        checkpoint *= 2;
      }
      const a = v[at]! | (v[at + 1]! << 8) | (v[at + 2]! << 16) | (v[at + 3]! << 24);
      const b = width === 8 ? v[at + 4]! | (v[at + 5]! << 8) | (v[at + 6]! << 16) | (v[at + 7]! << 24) : 0;
      if (prev >= 0 && lo[prev] === a && hi[prev] === b) {
        indices[k++] = prev;
        continue;
      }
      let slot = hash(a, b) & mask;
      let e = -1;
      for (let s = slots[slot]!; s !== 0; slot = (slot + 1) & mask, s = slots[slot]!)
        if (lo[s - 1] === a && hi[s - 1] === b) {
          e = s - 1;
          break;
        }
      if (e < 0) {
        if ((size + 1) * width > limit) return null;
        e = size++;
        if (size > lo.length) {
          const l = new Int32Array(lo.length * 2);
          l.set(lo);
          lo = l;
          const h = new Int32Array(hi.length * 2);
          h.set(hi);
          hi = h;
        }
        lo[e] = a;
        hi[e] = b;
        slots[slot] = e + 1;
        if (size * 2 > slots.length) {
          slots = new Int32Array(slots.length * 2);
          mask = slots.length - 1;
          for (let x = 0; x < size; x++) {
            let t = hash(lo[x]!, hi[x]!) & mask;
            while (slots[t] !== 0) t = (t + 1) & mask;
            slots[t] = x + 1;
          }
        }
      }
      indices[k++] = e;
      prev = e;
    }
  }
  const page = new Uint8Array(size * width);
  const view = new DataView(page.buffer);
  const starts = new Uint32Array(size + 1);
  for (let e = 0; e < size; e++) {
    view.setInt32(e * width, lo[e]!, true);
    if (width === 8) view.setInt32(e * width + 4, hi[e]!, true);
    starts[e + 1] = (e + 1) * width;
  }
  return { page, size, starts, indices };
}

function sameBytes(a: Uint8Array, at: number, b: Uint8Array, bt: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (a[at + i] !== b[bt + i]) return false;
  return true;
}

function grown(a: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length * 2);
  out.set(a);
  return out;
}

/** A table of `slots` slots (a power of two) holding entries 1…size by their hashes. */
function rehash(hashes: Uint32Array, size: number, slots: number): Int32Array {
  const out = new Int32Array(slots);
  const mask = slots - 1;
  for (let e = 0; e < size; e++) {
    let s = hashes[e]! & mask;
    while (out[s] !== 0) s = (s + 1) & mask;
    out[s] = e + 1;
  }
  return out;
}
