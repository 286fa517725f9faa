// Teeworlds `layers: 'lazy'` (README §Map): the warnings the eager decode gives while reading a
// grid's stream (NONZERO_TILE_SKIP) are known only once the grid is read. The map's `warnings` is
// then itself a lazy field, so that any reader of it (JSON.stringify, structuredClone, deep
// equality) sees the eager decode's list, in the eager decode's order, from the first access on.

import type { DecodeWarning } from '../../core/errors.js';
import { defineLazy } from '../../core/lazy.js';

/** The warnings of one deferred grid, and where the eager decode puts them in the map's list. */
export interface LateWarnings<C extends string> {
  /** How many warnings the decode had given when it reached this grid. */
  at: number;
  /** The grid's warnings: those of its read, or of a read made for them and not kept. */
  list: () => DecodeWarning<C>[];
}

/**
 * Makes `map.warnings` lazy: on first read, the warnings given at decode time with each deferred
 * grid's warnings inserted where it stood (`late` in decode order). Reading it inflates the grids
 * not read yet and keeps none of them; an error of a grid's stream comes out of the read.
 */
export function deferWarnings<C extends string>(map: { warnings: DecodeWarning<C>[] }, late: LateWarnings<C>[]): void {
  const early = map.warnings;
  defineLazy(map, 'warnings', () => {
    const out: DecodeWarning<C>[] = [];
    let k = 0;
    for (const { at, list } of late) {
      while (k < at) out.push(early[k++]!);
      out.push(...list());
    }
    while (k < early.length) out.push(early[k++]!);
    return out;
  });
}
