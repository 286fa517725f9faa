// Teeworlds/DDNet diff of groups and layers: groups matched by name, layers across groups by kind
// and name (added, removed, moved, properties), then each matched layer's cells (every column of
// the physics layers: tele number, speedup force and angle, switch number and delay, tune zone),
// quads and sound sources. Every change of a layer or group carries its name as the editor lists
// it (`layerName`, `group`, `groupName`); what physics tiles mean is added by `levelkit diff`
// (tile-names.ts: withTileMeaning). Kinds are listed in src/diff/README.md.

import { appendAll, type Change, cellChanges, digestOf, fieldChangesAs, type Grid, matchSequence, plain, recordChanges } from '../../diff/index.js';
import { gridKey } from './items.js';
import type { MapGroup, MapLayer, QuadColumns, SoundSourceColumns, TeeworldsMap, TileLayer } from './types.js';

const TILE_LAYER_KINDS = new Set(['tiles', 'game', 'front', 'tele', 'speedup', 'switch', 'tune', 'infclassEntities', 'infclassZones']);

/** What the editor lists a layer as when it has no name: its type. */
const EDITOR_TYPE_NAMES: Readonly<Record<string, string>> = {
  tiles: 'Tiles',
  game: 'Game',
  front: 'Front',
  tele: 'Tele',
  speedup: 'Speedup',
  switch: 'Switch',
  tune: 'Tune',
  quads: 'Quads',
  sounds: 'Sounds',
};

/** Where a layer is, as a change says it: its index across groups, kind, name, group and group name. */
type LayerWhere = Pick<Change, 'layer' | 'layerKind' | 'layerName' | 'group' | 'groupName'> & { layerKind: string };

interface Placed {
  group: number;
  /** Index within its group. */
  index: number;
  layer: MapLayer;
}

/** Group and layer changes from `a` to `b`; a layer's index is its position across groups in file order. */
export function layerChanges(a: TeeworldsMap, b: TeeworldsMap): Change[] {
  const out: Change[] = [];
  const groups = matchSequence(a.groups.map(groupKey), b.groups.map(groupKey));
  const groupOf = new Map(groups.pairs);
  const groupWhere = (groups: MapGroup[], g: number) => ({ id: g, group: g, groupName: groupName(groups, g) });
  for (const [i, j] of groups.pairs)
    appendAll(out, fieldChangesAs('group-changed', groupWhere(b.groups, j), groupFields(a.groups[i]!), groupFields(b.groups[j]!)));
  for (const i of groups.removed) out.push({ kind: 'group-removed', ...groupWhere(a.groups, i), from: plain(groupFields(a.groups[i]!)) });
  for (const j of groups.added) out.push({ kind: 'group-added', ...groupWhere(b.groups, j), to: plain(groupFields(b.groups[j]!)) });

  const la = placed(a.groups);
  const lb = placed(b.groups);
  const layers = matchSequence(la.map(layerKey), lb.map(layerKey));
  for (const [i, j] of layers.pairs) {
    const x = la[i]!;
    const y = lb[j]!;
    const where = layerWhere(b.groups, lb, j);
    if (layers.moved.has(j) || groupOf.get(x.group) !== y.group)
      out.push({ kind: 'layer-moved', ...where, from: { layer: i, group: x.group, index: x.index }, to: { layer: j, group: y.group, index: y.index } });
    appendAll(out, sameLayerChanges(x.layer, y.layer, where));
  }
  for (const i of layers.removed) out.push({ kind: 'layer-removed', ...layerWhere(a.groups, la, i), from: plain(layerFields(la[i]!.layer)) });
  for (const j of layers.added) out.push({ kind: 'layer-added', ...layerWhere(b.groups, lb, j), to: plain(layerFields(lb[j]!.layer)) });
  return out;
}

/** A group as the editor lists it: `#1 Game` (its index, then its name). */
function groupName(groups: MapGroup[], g: number): string {
  return `#${g} ${groups[g]!.name.text}`.trimEnd();
}

