// The Teeworlds encoder's check of groups and their layers (quads, sounds, unknown, opaque, tile
// and DDNet physics layers, grids kept as stored): each must read back as it is. Part of checkMap
// (map-check.ts).

import {
  GROUP,
  gridKey,
  type IntStruct,
  LAYER_TYPE,
  MOD_TILE_LAYERS,
  QUAD_STRUCT,
  SHAPE_CIRCLE,
  SOURCE_STRUCT,
  structInts,
  TILE_STRUCTS,
  TILEMAP,
  TILEMAP_BY_VERSION,
} from './items.js';
import { bool, column, describe, fail, int, list, MAX_BLOCK_BYTES, noName, object, packedName, textOf } from './map-check-values.js';
import { unpackName } from './names.js';
import { blockSlots, placeTileLayer } from './placement.js';
import type { MapGroup, MapLayer, OpaqueLayer, TileLayer } from './types.js';

/** Checks one group and its layers. */
export function checkGroup(g: MapGroup, path: string): void {
  object(g, path);
  const version = int(g.version, `${path}.version`);
  for (const f of ['offsetX', 'offsetY', 'parallaxX', 'parallaxY'] as const) int(g[f], `${path}.${f}`);
  const c = object(g.clipping, `${path}.clipping`);
  const enabled = bool(c.enabled, `${path}.clipping.enabled`);
  const box = ['x', 'y', 'width', 'height'].map((f) => int(c[f], `${path}.clipping.${f}`));
  // Clipping exists from group version 2 on, the name from 3 on: earlier versions read them as unset.
  if (version < 2 && (enabled || box.some((v) => v !== 0)))
    throw fail('BAD_VALUE', `${path}.clipping`, { expected: 'disabled and all 0 (group version < 2 has no clipping)' });
  if (version >= 3) packedName(g.name, GROUP.nameInts, `${path}.name`);
  else noName(g.name, `${path}.name`, 'group version < 3 has no name');
  const layers = list(g.layers, `${path}.layers`);
  layers.forEach((l, k) => checkLayer(l as MapLayer, `${path}.layers[${k}]`));
}

const GRID_KEYS = ['tiles', 'tele', 'speedup', 'switch', 'tune'] as const;

function checkLayer(l: MapLayer, path: string): void {
  const fields = object(l, path);
  bool(l.detail, `${path}.detail`);
  switch (l.kind) {
    case 'quads': {
      const version = int(l.quadsVersion, `${path}.quadsVersion`);
      int(l.image, `${path}.image`);
      if (version >= 2) packedName(l.name, 3, `${path}.name`);
      else noName(l.name, `${path}.name`, 'quads layer version < 2 has no name');
      checkStructs(l.quads, QUAD_STRUCT, `${path}.quads`);
      return;
    }
    case 'sounds': {
      int(l.soundsVersion, `${path}.soundsVersion`);
      int(l.sound, `${path}.sound`);
      packedName(l.name, 3, `${path}.name`);
      const s = checkStructs(l.sources, SOURCE_STRUCT, `${path}.sources`);
      if (bool(l.deprecated, `${path}.deprecated`)) {
        // The type-9 layer stores position, loop, delay and a radius: the rest reads back as
        // pan 1, falloff 0 and a circle, so only such sources can be written as type 9.
        for (let i = 0; i < s.count; i++) {
          const bad = s.pan[i] !== 1 ? 'pan' : s.falloff[i] !== 0 ? 'falloff' : s.shape[i * 3] !== SHAPE_CIRCLE || s.shape[i * 3 + 2] !== 0 ? 'shape' : null;
          if (bad)
            throw fail('BAD_VALUE', `${path}.sources.${bad}`, {
              expected: 'pan 1, falloff 0 and a circle (all a deprecated sound layer stores)',
              detail: `source ${i}`,
            });
        }
      }
      return;
    }
    case 'unknown': {
      const type = int(l.layerType, `${path}.layerType`);
      if (type === LAYER_TYPE.TILES || type === LAYER_TYPE.QUADS || type === LAYER_TYPE.SOUNDS || type === LAYER_TYPE.SOUNDS_DEPRECATED) {
        throw fail('BAD_VALUE', `${path}.layerType`, { expected: 'a type this decoder does not interpret', actual: type });
      }
      noName(l.name, `${path}.name`, 'an unknown layer stores no name');
      if (!(l.data instanceof Int32Array)) column(l.data, Int32Array, 0, `${path}.data`);
      if ((3 + l.data.length) * 4 > MAX_BLOCK_BYTES)
        throw fail('LIMIT_EXCEEDED', `${path}.data`, { expected: `≤ ${MAX_BLOCK_BYTES / 4 - 3} ints`, actual: l.data.length });
      return;
    }
    case 'opaque':
      checkOpaqueLayer(l, path);
      return;
    case 'tiles':
    case 'game':
    case 'front':
    case 'tele':
    case 'speedup':
    case 'switch':
    case 'tune':
    case 'infclassEntities':
    case 'infclassZones':
      checkTileLayer(l, fields, path);
      return;
    default:
      throw fail('BAD_VALUE', `${path}.kind`, { expected: 'a layer kind', actual: describe((l as { kind: unknown }).kind) });
  }
}

