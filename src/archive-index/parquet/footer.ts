// The reading half of what a part's reader needs before trusting it: a Parquet footer (Thrift's
// compact protocol) walked field by field, every length checked against the bytes there are, and
// each column chunk's pages placed inside the file. A part whose middle was damaged (its magic
// fine at both ends) is then named in one line here, instead of failing inside DuckDB's reader
// with "internal error … don't know what type". Only the footer is read: the pages stay on disk.

/** Compact protocol type ids (thrift.ts writes the same). */
const T = { TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, SET: 10, MAP: 11, STRUCT: 12 } as const;

/** Nesting a Parquet footer never exceeds (schema → logical type → its fields): deeper is damage, not a footer. */
const MAX_DEPTH = 16;

/** A value as read: numbers (i64 as numbers, exact below 2^53: offsets and sizes are), bytes, lists, structs by field id. */
type Value = number | boolean | Uint8Array | Value[] | Struct;
type Struct = Map<number, Value>;

class Reader {
  at = 0;
  constructor(private readonly b: Uint8Array) {}

  byte(): number {
    if (this.at >= this.b.length) throw new Error(`the footer ends inside a value (at its byte ${this.at})`);
    return this.b[this.at++]!;
  }

  varint(): number {
    let v = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const x = this.byte();
      v += (x & 0x7f) * scale;
      if (!(x & 0x80)) return v;
      scale *= 128;
    }
    throw new Error(`a varint longer than 10 bytes (at footer byte ${this.at})`);
  }

  zigzag(): number {
    const v = this.varint();
    return v % 2 === 0 ? v / 2 : -(v + 1) / 2;
  }

  value(type: number, depth: number): Value {
    switch (type) {
      case T.TRUE:
        return true;
      case T.FALSE:
        return false;
      case T.BYTE:
        return this.byte();
      case T.I16:
      case T.I32:
      case T.I64:
        return this.zigzag();
      case T.DOUBLE:
        this.skip(8);
        return 0;
      case T.BINARY: {
        const n = this.varint();
        const start = this.at;
        this.skip(n);
        return this.b.subarray(start, this.at);
      }
      case T.LIST:
      case T.SET: {
        const head = this.byte();
        const n = head >> 4 === 15 ? this.varint() : head >> 4;
        const elem = head & 15;
        // Each element takes a byte at least (a bool list packs one per byte too): more is damage.
        if (n > this.b.length - this.at) throw new Error(`a list of ${n} elements in ${this.b.length - this.at} bytes`);
        const out: Value[] = [];
        // A bool element is a byte of its own, not packed into a field header.
        for (let i = 0; i < n; i++) out.push(elem === T.TRUE || elem === T.FALSE ? this.byte() === T.TRUE : this.value(elem, depth + 1));
        return out;
      }
      case T.MAP: {
        const n = this.varint();
        if (n === 0) return [];
        const kv = this.byte();
        if (n > this.b.length - this.at) throw new Error(`a map of ${n} entries in ${this.b.length - this.at} bytes`);
        for (let i = 0; i < n; i++) {
          this.value(kv >> 4, depth + 1);
          this.value(kv & 15, depth + 1);
        }
        return [];
      }
      case T.STRUCT:
        return this.struct(depth + 1);
      default:
        throw new Error(`unknown Thrift type ${type} (at footer byte ${this.at - 1})`);
    }
  }

  struct(depth: number): Struct {
    if (depth > MAX_DEPTH) throw new Error(`structs nested more than ${MAX_DEPTH} deep`);
    const out: Struct = new Map();
    let id = 0;
    for (;;) {
      const head = this.byte();
      if (head === 0) return out;
      const type = head & 15;
      id = head >> 4 ? id + (head >> 4) : this.zigzag();
      out.set(id, this.value(type, depth));
    }
  }

  private skip(n: number): void {
    if (n > this.b.length - this.at) throw new Error(`a value of ${n} bytes where ${this.b.length - this.at} are left`);
    this.at += n;
  }
}

/**
 * Why `footer` (the FileMetaData of a Parquet file of `fileBytes` bytes) cannot be read, or
 * undefined when it is whole: Thrift that ends where its length says, a schema, a row count, and
 * every column chunk's pages between the leading magic and the footer.
 */
export function footerDamage(footer: Uint8Array, fileBytes: number): string | undefined {
  const r = new Reader(footer);
  let meta: Struct;
  try {
    meta = r.struct(0);
  } catch (e) {
    return `its footer is damaged: ${(e as Error).message}`;
  }
  if (r.at !== footer.length) return `its footer is damaged: its metadata ends at byte ${r.at} of ${footer.length}`;
  const schema = meta.get(2);
  if (!Array.isArray(schema) || schema.length < 2) return 'its footer is damaged: no schema';
  if (typeof meta.get(3) !== 'number') return 'its footer is damaged: no row count';
  const pagesEnd = fileBytes - footer.length - 8;
  const groups = meta.get(4);
  if (!Array.isArray(groups)) return 'its footer is damaged: no row groups';
  for (const g of groups) {
    const chunks = g instanceof Map ? g.get(1) : undefined;
    if (!Array.isArray(chunks)) return 'its footer is damaged: a row group without columns';
    for (const c of chunks) {
      const m = c instanceof Map ? c.get(3) : undefined;
      if (!(m instanceof Map)) return 'its footer is damaged: a column without metadata';
      const start = m.get(9);
      const size = m.get(7);
      if (typeof start !== 'number' || typeof size !== 'number' || start < 4 || size < 0 || start + size > pagesEnd)
        return `its footer is damaged: a column's pages (at ${String(start)}, ${String(size)} bytes) lie outside the file's ${pagesEnd - 4} bytes of pages`;
    }
  }
  return undefined;
}
