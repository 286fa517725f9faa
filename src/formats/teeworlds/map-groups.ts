// The groups of a Teeworlds map and the layers they list: quads and sounds layers here, tile
// layers in map-tile-layers.ts, layers of an unknown type kept as stored. README.md §Map.

import {
  GROUP,
  gatherInts,
  type IntColumns,
  type IntStruct,
  ITEM,
  LAYER,
  LAYER_TYPE,
  QUAD_STRUCT,
  QUADS,
  SHAPE_CIRCLE,
  SOUNDS,
  SOURCE_STRUCT,
  SOURCE_STRUCT_DEPRECATED,
  structInts,
} from './items.js';
import { EMPTY_TEXT, eachItem, need, type Reader, readOrClaim, text } from './map-reader.js';
import { decodeTileLayer } from './map-tile-layers.js';
import { unpackName } from './names.js';
import type { MapGroup, MapLayer, SoundSourceColumns } from './types.js';

export function decodeGroups(rd: Reader): MapGroup[] {
  const layerItems = rd.ofType(ITEM.LAYER);
  const owner = new Int32Array(layerItems.num).fill(-1);
  // A layer listed by two groups is decoded once and appears in each (the same object), as the
  // game draws it in each; the encoder writes such groups back over the same layer items.
  const decoded: MapLayer[] = new Array(layerItems.num);
  // Shared layers make the groups list more layers than there are items: bounded together, or
  // a small file of many groups each listing every layer would list them quadratically often.
  let listed = 0;
  const groups = eachItem(rd, ITEM.GROUP, (d, index, g): MapGroup => {
    const path = `groups[${g}]`;
    need(rd, d, index, GROUP.sizeByVersion[1]!, path);
    const version = d[GROUP.version]!;
    const start = d[GROUP.startLayer]!,
      num = d[GROUP.numLayers]!;
    if (start < 0 || num < 0 || start + num > layerItems.num)
      throw rd.fail('BAD_INDEX', index, `${path}.layers`, { expected: `layers within 0..${layerItems.num}`, actual: `${start}+${num}` });
    listed += num;
    if (listed > rd.ctx.limits.maxRecords)
      throw rd.fail('LIMIT_EXCEEDED', index, `${path}.layers`, {
        expected: `≤ ${rd.ctx.limits.maxRecords} layers listed by all groups (limits.maxRecords)`,
        actual: listed,
      });
    let shared = 0;
    for (let l = start; l < start + num; l++) {
      if (owner[l] === -1) owner[l] = g;
      else shared++;
    }
    // QUIRK: an MMOTee map's group 1 starts inside group 0's layers. DDNet's loader refuses
    // overlapping groups; the game that ships the map draws the shared layers in both.
    if (shared > 0)
      rd.ctx.warnings.warn(
        'SHARED_LAYERS',
        `${shared} of its layers are also listed by an earlier group; drawn in each`,
        rd.df.itemOffsets[index],
        `${path}.layers`,
      );
    const at = (k: number) => (version >= 2 && d.length > k ? d[k]! : 0);
    const group: MapGroup = {
      version,
      offsetX: d[GROUP.offsetX]!,
      offsetY: d[GROUP.offsetY]!,
      parallaxX: d[GROUP.parallaxX]!,
      parallaxY: d[GROUP.parallaxY]!,
      clipping: { enabled: at(GROUP.useClipping) !== 0, x: at(GROUP.clipX), y: at(GROUP.clipY), width: at(GROUP.clipW), height: at(GROUP.clipH) },
      name: version >= 3 && d.length >= GROUP.name + GROUP.nameInts ? text(unpackName(d, GROUP.name, GROUP.nameInts)) : EMPTY_TEXT(),
      layers: [],
    };
    for (let l = 0; l < num; l++) {
      const li = layerItems.start + start + l;
      decoded[start + l] ??= decodeLayer(rd, rd.data(li), li, `${path}.layers[${l}]`);
      group.layers.push(decoded[start + l]!);
    }
    return group;
  });
  const orphans = owner.reduce((n, o) => n + (o === -1 ? 1 : 0), 0);
  if (orphans > 0) rd.ctx.warnings.warn('UNGROUPED_LAYERS', `${orphans} layer item(s) belong to no group; dropped`, undefined, 'groups');
  return groups;
}

