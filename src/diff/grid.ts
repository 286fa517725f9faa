// Tile cells of two grids compared in one pass per column (typed arrays; no allocation while they
// agree), the changed cells then grouped into rectangles: runs of a row, extended downwards while the
// next row has the same run. One change per rectangle, not per cell.

import { type Change, type DiffValue, INLINE_ARRAY_MAX, type TooMany } from './change.js';

/** A grid column: one number per cell, row-major. */
export type CellColumn = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array;

/** A grid: its size and its columns by name (Teeworlds' `index` and `flags`, a tele layer's `number` and `type` …). */
export interface Grid {
  width: number;
  height: number;
  columns: Record<string, CellColumn>;
}

/** A rectangle of cells with how many of them changed. */
interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
  cells: number;
}

/**
 * `tile` changes between grids `a` and `b` over the part both cover (a resized layer's new cells
 * are its resize, reported by the caller). `from`/`to` is a cell's value (an object of columns when
 * the grid has several, with the columns that changed): one number when every changed cell of the
 * rectangle had it, else the rectangle's values row-major when it has at most INLINE_ARRAY_MAX cells.
 * Past that a side's values are too many different to list: that side leaves the column out (a
 * one-column grid's `from` or `to` is absent, never null, which would read as "removed") and
 * `tooMany[column][side]` says how many different values the changed cells had there.
 */
export function cellChanges(a: Grid, b: Grid, where: Omit<Change, 'kind'>): Change[] {
  const names = Object.keys(b.columns).filter((n) => Object.hasOwn(a.columns, n));
  const w = Math.min(a.width, b.width);
  const h = Math.min(a.height, b.height);
  if (w <= 0 || h <= 0 || names.length === 0) return [];
  const mask = changedMask(a, b, names, w, h);
  if (!mask) return [];
  const single = Object.keys(b.columns).length === 1;
  return rectangles(mask, w, h).map((r) => {
    const from: Record<string, DiffValue> = {};
    const to: Record<string, DiffValue> = {};
    const tooMany: Record<string, TooMany> = {};
    for (const n of names) {
      const va = a.columns[n]!;
      const vb = b.columns[n]!;
      if (!differsIn(va, vb, a.width, b.width, r)) continue;
      const sides = [
        ['from', rectValue(va, a.width, r, mask, w), from],
        ['to', rectValue(vb, b.width, r, mask, w), to],
      ] as const;
      for (const [side, v, out] of sides) {
        if ('distinct' in v) tooMany[n] = { ...tooMany[n], [side]: v.distinct };
        else out[n] = v.value;
      }
    }
    const change: Change = { kind: 'tile', ...where, ...r };
    if (single) {
      const only = names[0]!;
      if (Object.hasOwn(from, only)) change.from = from[only]!;
      if (Object.hasOwn(to, only)) change.to = to[only]!;
    } else {
      change.from = from;
      change.to = to;
    }
    if (Object.keys(tooMany).length) change.tooMany = tooMany;
    return change;
  });
}

/** 1 for each cell (of the w × h overlap) where any column differs; undefined when none does. */
function changedMask(a: Grid, b: Grid, names: string[], w: number, h: number): Uint8Array | undefined {
  let mask: Uint8Array | undefined;
  const sameShape = a.width === b.width && a.height === b.height;
  for (const n of names) {
    const x = a.columns[n]!;
    const y = b.columns[n]!;
    if (sameShape && x.BYTES_PER_ELEMENT === y.BYTES_PER_ELEMENT) {
      // Compared as bytes (one monomorphic loop for every column type), a differing byte mapped back to its cell.
      const size = x.BYTES_PER_ELEMENT;
      const len = Math.min(x.length, y.length, w * h) * size;
      const bx = bytesOf(x);
      const by = bytesOf(y);
      let i = firstDifferentByte(bx, by, 0, len);
      while (i < len) {
        const cell = Math.floor(i / size);
        mask ??= new Uint8Array(w * h);
        mask[cell] = 1;
        i = firstDifferentByte(bx, by, (cell + 1) * size, len);
      }
      continue;
    }
    for (let row = 0; row < h; row++) {
      const ra = row * a.width;
      const rb = row * b.width;
      for (let col = 0; col < w; col++) {
        if (x[ra + col] !== y[rb + col]) {
          mask ??= new Uint8Array(w * h);
          mask[row * w + col] = 1;
        }
      }
    }
  }
  return mask;
}

