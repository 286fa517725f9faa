// WWD objects: the 284-byte fixed record (71 dwords) plus four unterminated strings, read into a
// struct-of-arrays table by the gatherRecords kernel. Layout as data: OBJECT_FIELDS below.
// See README.md § Objects.

import type { ByteReader, ByteWriter } from '../../core/reader.js';
import type { DecodeContext } from '../../core/context.js';
import { decodeText } from '../../core/text.js';
import { statusToErrorCode } from '../../kernels/status.js';
import type { WwdObject, WwdObjectTable, WwdText } from './types.js';

const rect = <P extends string>(p: P) =>
  [[`${p}Left`, 'i32'], [`${p}Top`, 'i32'], [`${p}Right`, 'i32'], [`${p}Bottom`, 'i32']] as const;

/** The fixed part of an object, one entry per dword in file order: [column name, signedness]. */
export const OBJECT_FIELDS = [
  ['id', 'i32'], ['nameLength', 'u32'], ['logicLength', 'u32'], ['imageSetLength', 'u32'], ['animationLength', 'u32'],
  ['x', 'i32'], ['y', 'i32'], ['z', 'i32'], ['i', 'i32'],
  ['addFlags', 'u32'], ['dynamicFlags', 'u32'], ['drawFlags', 'u32'], ['userFlags', 'u32'],
  ['score', 'i32'], ['points', 'i32'], ['powerup', 'i32'], ['damage', 'i32'], ['smarts', 'i32'], ['health', 'i32'],
  ...rect('moveRect'), ...rect('hitRect'), ...rect('attackRect'), ...rect('clipRect'), ...rect('userRect1'), ...rect('userRect2'),
  ['user1', 'i32'], ['user2', 'i32'], ['user3', 'i32'], ['user4', 'i32'], ['user5', 'i32'], ['user6', 'i32'], ['user7', 'i32'], ['user8', 'i32'],
  ['minX', 'i32'], ['minY', 'i32'], ['maxX', 'i32'], ['maxY', 'i32'],
  ['speedX', 'i32'], ['speedY', 'i32'], ['tweakX', 'i32'], ['tweakY', 'i32'],
  ['counter', 'i32'], ['speed', 'i32'], ['width', 'i32'], ['height', 'i32'], ['direction', 'i32'], ['faceDir', 'i32'],
  ['timeDelay', 'i32'], ['frameDelay', 'i32'],
  ['objectType', 'u32'], ['hitTypeFlags', 'u32'], ['moveResX', 'u32'], ['moveResY', 'u32'],
] as const;

/** Bytes of the fixed part of one object. */
export const OBJECT_FIXED_BYTES = OBJECT_FIELDS.length * 4;
/** Index of `nameLength`; the four string lengths follow it. */
const LEN_INDEX = 1;
const STRINGS = ['name', 'logic', 'imageSet', 'animation'] as const;
const LAYOUT = Object.freeze({ fixedWords: OBJECT_FIELDS.length, lenIndex: LEN_INDEX, lenCount: 4 });

// Most planes have no objects (167 of the corpus' 227), and a fresh ArrayBuffer per empty column
// (71 per plane) cost more than reading many tables. Zero-length views can share one zero-length
// buffer: they hold no data, and detaching it (a transfer) leaves each of them as empty as before.
const NO_BYTES = new ArrayBuffer(0);

/** An empty table (planes without objects, or skipped by `sections: 'summary'`). */
export function emptyObjectTable(): WwdObjectTable {
  return buildTable(0, OBJECT_FIELDS.map(() => new Int32Array(NO_BYTES)), [[], [], [], []], new Uint8Array(NO_BYTES), new Uint32Array(NO_BYTES));
}

/**
 * Reads `count` objects at the reader's cursor (absolute offsets, see README.md). The strings'
 * total is found first (four length words per object) and claimed before anything is allocated
 * for them; the columns are allocated only after `count` passed the record limit and the
 * minimum-size check. The gatherRecords kernel then fills the columns and packs the strings in
 * one pass, checking every size against the bytes present again.
 */
export function readObjects(r: ByteReader, count: number, ctx: DecodeContext, claimStrings?: (bytes: number) => void): WwdObjectTable {
  r.count(count, ctx.limits.maxRecords, OBJECT_FIXED_BYTES, 'objects');
  if (count === 0) return emptyObjectTable();
  const total = stringBytes(r.bytes, r.pos, count);
  if (total >= 0) claimStrings?.(total);
  const columns = OBJECT_FIELDS.map(() => new Int32Array(count));
  const blob = new Uint8Array(Math.max(total, 0));
  const start = new Uint32Array(count);
  const end = ctx.kernels.gatherRecords(r.bytes, r.pos, count, LAYOUT, columns, blob, start);
  if (end < 0) throw r.fail(statusToErrorCode(end), { detail: `${count} objects of ${OBJECT_FIXED_BYTES} bytes plus their strings do not fit` });
  const text = decodeStrings(blob, start, columns.slice(LEN_INDEX, LEN_INDEX + STRINGS.length), count, ctx.encoding);
  r.pos = end;
  return buildTable(count, columns, text, blob, start);
}