/**
 * An opaque layer is written as stored: its item ints (with the block slots re-pointed), so the
 * name and sizes it shows must be the item's own, and each block must sit in a slot that names one.
 */
function checkOpaqueLayer(l: OpaqueLayer, path: string): void {
  if (!(l.item instanceof Int32Array)) column(l.item, Int32Array, 0, `${path}.item`);
  if ((3 + l.item.length) * 4 > MAX_BLOCK_BYTES)
    throw fail('LIMIT_EXCEEDED', `${path}.item`, { expected: `≤ ${MAX_BLOCK_BYTES / 4 - 3} ints`, actual: l.item.length });
  const stored = (k: number) => l.item[k - 3] ?? 0;
  for (const [f, k] of [
    ['tilemapVersion', TILEMAP.version],
    ['width', TILEMAP.width],
    ['height', TILEMAP.height],
    ['flags', TILEMAP.flags],
  ] as const) {
    if (int(l[f], `${path}.${f}`) !== stored(k))
      throw fail('BAD_VALUE', `${path}.${f}`, { expected: `${stored(k)} (what the opaque layer's item stores; change the item)`, actual: l[f] });
  }
  const layout = TILEMAP_BY_VERSION[stored(TILEMAP.version)];
  const nameAt = layout && layout.name >= 0 && 3 + l.item.length >= layout.name + 3 ? layout.name : -1;
  if (nameAt < 0) noName(l.name, `${path}.name`, 'this opaque item stores no name');
  else {
    const stored = unpackName(l.item, nameAt - 3, 3);
    const given = textOf(l.name, `${path}.name`);
    if (given.length !== stored.length || given.some((b, k) => b !== stored[k]))
      throw fail('BAD_VALUE', `${path}.name`, { expected: "the name the opaque layer's item stores (change the item)" });
  }
  if (l.blocks === undefined)
    throw fail('BAD_VALUE', `${path}.blocks`, { expected: 'the blocks of the opaque layer', actual: "undefined (decoded with sections: 'summary'?)" });
  // Block slots are filled in by the encoder (−1 where no block goes): any other value would be lost.
  const header = new Int32Array(3 + l.item.length);
  header.set(l.item, 3);
  for (const k of blockSlots(header))
    if (header[k] !== -1) throw fail('BAD_VALUE', `${path}.item`, { expected: `−1 at int ${k - 3} (a block slot; blocks go in .blocks)`, actual: header[k]! });
  const slots = new Set<number>();
  list(l.blocks, `${path}.blocks`).forEach((b, k) => {
    const o = object(b, `${path}.blocks[${k}]`);
    const slot = int(o.slot, `${path}.blocks[${k}].slot`, 0, l.item.length - 1);
    const isSlot = slot + 3 === TILEMAP.data || (layout !== undefined && slot + 3 >= layout.ext && slot + 3 < layout.ext + 5);
    if (!isSlot || slots.has(slot))
      throw fail('BAD_VALUE', `${path}.blocks[${k}].slot`, { expected: 'the data or extension slot of the item, once each', actual: slot });
    slots.add(slot);
    if (!(o.bytes instanceof Uint8Array) || o.bytes.length === 0 || o.bytes.length > MAX_BLOCK_BYTES)
      throw fail('BAD_LENGTH', `${path}.blocks[${k}].bytes`, { expected: 'a non-empty Uint8Array (an empty block is unreadable)' });
  });
  // As written (its blocks at valid indices), the item must read back opaque, for the same reason.
  for (const slot of slots) header[slot + 3] = 0;
  const placed = placeTileLayer(header, 1);
  if (!('reason' in placed))
    throw fail('BAD_VALUE', `${path}.item`, { expected: 'an item no game or mod places (it would read back as a placed layer)', actual: placed.kind });
  if (l.reason !== placed.reason) throw fail('BAD_VALUE', `${path}.reason`, { expected: JSON.stringify(placed.reason), actual: describe(l.reason) });
}

