// Helpers every format's writeRows() shares (define.ts has the row types): the histogram of a
// layer's tile values, indexRows() as writeRows() gathered, and the one error for a value decoded
// too shallowly to be indexed.

import type { ImageRow, LayerRow, LevelRow, LevelRows, ObjectRow, RowSink, TextRow, TileRow, WarningRow } from './define.js';

/** tileCounts' table for 16-bit grids: all zero between calls. */
const WORD_COUNTS = new Uint32Array(1 << 16);
/** tileCounts' output for byte and 16-bit grids, handed to the sink and overwritten by the next call. */
const SEEN_TILES = new Uint32Array(1 << 16);
const SEEN_COUNTS = new Uint32Array(1 << 16);

/**
 * The distinct values of `cells` with how often each occurs, as one `sink.tiles` call for the
 * layer, in ascending tile order (none for an empty grid). Byte grids (Teeworlds layers: hundreds
 * of millions of cells over an archive) count four at a time, 16-bit ones (Graal boards) in a
 * table, wider ones (WWD planes) by runs of one value.
 */
export function tileCounts(cells: ArrayLike<number>, layer: number, kind: string, sink: RowSink): void {
  if (cells instanceof Uint8Array) {
    histogramOf(byteCounts(cells), layer, kind, sink);
    return;
  }
  if (!(cells instanceof Uint16Array)) {
    histogramRows(runCounts(cells), layer, kind, sink);
    return;
  }
  // Graal boards: values vary cell to cell, so runs are short; a table of every 16-bit value
  // counts them, and only the values met are read back (and cleared) afterwards.
  let n = 0;
  for (let i = 0; i < cells.length; i++) {
    const t = cells[i]!;
    if (WORD_COUNTS[t]!++ === 0) SEEN_TILES[n++] = t;
  }
  SEEN_TILES.subarray(0, n).sort();
  for (let i = 0; i < n; i++) {
    const t = SEEN_TILES[i]!;
    SEEN_COUNTS[i] = WORD_COUNTS[t]!;
    WORD_COUNTS[t] = 0;
  }
  if (n) sink.tiles(layer, kind, SEEN_TILES.subarray(0, n), SEEN_COUNTS.subarray(0, n));
}

/** A histogram as one `sink.tiles` call for the layer (none when it is empty). */
export function histogramRows(h: Histogram, layer: number, kind: string, sink: RowSink): void {
  if (h.tiles.length) sink.tiles(layer, kind, h.tiles, h.counts);
}

/** The distinct values of a grid with how often each occurs, in ascending order of value. */
export interface Histogram {
  tiles: number[];
  counts: number[];
}

/**
 * tileCounts' histogram of a grid of wide values (WWD planes), as arrays. Planes are mostly long
 * runs of one value (empty space): one map update per run, not per cell.
 */
export function runCounts(cells: ArrayLike<number>): Histogram {
  const counts = new Map<number, number>();
  let i = 0;
  while (i < cells.length) {
    const t = cells[i]!;
    let j = i + 1;
    while (j < cells.length && cells[j] === t) j++;
    counts.set(t, (counts.get(t) ?? 0) + (j - i));
    i = j;
  }
  const tiles = [...counts.keys()].sort((a, b) => a - b);
  return { tiles, counts: tiles.map((t) => counts.get(t)!) };
}

/** A histogram of byte values (`counts[t]` cells hold t) as one `sink.tiles` call, the values present only. */
export function histogramOf(counts: Uint32Array, layer: number, kind: string, sink: RowSink): void {
  let n = 0;
  for (let t = 0; t < counts.length; t++)
    if (counts[t]) {
      SEEN_TILES[n] = t;
      SEEN_COUNTS[n++] = counts[t]!;
    }
  if (n) sink.tiles(layer, kind, SEEN_TILES.subarray(0, n), SEEN_COUNTS.subarray(0, n));
}

/** tileCounts() as rows. */
export function tileHistogram(cells: ArrayLike<number>, layer: number, kind: string): TileRow[] {
  return collectRows((sink) => {
    tileCounts(cells, layer, kind, sink);
    sink.level(levelRow({}));
  }).tiles;
}

/** indexRows(): a level's writeRows() gathered into arrays (each row a copy of what was written). */
export function collectRows(write: (sink: RowSink) => void): LevelRows {
  const layers: LayerRow[] = [];
  const tiles: TileRow[] = [];
  const objects: ObjectRow[] = [];
  const texts: TextRow[] = [];
  const images: ImageRow[] = [];
  const warnings: WarningRow[] = [];
  let level: LevelRow | undefined;
  write({
    layer: (r) => void layers.push({ ...r }),
    tiles: (layer, kind, ts, counts) => {
      for (let i = 0; i < ts.length; i++) tiles.push({ layer, kind, tile: ts[i]!, count: counts[i]! });
    },
    object: (r, fieldsJson) => void objects.push(fieldsJson === undefined ? { ...r } : { ...r, fields: JSON.parse(fieldsJson) }),
    text: (source, text, object) => void texts.push({ source, text, object: object ?? null }),
    // Spread would read a lazy map's `pixels` getter (inflating them): the row is kept as given.
    image: (r) => void images.push(r),
    warning: (code, message, offset) => void warnings.push({ code, message, offset }),
    level: (r) => {
      level = { ...r };
    },
  });
  if (!level) throw new Error('levelkit: writeRows() wrote no level row');
  return { level, layers, tiles, objects, texts, images, warnings };
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

/**
 * A level row with every field null but those given. An author or title the file leaves empty
 * (WWD's NUL-filled field, a GWC header's empty string, blanks) is null: absent, as in a format
 * that has no such field, so `author IS NULL` finds every level without one (issue 40).
 */
export function levelRow(fields: Partial<LevelRow>): LevelRow {
  const row = { name: null, title: null, author: null, flavour: null, game: null, width: null, height: null, ...fields };
  return { ...row, author: given(row.author), title: given(row.title) };
}

/** `text`, or null when it is missing or only blanks. */
function given(text: string | null): string | null {
  return text !== null && text.trim() !== '' ? text : null;
}

/** An object row with every optional column null but those given. */
export function objectRow(fields: Pick<ObjectRow, 'kind' | 'index'> & Partial<ObjectRow>): ObjectRow {
  return { layer: null, name: null, logic: null, image: null, x: null, y: null, width: null, height: null, target: null, fields: null, ...fields };
}

/** indexRows() of a value decoded with `sections: 'summary'` (its grids and objects were never read). */
export function notIndexable(format: string): TypeError {
  return new TypeError(`levelkit: ${format} indexRows() needs a full decode (sections: 'all'); this value was decoded with sections: 'summary'`);
}
