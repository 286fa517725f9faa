// The reading half of what a part's reader needs before trusting it: a Parquet footer (Thrift's
// compact protocol) walked field by field, every length checked against the bytes there are, and
// each column chunk's pages placed inside the file. A part whose middle was damaged (its magic
// fine at both ends) is then named in one line here, instead of failing inside DuckDB's reader
// with "internal error … don't know what type". Only the footer is read: the pages stay on disk.

/** Compact protocol type ids (thrift.ts writes the same). */
const T = { TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, SET: 10, MAP: 11, STRUCT: 12 } as const;

/**
 * The fields the check reads, by Thrift field id: FileMetaData's schema (2: a list of
 * SchemaElement), row count (3) and row groups (4), each RowGroup's columns (1), each
 * ColumnChunk's metadata (3), and in it the chunk's compressed size (7), first data page (9) and
 * dictionary page (11, before the data pages where there is one).
 * Every other field is walked and checked as strictly, but not kept: a footer of thousands of
 * parts is walked without building a value per field.
 */
const SCHEMA = 2;
const ROWS = 3;
const ROW_GROUPS = 4;
const COLUMNS = 1;
const COLUMN_META = 3;
const COMPRESSED_SIZE = 7;
const FIRST_PAGE = 9;
const DICTIONARY_PAGE = 11;

/** Which fields of a struct to keep: a number (true), or a struct's (or a list of structs') own kept fields. */
interface Shape {
  [id: number]: true | Shape;
}

const FILE_META: Shape = {
  [SCHEMA]: {},
  [ROWS]: true,
  [ROW_GROUPS]: { [COLUMNS]: { [COLUMN_META]: { [COMPRESSED_SIZE]: true, [FIRST_PAGE]: true, [DICTIONARY_PAGE]: true } } },
};

/** Nesting a Parquet footer never exceeds (schema → logical type → its fields): deeper is damage, not a footer. */
const MAX_DEPTH = 16;

/**
 * A value as kept: a number (i64 as numbers, exact below 2^53: offsets and sizes are), a list of
 * structs, a struct's kept fields by id; undefined for bytes, maps and other lists, which are
 * walked and not kept.
 */
type Value = number | boolean | Value[] | Struct | undefined;
type Struct = Map<number, Value>;

class Reader {
  at = 0;
  /** Where the top-level struct's field `spanOf` starts and ends, once read. */
  span: [number, number] | undefined;
  constructor(
    private readonly b: Uint8Array,
    private readonly spanOf = -1,
  ) {}

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

  /** Walks one value of `type`, checking it; keeps what `shape` names of a struct or list of structs. */
  value(type: number, depth: number, shape?: Shape): Value {
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
      case T.BINARY:
        this.skip(this.varint());
        return undefined;
      case T.LIST:
      case T.SET: {
        const head = this.byte();
        const n = head >> 4 === 15 ? this.varint() : head >> 4;
        const elem = head & 15;
        // Each element takes a byte at least (a bool list packs one per byte too): more is damage.
        if (n > this.b.length - this.at) throw new Error(`a list of ${n} elements in ${this.b.length - this.at} bytes`);
        const kept: Value[] | undefined = shape && elem === T.STRUCT ? [] : undefined;
        // A bool element is a byte of its own, not packed into a field header.
        for (let i = 0; i < n; i++) {
          if (elem === T.TRUE || elem === T.FALSE) this.byte();
          else if (kept) kept.push(this.value(elem, depth + 1, shape));
          else this.value(elem, depth + 1);
        }
        return kept;
      }
      case T.MAP: {
        const n = this.varint();
        if (n === 0) return undefined;
        const kv = this.byte();
        if (n > this.b.length - this.at) throw new Error(`a map of ${n} entries in ${this.b.length - this.at} bytes`);
        for (let i = 0; i < n; i++) {
          this.value(kv >> 4, depth + 1);
          this.value(kv & 15, depth + 1);
        }
        return undefined;
      }
      case T.STRUCT:
        return this.struct(depth + 1, shape);
      default:
        throw new Error(`unknown Thrift type ${type} (at footer byte ${this.at - 1})`);
    }
  }

  /** A struct's fields that `shape` keeps (none without one), every field walked. */
  struct(depth: number, shape?: Shape): Struct | undefined {
    if (depth > MAX_DEPTH) throw new Error(`structs nested more than ${MAX_DEPTH} deep`);
    const out: Struct | undefined = shape ? new Map() : undefined;
    let id = 0;
    for (;;) {
      const head = this.byte();
      if (head === 0) return out;
      const type = head & 15;
      id = head >> 4 ? id + (head >> 4) : this.zigzag();
      const start = this.at;
      const keep = shape?.[id];
      const v = this.value(type, depth, keep === true ? undefined : keep);
      if (keep !== undefined) out!.set(id, v);
      if (depth === 0 && id === this.spanOf) this.span = [start, this.at];
    }
  }

  private skip(n: number): void {
    if (n > this.b.length - this.at) throw new Error(`a value of ${n} bytes where ${this.b.length - this.at} are left`);
    this.at += n;
  }
}

