// The layers of a Teeworlds map in file order, with the index the archive index uses for them
// (layers.layer: across groups), so every rule numbers layers the same way.
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
