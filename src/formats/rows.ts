// Helpers every format's indexRows() shares (define.ts has the row types): the histogram of a
// layer's tile values, and the one error for a value decoded too shallowly to be indexed.

import type { LevelRow, ObjectRow, TileRow } from './define.js';

/** tileHistogram's table for 16-bit grids: all zero between calls. */
const WORD_COUNTS = new Uint32Array(1 << 16);

/**
 * The distinct values of `cells` with how often each occurs, as `tiles` rows of one layer, in
 * ascending tile order. Byte grids (Teeworlds layers: hundreds of millions of cells over an
 * archive) count four at a time, 16-bit ones (Graal boards) in a table, wider ones (WWD planes) by
 * runs of one value.
 */
export function tileHistogram(cells: ArrayLike<number>, layer: number, kind: string): TileRow[] {
  const rows: TileRow[] = [];
  if (cells instanceof Uint8Array) {
    const counts = byteCounts(cells);
    for (let t = 0; t < 256; t++) if (counts[t]) rows.push({ layer, kind, tile: t, count: counts[t]! });
    return rows;
  }
  if (cells instanceof Uint16Array) {
    // Graal boards: values vary cell to cell, so runs are short; a table of every 16-bit value
    // counts them, and only the values met are read back (and cleared) afterwards.
    const seen: number[] = [];
    for (let i = 0; i < cells.length; i++) {
      const t = cells[i]!;
      if (WORD_COUNTS[t]!++ === 0) seen.push(t);
    }
    seen.sort((a, b) => a - b);
    for (const t of seen) {
      rows.push({ layer, kind, tile: t, count: WORD_COUNTS[t]! });
      WORD_COUNTS[t] = 0;
    }
    return rows;
  }
  // Planes are mostly long runs of one value (empty space): one map update per run, not per cell.
  const counts = new Map<number, number>();
  let i = 0;
  while (i < cells.length) {
    const t = cells[i]!;
    let j = i + 1;
    while (j < cells.length && cells[j] === t) j++;
    counts.set(t, (counts.get(t) ?? 0) + (j - i));
    i = j;
  }
  for (const t of [...counts.keys()].sort((a, b) => a - b)) rows.push({ layer, kind, tile: t, count: counts.get(t)! });
  return rows;
}

/**
 * How often each byte value occurs in `cells`. Read a word at a time into four tables (so
 * consecutive increments do not wait on each other), and an all-zero word — most of a map is
 * empty — costs one compare.
 */
export function byteCounts(cells: Uint8Array): Uint32Array {
  const c0 = new Uint32Array(256);
  const c1 = new Uint32Array(256);
  const c2 = new Uint32Array(256);
  const c3 = new Uint32Array(256);
  let i = 0;
  while (i < cells.length && (cells.byteOffset + i) & 3) c0[cells[i++]!]!++;
  // A short array may end before an aligned byte: then there is no word to read.
  const words = (cells.byteOffset + i) & 3 ? 0 : (cells.length - i) >> 2;
  const w = new Uint32Array(cells.buffer, cells.byteOffset + i - ((cells.byteOffset + i) & 3), words);
  let zeroWords = 0;
  for (let k = 0; k < words; k++) {
    const v = w[k]!;
    if (v === 0) {
      zeroWords++;
      continue;
    }
    c0[v & 0xff]!++;
    c1[(v >>> 8) & 0xff]!++;
    c2[(v >>> 16) & 0xff]!++;
    c3[v >>> 24]!++;
  }
  for (i += words << 2; i < cells.length; i++) c0[cells[i]!]!++;
  for (let t = 0; t < 256; t++) c0[t]! += c1[t]! + c2[t]! + c3[t]!;
  c0[0]! += zeroWords * 4;
  return c0;
}

/** A level row with every field null but those given. */
export function levelRow(fields: Partial<LevelRow>): LevelRow {
  return { name: null, title: null, author: null, flavour: null, game: null, width: null, height: null, ...fields };
}

/** An object row with every optional column null but those given. */
export function objectRow(fields: Pick<ObjectRow, 'kind' | 'index'> & Partial<ObjectRow>): ObjectRow {
  return { layer: null, name: null, logic: null, image: null, x: null, y: null, width: null, height: null, target: null, fields: null, ...fields };
}

/** indexRows() of a value decoded with `sections: 'summary'` (its grids and objects were never read). */
export function notIndexable(format: string): TypeError {
  return new TypeError(`levelkit: ${format} indexRows() needs a full decode (sections: 'all'); this value was decoded with sections: 'summary'`);
}
