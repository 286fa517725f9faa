// Objects of the open level for the objects panel and clicks on the picture, made in the worker:
// each marker tied to its table row (WWD objects, Graal links, NPCs, chests, signs, baddies), the
// place of every row on the picture, full records where a table cuts fields short (an NPC's
// script), a table of Teeworlds quads, and the envelopes' points for their curves.

import type { AnyDecoded, Marker, PreviewTable } from '../../src/index.js';
import { str } from '../../src/render/adapters.js';
import type { EnvelopeCurve, Place } from './types.js';

/** Quad points are 22.10 fixed point world pixels; a tile is 32 world pixels. */
const FIXED_TO_TILES = 1 / (1024 * 32);

/**
 * Adds what the inspector needs to `tables` and `markers` (both the worker's own copies, changed
 * in place) and returns the places of the rows that have one.
 */
export function objectsOf(value: AnyDecoded, tables: PreviewTable[], markers: Marker[]): Place[] {
  const places: Place[] = [];
  if (value.format === 'wwd') {
    let row = 0;
    value.planes.forEach((p, pi) => {
      const o = p.objects;
      const tw = p.tileWidth || 64;
      const th = p.tileHeight || 64;
      for (let i = 0; i < o.count; i++) {
        places.push({ table: 'objects', row: row + i, x: o.x[i]! / tw, y: o.y[i]! / th, w: 0, h: 0 });
        // The picture's markers are the main plane's objects, in order.
        if (pi === value.mainPlane && markers[i]?.kind === 'object') markers[i]!.ref = { table: 'objects', row: row + i };
      }
      row += o.count;
    });
  } else if ((value.format === 'graal' || value.format === 'graal-nw') && 'links' in value) {
    // Markers come in this order: links, NPCs, chests, signs, baddies.
    const lists: [string, { x: number; y: number; width?: number; height?: number }[]][] = [
      ['links', value.links],
      ['npcs', value.npcs],
      ['chests', value.chests],
      ['signs', value.signs],
      ['baddies', value.baddies],
    ];
    let k = 0;
    for (const [table, list] of lists)
      list.forEach((o, row) => {
        places.push({ table, row, x: o.x, y: o.y, w: o.width ?? 0, h: o.height ?? 0 });
        const m = markers[k++];
        if (m) m.ref = { table, row };
      });
    const npcs = tables.find((t) => t.name === 'npcs');
    if (npcs) npcs.records = value.npcs.map((n) => ({ x: n.x, y: n.y, image: str(n.image), script: str(n.script) }));
    const signs = tables.find((t) => t.name === 'signs');
    if (signs) signs.records = value.signs.map((s) => ({ x: s.x, y: s.y, text: s.text }));
  } else if (value.format === 'teeworlds') {
    const rows: (string | number)[][] = [];
    const records: Record<string, unknown>[] = [];
    value.groups.forEach((g, gi) =>
      g.layers.forEach((l, li) => {
        if (l.kind !== 'quads' || !l.quads) return;
        const q = l.quads;
        for (let i = 0; i < q.count; i++) {
          const xs = [0, 1, 2, 3].map((c) => q.points[i * 10 + c * 2]! * FIXED_TO_TILES - g.offsetX / 32);
          const ys = [0, 1, 2, 3].map((c) => q.points[i * 10 + c * 2 + 1]! * FIXED_TO_TILES - g.offsetY / 32);
          const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
          const colour = q.colors.slice(i * 16, i * 16 + 4).join(',');
          // A screen-fixed group (parallax 0: skies) has no place on the map to centre on or click.
          if (g.parallaxX || g.parallaxY) places.push({ table: 'quads', row: rows.length, x: x0, y: y0, w: x1 - x0, h: y1 - y0 });
          rows.push([`${gi}.${li}`, i, +x0.toFixed(2), +y0.toFixed(2), +(x1 - x0).toFixed(2), +(y1 - y0).toFixed(2), colour, q.posEnv[i]!, q.colorEnv[i]!]);
          records.push({
            layer: `${gi}.${li} ${str(l.name)}`,
            quad: i,
            group: `${str(g.name)} (parallax ${g.parallaxX}, ${g.parallaxY})`,
            image: l.image,
            'corners (tiles)': [0, 1, 2, 3].map((c) => `${xs[c]!.toFixed(2)}, ${ys[c]!.toFixed(2)}`),
            'pivot (tiles)': `${(q.points[i * 10 + 8]! * FIXED_TO_TILES).toFixed(2)}, ${(q.points[i * 10 + 9]! * FIXED_TO_TILES).toFixed(2)}`,
            'corner colours (rgba)': [0, 1, 2, 3].map((c) => q.colors.slice(i * 16 + c * 4, i * 16 + c * 4 + 4).join(',')),
            'texture coordinates': [0, 1, 2, 3].map((c) => `${q.texcoords[i * 8 + c * 2]! / 1024}, ${q.texcoords[i * 8 + c * 2 + 1]! / 1024}`),
            'position envelope': q.posEnv[i],
            'position envelope offset (ms)': q.posEnvOffset[i],
            'colour envelope': q.colorEnv[i],
            'colour envelope offset (ms)': q.colorEnvOffset[i],
          });
        }
      }),
    );
    if (rows.length) tables.push({ name: 'quads', columns: ['layer', '#', 'x', 'y', 'width', 'height', 'colour', 'pos env', 'colour env'], rows, records });
  }
  return places;
}

/** The envelopes of a Teeworlds map as curves (none for other formats). */
export function envelopesOf(value: AnyDecoded): EnvelopeCurve[] {
  if (value.format !== 'teeworlds') return [];
  return value.envelopes.map((e) => {
    const n = e.points.time.length;
    const channels = Math.max(1, Math.min(4, e.channels));
    return {
      name: str(e.name),
      channels: e.channels,
      time: Array.from(e.points.time),
      values: Array.from({ length: n }, (_, i) => Array.from(e.points.values.subarray(i * 4, i * 4 + channels), (v) => v / 1024)),
      curve: Array.from(e.points.curve),
    };
  });
}
