// Kernels that take a start offset agree on offsets outside their input: both sets return
// TRUNCATED instead of reading before the start (JS) or wrapping a pointer (WASM).
import { describe, expect, it } from 'vitest';
import { Status } from '../../src/kernels/status.js';
import { KERNEL_SETS } from '../helpers/kernels.js';

const BAD_OFFSETS = [-1, -8, 1.5, Number.NaN, 65, 1e12];

describe.each(KERNEL_SETS)('start offsets outside the input [%s]', (_name, k) => {
  const src = new Uint8Array(64).fill(1);
  it('gatherRecords', () => {
    const layout = { fixedWords: 2, lenIndex: 1, lenCount: 1 };
    for (const off of BAD_OFFSETS)
      expect(k.gatherRecords(src, off, 1, layout, [new Int32Array(1), new Int32Array(1)], new Uint8Array(64), new Uint32Array(1)), `offset ${off}`).toBe(
        Status.TRUNCATED,
      );
    // The end of the input is a valid offset for an empty table.
    expect(k.gatherRecords(src, 64, 0, layout, [new Int32Array(0), new Int32Array(0)], new Uint8Array(0), new Uint32Array(0))).toBe(64);
  });
  it('graalTileStream', () => {
    for (const off of BAD_OFFSETS) expect(k.graalTileStream(src, off, 12, new Uint16Array(16)), `offset ${off}`).toBe(Status.TRUNCATED);
  });
});
