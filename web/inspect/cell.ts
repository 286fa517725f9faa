// What one cell of the open level holds in every layer, for the hover line: the tile index, its
// flags and rotation, and for DDNet physics layers the entity's name and numbers.

import { ddnetTileName } from '../../src/formats/teeworlds/tile-names.js';
import type { AnyDecoded } from '../../src/index.js';
import { str } from '../../src/render/adapters.js';
import type { CellInfo, CellLayer, GroupNode } from './types.js';

/** Teeworlds tile flags (DDNet's mapitems.h): mirror x, mirror y, opaque, rotate 90° clockwise. */
const XFLIP = 1;
const YFLIP = 2;
const ROTATE = 8;

/** Rotation and mirroring of a tile's flags, in words ('' for none). */
export function tileFlags(flags: number): string {
  let turn = flags & ROTATE ? 90 : 0;
  let x = !!(flags & XFLIP);
  let y = !!(flags & YFLIP);
  // Both mirrors are a half turn.
  if (x && y) {
    turn += 180;
    x = false;
    y = false;
  }
  return [turn ? `rotated ${turn}°` : '', x ? 'mirrored x' : '', y ? 'mirrored y' : ''].filter(Boolean).join(', ');
}

/** The contents of cell (x, y) in each layer of `tree` that has a grid there; undefined outside every grid. */
export function cellAt(value: AnyDecoded, tree: GroupNode[], x: number, y: number): CellInfo | undefined {
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0) return undefined;
  const layers: CellLayer[] = [];
  if (value.format === 'teeworlds') {
    value.groups.forEach((g, gi) =>
      g.layers.forEach((l, li) => {
        if (!('width' in l) || l.kind === 'opaque' || x >= l.width || y >= l.height) return;
        const node = tree[gi]?.layers[li];
        const at = y * l.width + x;
        const label = `${gi}.${li} ${node?.name ?? l.kind}`;
        const push = (index: number, text: string) => layers.push({ layer: label, render: node?.render ?? null, index, text });
        if (l.kind === 'tele') {
          const t = l.tele;
          if (t?.type[at]) push(t.type[at]!, `${ddnetTileName(t.type[at]!)}, number ${t.number[at]}`);
        } else if (l.kind === 'speedup') {
          const s = l.speedup;
          if (s?.type[at]) push(s.type[at]!, `${ddnetTileName(s.type[at]!)}, force ${s.force[at]}, max speed ${s.maxSpeed[at]}, angle ${s.angle[at]}°`);
        } else if (l.kind === 'switch') {
          const s = l.switch;
          if (s?.type[at])
            push(
              s.type[at]!,
              `${ddnetTileName(s.type[at]!, 'switch')}, number ${s.number[at]}, delay ${s.delay[at]}${s.flags[at] ? `, ${tileFlags(s.flags[at]!)}` : ''}`,
            );
        } else if (l.kind === 'tune') {
          const t = l.tune;
          if (t?.type[at]) push(t.type[at]!, `tune zone ${t.number[at]}`);
        } else if ('tiles' in l && l.tiles) {
          const index = l.tiles.index[at]!;
          if (!index) return;
          const flags = tileFlags(l.tiles.flags[at]!);
          const name = node?.physics ? ddnetTileName(index) : '';
          push(index, [name, flags].filter(Boolean).join(', '));
        }
      }),
    );
  } else if (value.format === 'wwd') {
    value.planes.forEach((p, i) => {
      if (x >= p.tilesWide || y >= p.tilesHigh || p.tiles.length !== p.tilesWide * p.tilesHigh) return;
      const v = p.tiles[y * p.tilesWide + x]!;
      const node = tree[0]?.layers[i];
      const set = v >>> 16;
      const text =
        v === 0xffffffff
          ? 'invisible'
          : v === 0xeeeeeeee
            ? 'filled'
            : `tile ${v & 0xffff}${set && p.imageSetNames[set] ? ` of image set ${str(p.imageSetNames[set])}` : ''}`;
      layers.push({ layer: node?.name ?? `plane ${i}`, render: node?.render ?? null, index: v, text });
    });
  } else if ((value.format === 'graal' || value.format === 'graal-nw') && 'layers' in value) {
    if (x >= 64 || y >= 64) return undefined;
    value.layers.forEach((l, i) => {
      const v = l.tiles[y * 64 + x]!;
      if (v === 0xffff) return;
      // The classic tileset is 128 × 32 tiles of 16 px, in blocks of 16 × 32.
      const tx = (v % 16) + Math.floor(v / 512) * 16;
      const ty = Math.floor(v / 16) % 32;
      layers.push({ layer: `layer ${l.index}`, render: tree[0]?.layers[i]?.render ?? i, index: v, text: `tileset cell ${tx}, ${ty}` });
    });
  } else return undefined;
  return { x, y, layers };
}
