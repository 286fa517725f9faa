// The public contract, the same for every format (hash-wasm's api.test idea): over every
// committed fixture, detect() names the format, decode() returns it with warnings, results are
// identical with both kernel sets, the input is never mutated, and encode() round-trips to a fixed point.
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { littleEndianBytes, sha256Hex } from '../src/core/digest.js';
import { FORMATS } from '../src/formats/registry.js';
import { DecodeError, decode, detect, encode, mainGrid, summarize } from '../src/index.js';
import { FIXTURES, listFiles, ROOT, readBytes } from './helpers/paths.js';
import { Prng } from './helpers/prng.js';
import { typedArrays } from './helpers/views.js';

const FILES = listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap|gwc|gwz|wdata)$/i).filter((p) => !p.includes('/bad/'));

describe('public API over every fixture', () => {
  it('there are fixtures of every format with a decoder', () => {
    const seen = new Set(FILES.map((p) => detect(readBytes(p))));
    expect([...seen].sort()).toEqual(FORMATS.flatMap((f) => f.ids).sort());
  });

  it.each(FILES.map((p) => [relative(ROOT, p), p]))('%s', (_rel, path) => {
    const bytes = readBytes(path);
    const before = bytes.slice();
    const format = detect(bytes);
    expect(format).toBeDefined();
    const viaWasm = decode(bytes, { backend: 'wasm' });
    const viaJs = decode(bytes, { backend: 'js' });
    expect(viaWasm.format).toBe(format);
    expect(Array.isArray(viaWasm.warnings)).toBe(true);
    expect(viaWasm).toEqual(viaJs);
    const { version, summary } = summarize(viaWasm);
    expect(version).not.toBe('');
    const digest = 'gridDigest' in summary ? summary.gridDigest : null;
    if (digest != null) {
      expect(digest).toMatch(/^[0-9a-f]{64}$/);
      // gridDigest is the sha256 of exactly the grid mainGrid() exposes: its size (u32 LE each), then its cells.
      const grid = mainGrid(viaWasm);
      expect(grid).toBeDefined();
      expect(grid!.cells.length).toBe(grid!.width * grid!.height);
      const size = Buffer.alloc(8);
      size.writeUInt32LE(grid!.width, 0);
      size.writeUInt32LE(grid!.height, 4);
      expect(sha256Hex(Buffer.concat([size, littleEndianBytes(grid!.cells)]))).toBe(digest);
    }
    // JSON-safe: what `levelkit info --json` prints.
    expect(() => JSON.stringify(summary)).not.toThrow();
    // Writing may normalise what a writer chooses (container version, a fresh checksum, fixed
    // header quirks); the formats' own suites pin those. Here: the tiles survive, and a second
    // round trip is a fixed point.
    const once = decode(encode(viaWasm));
    expect(once.format).toBe(viaWasm.format);
    const again = summarize(once).summary;
    expect('gridDigest' in again ? again.gridDigest : null).toEqual(digest);
    expect(decode(encode(once))).toEqual(once);
    expect(Buffer.compare(bytes, before)).toBe(0);
  });
});

describe('a Node Buffer as input (its slice() is a view, not a copy)', () => {
  it.each(FILES.map((p) => [relative(ROOT, p), p]))('%s: the Buffer is left as it was and no result array shares its memory', (_rel, path) => {
    const plain = readBytes(path);
    for (const backend of ['wasm', 'js'] as const) {
      const buf = Buffer.from(plain);
      const value = decode(buf, { backend });
      expect(Buffer.compare(buf, plain), backend).toBe(0);
      expect(value, backend).toEqual(decode(plain, { backend }));
      expect(typedArrays(value).filter((a) => a.buffer === buf.buffer).length, backend).toBe(0);
    }
  });
});

describe('unknown input', () => {
  it('detect() gives undefined and decode() a BAD_MAGIC DecodeError for bytes no format knows', () => {
    for (const b of [new Uint8Array(0), Uint8Array.of(1, 2, 3), new TextEncoder().encode('hello, world\n')]) {
      expect(detect(b)).toBeUndefined();
      expect(() => decode(b)).toThrow(expect.objectContaining({ code: 'BAD_MAGIC', format: 'unknown', offset: 0 }));
    }
  });
  it('random bytes behind every signature never escape as anything but DecodeError', () => {
    // Plain random bytes would only ever reach BAD_MAGIC; each signature gets them past detect().
    const enc = (s: string) => [...new TextEncoder().encode(s)];
    const SIGNATURES = [
      [0xf4, 0x05, 0, 0],
      enc('DATA\x04\0\0\0'),
      enc('ATAD\x03\0\0\0'),
      enc('GR-V1.03'),
      enc('Z3-V1.03'),
      enc('GLEVNW01\n'),
      enc('GRMAP001\n'),
      [0x02, 0x0a, ...enc('CART'), 0],
      [0x50, 0x4b, 0x03, 0x04],
    ];
    const rng = new Prng(77);
    const seen = new Set<string>();
    for (const sig of SIGNATURES) {
      for (let i = 0; i < 500; i++) {
        const b = new Uint8Array([...sig, ...rng.bytes(rng.int(400))]);
        expect(detect(b), `signature ${sig}`).toBeDefined();
        try {
          seen.add(decode(b).format);
        } catch (e) {
          expect(e, `signature ${sig} case ${i}`).toBeInstanceOf(DecodeError);
          seen.add((e as DecodeError).format);
        }
      }
    }
    expect([...seen].sort()).toEqual(['graal', 'graal-gmap', 'graal-nw', 'gwc', 'gwz', 'teeworlds', 'wwd']);
  });
});
