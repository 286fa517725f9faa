// Teeworlds datafile writer: items and data blocks → a v4 file (zlib per block) or, on request,
// v3 (stored). Items are grouped by ascending type id, keeping their order within a type, as the
// reference writer does. Layout: README.md §Container.

import { encodeError } from '../../core/errors.js';
import { deflateZlib } from '../../core/inflate.js';
import { ByteWriter } from '../../core/reader.js';
import type { DatafileItem } from './types.js';

export interface DatafileWriteOptions {
  /** Datafile version: 4 (default, zlib-compressed data) or 3 (data stored raw). */
  version?: 3 | 4;
  /** zlib level for v4 blocks, a whole number 0–9. Default 6 (zlib's default, what DDNet writes). */
  level?: number;
}

const WRITE_OPTIONS: readonly string[] = ['version', 'level'];

/**
 * `opts` with defaults filled in. TypeError for a non-object or an unknown option, RangeError for
 * a value outside what is allowed; each message names the option and lists what it accepts.
 */
export function resolveWriteOptions(opts: unknown): Required<DatafileWriteOptions> {
  if (opts === undefined || opts === null) return { version: 4, level: 6 };
  if (typeof opts !== 'object') throw new TypeError(`teeworlds.encode: options must be an object, got ${typeof opts}`);
  for (const key of Object.keys(opts)) {
    if (!WRITE_OPTIONS.includes(key)) throw new TypeError(`teeworlds.encode: unknown option '${key}' (known: ${WRITE_OPTIONS.join(', ')})`);
  }
  const { version = 4, level = 6 } = opts as DatafileWriteOptions;
  if (version !== 3 && version !== 4) throw new RangeError(`teeworlds.encode: option 'version' must be one of 3, 4, got ${JSON.stringify(version)}`);
  if (!Number.isInteger(level) || level < 0 || level > 9)
    throw new RangeError(`teeworlds.encode: option 'level' must be a whole number 0–9, got ${JSON.stringify(level)}`);
  return { version, level };
}

/**
 * Writes a datafile. `(typeId, id)` pairs should be unique; data blocks are referenced by
 * position. EncodeError when a type id, id or size does not fit its field; options as encode().
 */
export function writeDatafile(items: readonly DatafileItem[], data: readonly Uint8Array[], opts?: DatafileWriteOptions): Uint8Array {
  const { version, level } = resolveWriteOptions(opts);
  items.forEach((it, k) => {
    for (const f of ['typeId', 'id'] as const) {
      const v = it[f];
      if (!Number.isInteger(v) || v < 0 || v > 0xffff)
        throw encodeError('teeworlds', 'OUT_OF_RANGE', { path: `items[${k}].${f}`, expected: 'a whole number in 0..65535', actual: v });
    }
  });
  const sorted = items
    .map((it, k) => ({ it, k }))
    .sort((a, b) => a.it.typeId - b.it.typeId || a.k - b.k)
    .map((x) => x.it);
  const types: { typeId: number; start: number; num: number }[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const t = sorted[i]!.typeId;
    const last = types[types.length - 1];
    if (last && last.typeId === t) last.num++;
    else types.push({ typeId: t, start: i, num: 1 });
  }
  const stored = version === 4 ? data.map((d) => deflateZlib(d, level)) : data;
  const itemSize = sorted.reduce((n, it) => n + 8 + it.data.length * 4, 0);
  const dataSize = stored.reduce((n, d) => n + d.length, 0);
  const tables = types.length * 12 + sorted.length * 4 + data.length * (version === 4 ? 8 : 4);
  const dataStart = 36 + tables + itemSize;
  // Every size and offset in the header is an i32.
  if (dataStart + dataSize > 0x7fffffff) {
    throw encodeError('teeworlds', 'LIMIT_EXCEEDED', { path: 'data', expected: '≤ 2147483647 bytes of file', actual: dataStart + dataSize });
  }
  const w = new ByteWriter(dataStart + dataSize);
  w.bytes(Uint8Array.of(0x44, 0x41, 0x54, 0x41)).i32(version);
  w.i32(dataStart + dataSize - 16).i32(dataStart - 16); // size, swaplen
  w.i32(types.length).i32(sorted.length).i32(data.length).i32(itemSize).i32(dataSize);
  for (const t of types) w.i32(t.typeId).i32(t.start).i32(t.num);
  let off = 0;
  for (const it of sorted) {
    w.i32(off);
    off += 8 + it.data.length * 4;
  }
  off = 0;
  for (const d of stored) {
    w.i32(off);
    off += d.length;
  }
  if (version === 4) for (const d of data) w.i32(d.length);
  for (const it of sorted) {
    w.i32((it.typeId << 16) | (it.id & 0xffff) | 0).i32(it.data.length * 4);
    for (const v of it.data) w.i32(v);
  }
  for (const d of stored) w.bytes(d);
  return w.finish();
}
