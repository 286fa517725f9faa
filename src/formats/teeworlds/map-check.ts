// Teeworlds / DDNet encoder, first half: the whole model is checked before a byte is written, so
// that what the encoder writes decodes back to the same map (README.md §Encoder). Every refusal is
// an EncodeError with a path into the model; the writer (map-encode.ts) may then trust the model.

import { type EncodeErrorCode, encodeError } from '../../core/errors.js';
import { type Text, textBytes } from '../../core/text.js';
import { flavourOf } from './flavour.js';
import {
  ENVELOPE,
  GROUP,
  gridKey,
  type IntStruct,
  LAYER_TYPE,
  MAX_SETTINGS_BYTES,
  MAX_STRING_BYTES,
  MOD_TILE_LAYERS,
  QUAD_STRUCT,
  SHAPE_CIRCLE,
  SOURCE_STRUCT,
  structInts,
  TILE_STRUCTS,
  TILEMAP,
  TILEMAP_BY_VERSION,
} from './items.js';
import { packName, unpackName } from './names.js';
import { blockSlots, placeTileLayer } from './placement.js';
import { placeGroupLayers } from './shared-layers.js';
import type { MapEnvelope, MapGroup, MapImage, MapInfo, MapLayer, MapSound, OpaqueLayer, TeeworldsMap, TileLayer } from './types.js';
import { UUID } from './uuid.js';

const I32_MAX = 0x7fffffff;
/** Item ids are 16 bits: more items of one type than this cannot each have their own id. */
const MAX_ITEMS_PER_TYPE = 0x10000;
/** An item payload or data block size is an i32 in the file. */
const MAX_BLOCK_BYTES = I32_MAX;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Details = { expected?: string | number; actual?: string | number; detail?: string };
const fail = (code: EncodeErrorCode, path: string, d: Details = {}) => encodeError('teeworlds', code, { path, ...d });

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined (missing)';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${'length' in v ? String(v.length) : `${v.byteLength} bytes`})`;
  if (typeof v === 'number') return String(v);
  return typeof v;
}

/** A whole number in [min, max]: BAD_VALUE when not a number at all, OUT_OF_RANGE otherwise. */
function int(v: unknown, path: string, min = -0x80000000, max = I32_MAX): number {
  if (typeof v !== 'number') throw fail('BAD_VALUE', path, { expected: 'a number', actual: describe(v) });
  if (!Number.isInteger(v) || v < min || v > max) throw fail('OUT_OF_RANGE', path, { expected: `a whole number in ${min}..${max}`, actual: v });
  return v;
}

function bool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') throw fail('BAD_VALUE', path, { expected: 'a boolean', actual: describe(v) });
  return v;
}

function object(v: unknown, path: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw fail('BAD_VALUE', path, { expected: 'an object', actual: describe(v) });
  return v as Record<string, unknown>;
}

function list(v: unknown, path: string, max = MAX_ITEMS_PER_TYPE): unknown[] {
  if (!Array.isArray(v)) throw fail('BAD_VALUE', path, { expected: 'an array', actual: describe(v) });
  if (v.length > max) throw fail('LIMIT_EXCEEDED', path, { expected: `≤ ${max} entries`, actual: v.length });
  return v;
}

type ColumnType = Int32ArrayConstructor | Uint8ArrayConstructor | Int16ArrayConstructor;
const RANGE = new Map<ColumnType, [number, number]>([
  [Int32Array, [-0x80000000, I32_MAX]],
  [Uint8Array, [0, 255]],
  [Int16Array, [-0x8000, 0x7fff]],
]);

/**
 * A column of `type` and exactly `length` values. Values of any other array-like are checked first
 * (so a NaN time is OUT_OF_RANGE, as it would be in a typed column), then the type (BAD_VALUE:
 * decoding gives this typed array back, never a plain one), then the length (BAD_LENGTH).
 */
function column(v: unknown, type: ColumnType, length: number, path: string): void {
  if (!(v instanceof type)) {
    if (v === null || typeof v !== 'object' || typeof (v as { length?: unknown }).length !== 'number') {
      throw fail('BAD_VALUE', path, { expected: type.name, actual: describe(v) });
    }
    const [min, max] = RANGE.get(type)!;
    const a = v as ArrayLike<unknown>;
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) {
        throw fail('OUT_OF_RANGE', `${path}[${i}]`, { expected: `a whole number in ${min}..${max}`, actual: describe(x) });
      }
    }
    throw fail('BAD_VALUE', path, { expected: type.name, actual: describe(v) });
  }
  if (v.length !== length) throw fail('BAD_LENGTH', path, { expected: length, actual: v.length });
}

