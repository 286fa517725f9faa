// Tile numbers of the DDNet game, front, tele and switch layers that the Teeworlds rules read
// (facts from DDNet's map format: src/game/mapitems.h).

/** Game-layer entities are 192 + entity number; spawns are entities 1–3 (spawn, red spawn, blue spawn). */
export const SPAWN_TILES: ReadonlySet<number> = new Set([192, 193, 194]);
export const TILE_START = 33;
export const TILE_FINISH = 34;
export const TILE_FREEZE = 9;
export const TILE_DEEP_FREEZE = 12;

/** Tele-layer types that send a tee to a TELEOUT of the same number (evil, weapon, hook, plain). */
export const TELE_ENTRIES: ReadonlySet<number> = new Set([10, 14, 15, 26]);
export const TELE_EXIT = 27;
/** Tele-layer checkpoint: a TELECHECK n sends later TELECHECKIN tiles to a TELECHECKOUT n. */
export const TELE_CHECK = 29;
export const TELE_CHECK_OUT = 30;

/** Switch-layer types that turn a switch number on or off (timed open/close, open, close). */
export const SWITCH_ACTIVATORS: ReadonlySet<number> = new Set([22, 23, 24, 25]);

/** Switch-layer types whose number is a count or a time, not a switch: jump (7), add time (79), subtract time (95). */
export const SWITCH_NUMBER_IS_COUNT: ReadonlySet<number> = new Set([7, 79, 95]);

/**
 * Game and front tiles below the entities (0–191) whose meaning depends on their rotation or
 * flip: the through tiles, the stoppers, the checkpoint and directional tiles (5, 6, 60–67).
 * Entities (≥ 192) use rotation for their direction, so they are never flagged.
 */
export function rotationMatters(index: number): boolean {
  return index === 5 || index === 6 || (index >= 60 && index <= 67) || index >= 192;
}

/** Tile flags XFLIP (1), YFLIP (2) and ROTATE (8); OPAQUE (4) is a rendering hint. */
export const ROTATION_FLAGS = 1 | 2 | 8;

/** Time checkpoints: game and front tiles 35–59 (DDNet's map rules require them on a race map). */
export const TIME_CHECKPOINT_FIRST = 35;
export const TIME_CHECKPOINT_LAST = 59;

/** Game tiles the hook and tees collide with: hookable (1) and unhookable (3). */
export const SOLID_TILES: ReadonlySet<number> = new Set([1, 3]);
/** Front-layer hook-through (66): over a solid game tile the hook passes; elsewhere it is a hook blocker. */
export const TILE_HOOKTHROUGH = 66;

/**
 * The images DDNet ships in its mapres folder, which a map may leave external (the editor's list
 * of images it offers to make external; any other external image shows red in its image list).
 */
export const DDNET_SHIPPED_IMAGES: ReadonlySet<string> = new Set([
  'bg_cloud1',
  'bg_cloud2',
  'bg_cloud3',
  'desert_doodads',
  'desert_main',
  'desert_mountains',
  'desert_mountains2',
  'desert_sun',
  'generic_deathtiles',
  'generic_unhookable',
  'grass_doodads',
  'grass_main',
  'jungle_background',
  'jungle_deathtiles',
  'jungle_doodads',
  'jungle_main',
  'jungle_midground',
  'jungle_unhookables',
  'moon',
  'mountains',
  'snow',
  'stars',
  'sun',
  'winter_doodads',
  'winter_main',
  'winter_mountains',
  'winter_mountains2',
  'winter_mountains3',
]);
