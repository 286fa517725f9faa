// DDNet release rules a tester checks by hand before a race map goes live, where a machine can
// check them: time checkpoints, more than one spawn, external images players have, hook-through
// placed where it lets the hook through. They judge DDNet race maps only (maps with DDNet's own
// physics layers): a vanilla or mod map is not held to DDNet's release rules.

import type { teeworlds } from '../index.js';
import { ruleMaker } from './rule.js';
import * as T from './teeworlds-tiles.js';
import { cellAt, gameIndices, isRaceMap, layersOf, switchTypes } from './teeworlds-walk.js';

type TeeworldsMap = teeworlds.TeeworldsMap;

const rule = ruleMaker<TeeworldsMap>('teeworlds', 'tw');

/** A DDNet race map with a start line: what the release rules are written for. */
function isRace(map: TeeworldsMap): boolean {
  return map.flavour === 'ddnet' && isRaceMap(map) && (gameIndices(map).has(T.TILE_START) || switchTypes(map).has(T.TILE_START));
}

/** `sv_solo_server 1` in the map's settings: a solo map, which one spawn is enough for. */
function isSolo(map: TeeworldsMap): boolean {
  return (map.info?.settings ?? []).some((s) => /^\s*sv_solo_server\s+1\b/.test(s.text));
}

function gameLayer(map: TeeworldsMap): teeworlds.GameLayer | undefined {
  for (const { layer } of layersOf(map)) if (layer.kind === 'game') return layer;
  return undefined;
}

export const TEEWORLDS_RELEASE_RULES = [
  rule(
    'no-time-checkpoint',
    'note',
    'DDNet map rules: time checkpoints',
    'a race map without time checkpoints cannot show a player how their run compares with their best at each part',
    (map, report) => {
      if (!isRace(map)) return;
      const seen = gameIndices(map);
      for (let t = T.TIME_CHECKPOINT_FIRST; t <= T.TIME_CHECKPOINT_LAST; t++) if (seen.has(t)) return;
      report(`the race map has no time checkpoint (game or front tiles ${T.TIME_CHECKPOINT_FIRST}–${T.TIME_CHECKPOINT_LAST})`);
    },
  ),
  rule(
    'single-spawn',
    'note',
    'DDNet mapper rules: do not rely on a single spawn',
    'a team map with one spawn tile stacks every player on one spot at the start',
    (map, report) => {
      if (!isRace(map) || isSolo(map)) return;
      let count = 0;
      let at: { layer: number; x: number; y: number } | undefined;
      for (const { layer, index } of layersOf(map)) {
        if ((layer.kind !== 'game' && layer.kind !== 'front') || !layer.tiles) continue;
        const tiles = layer.tiles.index;
        for (let i = 0; i < tiles.length; i++)
          if (T.SPAWN_TILES.has(tiles[i]!)) {
            count++;
            at ??= { layer: index, ...cellAt(i, layer.width) };
          }
      }
      if (count === 1) report('the race map has a single spawn tile and no sv_solo_server 1 setting', at);
    },
  ),
  rule(
    'external-image',
    'warning',
    'DDNet mapper rules: no mistakenly external images (the editor marks them red)',
    'an external image that is not one of the images the game ships is missing on players’ machines: what uses it is not drawn',
    (map, report) => {
      if (!isRace(map)) return;
      map.images.forEach((img, i) => {
        if (img.external && !T.DDNET_SHIPPED_IMAGES.has(img.name.text))
          report(`image ${i} '${img.name.text}' is external but not an image DDNet ships; embed it`, { object: i });
      });
    },
  ),
  rule(
    'hookthrough-placement',
    'note',
    'twmap-check-ddnet: wrongly placed hook-through',
    'a hook-through tile lets the hook through only over a hookable or unhookable game tile; anywhere else it blocks the hook instead',
    (map, report) => {
      const game = gameLayer(map)?.tiles;
      if (!game) return;
      for (const { layer, index } of layersOf(map)) {
        if (layer.kind !== 'front' || !layer.tiles || layer.tiles.index.length !== game.index.length) continue;
        const front = layer.tiles.index;
        let count = 0;
        let first = -1;
        for (let i = 0; i < front.length; i++)
          if (front[i] === T.TILE_HOOKTHROUGH && !T.SOLID_TILES.has(game.index[i]!)) {
            if (first < 0) first = i;
            count++;
          }
        if (count > 0)
          report(`${count} hook-through tile${count === 1 ? '' : 's'} over no hookable or unhookable tile, which block the hook instead`, {
            layer: index,
            ...cellAt(first, layer.width),
          });
      }
    },
  ),
];
