// GWC decoder: signature, object table (looked up by id), the header field by field, the Lua
// 5.1 chunk (object 0) and the media objects, every length checked against the file before a
// byte is sliced. See README.md for the layout and each warning.

import type { DecodeContext } from '../../core/context.js';
import type { DecodeOptions } from '../../core/limits.js';
import { ByteReader } from '../../core/reader.js';
import type { Text } from '../../core/text.js';
import { startDecode } from '../decode-context.js';
import { autoText, readLuaHeader } from './lua.js';
import { entriesEnd, MEDIA_TYPES, mediaMismatch, mediaTypeName, sniffMedia } from './media.js';
import type { GwcCartridge, GwcHeader, GwcLua, GwcMedia, GwcMediaEntry, GwcTableRow, GwcWarningCode } from './types.js';

/** `02 0A 'C' 'A' 'R' 'T' 00`; the second byte may also be 0x0B (GCWizard accepts it). */
export const SIGNATURE_BYTES = 7;
export const SIGNATURE_VERSIONS = [0x0a, 0x0b] as const;
/** Bytes per object-table row: u16 id + i32 offset. */
export const TABLE_ROW_BYTES = 6;
/** Bytes of a present media object's head: u8 valid + i32 type + i32 length. */
export const MEDIA_HEAD_BYTES = 9;
/** The epoch of the creation date: 2004-02-10 01:00:00 (taken as UTC), in ms since 1970. */
export const GWC_EPOCH_MS = Date.UTC(2004, 1, 10, 1, 0, 0);

/** True when `head` starts with a GWC signature. Never throws. */
export function sniffGwc(head: Uint8Array): boolean {
  return (
    head.length >= SIGNATURE_BYTES &&
    head[0] === 0x02 &&
    (head[1] === 0x0a || head[1] === 0x0b) &&
    head[2] === 0x43 &&
    head[3] === 0x41 &&
    head[4] === 0x52 &&
    head[5] === 0x54 &&
    head[6] === 0x00
  );
}

/** The creation date as a Date, or null for 0 and for values outside Date's range. */
export function gwcDate(seconds: bigint): Date | null {
  if (seconds === 0n) return null;
  const ms = Number(seconds) * 1000 + GWC_EPOCH_MS;
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms) : null;
}

/**
 * Decodes a `.gwc` cartridge. Throws DecodeError: BAD_MAGIC (signature), TRUNCATED, BAD_INDEX
 * (a table id that is duplicated or ≥ the object count, which leaves an id missing; the offset is
 * the table row's), OUT_OF_RANGE (an object offset outside the file), CORRUPT (a negative length,
 * no Lua signature), UNSUPPORTED_VERSION (a Lua chunk other than little-endian 5.1 with the
 * standard sizes), LIMIT_EXCEEDED. Warnings: see GwcWarningCode. The input is never modified and
 * every array in the result is a copy. `sections: 'summary'` skips the media bytes (and the
 * media magic check); the header, the table, the Lua chunk and each media head are still read.
 */
