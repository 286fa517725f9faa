// Teeworlds decode path of issue 21: the item table read into columns (one copy of every item's
// ints, items as views), and `inflate: 'auto'` picking the inflater per block (WASM for CTile grids
// and small blocks, node:zlib for the rest) with the same results and the same errors as node:zlib.
import { describe, expect, it } from 'vitest';
import { DecodeError, teeworlds } from '../../src/index.js';
import { FIXTURES, listFiles, readBytes } from '../helpers/paths.js';
import { firstDifference } from './teeworlds-helpers.js';

const maps = listFiles(`${FIXTURES}/teeworlds`, /\.map$/).filter((f) => !f.includes('/bad/'));

/** A v4 datafile of two items whose payloads are 5 and 11 bytes, so the second one is not 4-byte aligned. */
function unalignedItems(): Uint8Array {
  const itemsStart = 36 + 2 * 12 + 2 * 4;
  const itemSize = 32;
  const out = new Uint8Array(itemsStart + itemSize);
  const dv = new DataView(out.buffer);
  out.set([0x44, 0x41, 0x54, 0x41]); // DATA
  const ints = (at: number, ...v: number[]) => v.forEach((x, k) => dv.setInt32(at + k * 4, x, true));
  // version, size, swaplen, item types, items, data, item_size, data_size
  ints(4, 4, out.length - 16, out.length - 16, 2, 2, 0, itemSize, 0);
  ints(36, 0, 0, 1, 1, 1, 1); // type 0: start 0, num 1; type 1: start 1, num 1
  ints(60, 0, 13); // item offsets
  ints(itemsStart, 0, 5, 1); // type 0 id 0, 5 payload bytes: the int 1 and one stray byte
  out[itemsStart + 12] = 0x99;
  ints(itemsStart + 13, (1 << 16) | 3, 11, 7, 8); // type 1 id 3, 11 payload bytes: 7, 8 and 3 stray bytes
  return out;
}

describe('teeworlds item columns', () => {
  it.each(maps)('%s: the columns, the views and the items list say the same', (file) => {
    const df = teeworlds.openDatafile(readBytes(file));
    const items = df.items;
    expect(df.items).toBe(items); // built once
    expect(items.length).toBe(df.itemTypeIds.length);
    items.forEach((item, i) => {
      expect(item.typeId).toBe(df.itemTypeIds[i]);
      expect(item.id).toBe(df.itemIds[i]);
      expect(item.data).toEqual(df.itemData(i));
      // The list's data are copies of their own; the views share one array.
      expect(item.data.buffer.byteLength).toBe(item.data.byteLength);
      expect(item.data.buffer).not.toBe(df.itemData(i).buffer);
    });
  });

  it('reads items that are not 4-byte aligned (payload sizes that are not whole ints)', () => {
    const df = teeworlds.openDatafile(unalignedItems());
    expect(df.items.map((it) => ({ typeId: it.typeId, id: it.id, data: Array.from(it.data) }))).toEqual([
      { typeId: 0, id: 0, data: [1] },
      { typeId: 1, id: 3, data: [7, 8] },
    ]);
    expect(Array.from(df.itemOffsets)).toEqual([68 + 8, 68 + 13 + 8]);
  });

  it.each(maps)('%s: extra items and unknown layers own their ints (no view of the item table)', (file) => {
    const m = teeworlds.decode(readBytes(file));
    for (const x of [...m.extraItems.map((e) => e.data), ...(m.legacy?.items.map((i) => i.data) ?? [])]) expect(x.buffer.byteLength).toBe(x.byteLength);
    for (const g of m.groups)
      for (const l of g.layers) {
        if (l.kind === 'unknown') expect(l.data.buffer.byteLength).toBe(l.data.byteLength);
        if (l.kind === 'opaque') expect(l.item.buffer.byteLength).toBe(l.item.byteLength);
      }
  });
});

describe("teeworlds inflate 'auto' (WASM for CTile grids and small blocks, node:zlib for the rest)", () => {
  it.each(maps)('%s: decodes as node:zlib and the WASM inflater do', (file) => {
    const bytes = readBytes(file);
    const auto = teeworlds.decode(bytes, { backend: 'wasm' });
    expect(firstDifference(auto, teeworlds.decode(bytes, { backend: 'wasm', inflate: 'native' }))).toBeNull();
    expect(firstDifference(auto, teeworlds.decode(bytes, { backend: 'wasm', inflate: 'wasm' }))).toBeNull();
  });

  it.each(maps)('%s: a damaged stream in any block fails as it does with node:zlib', (file) => {
    const bytes = readBytes(file);
    const df = teeworlds.openDatafile(bytes);
    if (df.version !== 4) return;
    const outcome = (b: Uint8Array, inflate: 'auto' | 'native') => {
      try {
        teeworlds.decode(b, { backend: 'wasm', inflate });
        return 'decodes';
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        return `${e.code} ${e.offset} ${e.path}`;
      }
    };
    let failures = 0;
    for (const b of df.blocks) {
      // The last byte of a zlib stream is its Adler-32's: every inflater must refuse the block.
      const copy = bytes.slice();
      copy[b.offset + b.storedByteLength - 1]! ^= 0x5a;
      const auto = outcome(copy, 'auto');
      expect(auto).toBe(outcome(copy, 'native'));
      if (auto !== 'decodes') {
        expect(auto).toMatch(/^CORRUPT_COMPRESSED /);
        failures++;
      }
    }
    // Every map has blocks the full decode reads.
    expect(failures).toBeGreaterThan(0);
  });
});
