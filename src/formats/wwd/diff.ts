// WWD: what changed between two levels (`wwd.diff`, `levelkit diff`): header fields, planes (matched
// by name, and named in every change of theirs; properties and image sets), each plane's tile cells, its objects matched by id (each
// changed field), and the tile properties. Kinds are listed in src/diff/README.md.

import { appendAll, type Change, cellChanges, fieldChangesAs, matchSequence, plain, recordChanges } from '../../diff/index.js';
import { objectAt } from './objects.js';
import type { WwdLevel, WwdObject, WwdPlane, WwdTileProperty } from './types.js';

/** Stored counts and offsets the encoder recomputes: never a change of their own. */
const HEADER_SKIP = ['planeCount', 'planesOffset', 'tilePropertiesOffset'];
const PLANE_SKIP = ['tiles', 'objects', 'stats', 'imageSetCount', 'objectCount', 'tilesOffset', 'imageSetsOffset', 'objectsOffset'];
const OBJECT_SKIP = ['nameLength', 'logicLength', 'imageSetLength', 'animationLength'];

/** The changes from level `a` to level `b`; TypeError for a level decoded with `sections: 'summary'`. */
export function diff(a: WwdLevel, b: WwdLevel): Change[] {
  for (const l of [a, b]) if (l.sections !== 'all') throw new TypeError("levelkit wwd: diff needs full decodes (not sections: 'summary')");
  const out: Change[] = fieldChangesAs('header', {}, a.header, b.header, HEADER_SKIP);
  const key = (p: WwdPlane) => ({ key: p.name.text, kind: 'plane' });
  const planes = matchSequence(a.planes.map(key), b.planes.map(key));
  for (const [i, j] of planes.pairs) {
    const where = { layer: j, layerKind: 'plane', layerName: b.planes[j]!.name.text };
    const x = a.planes[i]!;
    const y = b.planes[j]!;
    if (planes.moved.has(j)) out.push({ kind: 'plane-moved', ...where, from: i, to: j });
    appendAll(out, fieldChangesAs('plane-changed', where, x, y, PLANE_SKIP));
    appendAll(out, cellChanges(grid(x), grid(y), where));
    out.push(
      ...recordChanges(objects(x), objects(y), {
        kind: 'object',
        where,
        key: (o) => o.id,
        skip: OBJECT_SKIP,
        at: (o) => ({ x: o.x, y: o.y }),
      }),
    );
  }
  for (const i of planes.removed)
    out.push({ kind: 'plane-removed', layer: i, layerKind: 'plane', layerName: a.planes[i]!.name.text, from: a.planes[i]!.name.text });
  for (const j of planes.added) out.push({ kind: 'plane-added', layer: j, layerKind: 'plane', layerName: b.planes[j]!.name.text, to: b.planes[j]!.name.text });
  appendAll(out, recordChanges(a.tileProperties, b.tileProperties, { kind: 'tile-property', key: (_t, i) => i, fields: tileProperty }));
  if (a.tail.length !== b.tail.length || a.tail.some((v, i) => v !== b.tail[i])) out.push({ kind: 'tail', from: plain(a.tail), to: plain(b.tail) });
  return out;
}

function grid(p: WwdPlane) {
  return { width: p.tilesWide, height: p.tilesHigh, columns: { tile: p.tiles } };
}

function objects(p: WwdPlane): WwdObject[] {
  return Array.from({ length: p.objects.count }, (_, i) => objectAt(p.objects, i));
}

function tileProperty(t: WwdTileProperty) {
  return t.type === 3 ? { ...t, mask: plain(t.mask) } : t;
}
