// The layers of a Teeworlds map in file order, with the index the archive index uses for them
// (layers.layer: across groups), so every rule numbers layers the same way; and what several rules
// ask of them (the game tiles present, whether the map is a DDNet race map).
import type { teeworlds } from '../index.js';

type TeeworldsMap = teeworlds.TeeworldsMap;
type MapLayer = TeeworldsMap['groups'][number]['layers'][number];

export function* layersOf(map: TeeworldsMap): Generator<{ layer: MapLayer; index: number; group: number }> {
  let index = 0;
  for (let g = 0; g < map.groups.length; g++) for (const layer of map.groups[g]!.layers) yield { layer, index: index++, group: g };
}

/** The (x, y) of cell `i` in a grid `width` wide. */
export function cellAt(i: number, width: number): { x: number; y: number } {
  return { x: i % width, y: Math.floor(i / width) };
}

/** Every tile index of the game and front layers, for the spawn and race rules. */
export function gameIndices(map: TeeworldsMap): Set<number> {
  const seen = new Set<number>();
  for (const { layer } of layersOf(map)) if ((layer.kind === 'game' || layer.kind === 'front') && layer.tiles) for (const v of layer.tiles.index) seen.add(v);
  return seen;
}

/** Every tile type of the switch layers (start and finish lines may be switched). */
export function switchTypes(map: TeeworldsMap): Set<number> {
  const seen = new Set<number>();
  for (const { layer } of layersOf(map)) if (layer.kind === 'switch' && layer.switch) for (const v of layer.switch.type) seen.add(v);
  return seen;
}

/** A race map, as DDNet builds them: it has at least one of DDNet's own physics layers. */
export function isRaceMap(map: TeeworldsMap): boolean {
  for (const { layer } of layersOf(map))
    if (layer.kind === 'front' || layer.kind === 'tele' || layer.kind === 'speedup' || layer.kind === 'switch' || layer.kind === 'tune') return true;
  return false;
}