export function decodeGwc(input: Uint8Array, opts: DecodeOptions = {}): GwcCartridge {
  const { bytes, ctx } = startDecode<GwcWarningCode>('gwc', input, opts);
  const r = new ByteReader(bytes, 'gwc');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  const prefix = bytes.subarray(0, SIGNATURE_BYTES);
  if (!sniffGwc(bytes)) {
    const full = Uint8Array.of(0x02, 0x0a, 0x43, 0x41, 0x52, 0x54, 0x00);
    const isPrefix = prefix.every((b, i) => b === full[i] || (i === 1 && b === 0x0b));
    if (isPrefix) throw r.fail('TRUNCATED', { at: 0, path: 'signature', expected: `${SIGNATURE_BYTES} bytes of signature`, actual: `${bytes.length} left` });
    throw r.fail('BAD_MAGIC', {
      at: 0,
      path: 'signature',
      expected: '02 0a 43 41 52 54 00',
      actual: Array.from(prefix, (b) => b.toString(16).padStart(2, '0')).join(' '),
    });
  }
  const signatureVersion = bytes[1]!;
  r.pos = SIGNATURE_BYTES;

  const count = r.within('objectCount', () => r.count(r.u16(), ctx.limits.maxRecords, TABLE_ROW_BYTES, 'objects'));
  const table = r.within('table', () => readTable(r, count));
  // QUIRK: an empty table has no Lua object; players cannot run it, so it is not a cartridge.
  if (count === 0) throw r.fail('BAD_INDEX', { at: 7, path: 'objectCount', expected: 'at least 1 object (the Lua chunk)', actual: 0 });

  const headerStart = r.pos;
  const headerLength = r.within('headerLength', () => r.i32());
  const header = r.within('header', () => readHeader(r, dv));
  const headerEnd = r.pos;
  if (headerEnd !== headerStart + 4 + headerLength) {
    ctx.warnings.warn('HEADER_LENGTH', `HeaderLength says ${headerLength} bytes, the fields take ${headerEnd - headerStart - 4}`, headerStart, 'headerLength');
  }
  if (header.completionCodeLength !== header.completionCode.raw.length + 1) {
    ctx.warnings.warn(
      'COMPLETION_LENGTH',
      `completion-code length field is ${header.completionCodeLength}, strlen + 1 is ${header.completionCode.raw.length + 1}`,
      headerEnd - header.completionCode.raw.length - 5,
      'header.completionCodeLength',
    );
  }

  const luaIndex = table.findIndex((t) => t.id === 0);
  if (table[luaIndex]!.offset !== headerEnd) {
    ctx.warnings.warn(
      'LUA_OFFSET',
      `the Lua object is at 0x${table[luaIndex]!.offset.toString(16)}, the header ends at 0x${headerEnd.toString(16)}; read at its table offset`,
      table[luaIndex]!.offset,
      `table[${luaIndex}].offset`,
    );
  }
  // Objects are read in table (= file) order, so a cut file fails at the first object it cuts.
  const ends = new Map<number, number>();
  const media: GwcMedia[] = new Array<GwcMedia>(count - 1);
  let lua: GwcLua | undefined;
  // Where each object's bytes must end at the latest: the next object's offset (or the file's end).
  const starts = [...new Set(table.map((t) => t.offset))].sort((a, b) => a - b);
  const limitOf = (offset: number) => starts.find((o) => o > offset) ?? bytes.length;
  table.forEach((row, i) => {
    seekObject(r, row.offset, i);
    if (row.id === 0) lua = r.within('lua', () => readLua(r, row.offset));
    else media[row.id - 1] = r.within(`objects[${row.id}]`, () => readMedia(r, row.id, row.offset, ctx, limitOf(row.offset)));
    ends.set(row.id, r.pos);
  });

  checkReferences(ctx, header, media, headerStart);
  const lastEnd = claimGaps(ctx, bytes, table, ends, headerEnd);
  const trailing = bytes.slice(lastEnd);
  if (trailing.length)
    ctx.warnings.warn('ORPHAN_BYTES', `${trailing.length} bytes after the last object${describeOrphan(trailing)} (kept in trailing)`, lastEnd, 'trailing');

  return {
    format: 'gwc',
    warnings: ctx.warnings.list,
    sections: ctx.summaryOnly ? 'summary' : 'all',
    signatureVersion,
    table,
    headerLength,
    header,
    lua: lua!,
    media,
    trailing,
  };
}

/** The table rows; ids must be distinct and below `count` (so every id 0..count−1 is present). */
function readTable(r: ByteReader, count: number): GwcTableRow[] {
  const rows: GwcTableRow[] = [];
  const seen = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const rowAt = r.pos;
    const id = r.u16();
    const offset = r.i32();
    const path = `table[${i}].id`;
    if (id >= count)
      throw r.fail('BAD_INDEX', {
        at: rowAt,
        path,
        expected: `an id below the object count ${count} (ids 0..${count - 1}, each once)`,
        actual: id,
        detail: 'an id is missing from the table',
      });
    const first = seen.get(id);
    if (first !== undefined)
      throw r.fail('BAD_INDEX', { at: rowAt, path, expected: 'distinct ids', actual: id, detail: `id ${id} is also in table[${first}]` });
    seen.set(id, i);
    rows.push({ id, offset, gapBefore: new Uint8Array(0) });
  }
  return rows;
}

