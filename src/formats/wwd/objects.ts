// WWD objects: the 284-byte fixed record (71 dwords) plus four unterminated strings, read into a
// struct-of-arrays table by the gatherRecords kernel. Layout as data: OBJECT_FIELDS below.
// See README.md § Objects.

import type { DecodeContext } from '../../core/context.js';
import { bufferToOverwrite } from '../../core/host.js';
import { kernelError } from '../../core/kernel-status.js';
import { defineLazy, isPending } from '../../core/lazy.js';
import type { ByteReader, ByteWriter } from '../../core/reader.js';
import { recordOf } from '../../core/record.js';
import { canonicalEncoding, decodeText, isSingleByte, type Text } from '../../core/text.js';
import type { WwdObject, WwdObjectTable } from './types.js';

const rect = <P extends string>(p: P) =>
  [
    [`${p}Left`, 'i32'],
    [`${p}Top`, 'i32'],
    [`${p}Right`, 'i32'],
    [`${p}Bottom`, 'i32'],
  ] as const;

/** The fixed part of an object, one entry per dword in file order: [column name, signedness]. */
export const OBJECT_FIELDS = [
  ['id', 'i32'],
  ['nameLength', 'u32'],
  ['logicLength', 'u32'],
  ['imageSetLength', 'u32'],
  ['animationLength', 'u32'],
  ['x', 'i32'],
  ['y', 'i32'],
  ['z', 'i32'],
  ['i', 'i32'],
  ['addFlags', 'u32'],
  ['dynamicFlags', 'u32'],
  ['drawFlags', 'u32'],
  ['userFlags', 'u32'],
  ['score', 'i32'],
  ['points', 'i32'],
  ['powerup', 'i32'],
  ['damage', 'i32'],
  ['smarts', 'i32'],
  ['health', 'i32'],
  ...rect('moveRect'),
  ...rect('hitRect'),
  ...rect('attackRect'),
  ...rect('clipRect'),
  ...rect('userRect1'),
  ...rect('userRect2'),
  ['user1', 'i32'],
  ['user2', 'i32'],
  ['user3', 'i32'],
  ['user4', 'i32'],
  ['user5', 'i32'],
  ['user6', 'i32'],
  ['user7', 'i32'],
  ['user8', 'i32'],
  ['minX', 'i32'],
  ['minY', 'i32'],
  ['maxX', 'i32'],
  ['maxY', 'i32'],
  ['speedX', 'i32'],
  ['speedY', 'i32'],
  ['tweakX', 'i32'],
  ['tweakY', 'i32'],
  ['counter', 'i32'],
  ['speed', 'i32'],
  ['width', 'i32'],
  ['height', 'i32'],
  ['direction', 'i32'],
  ['faceDir', 'i32'],
  ['timeDelay', 'i32'],
  ['frameDelay', 'i32'],
  ['objectType', 'u32'],
  ['hitTypeFlags', 'u32'],
  ['moveResX', 'u32'],
  ['moveResY', 'u32'],
] as const;

/** The column names of OBJECT_FIELDS, in file order. */
const OBJECT_NAMES = OBJECT_FIELDS.map(([name]) => name);

/** Bytes of the fixed part of one object. */
export const OBJECT_FIXED_BYTES = OBJECT_FIELDS.length * 4;
/** Index of `nameLength`; the four string lengths follow it. */
const LEN_INDEX = 1;
/** The four strings of an object, in file order. */
export const OBJECT_STRINGS = ['name', 'logic', 'imageSet', 'animation'] as const;
const LAYOUT = Object.freeze({ fixedWords: OBJECT_FIELDS.length, lenIndex: LEN_INDEX, lenCount: 4 });

// Most planes have no objects (167 of the corpus' 227), and a fresh ArrayBuffer per empty column
// (71 per plane) cost more than reading many tables. Zero-length views can share one zero-length
// buffer: they hold no data, and detaching it (a transfer) leaves each of them as empty as before.
const NO_BYTES = new ArrayBuffer(0);

