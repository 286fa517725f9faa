// Teeworlds / DDNet map encoder: a decoded map back to items and data blocks, then to a datafile
// (v4 by default). Each item is written in the layout of the version the map carries, so a DDNet
// map stays DDNet and a 0.7 map keeps its layouts and tile-skip compression. README.md §Encoder.

import { concatBytes } from '../../core/bytes.js';
import { encodeError } from '../../core/errors.js';
import { snapshot } from '../../core/snapshot.js';
import { type Text, textBytes } from '../../core/text.js';
import { ITEMTYPE_EX } from './datafile.js';
import { type DatafileWriteOptions, resolveWriteOptions, writeDatafile } from './datafile-write.js';
import {
  AUTOMAPPER,
  BEZIER_INTS,
  ENVELOPE,
  ENVPOINT,
  GROUP,
  IMAGE,
  INFO,
  type IntColumns,
  type IntStruct,
  ITEM,
  LAYER,
  LAYER_TYPE,
  MOD_TILE_LAYERS,
  PHYSICS,
  QUAD_STRUCT,
  QUADS,
  SOUNDS,
  SOURCE_STRUCT,
  SOURCE_STRUCT_DEPRECATED,
  scatterInts,
  structInts,
  TILE_STRUCTS,
  TILEMAP,
  TILEMAP_BY_VERSION,
} from './items.js';
import { checkMap } from './map-check.js';
import { packName } from './names.js';
import { blockSlots } from './placement.js';
import { placeGroupLayers } from './shared-layers.js';
import type { DatafileItem, MapEnvelope, MapLayer, TeeworldsMap, TileLayer } from './types.js';
import { UUID, uuidToInts } from './uuid.js';

export type EncodeOptions = DatafileWriteOptions;

/**
 * Encodes a map (decoded with `sections: 'all'`, or built by hand) to datafile bytes. The whole
 * map is checked first (map-check.ts): EncodeError, before anything is written, for any value that
 * would not decode back the same (a `sections: 'summary'` decode lacks its grids: BAD_VALUE).
 * TypeError/RangeError for bad options (`version` 3 or 4, `level` 0–9).
 */