/** The bytes `t` writes (textBytes: raw while unchanged, else UTF-8), with no NUL inside (a NUL ends the string on reading). */
function textOf(t: unknown, path: string): Uint8Array {
  const bytes = textBytes(t as Text, { format: 'teeworlds', path });
  // Map text is UTF-8: a Text in another code page would read back as UTF-8, i.e. as another Text.
  if ((t as Text).encoding !== 'utf-8')
    throw fail('BAD_VALUE', `${path}.encoding`, {
      expected: "'utf-8' (map text is UTF-8; build texts with textFrom(s, 'utf-8'))",
      actual: JSON.stringify((t as Text).encoding),
    });
  if (bytes.includes(0)) throw fail('BAD_VALUE', path, { expected: 'text without NUL characters', actual: JSON.stringify((t as Text).text) });
  return bytes;
}

/** A NUL-terminated data string (info fields, image and sound names). */
function dataString(t: unknown, path: string): void {
  const n = textOf(t, path).length + 1;
  if (n > MAX_STRING_BYTES) throw fail('LIMIT_EXCEEDED', path, { expected: `≤ ${MAX_STRING_BYTES - 1} bytes (MAX_STRING_BYTES with the NUL)`, actual: n - 1 });
}

/** An int-packed name of `ints` ints (4·ints − 1 bytes at most). */
function packedName(t: unknown, ints: number, path: string): Uint8Array {
  const bytes = textOf(t, path);
  if (bytes.length > ints * 4 - 1) throw fail('LIMIT_EXCEEDED', path, { expected: `≤ ${ints * 4 - 1} bytes`, actual: bytes.length });
  return bytes;
}

/** A name the item's version does not store: only the empty name reads back. */
function noName(t: unknown, path: string, why: string): void {
  if (textOf(t, path).length > 0) throw fail('BAD_VALUE', path, { expected: 'an empty name', actual: JSON.stringify((t as Text).text), detail: why });
}

/** Checks `map` whole; throws EncodeError at the first value that would not read back as it is. */
export function checkMap(map: TeeworldsMap): void {
  object(map, 'map');
  if (map.format !== 'teeworlds') throw fail('BAD_VALUE', 'format', { expected: "'teeworlds'", actual: describe(map.format) });
  if (map.legacy !== undefined) {
    checkLegacy(map);
    return;
  }
  if (map.info !== null) checkInfo(map.info, 'info');
  list(map.images, 'images').forEach((img, k) => checkImage(img as MapImage, `images[${k}]`));
  checkEnvelopes(map.envelopes);
  list(map.groups, 'groups').forEach((g, k) => {
    checkGroup(g as MapGroup, `groups[${k}]`);
  });
  // A layer two groups list is one item (shared-layers.ts): counted once, and its place checked.
  const layers = placeGroupLayers(map.groups).items.length;
  if (layers > MAX_ITEMS_PER_TYPE) throw fail('LIMIT_EXCEEDED', 'groups', { expected: `≤ ${MAX_ITEMS_PER_TYPE} layers in all`, actual: layers });
  list(map.sounds, 'sounds').forEach((s, k) => checkSound(s as MapSound, `sounds[${k}]`));
  list(map.automapperConfigs, 'automapperConfigs').forEach((a, k) => {
    const o = object(a, `automapperConfigs[${k}]`);
    for (const f of ['version', 'group', 'layer', 'config', 'seed', 'flags']) int(o[f], `automapperConfigs[${k}].${f}`);
  });
  checkExtras(map);
  // The decoder derives the flavour from the item versions; a flavour they do not give would change.
  const flavour = flavourOf(map);
  if (map.flavour !== flavour) throw fail('BAD_VALUE', 'flavour', { expected: `'${flavour}' (what the item versions give)`, actual: describe(map.flavour) });
}