function decodeLayer(rd: Reader, d: Int32Array, index: number, path: string): MapLayer {
  need(rd, d, index, 3, path);
  const type = d[LAYER.type]!;
  const detail = (d[LAYER.flags]! & LAYER.FLAG_DETAIL) !== 0;
  switch (type) {
    case LAYER_TYPE.TILES:
      return decodeTileLayer(rd, d, index, path, detail);
    case LAYER_TYPE.QUADS: {
      need(rd, d, index, QUADS.image + 1, path);
      const version = d[QUADS.version]!;
      const name = version >= 2 && d.length >= QUADS.name + 3 ? text(unpackName(d, QUADS.name, 3)) : EMPTY_TEXT();
      const layer: MapLayer = { kind: 'quads', name, detail, quadsVersion: version, image: d[QUADS.image]! };
      const quads = readStructs(rd, d[QUADS.data]!, d[QUADS.numQuads]!, QUAD_STRUCT, index, `${path}.quads`);
      if (quads) layer.quads = quads;
      return layer;
    }
    case LAYER_TYPE.SOUNDS:
    case LAYER_TYPE.SOUNDS_DEPRECATED: {
      need(rd, d, index, SOUNDS.sound + 1, path);
      const deprecated = type === LAYER_TYPE.SOUNDS_DEPRECATED;
      const name = d.length >= SOUNDS.name + 3 ? text(unpackName(d, SOUNDS.name, 3)) : EMPTY_TEXT();
      const layer: MapLayer = { kind: 'sounds', name, detail, deprecated, soundsVersion: d[SOUNDS.version]!, sound: d[SOUNDS.sound]! };
      const n = d[SOUNDS.numSources]!,
        at = d[SOUNDS.data]!,
        where = `${path}.sources`;
      if (deprecated) {
        const old = readStructs(rd, at, n, SOURCE_STRUCT_DEPRECATED, index, where);
        if (old) layer.sources = upgradeSources(old);
      } else {
        const sources = readStructs(rd, at, n, SOURCE_STRUCT, index, where);
        if (sources) layer.sources = sources;
      }
      return layer;
    }
    default:
      return { kind: 'unknown', name: EMPTY_TEXT(), detail, layerType: type, data: d.slice(3) };
  }
}

/** `count` int structs from a data block, as columns plus `count`; undefined (after the same checks) in a summary decode. */
function readStructs<S extends IntStruct>(
  rd: Reader,
  dataIndex: number,
  count: number,
  s: S,
  index: number,
  path: string,
): ({ count: number } & IntColumns<S>) | undefined {
  const bytesEach = structInts(s) * 4;
  if (!Number.isInteger(count) || count < 0 || count > rd.ctx.limits.maxRecords)
    throw rd.fail('LIMIT_EXCEEDED', index, path, { expected: `0 ≤ count ≤ ${rd.ctx.limits.maxRecords}`, actual: count });
  // QUIRK: DDNet writes a 1-record dummy block for an empty layer; with count 0 nothing is read.
  if (count === 0) return { count: 0, ...gatherInts(new Uint8Array(0), 0, s) };
  const declared = rd.df.blocks[dataIndex]?.byteLength ?? -1;
  if (declared >= 0 && declared < count * bytesEach) throw rd.fail('CORRUPT', index, path, { expected: `≥ ${count * bytesEach} bytes`, actual: declared });
  const raw = readOrClaim(rd, dataIndex, path);
  return raw && { count, ...gatherInts(raw, count, s) };
}

/** Deprecated sound sources → current columns: pan on, no falloff, a circle of the old radius. */
function upgradeSources(old: { count: number } & IntColumns<typeof SOURCE_STRUCT_DEPRECATED>): SoundSourceColumns {
  const n = old.count;
  const shape = new Int32Array(n * 3);
  for (let i = 0; i < n; i++) {
    shape[i * 3] = SHAPE_CIRCLE;
    shape[i * 3 + 1] = old.radius[i]!;
  }
  const { radius: _r, ...rest } = old;
  return { ...rest, pan: new Int32Array(n).fill(1), falloff: new Int32Array(n), shape };
}
