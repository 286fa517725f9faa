// Helpers every format's indexRows() shares (define.ts has the row types): the histogram of a
// layer's tile values, and the one error for a value decoded too shallowly to be indexed.

import type { LevelRow, ObjectRow, TileRow } from './define.js';

/**
 * The distinct values of `cells` with how often each occurs, as `tiles` rows of one layer, in
 * ascending tile order. Byte grids count into a 256-slot table; wider ones into a Map (a Graal
 * board has 4,096 cells, a WWD plane rarely more than a few hundred thousand).
 */
export function tileHistogram(cells: ArrayLike<number>, layer: number, kind: string): TileRow[] {
  const rows: TileRow[] = [];
  if (cells instanceof Uint8Array) {
    const counts = new Uint32Array(256);
    for (let i = 0; i < cells.length; i++) counts[cells[i]!]!++;
    for (let t = 0; t < 256; t++) if (counts[t]) rows.push({ layer, kind, tile: t, count: counts[t]! });
    return rows;
  }
  const counts = new Map<number, number>();
  for (let i = 0; i < cells.length; i++) {
    const t = cells[i]!;
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  for (const t of [...counts.keys()].sort((a, b) => a - b)) rows.push({ layer, kind, tile: t, count: counts.get(t)! });
  return rows;
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