function checkInfo(info: MapInfo, path: string): void {
  object(info, path);
  int(info.version, `${path}.version`);
  for (const f of ['author', 'mapVersion', 'credits', 'license'] as const) if (info[f] !== null) dataString(info[f], `${path}.${f}`);
  if (info.settings === null) return;
  let total = 0;
  list(info.settings, `${path}.settings`, MAX_SETTINGS_BYTES).forEach((s, k) => {
    total += textOf(s, `${path}.settings[${k}]`).length + 1;
  });
  if (total > MAX_SETTINGS_BYTES)
    throw fail('LIMIT_EXCEEDED', `${path}.settings`, { expected: `≤ ${MAX_SETTINGS_BYTES} bytes (MAX_SETTINGS_BYTES)`, actual: total });
}

function checkImage(img: MapImage, path: string): void {
  object(img, path);
  const version = int(img.version, `${path}.version`);
  const width = int(img.width, `${path}.width`),
    height = int(img.height, `${path}.height`);
  const external = bool(img.external, `${path}.external`);
  dataString(img.name, `${path}.name`);
  // `format` exists from item version 2 on: present exactly there.
  if (version >= 2) int(img.format, `${path}.format`);
  else if (img.format !== undefined)
    throw fail('BAD_VALUE', `${path}.format`, { expected: 'absent (image version < 2 has no format)', actual: describe(img.format) });
  if (external) {
    if (img.pixels !== undefined)
      throw fail('BAD_VALUE', `${path}.pixels`, { expected: 'absent (an external image stores no pixels)', actual: describe(img.pixels) });
    if (img.storedPixels !== undefined) throw fail('BAD_VALUE', `${path}.storedPixels`, { expected: 'absent (an external image stores no pixels)' });
    return;
  }
  // 0 × 0 reads back as itself (an empty image, warning EMPTY_IMAGE): its empty block is written.
  if (width === 0 && height === 0) {
    column(img.pixels, Uint8Array, 0, `${path}.pixels`);
    return;
  }
  if (width < 1) throw fail('OUT_OF_RANGE', `${path}.width`, { expected: '≥ 1 for an embedded image', actual: width });
  if (height < 1) throw fail('OUT_OF_RANGE', `${path}.height`, { expected: '≥ 1 for an embedded image', actual: height });
  const bytes = width * height * (img.format === 0 ? 3 : 4);
  if (bytes > MAX_BLOCK_BYTES) throw fail('LIMIT_EXCEEDED', `${path}.pixels`, { expected: `≤ ${MAX_BLOCK_BYTES} bytes`, actual: bytes });
  if (img.storedPixels !== undefined) {
    // Kept as stored (SHORT_IMAGE_DATA): it reads back so only while still too short to be pixels.
    if (img.pixels !== undefined)
      throw fail('BAD_VALUE', `${path}.pixels`, { expected: 'absent while storedPixels is kept (delete storedPixels to write pixels)' });
    if (!(img.storedPixels instanceof Uint8Array))
      throw fail('BAD_VALUE', `${path}.storedPixels`, { expected: 'Uint8Array', actual: describe(img.storedPixels) });
    if (img.storedPixels.length === 0 || img.storedPixels.length >= bytes)
      throw fail('BAD_LENGTH', `${path}.storedPixels`, { expected: `1..${bytes - 1} bytes (shorter than the pixels)`, actual: img.storedPixels.length });
    return;
  }
  if (img.pixels === undefined)
    throw fail('BAD_VALUE', `${path}.pixels`, { expected: 'the pixels of an embedded image', actual: "undefined (decoded with sections: 'summary'?)" });
  column(img.pixels, Uint8Array, bytes, `${path}.pixels`);
}

function checkSound(s: MapSound, path: string): void {
  object(s, path);
  int(s.version, `${path}.version`);
  const external = bool(s.external, `${path}.external`);
  dataString(s.name, `${path}.name`);
  if (external) {
    if (s.data !== undefined) throw fail('BAD_VALUE', `${path}.data`, { expected: 'absent (an external sound stores no data)', actual: describe(s.data) });
    return;
  }
  if (!(s.data instanceof Uint8Array)) throw fail('BAD_VALUE', `${path}.data`, { expected: 'Uint8Array', actual: describe(s.data) });
  // A 0-byte data block cannot be read back (inflated size 0; DDNet refuses it too).
  if (s.data.length === 0) throw fail('BAD_LENGTH', `${path}.data`, { expected: '≥ 1 byte', actual: 0 });
}

