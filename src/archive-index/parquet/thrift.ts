// Thrift's compact protocol, the writing half and only what a Parquet footer and page header use:
// structs of i32, i64, binary/string, bool, lists and nested structs. Field headers carry the
// delta from the previous field id in the same struct, so the writer keeps one id per open struct.

const BOOL_TRUE = 1;
const BOOL_FALSE = 2;
const I32 = 5;
const I64 = 6;
const BINARY = 8;
const LIST = 9;
const STRUCT = 12;

/** A field value: numbers are i32 unless wrapped by `i64()`; a nested struct is a `Fields` list. */
export type Value = number | I64 | string | Uint8Array | boolean | Fields | List;
/** A struct's fields as [field id, value] pairs in ascending id order; undefined values are left out. */
export type Fields = readonly (readonly [number, Value | undefined])[];

export interface I64 {
  readonly i64: number;
}
export interface List {
  readonly list: readonly Value[];
  /** The element type written when the list is empty (i32 unless given). */
  readonly emptyType?: number;
}
export const i64 = (v: number): I64 => ({ i64: v });
export const list = (items: readonly Value[]): List => ({ list: items });
/** A list of structs that says so even when empty (a footer of no row groups: readers walk it as structs). */
export const structList = (items: readonly Fields[]): List => ({ list: items, emptyType: STRUCT });
export const struct = (fields: Fields): Fields => fields;

export class CompactWriter {
  private buf = new Uint8Array(256);
  private len = 0;

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  struct(fields: Fields): this {
    let last = 0;
    for (const [id, v] of fields) {
      if (v === undefined) continue;
      const type = typeOf(v);
      const delta = id - last;
      if (delta > 0 && delta <= 15) this.byte((delta << 4) | type);
      else {
        this.byte(type);
        this.varint(zigzag(id));
      }
      last = id;
      if (typeof v !== 'boolean') this.value(v);
    }
    this.byte(0);
    return this;
  }

  private value(v: Value): void {
    if (typeof v === 'number') this.varint(zigzag(v));
    else if (typeof v === 'string') this.binary(new TextEncoder().encode(v));
    else if (v instanceof Uint8Array) this.binary(v);
    else if (typeof v === 'boolean') this.byte(v ? BOOL_TRUE : BOOL_FALSE);
    else if (isI64(v)) this.varint(zigzag(v.i64));
    else if (isList(v)) {
      const n = v.list.length;
      // An empty list still needs an element type; i32 is what readers expect of an empty enum list.
      const type = n === 0 ? (v.emptyType ?? I32) : elementType(v.list[0]!);
      if (n < 15) this.byte((n << 4) | type);
      else {
        this.byte(0xf0 | type);
        this.varint(n);
      }
      for (const item of v.list) this.value(item);
    } else this.struct(v);
  }

  private binary(b: Uint8Array): void {
    this.varint(b.length);
    this.reserve(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  private byte(b: number): void {
    this.reserve(1);
    this.buf[this.len++] = b;
  }

  private varint(v: number): void {
    const b = varint(v);
    this.reserve(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    grown.set(this.buf.subarray(0, this.len));
    this.buf = grown;
  }
}

/** Unsigned LEB128 of a non-negative whole number (Parquet's RLE run headers use it too). */
export function varint(v: number): Uint8Array {
  const out: number[] = [];
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

/** ZigZag of a whole number in ±2^52, as a non-negative number (so 64-bit values need no BigInt). */
function zigzag(v: number): number {
  return v >= 0 ? v * 2 : -v * 2 - 1;
}

function typeOf(v: Value): number {
  if (typeof v === 'boolean') return v ? BOOL_TRUE : BOOL_FALSE;
  return elementType(v);
}

function elementType(v: Value): number {
  if (typeof v === 'number') return I32;
  if (typeof v === 'string' || v instanceof Uint8Array) return BINARY;
  if (typeof v === 'boolean') return BOOL_TRUE;
  if (isI64(v)) return I64;
  if (isList(v)) return LIST;
  return STRUCT;
}

function isI64(v: Value): v is I64 {
  return typeof v === 'object' && 'i64' in v;
}

function isList(v: Value): v is List {
  return typeof v === 'object' && 'list' in v;
}
