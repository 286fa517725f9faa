// GWC encoder: validates the whole cartridge, then writes the table in its stored order with the
// objects back to back in that order, recomputing HeaderLength and every object offset. A
// cartridge decoded from a file laid out that way (all known ones) comes back byte for byte.
// See README.md § Encoding.

import { type EncodeErrorCode, encodeError } from '../../core/errors.js';
import { ByteReader } from '../../core/reader.js';
import { snapshot } from '../../core/snapshot.js';
import { type Text, textBytes } from '../../core/text.js';
import { GWC_EPOCH_MS, gwcDate, SIGNATURE_VERSIONS, TABLE_ROW_BYTES } from './decode.js';
import { autoText, readLuaHeader } from './lua.js';
import { entriesEnd } from './media.js';
import type { GwcCartridge, GwcHeader, GwcMedia } from './types.js';

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const I32_MAX = 0x7fffffff;

/** The header's text fields in file order (completionCode is written after its length field). */
export const TEXT_FIELDS = [
  'type',
  'player',
  'name',
  'guid',
  'description',
  'startingLocation',
  'version',
  'author',
  'company',
  'recommendedDevice',
  'completionCode',
] as const;

/** Seconds since the GWC epoch (2004-02-10 01:00:00 UTC) for a Date: what `createdSeconds` must hold for `created`. */
export function gwcSeconds(date: Date | null): bigint {
  if (date === null) return 0n;
  return BigInt(Math.floor((date.getTime() - GWC_EPOCH_MS) / 1000));
}

/**
 * Writes `cart` as a `.gwc`. Recomputed, whatever the value says: HeaderLength and the offsets
 * (table rows, `lua.offset`, `media[].offset`). Written as found: everything else, including
 * the completion-code length field and `trailing`. Throws EncodeError before writing anything
 * when the value would not read back the same: a summary decode, table ids that are not each of
 * 0..media.length once, `media[i].id ≠ i + 1`, numbers outside their fields, a `created` that
 * disagrees with `createdSeconds`, text with a NUL or a character its code page lacks, a Lua
 * chunk whose header or source name disagrees with `lua.header`/`lua.sourceName`, lengths that
 * disagree with the bytes.
 */