function checkEnvelopes(envs: MapEnvelope[]): void {
  list(envs, 'envelopes');
  // One point layout for all: 22 ints with inline tangents as soon as one envelope is v3, where
  // every point reads back with tangents; DDNet's bezier item likewise covers all points or none.
  const inline = envs.some((e) => typeof e?.version === 'number' && e.version >= 3);
  const withBezier = inline || envs.some((e) => e?.points?.bezier !== undefined);
  let total = 0;
  envs.forEach((e, k) => {
    const path = `envelopes[${k}]`;
    object(e, path);
    const version = int(e.version, `${path}.version`);
    int(e.channels, `${path}.channels`);
    const name = packedName(e.name, ENVELOPE.nameInts, `${path}.name`);
    const probe = new Int32Array(ENVELOPE.nameInts);
    packName(name, probe, 0, ENVELOPE.nameInts);
    // QUIRK mirrored: name[0] = −1 is how 0.5 maps say "no name", so such a name would vanish.
    if (probe[0] === -1 && name.length > 0)
      throw fail('BAD_VALUE', `${path}.name`, { expected: 'a name that does not pack to −1 (read as no name)', actual: JSON.stringify(e.name.text) });
    if (bool(e.synchronized, `${path}.synchronized`) && version < 2)
      throw fail('BAD_VALUE', `${path}.synchronized`, { expected: 'false (envelope version < 2 has no such field)', actual: 'true' });
    const p = object(e.points, `${path}.points`);
    if (!(p.time instanceof Int32Array)) column(p.time, Int32Array, 0, `${path}.points.time`);
    const n = (p.time as Int32Array).length;
    column(p.curve, Int32Array, n, `${path}.points.curve`);
    column(p.values, Int32Array, n * 4, `${path}.points.values`);
    if (p.bezier === undefined) {
      if (withBezier)
        throw fail('BAD_VALUE', `${path}.points.bezier`, {
          expected: inline
            ? 'tangents (a v3 envelope makes every point carry them)'
            : 'tangents (another envelope has them, and the bezier item covers all points or none)',
          actual: 'undefined',
        });
    } else {
      if (!withBezier) throw fail('BAD_VALUE', `${path}.points.bezier`, { expected: 'absent' });
      const b = object(p.bezier, `${path}.points.bezier`);
      for (const f of ['inDx', 'inDy', 'outDx', 'outDy']) column(b[f], Int32Array, n * 4, `${path}.points.bezier.${f}`);
    }
    total += n;
  });
  const bytes = total * 4 * 22;
  if (bytes > MAX_BLOCK_BYTES) throw fail('LIMIT_EXCEEDED', 'envelopes', { expected: `≤ ${MAX_BLOCK_BYTES} bytes of points`, actual: bytes });
}

