// Rows of one index table gathered as columns, in the byte layout Parquet's PLAIN encoding stores
// (strings as a 4-byte length and UTF-8, numbers little-endian), with one definition byte per row
// (0 null, 1 present). Workers build these for their levels and hand them over as they are:
// a batch's buffers move to the main thread, which concatenates batches into pages without
// looking at a value again. Host-independent (no Node built-ins).
import type { Column, ColumnType, Table } from '../schema.js';

/** A value as the row producers give it: null and undefined (and non-finite numbers) are null. */
export type Cell = string | number | boolean | null | undefined;

/** One column of a batch: `defs[r]` is 1 where row r has a value; `values` holds the values present, PLAIN-laid (booleans one byte each). */
export interface ColumnBatch {
  defs: Uint8Array;
  values: Uint8Array;
  /** Values present (rows with defs[r] = 1). */
  present: number;
}

/** Rows of one table: every column has `rows` definition bytes. */
export interface TableBatch {
  rows: number;
  columns: ColumnBatch[];
}

const encoder = new TextEncoder();

/** Capacity a builder keeps between batches. */
const KEEP_BYTES = 1 << 20;

/** One buffer that a message's batches are copied into (LevelRowsBuilder.take): one allocation and one transfer per message, not two per column. */
export interface Arena {
  bytes: Uint8Array;
  /** Where the next copy goes. */
  at: number;
}

/** A growable byte buffer with little-endian number writes. */
class Bytes {
  buf: Uint8Array;
  view: DataView;
  len = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }

  /** Room for `n` more bytes. Callers check `len + n > buf.length` first: this runs per value written, and the check inline costs a compare, a call costs more than the write. */
  reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    grown.set(this.buf.subarray(0, this.len));
    this.buf = grown;
    this.view = new DataView(grown.buffer);
  }

  /**
   * A copy of what was written, sized to it: its own buffer, or a view of `arena` (its next bytes).
   * The buffer is reused, unless one huge text grew it: then it starts small again.
   */
  take(arena?: Arena): Uint8Array {
    let out: Uint8Array;
    if (arena) {
      out = arena.bytes.subarray(arena.at, arena.at + this.len);
      out.set(this.buf.subarray(0, this.len));
      arena.at += this.len;
    } else out = this.buf.slice(0, this.len);
    this.len = 0;
    if (this.buf.length > KEEP_BYTES) {
      this.buf = new Uint8Array(256);
      this.view = new DataView(this.buf.buffer);
    }
    return out;
  }
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** Builds one column; `push` takes a value or null. */
export class ColumnBuilder {
  private readonly defs: Bytes = new Bytes(64);
  private readonly values: Bytes;
  private present = 0;
  /** The last string written and where its bytes (length prefix included) start: a column such as `id` or `kind` repeats it row after row, copied instead of encoded again. */
  private lastText: string | null = null;
  private lastAt = 0;

  constructor(readonly type: ColumnType) {
    this.values = new Bytes(type === 'VARCHAR' ? 256 : 64);
  }

  push(v: Cell): void {
    const d = this.defs;
    if (d.len === d.buf.length) d.reserve(1);
    const ok = v !== null && v !== undefined && this.write(v);
    d.buf[d.len++] = ok ? 1 : 0;
    if (ok) this.present++;
  }