/** An empty table (planes without objects, or skipped by `sections: 'summary'`). */
export function emptyObjectTable(): WwdObjectTable {
  return buildTable(
    0,
    OBJECT_FIELDS.map(() => new Int32Array(NO_BYTES)),
    [[], [], [], []],
  );
}

/**
 * Reads `count` objects at the reader's cursor (absolute offsets, see README.md). The strings'
 * total is found first (four length words per object) and claimed before anything is allocated
 * for them; the columns are allocated only after `count` passed the record limit and the
 * minimum-size check. The gatherRecords kernel then fills the columns and packs the strings into
 * one buffer the table owns, checking every size against the bytes present again; each Text's
 * raw is a view of its own bytes there.
 */
export function readObjects(r: ByteReader, count: number, ctx: DecodeContext, claimStrings?: (bytes: number) => void): WwdObjectTable {
  r.count(count, ctx.limits.maxRecords, OBJECT_FIXED_BYTES, 'objects');
  if (count === 0) return emptyObjectTable();
  const total = stringBytes(r.bytes, r.pos, count);
  if (total >= 0) claimStrings?.(total);
  // The kernel writes every column entry, string byte and start before returning success (and a
  // failure throws the outputs away), so they need not be zeroed first: 57 MB of columns per
  // corpus pass (issue 21). The 71 columns are views of one buffer: one allocation per table
  // instead of 71 (each cost more than a few µs, thousands per corpus pass).
  const store = bufferToOverwrite(count * OBJECT_FIXED_BYTES);
  const columns = OBJECT_FIELDS.map((_, w) => new Int32Array(store, w * count * 4, count));
  const blob = new Uint8Array(bufferToOverwrite(Math.max(total, 0)));
  const start = new Uint32Array(bufferToOverwrite(count * 4));
  const end = ctx.kernels.gatherRecords(r.bytes, r.pos, count, LAYOUT, columns, blob, start);
  if (end < 0)
    throw kernelError(r.format, end, {
      offset: r.offset,
      path: r.path ? `${r.path}.objects` : 'objects',
      detail: `${count} objects of ${OBJECT_FIXED_BYTES} bytes plus their strings do not fit`,
    });
  r.pos = end;
  // The strings become Texts on first read of any of the four lists (issue 21: a table of
  // thousands of objects allocates no Text, view or string a caller never reads).
  const lengths = columns.slice(LEN_INDEX, LEN_INDEX + OBJECT_STRINGS.length);
  const encoding = canonicalEncoding(ctx.encoding);
  let strings: string[][] | undefined;
  const stringsOf = () => (strings ??= decodeStrings(blob, start, lengths, count, encoding));
  let text: Text[][] | undefined;
  const table = buildTable(count, columns, () => (text ??= textsOf(stringsOf(), blob, start, lengths, count, encoding)));
  storedStrings.set(table, stringsOf);
  return table;
}

/** Total string bytes of the `count` objects at `pos`, or -1 when the table passes the end of `src`. */
function stringBytes(src: Uint8Array, pos: number, count: number): number {
  let total = 0;
  for (let k = 0; k < count; k++) {
    if (pos + OBJECT_FIXED_BYTES > src.length) return -1;
    // Four LE u32 lengths, byte by byte: objects are not 4-byte aligned (their strings are not).
    let n = 0;
    for (let at = pos + LEN_INDEX * 4, stop = at + 16; at < stop; at += 4)
      n += (src[at]! | (src[at + 1]! << 8) | (src[at + 2]! << 16) | (src[at + 3]! << 24)) >>> 0;
    pos += OBJECT_FIXED_BYTES + n;
    total += n;
  }
  return pos > src.length ? -1 : total;
}

/**
 * The four string columns' texts (each up to a NUL). With a single-byte code page the whole blob
 * is decoded once and each text is a substring of it (one TextDecoder call per table instead of
 * four per object, which dominated decode time); other code pages decode string by string.
 */