export function encodeMap(model: TeeworldsMap, opts?: EncodeOptions): Uint8Array {
  // One read of the caller's map: what is validated is what is written (core/snapshot.ts).
  const map = snapshot(model);
  const options = resolveWriteOptions(opts);
  checkMap(map);
  if (map.legacy) return writeDatafile(map.legacy.items, map.legacy.data!, options);
  const out = new Builder();
  out.item(ITEM.VERSION, 0, [1]);
  if (map.info) {
    const i = map.info;
    const ints = [
      i.version,
      out.string(i.author, 'info.author'),
      out.string(i.mapVersion, 'info.mapVersion'),
      out.string(i.credits, 'info.credits'),
      out.string(i.license, 'info.license'),
    ];
    // [] is written as −1, as DDNet does: an empty block would be unreadable (inflated size 0).
    if (i.settings) ints[INFO.settings] = i.settings.length > 0 ? out.data(concatBytes(i.settings.map((s, k) => withNul(text(s, `info.settings[${k}]`))))) : -1;
    out.item(ITEM.INFO, 0, ints);
  }
  map.images.forEach((img, k) => {
    const d = new Int32Array(IMAGE.sizeByVersion[img.version] ?? (img.version >= 2 ? 7 : 6));
    d[IMAGE.version] = img.version;
    d[IMAGE.width] = img.width;
    d[IMAGE.height] = img.height;
    d[IMAGE.external] = img.external ? 1 : 0;
    d[IMAGE.name] = out.string(img.name, `images[${k}].name`);
    d[IMAGE.data] = img.external ? -1 : out.data(img.storedPixels ?? img.pixels!);
    if (img.version >= 2) d[IMAGE.format] = img.format!;
    out.item(ITEM.IMAGE, k, d);
  });
  encodeEnvelopes(out, map.envelopes);
  const placed = placeGroupLayers(map.groups);
  const written = new Set<MapLayer>();
  map.groups.forEach((g, k) => {
    const d = new Int32Array(GROUP.sizeByVersion[g.version] ?? 15);
    d[GROUP.version] = g.version;
    d[GROUP.offsetX] = g.offsetX;
    d[GROUP.offsetY] = g.offsetY;
    d[GROUP.parallaxX] = g.parallaxX;
    d[GROUP.parallaxY] = g.parallaxY;
    d[GROUP.startLayer] = placed.starts[k]!;
    d[GROUP.numLayers] = g.layers.length;
    if (d.length > GROUP.useClipping) {
      d[GROUP.useClipping] = g.clipping.enabled ? 1 : 0;
      d[GROUP.clipX] = g.clipping.x;
      d[GROUP.clipY] = g.clipping.y;
      d[GROUP.clipW] = g.clipping.width;
      d[GROUP.clipH] = g.clipping.height;
    }
    if (d.length >= GROUP.name + GROUP.nameInts) packName(text(g.name, `groups[${k}].name`), d, GROUP.name, GROUP.nameInts);
    out.item(ITEM.GROUP, k, d);
    // A layer an earlier group also lists was written with it (placeGroupLayers): once, its data too.
    g.layers.forEach((l, j) => {
      if (written.has(l)) return;
      written.add(l);
      out.item(ITEM.LAYER, written.size - 1, encodeLayer(out, l, `groups[${k}].layers[${j}]`));
    });
  });
  map.sounds.forEach((s, k) => {
    const data = s.external ? -1 : out.data(s.data!);
    out.item(ITEM.SOUND, k, [s.version, s.external ? 1 : 0, out.string(s.name, `sounds[${k}].name`), data, s.data?.length ?? 0]);
  });
  map.automapperConfigs.forEach((a, k) => {
    const d = new Int32Array(AUTOMAPPER.size);
    d[AUTOMAPPER.version] = a.version;
    d[AUTOMAPPER.group] = a.group;
    d[AUTOMAPPER.layer] = a.layer;
    d[AUTOMAPPER.config] = a.config;
    d[AUTOMAPPER.seed] = a.seed;
    d[AUTOMAPPER.flags] = a.flags;
    out.uuidItem(UUID.AUTOMAPPER_CONFIG, k, d);
  });
  for (const x of map.extraItems) {
    if (x.uuid) out.uuidItem(x.uuid, x.id, x.data);
    else out.item(x.typeId!, x.id, x.data);
  }
  return writeDatafile(out.finishItems(), out.blocks, options);
}

/** The bytes a (checked) text field stores: its raw bytes while its text is unchanged. */
function text(t: Text, path: string): Uint8Array {
  return textBytes(t, { format: 'teeworlds', path });
}

/** Collects items and data blocks; UUID types get internal ids from 0xfffe down. */
class Builder {
  readonly items: DatafileItem[] = [];
  readonly blocks: Uint8Array[] = [];
  private readonly uuidItems: { uuid: string; id: number; data: Int32Array }[] = [];

