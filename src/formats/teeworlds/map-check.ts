// Teeworlds / DDNet encoder, first half: the whole model is checked before a byte is written, so
// that what the encoder writes decodes back to the same map (README.md §Encoder). Every refusal is
// an EncodeError with a path into the model; the writer (map-encode.ts) may then trust the model.
// This file checks the map as a whole, its info, images, sounds, envelopes, extra items and legacy
// maps; groups and layers are checked in map-check-layers.ts, single values in map-check-values.ts.

import { flavourOf } from './flavour.js';
import { ENVELOPE, MAX_SETTINGS_BYTES } from './items.js';
import { checkGroup } from './map-check-layers.js';
import { bool, column, dataString, describe, fail, int, list, MAX_BLOCK_BYTES, MAX_ITEMS_PER_TYPE, object, packedName, textOf } from './map-check-values.js';
import { packName } from './names.js';
import { placeGroupLayers } from './shared-layers.js';
import type { MapEnvelope, MapGroup, MapImage, MapInfo, MapSound, TeeworldsMap } from './types.js';
import { UUID } from './uuid.js';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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
