// ByteReader, errors, text and digest helpers.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { littleEndianBytes, sha256Hex, sha256HexPortable } from '../../src/core/digest.js';
import { DecodeError, WarningSink } from '../../src/core/errors.js';
import { ByteReader, ByteWriter } from '../../src/core/reader.js';
import { decodeText, encodeWindows1252, trimNul } from '../../src/core/text.js';
import { Prng } from '../helpers/prng.js';

describe('ByteReader', () => {
  it('reads little- and big-endian values and tracks the absolute offset', () => {
    const r = new ByteReader(Uint8Array.of(1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff, 0, 0, 1, 0), 'wwd', 100);
    expect(r.u32()).toBe(0x04030201);
    expect(r.i32()).toBe(-1);
    expect(r.offset).toBe(108);
    expect(r.u32be()).toBe(0x100);
    expect(r.remaining).toBe(0);
  });
  it('throws TRUNCATED with offset and path instead of reading past the end', () => {
    const r = new ByteReader(new Uint8Array(6), 'teeworlds', 16);
    r.u32();
    const e = (() => {
      try {
        r.within('items[3]', () => r.u32());
      } catch (x) {
        return x as DecodeError;
      }
    })()!;
    expect(e).toBeInstanceOf(DecodeError);
    expect(e.code).toBe('TRUNCATED');
    expect(e.offset).toBe(20);
    expect(e.path).toBe('items[3]');
    expect(e.message).toMatch(/^teeworlds: items\[3\] at 0x14: input ends too early/);
  });
  it('rejects seeks outside the input and counts beyond limits or the remaining bytes', () => {
    const r = new ByteReader(new Uint8Array(10), 'graal');
    expect(() => r.seek(11)).toThrow(DecodeError);
    expect(() => r.seek(-1)).toThrow(DecodeError);
    expect(() => r.count(5, 4, 1, 'links')).toThrow(/LIMIT|limit/);
    expect(() => r.count(3, 100, 4, 'links')).toThrow(/ends too early/);
    expect(r.count(2, 100, 4, 'links')).toBe(2);
  });
  it('cstring copies and needs a terminator', () => {
    const src = Uint8Array.of(65, 66, 0, 67);
    const r = new ByteReader(src, 'wwd');
    const s = r.cstring();
    expect([...s]).toEqual([65, 66]);
    s[0] = 0;
    expect(src[0]).toBe(65);
    expect(() => r.cstring()).toThrow(DecodeError);
  });
});

describe('ByteWriter', () => {
  it('grows, pads fixed fields and patches', () => {
    const w = new ByteWriter(16);
    w.u32(7).fixed(Uint8Array.of(1, 2), 5).i32(-2);
    w.zeros(100).patchU32(0, 9);
    const b = w.finish();
    expect(b.length).toBe(4 + 5 + 4 + 100);
    expect([...b.subarray(0, 13)]).toEqual([9, 0, 0, 0, 1, 2, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff]);
  });
});

describe('warnings', () => {
  it('collect, or throw STRICT in strict mode', () => {
    const lax = new WarningSink('wwd', false);
    lax.warn('TRAILING_BYTES', '63 bytes after the zlib stream', 9000);
    expect(lax.list).toEqual([{ code: 'TRAILING_BYTES', message: '63 bytes after the zlib stream', offset: 9000 }]);
    expect(() => new WarningSink('wwd', true).warn('X', 'y', 1)).toThrow(expect.objectContaining({ code: 'STRICT', offset: 1 }));
  });
});

describe('text', () => {
  it('decodes Windows-1252 by default and other code pages on request', () => {
    expect(decodeText(Uint8Array.of(0x80, 0x41, 0xe9))).toBe('€Aé');
    expect(decodeText(Uint8Array.of(0x54, 0xb3, 0x6f), 'windows-1250')).toBe('Tło');
  });
  it('every WHATWG alias of windows-1252 decodes 0x80–0x9F by its table (Node 20 itself gives C1 controls)', () => {
    for (const label of ['windows-1252', 'CP1252', 'x-cp1252', 'latin1', 'l1', 'cp819', 'iso8859-1', 'ISO-8859-1', 'ascii', 'us-ascii', 'iso-ir-100']) {
      expect(decodeText(Uint8Array.of(0x80, 0x9f, 0x41), label), label).toBe('€ŸA');
    }
  });
  it('encodes Windows-1252 as the inverse of decoding', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect([...encodeWindows1252(decodeText(all))]).toEqual([...all]);
    expect(() => encodeWindows1252('漢')).toThrow(RangeError);
  });
  it('trimNul stops at the first NUL and copies', () => {
    expect([...trimNul(Uint8Array.of(65, 0, 66))]).toEqual([65]);
  });
});

describe('digest', () => {
  it('portable sha256 equals node:crypto on edge lengths', () => {
    const rng = new Prng(3);
    for (const n of [0, 1, 55, 56, 63, 64, 65, 1000, 70_000]) {
      const b = rng.bytes(n);
      const want = createHash('sha256').update(b).digest('hex');
      expect(sha256HexPortable(b), `length ${n}`).toBe(want);
      expect(sha256Hex(b)).toBe(want);
    }
  });
  it('hashes grids as little-endian integers of their element width', () => {
    expect([...littleEndianBytes(Uint32Array.of(0x01020304))]).toEqual([4, 3, 2, 1]);
    expect([...littleEndianBytes(Uint16Array.of(0x0102))]).toEqual([2, 1]);
  });
});