export function encode(model: GwcCartridge): Uint8Array {
  // One read of the caller's cartridge: what is validated is what is written (core/snapshot.ts).
  const cart = snapshot(model);
  const fail = (code: EncodeErrorCode, path: string, expected?: string | number, actual?: string | number, detail?: string) =>
    encodeError('gwc', code, { path, expected, actual, detail });
  if (cart.sections !== 'all') throw fail('BAD_VALUE', 'sections', "'all'", String(cart.sections), 'a summary decode holds no media bytes');
  if (!SIGNATURE_VERSIONS.includes(cart.signatureVersion as 0x0a))
    throw fail('OUT_OF_RANGE', 'signatureVersion', '0x0a or 0x0b', String(cart.signatureVersion));
  if (!Array.isArray(cart.media) || !Array.isArray(cart.table)) throw fail('BAD_VALUE', cart.table ? 'media' : 'table', 'an array');
  const count = cart.media.length + 1;
  if (count > 0xffff) throw fail('LIMIT_EXCEEDED', 'media', 'at most 65534 media objects', cart.media.length);
  if (cart.table.length !== count) throw fail('BAD_LENGTH', 'table', `${count} rows (media.length + 1)`, cart.table.length);
  const seen = new Set<number>();
  cart.table.forEach((row, i) => {
    const id = row?.id;
    if (!Number.isInteger(id) || id < 0 || id >= count || seen.has(id)) throw fail('BAD_VALUE', `table[${i}].id`, `each of 0..${count - 1} once`, String(id));
    if (!(row.gapBefore instanceof Uint8Array)) throw fail('BAD_VALUE', `table[${i}].gapBefore`, 'a Uint8Array');
    seen.add(id);
  });
  cart.media.forEach((m, i) => {
    if (m?.id !== i + 1) throw fail('BAD_VALUE', `media[${i}].id`, i + 1, String(m?.id));
  });

  const h = cart.header;
  const strings = checkHeader(h, fail);
  const luaBytes = checkLua(cart, fail);
  cart.media.forEach((m, i) => {
    const p = `media[${i}]`;
    if (!Number.isInteger(m.valid) || m.valid < 0 || m.valid > 255) throw fail('OUT_OF_RANGE', `${p}.valid`, '0..255', String(m.valid));
    if (!(m.data instanceof Uint8Array)) throw fail('BAD_VALUE', `${p}.data`, 'a Uint8Array');
    if (m.valid === 0) {
      if (m.type !== null) throw fail('BAD_VALUE', `${p}.type`, 'null for a deleted object (valid 0)', String(m.type));
      if (m.data.length !== 0 || m.length !== 0) throw fail('BAD_LENGTH', `${p}.data`, '0 bytes for a deleted object (valid 0)', m.data.length);
      return;
    }
    if (!isInt32(m.type)) throw fail('OUT_OF_RANGE', `${p}.type`, 'a 32-bit signed integer', String(m.type));
    if (m.length !== m.data.length) throw fail('BAD_LENGTH', `${p}.length`, m.data.length, String(m.length));
    if (m.extraEntries === undefined) return;
    // The valid byte counts the entries: any other count would read back without them.
    if (!Array.isArray(m.extraEntries) || m.extraEntries.length === 0 || m.valid !== m.extraEntries.length + 1)
      throw fail('BAD_VALUE', `${p}.extraEntries`, `absent, or valid − 1 (${m.valid - 1}) entries`, String(m.extraEntries?.length));
    m.extraEntries.forEach((e, k) => {
      if (!isInt32(e?.type)) throw fail('OUT_OF_RANGE', `${p}.extraEntries[${k}].type`, 'a 32-bit signed integer', String(e?.type));
      if (!(e.data instanceof Uint8Array)) throw fail('BAD_VALUE', `${p}.extraEntries[${k}].data`, 'a Uint8Array');
      if (e.length !== e.data.length) throw fail('BAD_LENGTH', `${p}.extraEntries[${k}].length`, e.data.length, String(e.length));
    });
  });
  if (!(cart.trailing instanceof Uint8Array)) throw fail('BAD_VALUE', 'trailing', 'a Uint8Array');
  // A valid byte above 1 without its entries: the bytes written after the object (the next row's
  // gapBefore, or trailing) must not read back as those entries.
  cart.table.forEach((row, i) => {
    const m = row.id === 0 ? undefined : cart.media[row.id - 1];
    if (!m || m.valid <= 1 || m.extraEntries !== undefined) return;
    const after = i + 1 < cart.table.length ? cart.table[i + 1]!.gapBefore : cart.trailing;
    if (entriesEnd(after, 0, m.valid - 1, after.length) >= 0)
      throw fail(
        'BAD_VALUE',
        `media[${row.id - 1}].extraEntries`,
        `the ${m.valid - 1} entries its valid byte ${m.valid} announces`,
        'absent, but the bytes after it hold them',
      );
  });

  // Sizes first: every offset must fit an i32.
  const headerBytes = 3 * 8 + 8 + 2 + 2 + 8 + 4 + strings.reduce((n, s) => n + s.length + 1, 0);
  const mediaBytes = (m: GwcMedia) => (m.valid === 0 ? 1 : 9 + m.data.length + (m.extraEntries ?? []).reduce((n, e) => n + 8 + e.data.length, 0));
  const objectBytes = (id: number) => (id === 0 ? 4 + luaBytes.length : mediaBytes(cart.media[id - 1]!));
  const headerStart = 9 + TABLE_ROW_BYTES * count;
  const offsets = new Map<number, number>();
  let pos = headerStart + 4 + headerBytes;
  for (const row of cart.table) {
    pos += row.gapBefore.length;
    if (pos > I32_MAX) throw fail('LIMIT_EXCEEDED', 'media', 'object offsets below 2^31', pos);
    offsets.set(row.id, pos);
    pos += objectBytes(row.id);
  }
  const total = pos + cart.trailing.length;

  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  out.set([0x02, cart.signatureVersion, 0x43, 0x41, 0x52, 0x54, 0x00]);
  dv.setUint16(7, count, true);
  cart.table.forEach((row, i) => {
    dv.setUint16(9 + i * TABLE_ROW_BYTES, row.id, true);
    dv.setInt32(11 + i * TABLE_ROW_BYTES, offsets.get(row.id)!, true);
  });
  let w = headerStart;
  dv.setInt32(w, headerBytes, true);
  w += 4;
  dv.setFloat64(w, h.latitude, true);
  w += 8;
  dv.setFloat64(w, h.longitude, true);
  w += 8;
  dv.setFloat64(w, h.altitude, true);
  w += 8;
  dv.setBigInt64(w, h.createdSeconds, true);
  w += 8;
  dv.setInt16(w, h.splashId, true);
  w += 2;
  dv.setInt16(w, h.iconId, true);
  w += 2;
  const cstr = (b: Uint8Array) => {
    out.set(b, w);
    w += b.length + 1;
  };
  cstr(strings[0]!);
  cstr(strings[1]!);
  dv.setBigInt64(w, h.playerId, true);
  w += 8;
  for (let i = 2; i < 10; i++) cstr(strings[i]!);
  dv.setInt32(w, h.completionCodeLength, true);
  w += 4;
  cstr(strings[10]!);
  for (const row of cart.table) {
    w = offsets.get(row.id)!;
    out.set(row.gapBefore, w - row.gapBefore.length);
    if (row.id === 0) {
      dv.setInt32(w, luaBytes.length, true);
      out.set(luaBytes, w + 4);
      continue;
    }
    const m = cart.media[row.id - 1]!;
    out[w] = m.valid;
    if (m.valid === 0) continue;
    dv.setInt32(w + 1, m.type!, true);
    dv.setInt32(w + 5, m.data.length, true);
    out.set(m.data, w + 9);
    let e = w + 9 + m.data.length;
    for (const x of m.extraEntries ?? []) {
      dv.setInt32(e, x.type, true);
      dv.setInt32(e + 4, x.data.length, true);
      out.set(x.data, e + 8);
      e += 8 + x.data.length;
    }
  }
  out.set(cart.trailing, pos);
  return out;
}

