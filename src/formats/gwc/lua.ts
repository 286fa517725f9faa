// The Lua 5.1 chunk header inside a GWC (object 0) and the main function's source name.
// Players run the chunk with a stock Lua 5.1 VM (or Kahlua), so only the header those accept is
// accepted here. See README.md § Lua.

import type { ByteReader } from '../../core/reader.js';
import { makeText, type Text } from '../../core/text.js';
import type { LuaHeader } from './types.js';

/** ESC 'L' 'u' 'a'. */
export const LUA_SIGNATURE = [0x1b, 0x4c, 0x75, 0x61] as const;
export const LUA_HEADER_BYTES = 12;

/**
 * Reads and validates the 12-byte header and the main function's source name from `r`, which
 * is positioned at the chunk's first byte and bounded by the chunk. Throws DecodeError: CORRUPT
 * (not a Lua chunk), UNSUPPORTED_VERSION (not 5.1, not the official format, big-endian, sizes other
 * than int 4 / size_t 4 or 8 / Instruction 4 / number 8, integral numbers), TRUNCATED.
 */
export function readLuaHeader(r: ByteReader, decodeString: (raw: Uint8Array) => Text): { header: LuaHeader; sourceName: Text | null } {
  const start = r.pos;
  r.need(LUA_HEADER_BYTES, 'Lua chunk header');
  for (let i = 0; i < 4; i++) {
    if (r.bytes[start + i] !== LUA_SIGNATURE[i]) {
      throw r.fail('CORRUPT', {
        at: start,
        path: 'lua.header.signature',
        expected: '1b 4c 75 61 (ESC "Lua")',
        actual: hex(r.bytes.subarray(start, start + 4)),
      });
    }
  }
  r.pos = start + 4;
  const version = r.u8();
  const format = r.u8();
  const endian = r.u8();
  const intSize = r.u8();
  const sizeTSize = r.u8();
  const instructionSize = r.u8();
  const numberSize = r.u8();
  const integralByte = r.u8();
  const bad = (field: string, at: number, expected: string, actual: number) =>
    r.fail('UNSUPPORTED_VERSION', { at: start + at, path: `lua.header.${field}`, expected, actual: `0x${actual.toString(16)}` });
  if (version !== 0x51) throw bad('version', 4, '0x51 (Lua 5.1)', version);
  if (format !== 0) throw bad('format', 5, '0 (the official format)', format);
  if (endian !== 1) throw bad('endianness', 6, endian === 0 ? '1 (little-endian; big-endian chunks do not load on the players)' : '1 (little-endian)', endian);
  if (intSize !== 4) throw bad('intSize', 7, '4', intSize);
  if (sizeTSize !== 4 && sizeTSize !== 8) throw bad('sizeTSize', 8, '4 or 8', sizeTSize);
  if (instructionSize !== 4) throw bad('instructionSize', 9, '4', instructionSize);
  if (numberSize !== 8) throw bad('numberSize', 10, '8', numberSize);
  if (integralByte !== 0) throw bad('integral', 11, '0 (floating-point numbers)', integralByte);
  const header: LuaHeader = { version, format, littleEndian: true, intSize, sizeTSize, instructionSize, numberSize, integral: false };

  // The main function starts with its source name: a size_t length (with the NUL; 0 = none).
  const sourceName = r.within('lua.source', () => {
    const lenAt = r.pos;
    const len = sizeTSize === 4 ? r.u32() : readSize64(r);
    if (len === 0) return null;
    if (len > r.remaining) throw r.fail('TRUNCATED', { at: lenAt, expected: `${len} bytes of source name`, actual: `${r.remaining} left` });
    const raw = r.take(len - 1);
    r.skip(1);
    return decodeString(raw);
  });
  return { header, sourceName };
}

function readSize64(r: ByteReader): number {
  const at = r.pos;
  const lo = r.u32();
  const hi = r.u32();
  if (hi !== 0)
    throw r.fail('OUT_OF_RANGE', { at, expected: 'a source-name length below 2^32', actual: `0x${hi.toString(16)}${lo.toString(16).padStart(8, '0')}` });
  return lo;
}

function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(' ');
}

/** A string decoded strict UTF-8 when valid, else Windows-1252 (the `encoding` says which). */
export function autoText(raw: Uint8Array): Text {
  return makeText(raw, isUtf8(raw) ? 'utf-8' : 'windows-1252');
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/** True when `raw` is well-formed UTF-8. */
export function isUtf8(raw: Uint8Array): boolean {
  let ascii = true;
  for (let i = 0; i < raw.length && ascii; i++) ascii = raw[i]! < 0x80;
  if (ascii) return true;
  try {
    fatalUtf8.decode(raw);
    return true;
  } catch {
    return false;
  }
}