function decodeStrings(blob: Uint8Array, start: Uint32Array, lengths: Int32Array[], count: number, encoding: string): string[][] {
  const out: string[][] = [new Array<string>(count), new Array<string>(count), new Array<string>(count), new Array<string>(count)];
  const whole = isSingleByte(encoding) ? decodeText(blob, encoding) : null;
  const hasNul = blob.indexOf(0) >= 0;
  for (let k = 0; k < count; k++) {
    let at = start[k]!;
    for (let w = 0; w < 4; w++) {
      const n = lengths[w]![k]! >>> 0;
      const nul = hasNul && n > 0 ? blob.subarray(at, at + n).indexOf(0) : -1;
      const visible = nul < 0 ? n : nul;
      // Single-byte pages give one UTF-16 unit per byte, so byte offsets index the whole decode.
      out[w]![k] = visible === 0 ? '' : whole !== null ? whole.substring(at, at + visible) : decodeText(blob.subarray(at, at + visible), encoding);
      at += n;
    }
  }
  return out;
}

/** The four string columns as Texts: `strings` (decodeStrings) with the stored bytes of each. */
function textsOf(strings: string[][], blob: Uint8Array, start: Uint32Array, lengths: Int32Array[], count: number, encoding: string): Text[][] {
  const out: Text[][] = [new Array<Text>(count), new Array<Text>(count), new Array<Text>(count), new Array<Text>(count)];
  // Most stored strings are empty (nearly every object's name, most animations): they share one
  // empty view, as a view per string cost more than the rest of this function.
  const empty = blob.subarray(0, 0);
  for (let k = 0; k < count; k++) {
    let at = start[k]!;
    for (let w = 0; w < 4; w++) {
      const n = lengths[w]![k]! >>> 0;
      out[w]![k] = { text: strings[w]![k]!, raw: n === 0 ? empty : blob.subarray(at, at + n), encoding };
      at += n;
    }
  }
  return out;
}

/** How a decoded table's string columns are read as strings alone (objectStrings), without a Text per string. */
const storedStrings = new WeakMap<WwdObjectTable, () => string[][]>();

/**
 * The texts of a table's four string columns (OBJECT_STRINGS order). For a decoded table whose
 * Texts were never read, made from the stored bytes without them: the archive index reads every
 * object's name, logic and image set, and hundreds of thousands of Texts (each with a view of its
 * bytes) cost it more than the rest of the level.
 */
export function objectStrings(table: WwdObjectTable): readonly (readonly string[])[] {
  const stored = storedStrings.get(table);
  if (stored && OBJECT_STRINGS.every((k) => isPending(table, k))) return stored();
  return OBJECT_STRINGS.map((k) => table[k].map((t) => t.text));
}

/**
 * `columns[w]` is field w's column (a decoded table's columns are views of one buffer the table
 * owns, as its strings are). `text` is the four string lists, or a function that makes them: then
 * each list is a lazy field (core/lazy.ts), an own enumerable property that JSON.stringify,
 * structuredClone, spread and deep equality read like any other.
 */
function buildTable(count: number, columns: Int32Array[], text: Text[][] | (() => Text[][])): WwdObjectTable {
  // Filled key by key: spreading a 71-key record into a literal cost about 4× as much per table.
  const table: Record<string, unknown> = { count };
  for (let w = 0; w < OBJECT_FIELDS.length; w++) {
    const col = columns[w]!;
    // u32 fields as Uint32Array views of the same buffer, i32 ones as they are.
    table[OBJECT_NAMES[w]!] = OBJECT_FIELDS[w]![1] === 'u32' ? new Uint32Array(col.buffer, col.byteOffset, col.length) : col;
  }
  // Complete: `count`, a column of the kind WwdObjectColumns names for each OBJECT_FIELDS entry
  // (filled above), and the four string lists (set below).
  const typed = table as unknown as WwdObjectTable;
  if (typeof text === 'function') for (let w = 0; w < OBJECT_STRINGS.length; w++) defineLazy(typed, OBJECT_STRINGS[w]!, () => text()[w]!);
  else for (let w = 0; w < OBJECT_STRINGS.length; w++) table[OBJECT_STRINGS[w]!] = text[w]!;
  Object.defineProperty(table, 'objectAt', { value: (i: number) => objectAt(typed, i), enumerable: false });
  return typed;
}