type Fail = (code: EncodeErrorCode, path: string, expected?: string | number, actual?: string | number, detail?: string) => Error;

/** Checks the header's numbers and returns its text fields' bytes in file order. */
function checkHeader(h: GwcHeader, fail: Fail): Uint8Array[] {
  if (!h || typeof h !== 'object') throw fail('BAD_VALUE', 'header', 'an object');
  for (const k of ['latitude', 'longitude', 'altitude'] as const) if (typeof h[k] !== 'number') throw fail('BAD_VALUE', `header.${k}`, 'a number', typeof h[k]);
  for (const k of ['createdSeconds', 'playerId'] as const) {
    if (typeof h[k] !== 'bigint' || h[k] < I64_MIN || h[k] > I64_MAX) throw fail('OUT_OF_RANGE', `header.${k}`, 'a bigint in the i64 range', String(h[k]));
  }
  const expectDate = gwcDate(h.createdSeconds);
  const got = h.created;
  if (!(got === null || got instanceof Date) || (got === null) !== (expectDate === null) || (got && expectDate && got.getTime() !== expectDate.getTime())) {
    throw fail(
      'BAD_VALUE',
      'header.created',
      `${expectDate ? expectDate.toISOString() : 'null'} (what createdSeconds ${h.createdSeconds} reads back as)`,
      got instanceof Date ? (Number.isNaN(got.getTime()) ? 'Invalid Date' : got.toISOString()) : String(got),
      'set createdSeconds with gwc.gwcSeconds(date) and created to match',
    );
  }
  for (const k of ['splashId', 'iconId'] as const)
    if (!Number.isInteger(h[k]) || h[k] < -0x8000 || h[k] > 0x7fff) throw fail('OUT_OF_RANGE', `header.${k}`, '-32768..32767 (−1 = none)', String(h[k]));
  if (!isInt32(h.completionCodeLength)) throw fail('OUT_OF_RANGE', 'header.completionCodeLength', 'a 32-bit signed integer', String(h.completionCodeLength));
  return TEXT_FIELDS.map((k) => cstringBytes(h[k], `header.${k}`, fail));
}

/** The bytes of a NUL-terminated text field (without the NUL); BAD_VALUE when they contain one. */
function cstringBytes(t: Text, path: string, fail: Fail): Uint8Array {
  const b = textBytes(t, { format: 'gwc', path });
  if (b.includes(0)) throw fail('BAD_VALUE', path, 'text without NUL characters (the field ends at the first NUL)', JSON.stringify(t.text));
  // The file does not say how its strings are encoded: decode() reads UTF-8 when the bytes are
  // valid UTF-8. Text whose code-page bytes happen to be valid UTF-8 would read back different.
  const back = autoText(b).text;
  if (back !== t.text)
    throw fail(
      'UNENCODABLE_TEXT',
      path,
      `text that reads back the same (${t.encoding} bytes are decoded as UTF-8 when valid)`,
      JSON.stringify(t.text),
      `would read back as ${JSON.stringify(back)}`,
    );
  return b;
}

/** Checks that `lua.header` and `lua.sourceName` are what `lua.bytes` says (decode derives them from it). */
function checkLua(cart: GwcCartridge, fail: Fail): Uint8Array {
  const lua = cart.lua;
  if (!lua || !(lua.bytes instanceof Uint8Array)) throw fail('BAD_VALUE', 'lua.bytes', 'a Uint8Array');
  let parsed: ReturnType<typeof readLuaHeader>;
  try {
    parsed = readLuaHeader(new ByteReader(lua.bytes, 'gwc'), autoText);
  } catch (e) {
    throw fail('BAD_VALUE', 'lua.bytes', 'a little-endian Lua 5.1 chunk that decode() accepts', undefined, (e as Error).message);
  }
  const h = lua.header;
  const p = parsed.header;
  if (!h || (Object.keys(p) as (keyof typeof p)[]).some((k) => h[k] !== p[k])) {
    throw fail('BAD_VALUE', 'lua.header', JSON.stringify(p), JSON.stringify(h), 'lua.header is read from lua.bytes; change the bytes, not the header');
  }
  const s = lua.sourceName;
  const q = parsed.sourceName;
  const same =
    s === null || q === null
      ? s === q
      : s.text === q.text && s.encoding === q.encoding && s.raw.length === q.raw.length && s.raw.every((b, i) => b === q.raw[i]);
  if (!same)
    throw fail(
      'BAD_VALUE',
      'lua.sourceName',
      q ? JSON.stringify(q.text) : 'null',
      s ? JSON.stringify(s.text) : 'null',
      'lua.sourceName is read from lua.bytes',
    );
  return lua.bytes;
}

function isInt32(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= -0x80000000 && v <= I32_MAX;
}
