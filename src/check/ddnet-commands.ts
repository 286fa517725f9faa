// The commands DDNet runs from a map's settings (the editor's "Server settings"). The server
// executes map settings with the game flag only, so this is every DDNet config variable marked
// CFGFLAG_GAME and the console commands registered with it. Written from DDNet's public sources
// (src/engine/shared/config_variables.h; the commands in src/game/server/gamecontext.cpp and the
// editor's list of map-settings commands); a mod's own settings (F-DDrace, KoG, …) are not DDNet's.

/** Console commands a map may run. */
const COMMANDS = ['tune', 'tune_zone', 'tune_zone_enter', 'tune_zone_leave', 'mapbug', 'switch_open'];

/** Config variables with CFGFLAG_GAME. */
const GAME_SETTINGS = [
  'sv_team',
  'sv_min_team_size',
  'sv_max_team_size',
  'sv_solo_server',
  'sv_old_laser',
  'sv_no_weak_hook',
  'sv_reset_pickups',
  'sv_show_others_default',
  'sv_plasma_range',
  'sv_plasma_per_sec',
  'sv_dragger_range',
  'sv_old_teleport_weapons',
  'sv_old_teleport_hook',
  'sv_teleport_hold_hook',
  'sv_teleport_lose_weapons',
  'sv_deepfly',
  'sv_destroy_bullets_on_death',
  'sv_destroy_lasers_on_death',
  'sv_hit',
  'sv_endless_drag',
];

export const DDNET_MAP_COMMANDS: ReadonlySet<string> = new Set([...COMMANDS, ...GAME_SETTINGS]);
