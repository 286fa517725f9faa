// Options and inputs are validated where they are resolved: an error names the option and says
// what is allowed (a NaN limit used to disable its check silently).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/core/limits.js';
import { DEFAULT_LIMITS, DecodeError, type DecodeOptions, decode } from '../../src/index.js';
import { FIXTURES, readBytes } from '../helpers/paths.js';

const fixture = () => readBytes(join(FIXTURES, 'wwd/claw-compressed.wwd'));
// Options as a caller without types might pass them.
const loose = (o: object) => o as DecodeOptions;

describe('decode options', () => {
  it.each([
    [{ backend: 'gpu' }, RangeError, /option 'backend' must be one of 'auto', 'wasm', 'js'/],
    [{ inflate: 'zstd' }, RangeError, /option 'inflate' must be one of/],
    [{ sections: 'some' }, RangeError, /option 'sections' must be one of 'all', 'summary'/],
    [{ encoding: 'klingon' }, RangeError, /option 'encoding'/],
    [{ encoding: 1250 }, TypeError, /option 'encoding' must be a string/],
    [{ strict: 'yes' }, TypeError, /option 'strict'/],
    [{ limits: { maxInflatedBytes: Number.NaN } }, RangeError, /limits.maxInflatedBytes' must be a whole number/],
    [{ limits: { maxGridCells: -1 } }, RangeError, /limits.maxGridCells/],
    [{ limits: { maxRecords: 1.5 } }, RangeError, /limits.maxRecords/],
    [{ limits: { maxRecords: '10' } }, TypeError, /limits.maxRecords' must be a number/],
    [{ limits: { maxBytes: 10 } }, TypeError, /unknown option 'limits.maxBytes'/],
    [{ backed: 'js' }, TypeError, /unknown option 'backed'/],
  ] as const)('%j is refused, naming the option', (opts, type, message) => {
    expect(() => decode(fixture(), loose(opts))).toThrow(type);
    expect(() => decode(fixture(), loose(opts))).toThrow(message);
  });

  it('fills in defaults and keeps valid overrides', () => {
    const r = resolveOptions({ limits: { maxRecords: 7 } });
    expect(r).toMatchObject({ backend: 'auto', inflate: 'auto', sections: 'all', strict: false, encoding: 'windows-1252' });
    expect(r.limits).toEqual({ ...DEFAULT_LIMITS, maxRecords: 7 });
  });

  it('a frozen options object is validated once and its resolution reused; any other object is resolved on every call', () => {
    const frozen = Object.freeze({ sections: 'summary' as const, limits: Object.freeze({ maxRecords: 9 }) });
    const first = resolveOptions(frozen);
    expect(resolveOptions(frozen)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toMatchObject({ sections: 'summary', limits: { ...DEFAULT_LIMITS, maxRecords: 9 } });
    // Limits that can still change make the options changeable: not reused.
    const openLimits = Object.freeze({ limits: { maxRecords: 9 } });
    expect(resolveOptions(openLimits)).not.toBe(resolveOptions(openLimits));
    const plain = { sections: 'summary' as const };
    expect(resolveOptions(plain)).not.toBe(resolveOptions(plain));
    // Frozen, but still able to answer differently: a getter, or an inherited option.
    let sections: 'all' | 'summary' = 'all';
    const getter = Object.freeze({
      get sections() {
        return sections;
      },
    });
    expect(resolveOptions(getter).sections).toBe('all');
    sections = 'summary';
    expect(resolveOptions(getter).sections).toBe('summary');
    const base: DecodeOptions = { sections: 'all' };
    const inherited = Object.freeze(Object.create(base) as DecodeOptions);
    expect(resolveOptions(inherited).sections).toBe('all');
    base.sections = 'summary';
    expect(resolveOptions(inherited).sections).toBe('summary');
    // The stored resolution cannot be changed through what it returns.
    expect(Object.isFrozen(first.limits)).toBe(true);
    // A frozen object that is invalid throws on every call (nothing is remembered for it).
    const bad = Object.freeze(loose({ backend: 'gpu' }));
    expect(() => decode(fixture(), bad)).toThrow(/option 'backend'/);
    expect(() => decode(fixture(), bad)).toThrow(/option 'backend'/);
  });

  it('a limit of 0 is a real limit, not "no limit"', () => {
    expect(() => decode(fixture(), { limits: { maxInflatedBytes: 0 } })).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }));
  });

  it('maxTotalInflatedBytes holds for the file as a whole', () => {
    const e = (() => {
      try {
        decode(fixture(), { limits: { maxTotalInflatedBytes: 10 } });
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(DecodeError);
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED', format: 'wwd' });
  });
});

describe('decode input', () => {
  it('accepts an ArrayBuffer, a DataView, a Buffer subclass and another view over the same bytes, and never writes them', () => {
    const bytes = fixture();
    const expected = decode(bytes);
    class MyBuffer extends Uint8Array {}
    const copy = bytes.slice();
    const inputs: (ArrayBuffer | ArrayBufferView)[] = [
      copy.buffer.slice(copy.byteOffset, copy.byteOffset + copy.byteLength),
      new DataView(copy.buffer, copy.byteOffset, copy.byteLength),
      Buffer.from(copy),
      new MyBuffer(copy),
    ];
    for (const input of inputs) {
      expect(decode(input)).toEqual(expected);
    }
    expect(copy).toEqual(bytes);
  });

  it.each([
    ['a string', 'WWD'],
    ['an array', [0xf4, 5, 0, 0]],
    ['null', null],
    ['a number', 5],
  ])('refuses %s with a TypeError saying what is accepted', (_what, input) => {
    expect(() => decode(input as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => decode(input as unknown as Uint8Array)).toThrow(/Uint8Array, Buffer, ArrayBuffer or ArrayBufferView/);
  });
});