/**
 * Why `footer` (the FileMetaData of a Parquet file of `fileBytes` bytes) cannot be read, or its
 * schema when it is whole: Thrift that ends where its length says, a schema, a row count, and
 * every column chunk's pages between the leading magic and the footer. The schema comes as a key
 * (the bytes of every schema element: names, types, repetition, annotations), equal for two files
 * that declare the same columns: files of one key are read together without matching columns by
 * name (query.ts), so DuckDB reads one footer to bind, not every file's.
 */
export function readFooter(footer: Uint8Array, fileBytes: number): { damage: string } | { schema: string } {
  const damage = (why: string) => ({ damage: `its footer is damaged: ${why}` });
  const r = new Reader(footer, SCHEMA);
  let meta: Struct;
  try {
    meta = r.struct(0, FILE_META)!;
  } catch (e) {
    return damage((e as Error).message);
  }
  if (r.at !== footer.length) return damage(`its metadata ends at byte ${r.at} of ${footer.length}`);
  const schema = meta.get(SCHEMA);
  if (!Array.isArray(schema) || schema.length < 2 || !r.span) return damage('no schema');
  if (typeof meta.get(ROWS) !== 'number') return damage('no row count');
  const pagesEnd = fileBytes - footer.length - 8;
  const groups = meta.get(ROW_GROUPS);
  if (!Array.isArray(groups)) return damage('no row groups');
  for (const g of groups) {
    const chunks = g instanceof Map ? g.get(COLUMNS) : undefined;
    if (!Array.isArray(chunks)) return damage('a row group without columns');
    for (const c of chunks) {
      const m = c instanceof Map ? c.get(COLUMN_META) : undefined;
      if (!(m instanceof Map)) return damage('a column without metadata');
      // A chunk with a dictionary starts at its dictionary page; its data pages follow, inside the chunk.
      const data = m.get(FIRST_PAGE);
      const start = m.get(DICTIONARY_PAGE) ?? data;
      const size = m.get(COMPRESSED_SIZE);
      if (typeof start !== 'number' || typeof size !== 'number' || start < 4 || size < 0 || start + size > pagesEnd)
        return damage(`a column's pages (at ${String(start)}, ${String(size)} bytes) lie outside the file's ${pagesEnd - 4} bytes of pages`);
      if (typeof data !== 'number' || data < start || data >= start + size)
        return damage(`a column's data pages (at ${String(data)}) lie outside its chunk (at ${start}, ${size} bytes)`);
    }
  }
  // The schema's own bytes: equal bytes, equal columns (a schema written in another order only
  // makes a second group, read together with the first by name).
  return { schema: Buffer.from(footer.buffer, footer.byteOffset + r.span[0], r.span[1] - r.span[0]).toString('latin1') };
}
