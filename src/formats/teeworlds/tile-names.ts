// What Teeworlds/DDNet physics tiles mean: the names of game- and front-layer tile indexes and of
// the tele, speedup, switch and tune layers' types (the same numbers), as the inspector's hover and
// `levelkit diff` show them (facts from DDNet's mapitems.h: tile indexes below 192, entities from
// ENTITY_OFFSET 191 up). Indexes not listed are named by number only. Exported by the main entry
// (`levelkit`), not the `levelkit/teeworlds` namespace (teeworlds.diff leaves meanings out): the
// table would weigh on every app that embeds it (test/bundle-size.test.ts), for names only a person reads.

import type { Change, DiffValue } from '../../diff/change.js';

const TILES: Record<number, string> = {
  1: 'solid (hookable)',
  2: 'death',
  3: 'unhookable',
  4: 'no laser',
  5: 'through cut',
  6: 'through',
  7: 'jump',
  9: 'freeze',
  10: 'tele in evil',
  11: 'unfreeze',
  12: 'deep freeze',
  13: 'deep unfreeze',
  14: 'tele in weapon',
  15: 'tele in hook',
  16: 'wall jump',
  17: 'endless hook on',
  18: 'endless hook off',
  19: 'hit on',
  20: 'hit off',
  21: 'solo on',
  22: 'solo off',
  23: 'switch timed close',
  24: 'switch open',
  25: 'switch close',
  26: 'tele in',
  27: 'tele out',
  28: 'speedup',
  29: 'tele checkpoint',
  30: 'tele checkpoint out',
  31: 'tele checkpoint in',
  32: 'refill jumps',
  33: 'start',
  34: 'finish',
  60: 'stopper',
  61: 'stopper (two ways)',
  62: 'stopper (all ways)',
  63: 'tele checkpoint in evil',
  64: 'checkpoint',
  65: 'checkpoint (fast)',
  66: 'through (all)',
  67: 'through (direction)',
  68: 'tune zone',
  71: 'old laser',
  72: 'collision off',
  73: 'endless hook',
  74: 'no hit',
  75: 'no player hook',
  76: 'unlock team',
  79: 'add time',
  88: 'collision on (end)',
  89: 'unlimited jumps off',
  90: 'jetpack off',
  91: 'player hook on (end)',
  95: 'subtract time',
  96: 'tele gun on',
  97: 'tele gun off',
  98: 'allow tele gun',
  99: 'allow blue tele gun',
  104: 'collision off (start)',
  105: 'unlimited jumps on',
  106: 'jetpack on',
  107: 'no player hook (start)',
  112: 'tele grenade on',
  113: 'tele grenade off',
  128: 'tele laser on',
  129: 'tele laser off',
  190: 'entities off (1)',
  191: 'entities off (2)',
};

/** Entities, by index minus ENTITY_OFFSET (191). */
const ENTITIES: Record<number, string> = {
  1: 'spawn',
  2: 'spawn (red)',
  3: 'spawn (blue)',
  4: 'flag stand (red)',
  5: 'flag stand (blue)',
  6: 'armor',
  7: 'health',
  8: 'shotgun',
  9: 'grenade',
  10: 'ninja',
  11: 'laser',
  12: 'laser (fast, clockwise)',
  13: 'laser (normal, clockwise)',
  14: 'laser (slow, clockwise)',
  15: 'laser (stopped)',
  16: 'laser (slow, counter-clockwise)',
  17: 'laser (normal, counter-clockwise)',
  18: 'laser (fast, counter-clockwise)',
  19: 'laser length short',
  20: 'laser length medium',
  21: 'laser length long',
  22: 'laser circling slow',
  23: 'laser circling normal',
  24: 'laser circling fast',
  25: 'laser oscillating slow',
  26: 'laser oscillating normal',
  27: 'laser oscillating fast',
  29: 'plasma (explodes)',
  30: 'plasma (freezes)',
  31: 'plasma',
  32: 'plasma (unfreezes)',
  33: 'crazy shotgun (explodes)',
  34: 'crazy shotgun',
  35: 'remove shotgun',
  36: 'remove grenade',
  37: 'remove ninja',
  38: 'remove laser',
  42: 'dragger (weak)',
  43: 'dragger (normal)',
  44: 'dragger (strong)',
  45: 'dragger through walls (weak)',
  46: 'dragger through walls (normal)',
  47: 'dragger through walls (strong)',
  49: 'door',
};

const ENTITY_OFFSET = 191;

/** On a switch layer, 22 (solo off elsewhere: mapitems.h gives both names the one number) opens a switch for a time. */
const SWITCH_TILES: Record<number, string> = { 22: 'switch timed open' };

/** The name of a game, front or physics tile index ('' for air); `layerKind` 'switch' for a switch layer's type. */
export function ddnetTileName(index: number, layerKind = 'game'): string {
  if (index === 0) return '';
  if (layerKind === 'switch' && SWITCH_TILES[index]) return SWITCH_TILES[index];
  if (index >= 35 && index <= 59) return `time checkpoint ${index - 35}`;
  if (index > ENTITY_OFFSET) return ENTITIES[index - ENTITY_OFFSET] ?? `entity ${index - ENTITY_OFFSET}`;
  return TILES[index] ?? `tile ${index}`;
}

/** Layers whose tiles mean something to the game, and the column that says what: `index` on game and front, `type` on the rest. */
const MEANING_COLUMN: Readonly<Record<string, string>> = { game: 'index', front: 'index', tele: 'type', speedup: 'type', switch: 'type', tune: 'type' };

/** What a tile of a physics layer means, `air` for none (`levelkit diff`: `air → unhookable`). */
export function tileMeaning(layerKind: string, index: number): string {
  return index === 0 ? 'air' : ddnetTileName(index, layerKind);
}

/**
 * A physics layer's tile change (teeworlds.diff's) with what its tiles mean, when the column that
 * says it changed: `{ index: 0 } → { index: 3 }` on the game layer is `air → unhookable`. Other
 * changes are returned as they are. Sets `fromMeaning`/`toMeaning` on `c` and returns it.
 */
export function withTileMeaning(c: Change): Change {
  const column = MEANING_COLUMN[c.layerKind!];
  if (!column) return c;
  const name = (v: DiffValue | undefined) => {
    const n = v !== null && typeof v === 'object' && !Array.isArray(v) ? v[column] : undefined;
    if (typeof n === 'number') return tileMeaning(c.layerKind!, n);
    return Array.isArray(n) ? n.map((k) => tileMeaning(c.layerKind!, Number(k))) : undefined;
  };
  const from = name(c.from);
  const to = name(c.to);
  if (from !== undefined) c.fromMeaning = from;
  if (to !== undefined) c.toMeaning = to;
  return c;
}
