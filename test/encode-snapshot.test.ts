// Encoders read the caller's model once (core/snapshot.ts): a getter that answers one value and
// then another (valid when validated, different when written) made files that did not match (a
// WWD startX written as 0, a Teeworlds layer written 900 wide from a 63-cell column). For every
// format: the getter is read exactly once, the file is the one the first answer gives, and the
// caller's model is left as it was, getter included.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPending } from '../src/core/lazy.js';
import { snapshot } from '../src/core/snapshot.js';
import { type AnyDecoded, decode, EncodeError, encode, teeworlds } from '../src/index.js';
import { FIXTURES, readBytes } from './helpers/paths.js';

// biome-ignore lint/suspicious/noExplicitAny: models of every format are reached into by path here; a union type would only add casts
type Loose = { [k: string]: any };

/** Makes `obj[key]` a getter answering `first` once and `later` ever after; returns the read count. */
function flip(obj: Loose, key: string, later: unknown): { reads: number; first: unknown } {
  const first = obj[key];
  const state = { reads: 0, first };
  Object.defineProperty(obj, key, {
    enumerable: true,
    configurable: true,
    get: () => (state.reads++ === 0 ? first : later),
  });
  return state;
}

const load = (file: string) => decode(readBytes(join(FIXTURES, file))) as unknown as Loose;

// [fixture, the flipping field's name, the object holding it, what it answers after the first read]
const cases: [string, string, (v: Loose) => Loose, unknown][] = [
  ['wwd/claw-uncompressed.wwd', 'startX', (v) => v.header, 0],
  ['teeworlds/ddnet-all-items.map', 'width', (v) => v.groups.flatMap((g: Loose) => g.layers).find((l: Loose) => l.kind === 'tiles'), 900],
  ['graal/gr-v103.graal', 'layers', (v) => v, []],
  ['graal/layers.nw', 'lineEnding', (v) => v, '\r\n'],
  ['graal/world.gmap', 'lineEnding', (v) => v, '\r\n'],
  ['gwc/basic.gwc', 'altitude', (v) => v.header, -1],
  ['gwc/sample.gwz', 'luaFile', (v) => v, 'other.lua'],
  ['wdata/main-v22.wdata', 'eventBoxVersion', (v) => v, 1],
];

describe('encoders read the model once', () => {
  it.each(cases)('%s: a flipping %s is read once and the file holds its first answer', (file, key, where, later) => {
    const plain = load(file);
    const expected = encode(plain as unknown as AnyDecoded);
    const model = load(file);
    const counter = flip(where(model), key, later);
    const bytes = encode(model as unknown as AnyDecoded);
    expect(counter.reads).toBe(1);
    expect(Buffer.from(bytes).equals(Buffer.from(expected))).toBe(true);
    // Untouched: the getter is still there and still answers `later`.
    expect(Object.getOwnPropertyDescriptor(where(model), key)?.get).toBeTypeOf('function');
    expect(where(model)[key]).toEqual(later);
  });

  it("a lazy map's grids are read for the file but stay lazy in the caller's map", () => {
    const bytes = readBytes(join(FIXTURES, 'teeworlds/ddnet-all-items.map'));
    const map = teeworlds.decode(bytes, { layers: 'lazy' });
    const layers = map.groups.flatMap((g) => g.layers).filter((l) => isPending(l, 'tiles'));
    expect(layers.length).toBeGreaterThan(0);
    expect(Buffer.from(teeworlds.encode(map)).equals(Buffer.from(teeworlds.encode(teeworlds.decode(bytes))))).toBe(true);
    for (const l of layers) expect(isPending(l, 'tiles')).toBe(true);
  });

  it('a getter whose first answer is invalid gives EncodeError, still read once', () => {
    const model = load('wwd/claw-uncompressed.wwd');
    const header = model.header;
    let reads = 0;
    Object.defineProperty(header, 'startX', { enumerable: true, get: () => (reads++ === 0 ? 2 ** 40 : 5) });
    expect(() => encode(model as unknown as AnyDecoded)).toThrow(EncodeError);
    expect(reads).toBe(1);
  });
});

describe('snapshot()', () => {
  it('reads own, non-enumerable and prototype getters once, keeps shapes, shares what was shared', () => {
    let reads = 0;
    class Point {
      constructor(readonly x: number) {}
      get double() {
        reads++;
        return this.x * 2;
      }
    }
    const shared = { n: 1 };
    const hidden = {};
    Object.defineProperty(hidden, 'secret', { enumerable: false, get: () => ++reads });
    const dict = Object.assign(Object.create(null) as Loose, { a: 1 });
    Object.defineProperty(dict, '__proto__', { value: 'a member name', enumerable: true });
    const cyclic: Loose = { name: 'loop' };
    cyclic.self = cyclic;
    const v = { p: new Point(3), a: shared, b: shared, hidden, dict, when: new Date(5), cyclic, list: [1, [2]], m: new Map([[1, 'x']]) };
    const s = snapshot(v);
    expect(reads).toBe(2);
    expect(s.p).toBeInstanceOf(Point);
    expect(s.p.double).toBe(6);
    expect(s.p.double).toBe(6);
    expect(reads).toBe(2);
    expect(s.a).toBe(s.b);
    expect(s.a).not.toBe(shared);
    expect((s.hidden as Loose).secret).toBe(2);
    expect(Object.keys(s.hidden)).toEqual([]);
    expect(Object.getPrototypeOf(s.dict)).toBeNull();
    expect(Object.keys(s.dict)).toEqual(['a', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(s.dict, '__proto__')?.value).toBe('a member name');
    expect(s.when).not.toBe(v.when);
    expect(s.when.getTime()).toBe(5);
    expect(s.cyclic.self).toBe(s.cyclic);
    expect(s.list).toEqual([1, [2]]);
    expect(s.m.get(1)).toBe('x');
  });

  it('typed arrays become fresh built-in views of the same memory, not copies; a lying subclass is not asked again', () => {
    const tiles = new Uint32Array([1, 2, 3, 4]).subarray(1, 3);
    class Liar extends Uint8Array {
      override get length(): number {
        throw new Error('asked again');
      }
    }
    const liar = new Liar(4);
    const s = snapshot({ tiles, liar });
    expect(s.tiles).not.toBe(tiles);
    expect(Object.getPrototypeOf(s.tiles)).toBe(Uint32Array.prototype);
    expect(s.tiles.buffer).toBe(tiles.buffer);
    expect(Array.from(s.tiles)).toEqual([2, 3]);
    expect(Object.getPrototypeOf(s.liar)).toBe(Uint8Array.prototype);
    expect(s.liar.length).toBe(4);
  });

  it('views of a SharedArrayBuffer are copied (another thread could change them)', () => {
    const shared = new Int16Array(new SharedArrayBuffer(8));
    shared[1] = 7;
    const s = snapshot({ shared });
    shared[1] = 9;
    expect(s.shared[1]).toBe(7);
    expect(s.shared.buffer).toBeInstanceOf(ArrayBuffer);
  });
});
