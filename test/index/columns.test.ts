// A layer's histogram is written as rows column by column (TableBuilder.rowsWith): the same bytes
// as one row() per tile, whatever the cells (repeated texts, nulls, a single row, none), and a
// text repeated after it still copies the right bytes.
import { describe, expect, it } from 'vitest';
import { type Cell, TableBuilder } from '../../src/archive-index/parquet/columns.js';
import { type Table, tableOf } from '../../src/archive-index/schema.js';

/** The same rows both ways: `rowsWith` per histogram, and row() per tile; then one more row each. */
function bothWays(histograms: { same: Cell[]; tiles: number[]; counts: number[] }[], after: Cell[]) {
  const bulk = new TableBuilder(tableOf('tiles'));
  const single = new TableBuilder(tableOf('tiles'));
  for (const h of histograms) {
    bulk.rowsWith(h.same, [h.tiles, h.counts], h.tiles.length);
    h.tiles.forEach((t, i) => single.row([...h.same, t, h.counts[i]]));
  }
  bulk.row(after);
  single.row(after);
  return { bulk: bulk.take(), single: single.take() };
}

describe('TableBuilder.rowsWith', () => {
  it('writes the bytes row() writes, for repeated texts, nulls, one row and none', () => {
    const { bulk, single } = bothWays(
      [
        { same: ['0123456789abcdef', 0, 'tiles'], tiles: [0, 1, 7, 2 ** 40], counts: [5, 6, 7, 8] },
        { same: ['0123456789abcdef', 1, 'game'], tiles: [3], counts: [9] },
        { same: ['0123456789abcdef', 2, 'board'], tiles: [], counts: [] },
        { same: ['fedcba9876543210', null, undefined], tiles: [4, 5], counts: [1, 2] },
        { same: ['fedcba9876543210', 3.5, 'é✓'], tiles: [Number.NaN, 6], counts: [1, 2 ** 60] },
      ],
      ['fedcba9876543210', 4, 'é✓', 1, 1],
    );
    expect(bulk?.rows).toBe(10);
    expect(bulk).toEqual(single);
  });

  it('writes the bytes row() writes for long histograms and for every column type the varying cells may have', () => {
    const long = Array.from({ length: 37 }, (_, i) => i * 3);
    const { bulk, single } = bothWays(
      [
        { same: ['0123456789abcdef', 5, 'tiles'], tiles: long, counts: long.map((t) => t + 1) },
        { same: ['0123456789abcdef', 6, 'tiles'], tiles: long.slice(0, 16), counts: long.slice(0, 16) },
      ],
      ['0123456789abcdef', 7, 'tiles', 1, 1],
    );
    expect(bulk?.rows).toBe(37 + 16 + 1);
    expect(bulk).toEqual(single);
    // A whole number out of a column's range, a fraction, NaN, null, undefined: the same null as row() gives.
    const odd = [0, -1, 2 ** 31, -(2 ** 31), 2 ** 31 - 1, 1.5, Number.NaN, null, undefined, 2 ** 53, 7] as unknown as number[];
    const table: Table = {
      // A made-up table: its own name does not matter to the builder.
      name: 'odd' as Table['name'],
      row: 'a test row',
      columns: (['VARCHAR', 'INTEGER', 'BIGINT', 'DOUBLE', 'BOOLEAN'] as const).map((type, i) => ({ name: `c${i}`, type, doc: '' })),
    };
    const rowsWith = new TableBuilder(table);
    rowsWith.rowsWith(['same'], [odd, odd, odd, odd], odd.length);
    const rowByRow = new TableBuilder(table);
    for (const v of odd) rowByRow.row(['same', v, v, v, v]);
    expect(rowsWith.take()).toEqual(rowByRow.take());
  });

  it('refuses a histogram whose cells do not fill the table', () => {
    expect(() => new TableBuilder(tableOf('tiles')).rowsWith(['x', 0], [[1]], 1)).toThrow(RangeError);
  });
});