/** `fields`: the same layer as a plain record, to see grids of other kinds that its type rules out. */
function checkTileLayer(l: TileLayer, fields: Record<string, unknown>, path: string): void {
  const version = int(l.tilemapVersion, `${path}.tilemapVersion`);
  const layout = TILEMAP_BY_VERSION[version];
  if (!layout) throw fail('OUT_OF_RANGE', `${path}.tilemapVersion`, { expected: '2, 3 or 4', actual: version });
  if (version >= 4 && l.kind !== 'tiles' && l.kind !== 'game')
    throw fail('BAD_VALUE', `${path}.tilemapVersion`, { expected: '2 or 3 (tile-skip compression is for tiles and game layers only)', actual: version });
  // A mod layer reads back as itself only in the item layout its mod writes.
  const mod = MOD_TILE_LAYERS.find((m) => m.kind === l.kind);
  if (mod && version !== mod.tilemapVersion)
    throw fail('BAD_VALUE', `${path}.tilemapVersion`, { expected: `${mod.tilemapVersion} (the layout ${mod.mod} writes)`, actual: version });
  const width = int(l.width, `${path}.width`, 1),
    height = int(l.height, `${path}.height`, 1);
  const cells = width * height;
  const struct = TILE_STRUCTS[gridKey(l.kind)];
  if (cells * struct.stride > MAX_BLOCK_BYTES)
    throw fail('LIMIT_EXCEEDED', `${path}.width`, { expected: `≤ ${Math.floor(MAX_BLOCK_BYTES / struct.stride)} cells`, actual: `${width} × ${height}` });
  const color = object(l.color, `${path}.color`);
  for (const f of ['r', 'g', 'b', 'a']) int(color[f], `${path}.color.${f}`);
  for (const f of ['colorEnv', 'colorEnvOffset', 'image'] as const) int(l[f], `${path}.${f}`);
  if (layout.name >= 0) packedName(l.name, 3, `${path}.name`);
  else noName(l.name, `${path}.name`, 'tilemap version 2 has no name');
  // The grid of its kind is required; another kind's grid would be dropped.
  const own = gridKey(l.kind);
  for (const key of GRID_KEYS) {
    if (key !== own && fields[key] !== undefined) throw fail('BAD_VALUE', `${path}.${key}`, { expected: `absent (a ${l.kind} layer stores only ${own})` });
  }
  const grid = fields[own];
  if (grid === undefined)
    throw fail('BAD_VALUE', `${path}.${own}`, { expected: `the ${own} columns`, actual: "undefined (decoded with sections: 'summary'?)" });
  const g = object(grid, `${path}.${own}`);
  switch (l.kind) {
    case 'tiles':
    case 'game':
    case 'front':
    case 'infclassEntities':
    case 'infclassZones':
      for (const f of ['index', 'flags']) column(g[f], Uint8Array, cells, `${path}.tiles.${f}`);
      break;
    case 'tele':
    case 'tune':
      for (const f of ['number', 'type']) column(g[f], Uint8Array, cells, `${path}.${own}.${f}`);
      break;
    case 'switch':
      for (const f of ['number', 'type', 'flags', 'delay']) column(g[f], Uint8Array, cells, `${path}.switch.${f}`);
      break;
    case 'speedup':
      for (const f of ['force', 'maxSpeed', 'type']) column(g[f], Uint8Array, cells, `${path}.speedup.${f}`);
      column(g.angle, Int16Array, cells, `${path}.speedup.angle`);
  }
  if (l.ignoredGrid !== undefined) checkIgnoredGrid(l, g, cells * struct.stride, `${path}.ignoredGrid`);
}

/**
 * A grid kept as stored because DDNet ignores it (map-tile-layers.ts ignoreGrid) reads back as itself only
 * while it is still too short to be read, on a kind DDNet ignores that way, and while the grid it
 * decodes to (all empty) is unchanged: values set in the grid would not be what is written.
 */
function checkIgnoredGrid(l: TileLayer, grid: Record<string, unknown>, full: number, path: string): void {
  if (l.kind !== 'tele' && l.kind !== 'speedup' && l.kind !== 'switch' && l.kind !== 'tune')
    throw fail('BAD_VALUE', path, { expected: 'absent (only tele, speedup, switch and tune grids are ignored when short)' });
  if (l.tilemapVersion >= 4) throw fail('BAD_VALUE', path, { expected: 'absent (tilemap version 4 has no physics grids)' });
  if (!(l.ignoredGrid instanceof Uint8Array)) throw fail('BAD_VALUE', path, { expected: 'Uint8Array', actual: describe(l.ignoredGrid) });
  if (l.ignoredGrid.length === 0 || l.ignoredGrid.length >= full)
    throw fail('BAD_LENGTH', path, { expected: `1..${full - 1} bytes (shorter than the grid, as DDNet ignores it)`, actual: l.ignoredGrid.length });
  for (const [f, col] of Object.entries(grid)) {
    if ((col as ArrayLike<number>).length > 0 && Array.prototype.some.call(col, (v: number) => v !== 0))
      throw fail('BAD_VALUE', `${path.slice(0, -'.ignoredGrid'.length)}.${gridKey(l.kind)}.${f}`, {
        expected: 'all 0 while ignoredGrid is kept (delete ignoredGrid to write the grid)',
      });
  }
}

/** Int-struct columns: `count` records, each column `count × width` long. */
function checkStructs<S extends IntStruct>(v: unknown, s: S, path: string): { count: number } & { [K in S[number][0]]: Int32Array } {
  if (v === undefined) throw fail('BAD_VALUE', path, { expected: 'the columns', actual: "undefined (decoded with sections: 'summary'?)" });
  const o = object(v, path);
  const count = int(o.count, `${path}.count`, 0);
  const bytes = Math.max(count, 1) * structInts(s) * 4;
  if (bytes > MAX_BLOCK_BYTES)
    throw fail('LIMIT_EXCEEDED', `${path}.count`, { expected: `≤ ${Math.floor(MAX_BLOCK_BYTES / (structInts(s) * 4))}`, actual: count });
  for (const [name, w] of s) column(o[name], Int32Array, count * w, `${path}.${name}`);
  return o as { count: number } & { [K in S[number][0]]: Int32Array };
}
