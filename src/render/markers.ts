// The markers a preview puts on a level: WWD objects, Graal links, NPCs, chests, signs and
// baddies, .wdata boxes, Teeworlds spawns, flags and teleporters.

import { readUncached } from '../core/lazy.js';
import { type Any, isGraal, isTee, isWdata, isWwd, type Marker, str } from './preview-types.js';
import { wdataPlot } from './wdata.js';

/** Teeworlds entity tiles that get a marker (game layer index values). */
const TEE_ENTITIES: Record<number, string> = { 192: 'spawn', 193: 'spawn (red)', 194: 'spawn (blue)', 195: 'flag (red)', 196: 'flag (blue)' };
/** At most this many markers per level (a preview is not a table). */
export const MAX_MARKERS = 20_000;

/** Markers of `value`: WWD objects (main plane), Graal links/NPCs/chests/signs/baddies, Teeworlds spawns, flags and teleporters. */
export function markersOf(value: Any): Marker[] {
  const out: Marker[] = [];
  const push = (m: Marker) => {
    if (out.length < MAX_MARKERS) out.push(m);
  };
  if (isWwd(value)) {
    const plane = value.planes[value.mainPlane];
    if (!plane) return out;
    const o = plane.objects;
    const tw = plane.tileWidth || 64;
    const th = plane.tileHeight || 64;
    for (let i = 0; i < o.count; i++)
      push({
        kind: 'object',
        x: o.x[i]! / tw,
        y: o.y[i]! / th,
        w: 0,
        h: 0,
        label: `${str(o.logic[i]) || 'object'} #${o.id[i]}${str(o.name[i]) ? ` "${str(o.name[i])}"` : ''}`,
      });
  } else if (isGraal(value) && value.format !== 'graal-gmap') {
    for (const l of value.links)
      push({ kind: 'link', x: l.x, y: l.y, w: l.width, h: l.height, label: `link → ${str(l.level)} (${str(l.destX)}, ${str(l.destY)})` });
    for (const n of value.npcs) push({ kind: 'npc', x: n.x, y: n.y, w: 0, h: 0, label: `NPC${str(n.image) ? ` ${str(n.image)}` : ''}` });
    for (const c of value.chests) push({ kind: 'chest', x: c.x, y: c.y, w: 0, h: 0, label: `chest: ${str(c.item)}` });
    for (const s of value.signs) push({ kind: 'sign', x: s.x, y: s.y, w: 0, h: 0, label: `sign: ${str(s.text).slice(0, 80)}` });
    for (const b of value.baddies) push({ kind: 'baddy', x: b.x, y: b.y, w: 0, h: 0, label: `baddy type ${b.type}` });
  } else if (isWdata(value)) {
    for (const m of wdataPlot(value)?.markers ?? []) push(m);
  } else if (isTee(value)) {
    for (const g of value.groups)
      for (const l of g.layers) {
        // Lazy grids are read here without being kept (the game grid is usually read already, as the main grid).
        if (l.kind === 'game') {
          const idx = readUncached(l, 'tiles')?.index;
          for (let i = 0; idx && i < idx.length; i++) {
            const name = TEE_ENTITIES[idx[i]!];
            if (name) push({ kind: name.startsWith('spawn') ? 'spawn' : 'flag', x: i % l.width, y: Math.floor(i / l.width), w: 1, h: 1, label: name });
          }
        } else if (l.kind === 'tele') {
          const tele = readUncached(l, 'tele');
          for (let i = 0; tele && i < tele.number.length; i++) {
            if (tele.type[i])
              push({ kind: 'tele', x: i % l.width, y: Math.floor(i / l.width), w: 1, h: 1, label: `tele ${tele.number[i]} (type ${tele.type[i]})` });
          }
        }
      }
  }
  return out;
}