  /** Writes `v` as this column's type; false (nothing written) when it has no value of that type. */
  private write(v: string | number | boolean): boolean {
    const b = this.values;
    switch (this.type) {
      case 'VARCHAR': {
        const s = typeof v === 'string' ? v : String(v);
        if (s === this.lastText) {
          const n = b.len - this.lastAt;
          if (b.len + n > b.buf.length) b.reserve(n);
          b.buf.copyWithin(b.len, this.lastAt, this.lastAt + n);
          this.lastAt = b.len;
          b.len += n;
          return true;
        }
        // UTF-8 takes at most 3 bytes per UTF-16 unit.
        if (b.len + 4 + s.length * 3 > b.buf.length) b.reserve(4 + s.length * 3);
        const { written } = encoder.encodeInto(s, b.buf.subarray(b.len + 4));
        b.view.setUint32(b.len, written, true);
        this.lastText = s;
        this.lastAt = b.len;
        b.len += 4 + written;
        return true;
      }
      case 'BOOLEAN':
        if (typeof v !== 'boolean') return false;
        if (b.len === b.buf.length) b.reserve(1);
        b.buf[b.len++] = v ? 1 : 0;
        return true;
      case 'INTEGER': {
        const n = Number(v);
        if (!Number.isInteger(n) || n < INT32_MIN || n > INT32_MAX) return false;
        if (b.len + 4 > b.buf.length) b.reserve(4);
        b.view.setInt32(b.len, n, true);
        b.len += 4;
        return true;
      }
      case 'DOUBLE': {
        const n = Number(v);
        if (!Number.isFinite(n)) return false;
        if (b.len + 8 > b.buf.length) b.reserve(8);
        b.view.setFloat64(b.len, n, true);
        b.len += 8;
        return true;
      }
      default: {
        // BIGINT, and TIMESTAMP as epoch milliseconds: whole numbers within ±2^53.
        const n = Number(v);
        if (!Number.isSafeInteger(n)) return false;
        if (b.len + 8 > b.buf.length) b.reserve(8);
        // Two 32-bit halves: BigInt per value would cost more than the rest of the row.
        const hi = Math.floor(n / 2 ** 32);
        b.view.setUint32(b.len, n - hi * 2 ** 32, true);
        b.view.setInt32(b.len + 4, hi, true);
        b.len += 8;
        return true;
      }
    }
  }

  /** `n` rows of `v` (a histogram's id, layer and kind): encoded once, its bytes copied for the other rows. */
  pushMany(v: Cell, n: number): void {
    if (n <= 0) return;
    const b = this.values;
    const at = b.len;
    this.push(v);
    const d = this.defs;
    const ok = d.buf[d.len - 1]!;
    if (d.len + n - 1 > d.buf.length) d.reserve(n - 1);
    d.buf.fill(ok, d.len, d.len + n - 1);
    d.len += n - 1;
    if (!ok) return;
    this.present += n - 1;
    const size = b.len - at;
    const total = size * n;
    if (at + total > b.buf.length) b.reserve(total - size);
    // Copied by doubling what is there: log2(n) copies, not one per row (a tiles row's id, layer
    // and kind; with pushNumbers, the 2.2 million tiles rows of 20,000 synthetic files take 102 ms
    // of CPU to build instead of 459).
    for (let done = size; done < total; ) {
      const k = Math.min(done, total - done);
      b.buf.copyWithin(at + done, at, at + k);
      done += k;
    }
    b.len = at + total;
    // The text's last copy is what the next repeat of it copies.
    if (this.lastText !== null) this.lastAt = b.len - size;
  }