/** Object `i` of `table` as a plain object (copies). RangeError when `i` is not a row index. */
export function objectAt(table: WwdObjectTable, i: number): WwdObject {
  if (!Number.isInteger(i) || i < 0 || i >= table.count) throw new RangeError(`object index ${i} outside 0..${table.count - 1}`);
  const copy = (t: Text): Text => ({ text: t.text, raw: t.raw.slice(), encoding: t.encoding });
  return Object.assign(
    recordOf(OBJECT_NAMES, (name) => table[name][i]!),
    {
      name: copy(table.name[i]!),
      logic: copy(table.logic[i]!),
      imageSet: copy(table.imageSet[i]!),
      animation: copy(table.animation[i]!),
    },
  );
}

/**
 * Writes `count` objects: fixed fields from the (checked) columns, each `…Length` field from the
 * bytes stored for its string (`strings[w][k]`, from validate.ts), then those bytes.
 */
export function writeObjects(w: ByteWriter, columns: readonly ArrayLike<number>[], strings: readonly Uint8Array[][], count: number): void {
  for (let k = 0; k < count; k++) {
    OBJECT_FIELDS.forEach(([, kind], f) => {
      const len = f - LEN_INDEX;
      const v = len >= 0 && len < 4 ? strings[len]![k]!.length : columns[f]![k]!;
      if (kind === 'u32') w.u32(v);
      else w.i32(v);
    });
    for (let s = 0; s < 4; s++) w.bytes(strings[s]![k]!);
  }
}

/** Index of each `…Length` column in OBJECT_FIELDS (the encoder writes them from the strings). */
export const LENGTH_FIELDS: ReadonlySet<number> = new Set([LEN_INDEX, LEN_INDEX + 1, LEN_INDEX + 2, LEN_INDEX + 3]);

/**
 * Builds a table from plain objects (for new levels and the fixture generator); the length
 * columns come from the strings' `raw`. RangeError for a field that is not an integer its column
 * holds (a typed column would silently wrap it).
 */
export function objectTable(objects: WwdObject[]): WwdObjectTable {
  const count = objects.length;
  const columns = OBJECT_FIELDS.map(() => new Int32Array(count));
  const text: Text[][] = [[], [], [], []];
  objects.forEach((o, k) => {
    OBJECT_STRINGS.forEach((s, w) => {
      text[w]!.push(o[s]);
    });
    OBJECT_FIELDS.forEach(([name, kind], w) => {
      // The `…Length` columns come from the strings' bytes; the rest is checked: `o` may come from untyped code.
      const len = w - LEN_INDEX;
      const v: unknown = len >= 0 && len < OBJECT_STRINGS.length ? o[OBJECT_STRINGS[len]!].raw.length : o[name];
      const [lo, hi] = kind === 'u32' ? [0, 0xffffffff] : [-0x80000000, 0x7fffffff];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi)
        throw new RangeError(`levelkit: objects[${k}].${name} is ${String(v)}, not an integer in ${lo}..${hi}`);
      columns[w]![k] = v | 0;
    });
  });
  return buildTable(count, columns, text);
}

/** Total bytes `table` occupies in the file it was decoded from (its stored string lengths). */
export function objectsByteLength(table: WwdObjectTable): number {
  let bytes = table.count * OBJECT_FIXED_BYTES;
  for (const column of [table.nameLength, table.logicLength, table.imageSetLength, table.animationLength])
    for (let k = 0; k < column.length; k++) bytes += column[k]!;
  return bytes;
}