function readHeader(r: ByteReader, dv: DataView): GwcHeader {
  const f64 = (name: string) =>
    r.within(name, () => {
      r.need(8);
      const v = dv.getFloat64(r.pos, true);
      r.pos += 8;
      return v;
    });
  const i64 = (name: string) =>
    r.within(name, () => {
      r.need(8);
      const v = dv.getBigInt64(r.pos, true);
      r.pos += 8;
      return v;
    });
  const str = (name: string): Text => r.within(name, () => autoText(r.cstring(name)));
  const latitude = f64('latitude');
  const longitude = f64('longitude');
  const altitude = f64('altitude');
  const createdSeconds = i64('created');
  const splashId = r.within('splashId', () => r.i16());
  const iconId = r.within('iconId', () => r.i16());
  const type = str('type');
  const player = str('player');
  const playerId = i64('playerId');
  const name = str('name');
  const guid = str('guid');
  const description = str('description');
  const startingLocation = str('startingLocation');
  const version = str('version');
  const author = str('author');
  const company = str('company');
  const recommendedDevice = str('recommendedDevice');
  const completionCodeLength = r.within('completionCodeLength', () => r.i32());
  const completionCode = str('completionCode');
  return {
    latitude,
    longitude,
    altitude,
    createdSeconds,
    created: gwcDate(createdSeconds),
    splashId,
    iconId,
    type,
    player,
    playerId,
    name,
    guid,
    description,
    startingLocation,
    version,
    author,
    company,
    recommendedDevice,
    completionCodeLength,
    completionCode,
  };
}

function readLua(r: ByteReader, offset: number): GwcLua {
  const length = r.within('length', () => r.i32());
  if (length < 0) throw r.fail('CORRUPT', { at: offset, path: 'lua.length', expected: 'a length ≥ 0', actual: length });
  r.need(length, 'Lua chunk');
  const chunk = r.view8(length);
  const sub = new ByteReader(chunk, 'gwc', offset + 4);
  const { header, sourceName } = readLuaHeader(sub, autoText);
  return { offset, bytes: chunk.slice(), header, sourceName };
}

/**
 * One media object. `limit`: where the next object starts (or the file ends). A valid byte n > 1
 * announces n entries (Urwigo: mp3 then an fdl Garmin tone): players (WF.Player.Core, OpenWIG in
 * c:geo, xmarksthespot) read the first and skip the rest; the rest are kept in `extraEntries` when
 * all n − 1 of them fit before `limit`, else left to the gap check (ORPHAN_BYTES), as before.
 */
function readMedia(r: ByteReader, id: number, offset: number, ctx: DecodeContext<GwcWarningCode>, limit: number): GwcMedia {
  const valid = r.within('valid', () => r.u8());
  if (valid === 0) return { id, offset, valid, type: null, data: new Uint8Array(0), length: 0 };
  const type = r.within('type', () => r.i32());
  const length = r.within('length', () => r.i32());
  if (length < 0) throw r.fail('CORRUPT', { at: offset + 5, path: `objects[${id}].length`, expected: 'a length ≥ 0', actual: length });
  r.need(length, `media object ${id}`);
  const first = readEntry(r, type, length, id, offset + 1, `objects[${id}]`, ctx);
  const media: GwcMedia = { id, offset, valid, ...first };
  if (valid > 1) {
    const extra = extraEntries(r, valid - 1, limit, id, ctx);
    if (extra) media.extraEntries = extra;
  }
  return media;
}

/** The data of one entry whose type and length were read, with its type checks; `typeAt`: where its type is. */
function readEntry(r: ByteReader, type: number, length: number, id: number, typeAt: number, path: string, ctx: DecodeContext<GwcWarningCode>) {
  const dataAt = r.pos;
  const view = r.view8(length);
  // Both checks read bytes in the file (a signature test of the first few), so a summary makes them too.
  if (!(type in MEDIA_TYPES))
    ctx.warnings.warn('UNKNOWN_MEDIA_TYPE', `object ${id} has media type ${type}, which no known builder writes (kept)`, typeAt, `${path}.type`);
  else if (mediaMismatch(type, view)) {
    const looks = sniffMedia(view);
    ctx.warnings.warn(
      'MEDIA_TYPE_MISMATCH',
      `object ${id} is declared ${mediaTypeName(type)} but its bytes ${looks ? `look like ${looks}` : 'carry no known signature'}`,
      dataAt,
      `${path}.data`,
    );
  }
  return { type, data: ctx.summaryOnly ? new Uint8Array(0) : view.slice(), length };
}