function layerWhere(groups: MapGroup[], placedLayers: Placed[], at: number): LayerWhere {
  const p = placedLayers[at]!;
  const kind = p.layer.kind;
  return { layer: at, layerKind: kind, layerName: p.layer.name.text || EDITOR_TYPE_NAMES[kind] || kind, group: p.group, groupName: groupName(groups, p.group) };
}

function groupKey(g: MapGroup) {
  return { key: g.name.text, kind: 'group' };
}

function groupFields(g: MapGroup) {
  // Its layers are matched on their own, across groups.
  const { layers: _layers, ...rest } = g;
  return rest;
}

function placed(groups: MapGroup[]): Placed[] {
  return groups.flatMap((g, group) => g.layers.map((layer, index) => ({ group, index, layer })));
}

function layerKey(p: Placed) {
  return { key: `${p.layer.kind}\0${p.layer.name.text}`, kind: p.layer.kind };
}

/** The layer's properties (its grid, quads and sources compared apart; raw items and blocks by digest). */
function layerFields(l: MapLayer): Record<string, unknown> {
  const { tiles, tele, speedup, switch: sw, tune, quads, sources, data, item, blocks, ...rest } = l as MapLayer & Record<string, unknown>;
  const props: Record<string, unknown> = { ...rest };
  if (data instanceof Int32Array) props.data = digestOf(data);
  if (item instanceof Int32Array) props.item = digestOf(item);
  if (Array.isArray(blocks)) props.blocks = blocks.map((x: { slot: number; bytes: Uint8Array }) => `${x.slot}:${digestOf(x.bytes)}`);
  if (quads) props.quads = (quads as QuadColumns).count;
  if (sources) props.sources = (sources as SoundSourceColumns).count;
  return props;
}

function sameLayerChanges(x: MapLayer, y: MapLayer, where: LayerWhere): Change[] {
  const out = fieldChangesAs('layer-changed', where, layerFields(x), layerFields(y), ['quads', 'sources']);
  const ga = gridOf(x);
  const gb = gridOf(y);
  if (ga && gb) appendAll(out, cellChanges(ga, gb, where));
  if (x.kind === 'quads' && y.kind === 'quads') appendAll(out, recordChanges(quadRows(x.quads), quadRows(y.quads), { kind: 'quad', where, key: (_q, i) => i }));
  if (x.kind === 'sounds' && y.kind === 'sounds')
    appendAll(out, recordChanges(sourceRows(x.sources), sourceRows(y.sources), { kind: 'source', where, key: (_s, i) => i }));
  return out;
}

/** A tile layer's grid with every column it stores; undefined for other layers (or a grid not decoded). */
function gridOf(l: MapLayer): Grid | undefined {
  if (!TILE_LAYER_KINDS.has(l.kind)) return undefined;
  const t = l as TileLayer;
  const columns = (t as unknown as Record<string, Grid['columns'] | undefined>)[gridKey(t.kind)];
  return columns && { width: t.width, height: t.height, columns: { ...columns } };
}

function quadRows(q: QuadColumns | undefined) {
  if (!q) return [];
  return Array.from({ length: q.count }, (_, i) => ({
    points: Array.from(q.points.subarray(i * 10, i * 10 + 10)),
    colors: Array.from(q.colors.subarray(i * 16, i * 16 + 16)),
    texcoords: Array.from(q.texcoords.subarray(i * 8, i * 8 + 8)),
    posEnv: q.posEnv[i]!,
    posEnvOffset: q.posEnvOffset[i]!,
    colorEnv: q.colorEnv[i]!,
    colorEnvOffset: q.colorEnvOffset[i]!,
  }));
}

function sourceRows(s: SoundSourceColumns | undefined) {
  if (!s) return [];
  return Array.from({ length: s.count }, (_, i) => ({
    position: Array.from(s.position.subarray(i * 2, i * 2 + 2)),
    loop: s.loop[i]!,
    pan: s.pan[i]!,
    delay: s.delay[i]!,
    falloff: s.falloff[i]!,
    posEnv: s.posEnv[i]!,
    posEnvOffset: s.posEnvOffset[i]!,
    soundEnv: s.soundEnv[i]!,
    soundEnvOffset: s.soundEnvOffset[i]!,
    shape: Array.from(s.shape.subarray(i * 3, i * 3 + 3)),
  }));
}
