// The zlib interface: native and pako agree, sizes are enforced, damage becomes DecodeError.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/core/errors.js';
import { deflateZlib, hasNativeZlib, type Inflater, inflateExact } from '../../src/core/inflate.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { inflateKernels } from '../../src/kernels/select.js';
import { Prng } from '../helpers/prng.js';

const site = { format: 'wwd' as const, offset: 1524, path: 'mainBlock' };
const CHOICES = ['native', 'pako', 'wasm'] as const;
const INFLATERS: Record<(typeof CHOICES)[number], Inflater> = { native: 'native', pako: inflateKernels('pako'), wasm: inflateKernels('wasm') };

function code(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return e instanceof DecodeError ? e.code : `THROWN ${String(e)}`;
  }
}

describe('inflateExact', () => {
  it('has the native inflater under Node', () => expect(hasNativeZlib()).toBe(true));

  describe.each(CHOICES)('%s', (name) => {
    const choice = INFLATERS[name];
    const rng = new Prng(5);
    const data = rng.bytes(100_000).map((b) => b & 7); // compressible
    const z = new Uint8Array(deflateSync(data));

    it('inflates to exactly the expected size and reports the bytes used', () => {
      const withTail = new Uint8Array([...z, ...new TextEncoder().encode('<wm_meta>x</wm_meta>')]);
      const r = inflateExact(withTail, data.length, choice, DEFAULT_LIMITS, site);
      expect(Buffer.compare(r.bytes, data)).toBe(0);
      expect(r.consumed).toBe(z.length);
    });
    it('owns the whole buffer behind its bytes, and nothing in it was left unwritten', () => {
      // A result may keep a view of the block (WWD grids): its buffer must hold only the block and zeros.
      for (let k = 0; k < 20; k++) {
        const r = inflateExact(z, data.length, choice, DEFAULT_LIMITS, site);
        const whole = new Uint8Array(r.bytes.buffer);
        expect(whole.length - r.bytes.length).toBeLessThanOrEqual(1);
        expect(whole.subarray(r.bytes.byteOffset + r.bytes.length).every((b) => b === 0)).toBe(true);
        expect(r.bytes.byteOffset).toBe(0);
      }
    });
    it('rejects a stream that is longer or shorter than expected', () => {
      expect(code(() => inflateExact(z, data.length - 1, choice, DEFAULT_LIMITS, site))).toBe('CORRUPT_COMPRESSED');
      expect(code(() => inflateExact(z, data.length + 1, choice, DEFAULT_LIMITS, site))).toBe('CORRUPT_COMPRESSED');
    });
    it('rejects truncated and damaged streams', () => {
      for (const cut of [0, 1, 2, 10, z.length - 1])
        expect(
          code(() => inflateExact(z.subarray(0, cut), data.length, choice, DEFAULT_LIMITS, site)),
          `cut ${cut}`,
        ).toBe('CORRUPT_COMPRESSED');
      const bad = z.slice();
      bad[bad.length - 1]! ^= 0xff; // Adler-32 is checked
      expect(code(() => inflateExact(bad, data.length, choice, DEFAULT_LIMITS, site))).toBe('CORRUPT_COMPRESSED');
    });
    it('checks the expected size against the limit before allocating', () => {
      const e = (() => {
        try {
          inflateExact(z, 2 ** 31, choice, { ...DEFAULT_LIMITS, maxInflatedBytes: 1 << 20 }, site);
        } catch (x) {
          return x;
        }
      })();
      expect(e).toBeInstanceOf(DecodeError);
      expect((e as DecodeError).code).toBe('LIMIT_EXCEEDED');
      expect((e as DecodeError).offset).toBe(1524);
      expect((e as DecodeError).path).toBe('mainBlock');
    });
    it('inflates empty output', () => {
      expect(inflateExact(new Uint8Array(deflateSync(new Uint8Array(0))), 0, choice, DEFAULT_LIMITS, site).bytes.length).toBe(0);
    });
    it('does not mutate its input', () => {
      const copy = z.slice();
      inflateExact(z, data.length, choice, DEFAULT_LIMITS, site);
      expect(Buffer.compare(copy, z)).toBe(0);
    });
  });

  it('deflateZlib output inflates back with both inflaters', () => {
    const data = new Prng(11).bytes(5000);
    for (const c of ['native', 'pako'] as const) {
      const z = deflateZlib(data, 9, c);
      expect(z[0]).toBe(0x78);
      for (const d of Object.values(INFLATERS)) expect(Buffer.compare(inflateExact(z, data.length, d, DEFAULT_LIMITS, site).bytes, data)).toBe(0);
    }
  });
});

describe('inflateExact size sanity', () => {
  it('rejects a declared size no deflate stream of that length can reach, before allocating', () => {
    const tiny = new Uint8Array(deflateSync(new Uint8Array(0)));
    for (const choice of Object.values(INFLATERS)) {
      expect(code(() => inflateExact(tiny, 200 * 1024 * 1024, choice, DEFAULT_LIMITS, site))).toBe('CORRUPT_COMPRESSED');
    }
  });
  it('still accepts the most compressible real data (zeros at ~1000:1)', () => {
    const zeros = new Uint8Array(4 << 20);
    const z = new Uint8Array(deflateSync(zeros, { level: 9 }));
    expect(zeros.length / z.length).toBeGreaterThan(900);
    for (const choice of Object.values(INFLATERS)) expect(inflateExact(z, zeros.length, choice, DEFAULT_LIMITS, site).bytes.length).toBe(zeros.length);
  });
});