/** `n` headless entries (i32 type, i32 length, data) that all end by `limit`; undefined (reader unmoved) when they do not. */
function extraEntries(r: ByteReader, n: number, limit: number, id: number, ctx: DecodeContext<GwcWarningCode>): GwcMediaEntry[] | undefined {
  // A first pass over the bytes alone, so nothing is warned about or copied for entries that are not there.
  if (entriesEnd(r.bytes, r.pos, n, limit - r.base) < 0) return undefined;
  const out: GwcMediaEntry[] = [];
  for (let k = 0; k < n; k++) {
    const typeAt = r.base + r.pos;
    const type = r.i32();
    const length = r.i32();
    out.push(readEntry(r, type, length, id, typeAt, `objects[${id}].extraEntries[${k}]`, ctx));
  }
  return out;
}

/** Moves to an object's absolute offset; OUT_OF_RANGE at the table row's offset field when it is outside the file. */
function seekObject(r: ByteReader, offset: number, row: number): void {
  if (offset < 0 || offset > r.length) {
    throw r.fail('OUT_OF_RANGE', {
      at: SIGNATURE_BYTES + 2 + row * TABLE_ROW_BYTES + 2,
      path: `table[${row}].offset`,
      expected: `an object offset within 0..0x${r.length.toString(16)}`,
      actual: offset,
    });
  }
  r.pos = offset;
}

function checkReferences(ctx: DecodeContext<GwcWarningCode>, header: GwcHeader, media: GwcMedia[], headerStart: number): void {
  const refs: [string, number, number][] = [
    ['splashId', header.splashId, headerStart + 4 + 32],
    ['iconId', header.iconId, headerStart + 4 + 34],
  ];
  for (const [field, id, at] of refs) {
    if (id === -1) continue;
    const m = media[id - 1];
    if (!m) ctx.warnings.warn('MEDIA_REFERENCE', `${field} ${id} names no media object`, at, `header.${field}`);
    else if (m.valid === 0) ctx.warnings.warn('MEDIA_REFERENCE', `${field} ${id} names a deleted object`, at, `header.${field}`);
  }
}

/**
 * Walks the objects in table order from the end of the header: bytes between one object and the
 * next become the next row's `gapBefore` (ORPHAN_BYTES), an object that starts before the previous
 * one ends is LAYOUT (encode() then lays the objects out again). Returns where the last object ends.
 */
function claimGaps(ctx: DecodeContext<GwcWarningCode>, bytes: Uint8Array, table: GwcTableRow[], ends: Map<number, number>, headerEnd: number): number {
  let expected = headerEnd;
  let layoutWarned = false;
  for (let i = 0; i < table.length; i++) {
    const row = table[i]!;
    if (row.offset > expected) {
      row.gapBefore = bytes.slice(expected, row.offset);
      ctx.warnings.warn(
        'ORPHAN_BYTES',
        `${row.offset - expected} bytes before table[${i}] (object ${row.id}) that no row points at${describeOrphan(row.gapBefore)} (kept in its gapBefore)`,
        expected,
        `table[${i}].gapBefore`,
      );
    } else if (row.offset < expected && !layoutWarned) {
      layoutWarned = true;
      ctx.warnings.warn(
        'LAYOUT',
        `table[${i}] (object ${row.id}) starts at 0x${row.offset.toString(16)}, before the previous object ends (0x${expected.toString(16)}); encode() stores objects back to back in table order`,
        row.offset,
        `table[${i}].offset`,
      );
    }
    expected = Math.max(expected, ends.get(row.id)!);
  }
  return expected;
}

/** Says what orphan bytes look like when they form exactly one media record, with or without its valid byte. */
function describeOrphan(t: Uint8Array): string {
  const dv = new DataView(t.buffer, t.byteOffset, t.byteLength);
  const record = (at: number) => {
    if (t.length < at + 8) return undefined;
    const type = dv.getInt32(at, true);
    const len = dv.getInt32(at + 4, true);
    return len >= 0 && at + 8 + len === t.length ? `type ${type} ${mediaTypeName(type)}, ${len} bytes` : undefined;
  };
  const headless = record(0);
  if (headless) return `: a media record without its valid byte (${headless})`;
  const whole = t[0] !== 0 ? record(1) : undefined;
  return whole ? `: a media record (${whole})` : '';
}