function bytesOf(c: CellColumn): Uint8Array {
  return new Uint8Array(c.buffer, c.byteOffset, c.byteLength);
}

/** The first index in [from, end) where the bytes differ, or `end`: four at a time where the two are aligned alike. */
function firstDifferentByte(x: Uint8Array, y: Uint8Array, from: number, end: number): number {
  let i = from;
  if ((x.byteOffset - y.byteOffset) % 4 === 0) {
    while (i < end && (x.byteOffset + i) % 4 !== 0) {
      if (x[i] !== y[i]) return i;
      i++;
    }
    const words = (end - i) >>> 2;
    if (words > 0) {
      const wx = new Uint32Array(x.buffer, x.byteOffset + i, words);
      const wy = new Uint32Array(y.buffer, y.byteOffset + i, words);
      let k = 0;
      while (k < words && wx[k] === wy[k]) k++;
      i += k * 4;
    }
  }
  while (i < end && x[i] === y[i]) i++;
  return i;
}

/** Row runs of set cells, merged with the run straight above when it spans the same columns. */
function rectangles(mask: Uint8Array, w: number, h: number): Rect[] {
  const rects: Rect[] = [];
  let open = new Map<number, Rect>();
  for (let y = 0; y < h; y++) {
    const next = new Map<number, Rect>();
    const row = y * w;
    // Searched within the row only: indexOf on the whole mask would scan every later row each time.
    const cells = mask.subarray(row, row + w);
    let x = cells.indexOf(1);
    while (x >= 0) {
      const x0 = x;
      while (x < w && mask[row + x]) x++;
      const above = open.get(x0);
      let r: Rect;
      if (above && above.w === x - x0 && above.y + above.h === y) {
        above.h++;
        above.cells += x - x0;
        r = above;
      } else {
        r = { x: x0, y, w: x - x0, h: 1, cells: x - x0 };
        rects.push(r);
      }
      next.set(x0, r);
      x = x < w ? cells.indexOf(1, x) : -1;
    }
    open = next;
  }
  return rects;
}

function differsIn(va: CellColumn, vb: CellColumn, wa: number, wb: number, r: Rect): boolean {
  for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) if (va[y * wa + x] !== vb[y * wb + x]) return true;
  return false;
}

/**
 * One value when every changed cell of `r` holds it; else the rectangle's values when small; else
 * how many different values its changed cells hold (too many to list).
 */
function rectValue(col: CellColumn, width: number, r: Rect, mask: Uint8Array, maskWidth: number): { value: DiffValue } | { distinct: number } {
  let first: number | undefined;
  let uniform = true;
  for (let y = r.y; y < r.y + r.h && uniform; y++)
    for (let x = r.x; x < r.x + r.w; x++) {
      if (!mask[y * maskWidth + x]) continue;
      const v = col[y * width + x]!;
      if (first === undefined) first = v;
      else if (v !== first) {
        uniform = false;
        break;
      }
    }
  if (uniform) return { value: first ?? null };
  if (r.w * r.h > INLINE_ARRAY_MAX) return { distinct: distinctValues(col, width, r, mask, maskWidth) };
  const out: number[] = [];
  for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) out.push(col[y * width + x]!);
  return { value: out };
}

/** How many different values the changed cells of `r` hold (one pass; rectangles never overlap, so all of them cost one pass of the grid). */
function distinctValues(col: CellColumn, width: number, r: Rect, mask: Uint8Array, maskWidth: number): number {
  const seen = new Set<number>();
  for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) if (mask[y * maskWidth + x]) seen.add(col[y * width + x]!);
  return seen.size;
}
