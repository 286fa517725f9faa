// How `inflate` resolves (formats/decode-context.ts) and what decodeAsync does with it: every
// choice decodes to the same level, 'auto' picks node:zlib under Node and else the kernel set's
// own inflater, and decodeAsync streams only what decode() would give to pako.
import { describe, expect, it } from 'vitest';
import { chooseInflater } from '../../src/formats/decode-context.js';
import { asyncInflater, DecodeError, decode, decodeAsync, type InflaterChoice } from '../../src/index.js';
import { jsKernels } from '../../src/kernels/js/index.js';
import { wasmKernels } from '../../src/kernels/wasm/index.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';

const files = [...listFiles(`${FIXTURES}/teeworlds`, /\.map$/), ...listFiles(`${FIXTURES}/wwd`, /\.wwd$/)].filter((p) => !p.includes('/bad/'));

describe('inflate option', () => {
  it('auto is node:zlib under Node; wasm and pako name their kernel sets whatever the backend', () => {
    expect(chooseInflater('auto', jsKernels)).toBe('native');
    expect(chooseInflater('native', wasmKernels())).toBe('native');
    expect(chooseInflater('wasm', jsKernels)).toBe(wasmKernels());
    expect(chooseInflater('pako', wasmKernels())).toBe(jsKernels);
  });

  it('every choice decodes every fixture (WWD and Teeworlds, compressed blocks) to the same level', () => {
    expect(files.length).toBeGreaterThan(5);
    for (const p of files) {
      const bytes = readBytes(p);
      const want = decode(bytes, { inflate: 'native' });
      for (const inflate of ['auto', 'wasm', 'pako'] as InflaterChoice[])
        for (const backend of ['js', 'wasm'] as const) expect(decode(bytes, { inflate, backend }), `${p} ${inflate} ${backend}`).toEqual(want);
    }
  });

  it('a damaged block is CORRUPT_COMPRESSED at the block, from every inflater', () => {
    const p = files.find((f) => f.endsWith('.wwd'))!;
    const bytes = readBytes(p).slice();
    bytes[1524 + 40]! ^= 0x55; // inside the main block's zlib stream (it starts after the 1,524-byte header)
    const codes = (['native', 'wasm', 'pako'] as InflaterChoice[]).map((inflate) => {
      try {
        decode(bytes, { inflate });
        return 'ok';
      } catch (e) {
        return `${(e as { code?: string }).code}@${(e as { offset?: number }).offset}`;
      }
    });
    expect(codes).toEqual(['CORRUPT_COMPRESSED@1524', 'CORRUPT_COMPRESSED@1524', 'CORRUPT_COMPRESSED@1524']);
  });

  it('decodeAsync: decode() where it has node:zlib or the WASM inflater; streams only in place of pako', async () => {
    expect(asyncInflater()).toBe('native');
    expect(asyncInflater({ inflate: 'wasm' })).toBe('wasm');
    expect(asyncInflater({ inflate: 'pako' })).toBe(typeof DecompressionStream === 'function' ? 'stream' : 'pako');
    for (const p of files) {
      const bytes = readBytes(p);
      expect(await decodeAsync(bytes, { inflate: 'pako' }), p).toEqual(decode(bytes));
    }
  });

  it('decodeAsync starts no stream for a block over the limits: the decode refuses it first, typed', async () => {
    const map = files.find((f) => f.endsWith('ddnet-all-items.map'))!;
    const bytes = readBytes(map);
    // Every data_sizes entry of the v4 header says 2 GiB: a stream would allocate that before inflating.
    const v = new DataView(bytes.buffer, bytes.byteOffset);
    const [itemTypes, items, data] = [v.getInt32(16, true), v.getInt32(20, true), v.getInt32(24, true)];
    const sizesAt = 36 + itemTypes * 12 + items * 4 + data * 4;
    for (let i = 0; i < data; i++) v.setInt32(sizesAt + 4 * i, 0x7ff00000, true);
    const real = globalThis.DecompressionStream;
    let started = 0;
    globalThis.DecompressionStream = class extends real {
      constructor(format: CompressionFormat) {
        super(format);
        started++;
      }
    };
    try {
      await expect(decodeAsync(bytes, { inflate: 'pako', limits: { maxInflatedBytes: 1000 } })).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED' });
      await expect(decodeAsync(bytes, { inflate: 'pako' })).rejects.toBeInstanceOf(DecodeError);
    } finally {
      globalThis.DecompressionStream = real;
    }
    expect(started).toBe(0);
  });
});