/** Checks one group and its layers. */
function checkGroup(g: MapGroup, path: string): void {
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

/**
 * Extra items come back in one canonical order: numeric types ascending, then UUID types in the
 * order the encoder first meets each UUID (envpoints-bezier, automapper, then the list). Any other
 * order, or an item the decoder would interpret, would not read back as it is.
 */
function checkExtras(map: TeeworldsMap): void {
  const extras = list(map.extraItems, 'extraItems', Infinity);
  const uuidOrder: string[] = [];
  const inline = map.envelopes.some((e) => e.version >= 3);
  if (!inline && map.envelopes.some((e) => e.points.bezier)) uuidOrder.push(UUID.ENVPOINTS_BEZIER);
  if (map.automapperConfigs.length > 0) uuidOrder.push(UUID.AUTOMAPPER_CONFIG);
  let lastType = -1;
  let seenUuid = false;
  const perType = new Map<string | number, number>();
  extras.forEach((x, k) => {
    const path = `extraItems[${k}]`;
    const o = object(x, path);
    int(o.id, `${path}.id`, 0, 0xffff);
    if (!(o.data instanceof Int32Array)) column(o.data, Int32Array, 0, `${path}.data`);
    const data = o.data as Int32Array;
    if (data.length * 4 > MAX_BLOCK_BYTES) throw fail('LIMIT_EXCEEDED', `${path}.data`, { expected: `≤ ${MAX_BLOCK_BYTES / 4} ints`, actual: data.length });
    let key: string | number;
    if (o.uuid !== undefined) {
      if (o.typeId !== undefined) throw fail('BAD_VALUE', `${path}.typeId`, { expected: 'absent when uuid is set' });
      if (typeof o.uuid !== 'string' || !UUID_PATTERN.test(o.uuid))
        throw fail('BAD_VALUE', `${path}.uuid`, { expected: 'a lower-case 8-4-4-4-12 hex UUID', actual: describe(o.uuid) });
      if (o.uuid === UUID.ENVPOINTS_BEZIER || (o.uuid === UUID.AUTOMAPPER_CONFIG && data.length >= 6)) {
        throw fail('BAD_VALUE', `${path}.uuid`, {
          expected: 'a UUID item the decoder keeps raw',
          actual: o.uuid,
          detail: 'it would be read as envelope tangents or an automapper config',
        });
      }
      if (!uuidOrder.includes(o.uuid)) uuidOrder.push(o.uuid);
      const rank = uuidOrder.indexOf(o.uuid);
      if (seenUuid && rank < lastType) throw fail('BAD_VALUE', path, { expected: 'UUID items grouped by UUID in first-use order (the order they decode in)' });
      lastType = rank;
      seenUuid = true;
      key = o.uuid;
    } else {
      if (o.typeId === undefined) throw fail('BAD_VALUE', `${path}.typeId`, { expected: 'a typeId or a uuid', actual: 'neither' });
      const typeId = int(o.typeId, `${path}.typeId`, 8, 0xfffe);
      if (seenUuid || typeId < lastType) throw fail('BAD_VALUE', path, { expected: 'numeric types first, by ascending typeId (the order they decode in)' });
      lastType = typeId;
      key = typeId;
    }
    const n = (perType.get(key) ?? 0) + 1;
    if (n > MAX_ITEMS_PER_TYPE) throw fail('LIMIT_EXCEEDED', path, { expected: `≤ ${MAX_ITEMS_PER_TYPE} items of one type` });
    perType.set(key, n);
  });
}

/** A 2007 map: raw items and blocks, nothing else. */
function checkLegacy(map: TeeworldsMap): void {
  const legacy = object(map.legacy, 'legacy');
  if (map.flavour !== 'legacy') throw fail('BAD_VALUE', 'flavour', { expected: "'legacy' (the map has legacy items)", actual: describe(map.flavour) });
  for (const f of ['images', 'envelopes', 'groups', 'sounds', 'automapperConfigs', 'extraItems'] as const) {
    if (list(map[f], f, Infinity).length > 0) throw fail('BAD_VALUE', f, { expected: 'empty (a legacy map carries only legacy.items and legacy.data)' });
  }
  if (map.info !== null) throw fail('BAD_VALUE', 'info', { expected: 'null (a legacy map has no INFO item)' });
  const items = list(legacy.items, 'legacy.items', Infinity);
  let lastType = -1,
    legacyTypes = 0;
  items.forEach((it, k) => {
    const path = `legacy.items[${k}]`;
    const o = object(it, path);
    const typeId = int(o.typeId, `${path}.typeId`, 1, 0xffff);
    int(o.id, `${path}.id`, 0, 0xffff);
    if (!(o.data instanceof Int32Array)) column(o.data, Int32Array, 0, `${path}.data`);
    // Written grouped by type id; they read back in that order.
    if (typeId < lastType) throw fail('BAD_VALUE', path, { expected: 'items by ascending typeId (the order they decode in)', actual: typeId });
    lastType = typeId;
    if (typeId >= 0x8001 && typeId <= 0x8003) legacyTypes++;
  });
  if (legacyTypes === 0) throw fail('BAD_VALUE', 'legacy.items', { expected: 'an item of type 0x8001–0x8003 (what makes a map legacy)' });
  if (legacy.data === undefined)
    throw fail('BAD_VALUE', 'legacy.data', { expected: 'the data blocks', actual: "undefined (decoded with sections: 'summary'?)" });
  list(legacy.data, 'legacy.data', Infinity).forEach((d, k) => {
    if (!(d instanceof Uint8Array)) throw fail('BAD_VALUE', `legacy.data[${k}]`, { expected: 'Uint8Array', actual: describe(d) });
    if (d.length === 0) throw fail('BAD_LENGTH', `legacy.data[${k}]`, { expected: '≥ 1 byte (a 0-byte block cannot be read back)', actual: 0 });
  });
}
