// The treasure placed in a WWD level per kind, as WapMap's statistics count it: objects whose image
// set is GAME_TREASURE_<KIND> (`GAME_TREASURE_COINS`, `GAME_TREASURE_RINGS_RED` …), not what crates
// and statues hold. A fact of the level (levelkit info's summary.treasure), not a problem to check.
import type { WwdObjectTable } from './types.js';

const TREASURE = /^GAME_TREASURE_(.+)$/;

/** Treasure objects per kind (lower-case, `coins`, `rings_red`), kinds in name order; `{}` when there is none. */
export function treasureTotals(tables: Iterable<WwdObjectTable>): Record<string, number> {
  const totals = new Map<string, number>();
  for (const table of tables)
    for (const set of table.imageSet) {
      const kind = TREASURE.exec(set.text)?.[1]?.toLowerCase();
      if (kind) totals.set(kind, (totals.get(kind) ?? 0) + 1);
    }
  // Without a prototype, as every dictionary of a summary: a kind named `__proto__` is a kind.
  const out: Record<string, number> = Object.create(null);
  for (const [kind, n] of [...totals].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) out[kind] = n;
  return out;
}