  item(typeId: number, id: number, data: ArrayLike<number>): void {
    this.items.push({ typeId, id, data: Int32Array.from(data) });
  }
  uuidItem(uuid: string, id: number, data: ArrayLike<number>): void {
    this.uuidItems.push({ uuid, id, data: Int32Array.from(data) });
  }
  /** Adds a block (never empty: checkMap refuses what would give one, which no reader could read back). */
  data(bytes: Uint8Array): number {
    this.blocks.push(bytes);
    return this.blocks.length - 1;
  }
  string(t: Text | null, path: string): number {
    return t ? this.data(withNul(text(t, path))) : -1;
  }
  finishItems(): DatafileItem[] {
    // Free ids from 0xfffe down, handed out lowest first so that ascending type order (the
    // writer's) keeps the UUID types in the order they were added.
    const used = new Set(this.items.map((i) => i.typeId));
    const distinct = [...new Set(this.uuidItems.map((u) => u.uuid))];
    const ids: number[] = [];
    for (let next = 0xfffe; ids.length < distinct.length && next > 0x8000; next--) if (!used.has(next)) ids.push(next);
    if (ids.length < distinct.length)
      throw encodeError('teeworlds', 'LIMIT_EXCEEDED', {
        path: 'extraItems',
        expected: `≤ ${ids.length} UUID item types beside the numeric ones`,
        actual: distinct.length,
      });
    ids.reverse();
    const typeOf = new Map(distinct.map((u, k) => [u, ids[k]!]));
    for (const [uuid, typeId] of typeOf) this.items.push({ typeId: ITEMTYPE_EX, id: typeId, data: uuidToInts(uuid) });
    for (const u of this.uuidItems) this.items.push({ typeId: typeOf.get(u.uuid)!, id: u.id, data: u.data });
    return this.items;
  }
}

function withNul(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length + 1);
  out.set(b);
  return out;
}

function encodeEnvelopes(out: Builder, envs: MapEnvelope[]): void {
  if (envs.length === 0) return;
  const inline = envs.some((e) => e.version >= 3);
  const pointInts = inline ? ENVPOINT.intsWithBezier : ENVPOINT.ints;
  const total = envs.reduce((n, e) => n + e.points.time.length, 0);
  const pts = new Int32Array(total * pointInts);
  const ddnetBezier = !inline && envs.some((e) => e.points.bezier) ? new Int32Array(total * BEZIER_INTS) : null;
  let start = 0;
  envs.forEach((e, k) => {
    const p = e.points;
    const n = p.time.length;
    for (let i = 0; i < n; i++) {
      const at = (start + i) * pointInts;
      pts[at + ENVPOINT.time] = p.time[i]!;
      pts[at + ENVPOINT.curve] = p.curve[i]!;
      for (let c = 0; c < 4; c++) pts[at + ENVPOINT.values + c] = p.values[i * 4 + c]!;
      const b = p.bezier;
      if (!b) continue;
      const [dst, base] = inline ? [pts, at + ENVPOINT.bezier] : [ddnetBezier!, (start + i) * BEZIER_INTS];
      [b.inDx, b.inDy, b.outDx, b.outDy].forEach((col, t) => {
        for (let c = 0; c < 4; c++) dst[base + t * 4 + c] = col[i * 4 + c]!;
      });
    }
    const d = new Int32Array(ENVELOPE.sizeByVersion[e.version] ?? 13);
    d[ENVELOPE.version] = e.version;
    d[ENVELOPE.channels] = e.channels;
    d[ENVELOPE.startPoint] = start;
    d[ENVELOPE.numPoints] = n;
    packName(text(e.name, `envelopes[${k}].name`), d, ENVELOPE.name, ENVELOPE.nameInts);
    if (d.length > ENVELOPE.synchronized) d[ENVELOPE.synchronized] = e.synchronized ? 1 : 0;
    out.item(ITEM.ENVELOPE, k, d);
    start += n;
  });
  out.item(ITEM.ENVPOINTS, 0, pts);
  if (ddnetBezier) out.uuidItem(UUID.ENVPOINTS_BEZIER, 0, ddnetBezier);
}

function layerHeader(type: number, l: Pick<MapLayer, 'detail'>, size: number): Int32Array {
  const d = new Int32Array(size);
  d[LAYER.version] = 0; // unused by every reader; DDNet forces 0
  d[LAYER.type] = type;
  d[LAYER.flags] = l.detail ? LAYER.FLAG_DETAIL : 0;
  return d;
}

