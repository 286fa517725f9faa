// The shared diff helpers (src/diff): Myers' common subsequence, line hunks, cells grouped into
// rectangles, field and record comparison. Known answers on small inputs.
import { describe, expect, it } from 'vitest';
import { cellChanges, commonPairs, fieldChanges, lineHunks, recordChanges, splitLines } from '../../src/diff/index.js';
import { Prng } from '../helpers/prng.js';

/** The length of a longest common subsequence by the textbook table: the oracle for commonPairs. */
function lcsLength<K>(a: K[], b: K[]): number {
  const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) t[i]![j] = a[i - 1] === b[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!);
  return t[a.length]![b.length]!;
}

describe('commonPairs (Myers)', () => {
  it('finds a longest common subsequence, increasing and matching, on seeded random sequences', () => {
    const rng = new Prng(30);
    for (let n = 0; n < 300; n++) {
      const a = Array.from({ length: rng.int(20) }, () => rng.int(4));
      const b = Array.from({ length: rng.int(20) }, () => rng.int(4));
      const pairs = commonPairs(a, b);
      expect(pairs.length, `seed 30 case ${n}`).toBe(lcsLength(a, b));
      pairs.forEach(([i, j], k) => {
        expect(a[i]).toBe(b[j]);
        if (k) expect(i > pairs[k - 1]![0] && j > pairs[k - 1]![1]).toBe(true);
      });
    }
  });
});

describe('lineHunks', () => {
  it('gives the changed runs of lines with their line numbers', () => {
    const a = splitLines('one\ntwo\nthree\nfour\n');
    const b = splitLines('one\n2\nthree\nfour\nfive');
    expect(lineHunks(a, b)).toEqual([
      { fromLine: 2, toLine: 2, removed: ['two'], added: ['2'] },
      { fromLine: 5, toLine: 5, removed: [], added: ['five'] },
    ]);
    expect(lineHunks(a, a)).toEqual([]);
  });
});

describe('cellChanges', () => {
  const grid = (cells: number[], width = 4) => ({ width, height: cells.length / width, columns: { tile: Uint8Array.from(cells) } });
  it('groups changed cells into rectangles, one value when they agree', () => {
    const a = grid([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const b = grid([0, 5, 5, 0, 0, 5, 5, 0, 9, 0, 0, 0]);
    expect(cellChanges(a, b, { layer: 2 })).toEqual([
      { kind: 'tile', layer: 2, x: 1, y: 0, w: 2, h: 2, cells: 4, from: 0, to: 5 },
      { kind: 'tile', layer: 2, x: 0, y: 2, w: 1, h: 1, cells: 1, from: 0, to: 9 },
    ]);
  });
  it('gives nothing for equal grids, and names only the columns that changed', () => {
    const two = (i: number[], f: number[]) => ({ width: 2, height: 1, columns: { index: Uint8Array.from(i), flags: Uint8Array.from(f) } });
    expect(cellChanges(two([1, 2], [0, 0]), two([1, 2], [0, 0]), {})).toEqual([]);
    expect(cellChanges(two([1, 2], [0, 0]), two([1, 2], [0, 8]), {})).toEqual([
      { kind: 'tile', x: 1, y: 0, w: 1, h: 1, cells: 1, from: { flags: 0 }, to: { flags: 8 } },
    ]);
  });
  it('says a rectangle held too many different values to list, with how many, instead of null', () => {
    const side = 9; // 81 cells: more than INLINE_ARRAY_MAX
    const a = grid(new Array<number>(side * side).fill(0), side);
    const b = grid(
      Array.from({ length: side * side }, (_, i) => 1 + (i % 5)),
      side,
    );
    const [c, ...rest] = cellChanges(a, b, {});
    expect(rest).toEqual([]);
    expect(c).toEqual({ kind: 'tile', x: 0, y: 0, w: side, h: side, cells: side * side, from: 0, tooMany: { tile: { to: 5 } } });
    expect('to' in c!).toBe(false);
    const two = (index: number[]) => ({
      width: side,
      height: side,
      columns: { index: Uint8Array.from(index), flags: new Uint8Array(side * side) },
    });
    const [d] = cellChanges(two(Array.from({ length: side * side }, (_, i) => i % 3)), two(Array.from({ length: side * side }, (_, i) => 3 + (i % 7))), {});
    expect(d).toMatchObject({ from: {}, to: {}, tooMany: { index: { from: 3, to: 7 } } });
  });
  it('compares the overlap of grids of different sizes cell by cell', () => {
    const a = grid([1, 1, 1, 1, 1, 1, 1, 1], 4);
    const b = grid([1, 1, 1, 1, 7, 1], 3);
    expect(cellChanges(a, b, {})).toEqual([{ kind: 'tile', x: 1, y: 1, w: 1, h: 1, cells: 1, from: 1, to: 7 }]);
  });
});

describe('fieldChanges and recordChanges', () => {
  const text = (t: string) => ({ text: t, raw: new TextEncoder().encode(t), encoding: 'utf-8' });
  it('compares Texts by text, nested objects by dotted name', () => {
    const a = { name: text('a'), color: { r: 1, g: 2 }, n: 3 };
    const b = { name: { ...text('a'), raw: new Uint8Array([97, 0]) }, color: { r: 1, g: 4 }, n: 3 };
    expect(fieldChanges(a, b)).toEqual([{ field: 'color.g', from: 2, to: 4 }]);
  });
  it('matches records by key (duplicates in order) and by content otherwise', () => {
    const a = [
      { id: 1, v: 1 },
      { id: 1, v: 2 },
      { id: 2, v: 3 },
    ];
    const b = [
      { id: 2, v: 3 },
      { id: 1, v: 1 },
      { id: 1, v: 5 },
      { id: 3, v: 0 },
    ];
    expect(recordChanges(a, b, { kind: 'object', key: (r) => r.id })).toEqual([
      { kind: 'object-changed', id: 1, field: 'v', from: 2, to: 5 },
      { kind: 'object-added', id: 3, to: { id: 3, v: 0 } },
    ]);
    const links = [{ x: 1 }, { x: 2 }, { x: 3 }];
    expect(recordChanges(links, [{ x: 1 }, { x: 9 }, { x: 3 }], { kind: 'link' })).toEqual([{ kind: 'link-changed', id: 1, field: 'x', from: 2, to: 9 }]);
    expect(recordChanges(links, [{ x: 1 }, { x: 3 }], { kind: 'link' })).toEqual([{ kind: 'link-removed', id: 1, from: { x: 2 } }]);
  });
});