/** Total string bytes of the `count` objects at `pos`, or -1 when the table passes the end of `src`. */
function stringBytes(src: Uint8Array, pos: number, count: number): number {
  const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  let total = 0;
  for (let k = 0; k < count; k++) {
    if (pos + OBJECT_FIXED_BYTES > src.length) return -1;
    const at = pos + LEN_INDEX * 4;
    const n = dv.getUint32(at, true) + dv.getUint32(at + 4, true) + dv.getUint32(at + 8, true) + dv.getUint32(at + 12, true);
    pos += OBJECT_FIXED_BYTES + n;
    total += n;
  }
  return pos > src.length ? -1 : total;
}

/** `columns[w]` is field w's column, in a buffer of its own (so a table cloned or transferred column by column stays small). */
function buildTable(count: number, columns: Int32Array[], text: string[][], stringBytes: Uint8Array, stringStart: Uint32Array): WwdObjectTable {
  const t: Record<string, unknown> = { count };
  OBJECT_FIELDS.forEach(([name, kind], w) => {
    const col = columns[w]!;
    t[name] = kind === 'u32' ? new Uint32Array(col.buffer, col.byteOffset, col.length) : col;
  });
  STRINGS.forEach((s, w) => { t[s] = text[w]; });
  t.stringBytes = stringBytes;
  t.stringStart = stringStart;
  const table = t as unknown as WwdObjectTable;
  Object.defineProperty(table, 'objectAt', { value: (i: number) => objectAt(table, i), enumerable: false });
  return table;
}

/** Object `i` of `table` as a plain object (copies). RangeError when `i` is not a row index. */
export function objectAt(table: WwdObjectTable, i: number): WwdObject {
  if (!Number.isInteger(i) || i < 0 || i >= table.count) throw new RangeError(`object index ${i} outside 0..${table.count - 1}`);
  const o: Record<string, unknown> = {};
  const cols = table as unknown as Record<string, Int32Array | Uint32Array>;
  for (const [name] of OBJECT_FIELDS) o[name] = cols[name]![i];
  let s = table.stringStart[i]!;
  for (const name of STRINGS) {
    const n = cols[`${name}Length`]![i]!;
    o[name] = { text: table[name][i] ?? '', raw: table.stringBytes.slice(s, s + n) } satisfies WwdText;
    s += n;
  }
  return o as unknown as WwdObject;
}

/** Writes the table's objects (fixed part from the columns, lengths from the stored strings). */
export function writeObjects(w: ByteWriter, table: WwdObjectTable): void {
  const cols = table as unknown as Record<string, Int32Array | Uint32Array>;
  for (let k = 0; k < table.count; k++) {
    for (const [name] of OBJECT_FIELDS) w.u32(cols[name]![k]!);
    const s = table.stringStart[k]!;
    let len = 0;
    for (const name of STRINGS) len += cols[`${name}Length`]![k]!;
    w.bytes(table.stringBytes.subarray(s, s + len));
  }
}

/** Builds a table from plain objects (for encoders of new levels and the fixture generator). */
export function objectTable(objects: WwdObject[]): WwdObjectTable {
  const count = objects.length;
  const columns = OBJECT_FIELDS.map(() => new Int32Array(count));
  const text: string[][] = [[], [], [], []];
  const parts: Uint8Array[] = [];
  const start = new Uint32Array(count);
  let total = 0;
  objects.forEach((o, k) => {
    start[k] = total;
    // Lengths come from the strings themselves; the caller's objects are not modified.
    const f: Record<string, number> = { ...(o as unknown as Record<string, number>) };
    STRINGS.forEach((s, w) => {
      f[`${s}Length`] = o[s].raw.length;
      text[w]!.push(o[s].text);
      parts.push(o[s].raw);
      total += o[s].raw.length;
    });
    OBJECT_FIELDS.forEach(([name], w) => { columns[w]![k] = f[name]! | 0; });
  });
  const blob = new Uint8Array(total);
  let at = 0;
  for (const p of parts) { blob.set(p, at); at += p.length; }
  return buildTable(count, columns, text, blob, start);
}

/** Total bytes `table` occupies in a file. */
export function objectsByteLength(table: WwdObjectTable): number {
  return table.count * OBJECT_FIXED_BYTES + table.stringBytes.length;
}

// Code pages that map every byte to exactly one UTF-16 code unit (what TextDecoder does for the
// WHATWG single-byte encodings), so a string's characters sit at its byte offsets.
const SINGLE_BYTE = /^(windows-125\d|cp125\d|iso-8859-\d+|latin1|ascii|us-ascii|koi8-[ru])$/i;

/**
 * The four string columns. With a single-byte code page the whole blob is decoded once and each
 * string is a substring of it (one TextDecoder call per table instead of four per object, which
 * dominated decode time); other code pages decode string by string. Text stops at a NUL, like
 * every text field here.
 */
function decodeStrings(blob: Uint8Array, start: Uint32Array, lengths: Int32Array[], count: number, encoding: string): string[][] {
  const out: string[][] = [new Array<string>(count), new Array<string>(count), new Array<string>(count), new Array<string>(count)];
  const whole = SINGLE_BYTE.test(encoding) ? decodeText(blob, encoding) : null;
  const hasNul = blob.indexOf(0) >= 0;
  for (let k = 0; k < count; k++) {
    let at = start[k]!;
    for (let w = 0; w < 4; w++) {
      const n = lengths[w]![k]! >>> 0;
      let s: string;
      if (n === 0) s = '';
      else if (whole !== null) s = whole.substring(at, at + n);
      else s = decodeText(blob.subarray(at, at + n), encoding);
      if (hasNul && s.includes('\0')) s = s.slice(0, s.indexOf('\0'));
      out[w]![k] = s;
      at += n;
    }
  }
  return out;
}