function encodeLayer(out: Builder, l: MapLayer, path: string): Int32Array {
  switch (l.kind) {
    case 'quads': {
      const d = layerHeader(LAYER_TYPE.QUADS, l, QUADS.sizeByVersion[l.quadsVersion] ?? 10);
      const q = l.quads!;
      d[QUADS.version] = l.quadsVersion;
      d[QUADS.numQuads] = q.count;
      d[QUADS.image] = l.image;
      d[QUADS.data] = out.data(structBlock(q, q.count, QUAD_STRUCT));
      if (d.length >= QUADS.name + 3) packName(text(l.name, `${path}.name`), d, QUADS.name, 3);
      return d;
    }
    case 'sounds': {
      const d = layerHeader(l.deprecated ? LAYER_TYPE.SOUNDS_DEPRECATED : LAYER_TYPE.SOUNDS, l, SOUNDS.size);
      const s = l.sources!;
      d[SOUNDS.version] = l.soundsVersion;
      d[SOUNDS.numSources] = s.count;
      d[SOUNDS.sound] = l.sound;
      d[SOUNDS.data] = out.data(
        l.deprecated
          ? structBlock({ ...s, radius: Int32Array.from({ length: s.count }, (_, i) => s.shape[i * 3 + 1]!) }, s.count, SOURCE_STRUCT_DEPRECATED)
          : structBlock(s, s.count, SOURCE_STRUCT),
      );
      packName(text(l.name, `${path}.name`), d, SOUNDS.name, 3);
      return d;
    }
    case 'unknown': {
      const d = layerHeader(l.layerType, l, 3 + l.data.length);
      d.set(l.data, 3);
      return d;
    }
    case 'opaque': {
      // As stored, except the block slots: those it read point at the blocks written now, the
      // rest (indices that named no readable block) become −1 so they cannot name another's block.
      const d = layerHeader(LAYER_TYPE.TILES, l, 3 + l.item.length);
      d.set(l.item, 3);
      for (const slot of blockSlots(d)) d[slot] = -1;
      for (const b of l.blocks!) d[b.slot + 3] = out.data(b.bytes);
      return d;
    }
    default:
      return encodeTileLayer(out, l, path);
  }
}

/** Int structs back to a block; an empty table still gets one zeroed record, as DDNet writes. */
function structBlock<S extends IntStruct>(cols: IntColumns<S>, count: number, s: S): Uint8Array {
  return count === 0 ? new Uint8Array(structInts(s) * 4) : scatterInts(cols, count, s);
}