  /**
   * `n` rows of `values[i]` (a histogram's tiles and counts): the bytes `n` push() calls give, in
   * one loop with room made once, for the whole-number columns; others push each value.
   */
  pushNumbers(values: ArrayLike<number>, n: number): void {
    const wide = this.type === 'BIGINT';
    if (!wide && this.type !== 'INTEGER') {
      for (let i = 0; i < n; i++) this.push(values[i]);
      return;
    }
    const d = this.defs;
    const b = this.values;
    if (d.len + n > d.buf.length) d.reserve(n);
    if (b.len + 8 * n > b.buf.length) b.reserve(8 * n);
    const defs = d.buf;
    const view = b.view;
    let at = b.len;
    let present = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      // As write(): null and undefined are null, and so is a number the column cannot hold.
      const x = v === null || v === undefined ? Number.NaN : Number(v);
      let ok: boolean;
      if (wide) {
        ok = Number.isSafeInteger(x);
        if (ok) {
          const hi = Math.floor(x / 2 ** 32);
          view.setUint32(at, x - hi * 2 ** 32, true);
          view.setInt32(at + 4, hi, true);
          at += 8;
        }
      } else {
        ok = Number.isInteger(x) && x >= INT32_MIN && x <= INT32_MAX;
        if (ok) {
          view.setInt32(at, x, true);
          at += 4;
        }
      }
      defs[d.len++] = ok ? 1 : 0;
      if (ok) present++;
    }
    b.len = at;
    this.present += present;
  }

  /** Where the column stands, for rollback(). */
  mark(): ColumnMark {
    return [this.defs.len, this.values.len, this.present];
  }

  /** Drops what was pushed since `m` (the repeat of the last text starts afresh). */
  rollback(m: ColumnMark): void {
    [this.defs.len, this.values.len, this.present] = m;
    this.lastText = null;
  }

  /** Bytes take() would copy out. */
  get pending(): number {
    return this.defs.len + this.values.len;
  }

  take(arena?: Arena): ColumnBatch {
    const out = { defs: this.defs.take(arena), values: this.values.take(arena), present: this.present };
    this.present = 0;
    this.lastText = null;
    return out;
  }
}

type ColumnMark = [defs: number, values: number, present: number];

/** Where a table stands (TableBuilder.mark), to drop the rows added after it. */
export interface TableMark {
  rows: number;
  columns: ColumnMark[];
}

/** Builds rows of one table, in its schema's column order. */
export class TableBuilder {
  readonly columns: ColumnBuilder[];
  rows = 0;

  constructor(readonly table: Table) {
    this.columns = table.columns.map((c: Column) => new ColumnBuilder(c.type));
  }

  /** One row: a cell per column, in schema order. */
  row(cells: readonly Cell[]): void {
    const cols = this.columns;
    if (cells.length !== cols.length) throw new RangeError(`index table ${this.table.name}: ${cells.length} cells for ${cols.length} columns`);
    for (let i = 0; i < cols.length; i++) cols[i]!.push(cells[i]);
    this.rows++;
  }

  /**
   * `n` rows at once, column by column: the first columns hold `same` in every row, the others
   * `varying[k][i]` in row i (a layer's histogram: id, layer and kind, then tile and count). The
   * same bytes as `n` calls of row(), without a row of cells and a pass over the columns per row.
   */
  rowsWith(same: readonly Cell[], varying: readonly ArrayLike<number>[], n: number): void {
    const cols = this.columns;
    if (same.length + varying.length !== cols.length)
      throw new RangeError(`index table ${this.table.name}: ${same.length + varying.length} cells for ${cols.length} columns`);
    for (let c = 0; c < same.length; c++) cols[c]!.pushMany(same[c], n);
    for (let k = 0; k < varying.length; k++) cols[same.length + k]!.pushNumbers(varying[k]!, n);
    this.rows += n;
  }

  mark(): TableMark {
    return { rows: this.rows, columns: this.columns.map((c) => c.mark()) };
  }

  /** Drops the rows added since `m` was taken (nothing taken since). */
  rollback(m: TableMark): void {
    this.rows = m.rows;
    this.columns.forEach((c, i) => c.rollback(m.columns[i]!));
  }

  /** The rows so far as a batch (null when there are none); the builder starts over. */
  /** Bytes take() would copy out. */
  get pending(): number {
    let n = 0;
    for (const c of this.columns) n += c.pending;
    return n;
  }

  take(arena?: Arena): TableBatch | null {
    if (this.rows === 0) return null;
    const batch = { rows: this.rows, columns: this.columns.map((c) => c.take(arena)) };
    this.rows = 0;
    return batch;
  }
}

/** The buffers of batches (each once), for a postMessage transfer list. */
export function batchBuffers(batches: readonly (TableBatch | null)[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const b of batches) if (b) for (const c of b.columns) out.add(c.defs.buffer as ArrayBuffer).add(c.values.buffer as ArrayBuffer);
  return [...out];
}
