// The real Teeworlds/DDNet maps the rule tests plant defects in, and the ways they change them
// (through the library: decode, change, encode, decode).
import type { teeworlds } from '../../src/index.js';
import { load, written } from './plant.js';

export type TwMap = teeworlds.TeeworldsMap;
export const DM1 = 'teeworlds__teeworlds-maps/dm1@149e0b54.map';
const COVERAGE = 'ddnet__ddnet/data__maps__coverage@edfd8ab7.map';

export function changed(map: TwMap, change: (m: TwMap) => void): TwMap {
  const copy = structuredClone(map);
  change(copy);
  return written(copy);
}

export function gameLayer(map: TwMap): teeworlds.GameLayer {
  for (const g of map.groups) for (const l of g.layers) if (l.kind === 'game') return l;
  throw new Error('no game layer');
}

export function layerOf<K extends teeworlds.MapLayer['kind']>(map: TwMap, kind: K): Extract<teeworlds.MapLayer, { kind: K }> {
  for (const g of map.groups) for (const l of g.layers) if (l.kind === kind) return l as Extract<teeworlds.MapLayer, { kind: K }>;
  throw new Error(`no ${kind} layer`);
}

/**
 * DDNet's coverage map with its own two loose ends tied (checkpoint 3 gets a checkpoint exit,
 * switch 4 an activator), through the library, so the tele and switch rules start from a clean map.
 */
export function cleanCoverage(dir: string): TwMap {
  return changed(load<TwMap>(`${dir}/${COVERAGE}`), (m) => {
    const tele = layerOf(m, 'tele').tele!;
    const free = tele.type.indexOf(0);
    tele.type[free] = 30;
    tele.number[free] = 3;
    const sw = layerOf(m, 'switch').switch!;
    const at = sw.type.indexOf(0);
    sw.type[at] = 24;
    sw.number[at] = 4;
  });
}