function encodeTileLayer(out: Builder, l: TileLayer, path: string): Int32Array {
  const layout = TILEMAP_BY_VERSION[l.tilemapVersion]!;
  const mod = MOD_TILE_LAYERS.find((m) => m.kind === l.kind);
  if (mod && (l.kind === 'infclassEntities' || l.kind === 'infclassZones')) {
    // The mod's own layout: the 0.6 item without DDNet's extension, its CTile grid in `data`.
    const d = layerHeader(LAYER_TYPE.TILES, l, layout.ext);
    tilemapFields(d, l, mod.flag, path);
    const t = l.tiles!;
    d[TILEMAP.data] = out.data(interleave([t.index, t.flags], TILE_STRUCTS.tiles.stride, l.width * l.height));
    return d;
  }
  const phys = PHYSICS.find((p) => p.kind === l.kind)!;
  // v2 carries the DDRace extension only when it is needed; v3 always the full DDNet item; v4 (0.7) none.
  const size = l.tilemapVersion === 2 ? (phys.ext >= 0 ? layout.ext + 5 : layout.ext) : l.tilemapVersion === 3 ? layout.ext + 5 : layout.ext;
  const d = layerHeader(LAYER_TYPE.TILES, l, size);
  tilemapFields(d, l, phys.flag, path);
  for (let e = layout.ext; e < size; e++) d[e] = -1;
  const cells = l.width * l.height;
  if (phys.ext < 0 && (l.kind === 'tiles' || l.kind === 'game')) {
    const t = l.tiles!;
    d[TILEMAP.data] = out.data(l.tilemapVersion >= 4 ? compressSkip(t.index, t.flags) : interleave([t.index, t.flags], TILE_STRUCTS.tiles.stride, cells));
    return d;
  }
  // Physics layers: the grid behind its extension index, an all-zero CTile dummy in `data` for old clients.
  d[TILEMAP.data] = out.data(new Uint8Array(cells * 4));
  let grid: Uint8Array;
  switch (l.kind) {
    case 'front': {
      const t = l.tiles!;
      grid = interleave([t.index, t.flags], 4, cells);
      break;
    }
    case 'tele': {
      const t = l.tele!;
      grid = interleave([t.number, t.type], 2, cells);
      break;
    }
    case 'tune': {
      const t = l.tune!;
      grid = interleave([t.number, t.type], 2, cells);
      break;
    }
    case 'switch': {
      const t = l.switch!;
      grid = interleave([t.number, t.type, t.flags, t.delay], 4, cells);
      break;
    }
    case 'speedup': {
      const t = l.speedup!;
      const lo = new Uint8Array(cells),
        hi = new Uint8Array(cells);
      for (let i = 0; i < cells; i++) {
        lo[i] = t.angle[i]! & 0xff;
        hi[i] = (t.angle[i]! >> 8) & 0xff;
      }
      grid = interleave([t.force, t.maxSpeed, t.type, new Uint8Array(cells), lo, hi], 6, cells);
      break;
    }
    default:
      throw encodeError('teeworlds', 'BAD_VALUE', { path: `${path}.kind`, expected: 'a tile layer kind', actual: l.kind });
  }
  // A grid DDNet ignores (stored too short; it decodes as empty) goes back as it was stored.
  d[layout.ext + phys.ext] = out.data(l.ignoredGrid ?? grid);
  return d;
}

/** The tilemap fields every tile layer item has (version, size, flags, colour, image, name). */
function tilemapFields(d: Int32Array, l: TileLayer, flags: number, path: string): void {
  const layout = TILEMAP_BY_VERSION[l.tilemapVersion]!;
  d[TILEMAP.version] = l.tilemapVersion;
  d[TILEMAP.width] = l.width;
  d[TILEMAP.height] = l.height;
  d[TILEMAP.flags] = flags;
  d[TILEMAP.color] = l.color.r;
  d[TILEMAP.color + 1] = l.color.g;
  d[TILEMAP.color + 2] = l.color.b;
  d[TILEMAP.color + 3] = l.color.a;
  d[TILEMAP.colorEnv] = l.colorEnv;
  d[TILEMAP.colorEnvOffset] = l.colorEnvOffset;
  d[TILEMAP.image] = l.image;
  if (layout.name >= 0) packName(text(l.name, `${path}.name`), d, layout.name, 3);
}

/** Byte columns → records of `stride` bytes (columns beyond the given ones stay 0). */
function interleave(cols: Uint8Array[], stride: number, cells: number): Uint8Array {
  const out = new Uint8Array(cells * stride);
  cols.forEach((col, c) => {
    for (let i = 0; i < cells; i++) out[i * stride + c] = col[i]!;
  });
  return out;
}

/** 0.7 tile-skip: each record covers skip+1 identical (index, flags) tiles; skip ≤ 255, as the 0.7 editor writes. */
function compressSkip(index: Uint8Array, flags: Uint8Array): Uint8Array {
  const out = new Uint8Array(index.length * 4);
  let o = 0;
  for (let i = 0; i < index.length; ) {
    const id = index[i]!,
      fl = flags[i]!;
    let run = 1;
    while (run < 256 && i + run < index.length && index[i + run] === id && flags[i + run] === fl) run++;
    out[o] = id;
    out[o + 1] = fl;
    out[o + 2] = run - 1;
    out[o + 3] = 0;
    o += 4;
    i += run;
  }
  return out.slice(0, o);
}
