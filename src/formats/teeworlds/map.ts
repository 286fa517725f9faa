// Teeworlds / DDNet map semantics on top of the datafile container: the map as a whole (VERSION,
// the UUID index, the sections in the order they claim their blocks, automapper configs and extra
// items, the flavour) and the 2007 legacy maps. Each section has a file of its own: map-info.ts,
// map-images.ts, map-sounds.ts, map-envelopes.ts, map-groups.ts (with map-tile-layers.ts,
// map-tile-grids.ts and map-opaque-layers.ts for tile layers), over the shared reads of
// map-reader.ts. Layouts come from items.ts; see README.md §Map for the rules.

import type { DecodeContext } from '../../core/context.js';
import { decodeError } from '../../core/errors.js';
import { defineLazy } from '../../core/lazy.js';
import { ITEMTYPE_EX, readDatafile } from './datafile.js';
import { noteDeferredBlocks } from './deferred-blocks.js';
import { flavourOf } from './flavour.js';
import { AUTOMAPPER, ITEM, LEGACY_TYPES } from './items.js';
import { deferWarnings } from './late-warnings.js';
import { decodeEnvelopes } from './map-envelopes.js';
import { decodeGroups } from './map-groups.js';
import { decodeImage } from './map-images.js';
import { decodeInfo } from './map-info.js';
import { readOpaqueBlocks } from './map-opaque-layers.js';
import { claimBlock, eachItem, type Reader, readOrClaim } from './map-reader.js';
import { decodeSound } from './map-sounds.js';
import type { AutomapperConfig, ExtraItem, TeeworldsMap, TeeworldsWarningCode } from './types.js';
import { UUID, uuidFromInts } from './uuid.js';

export function decodeMap(bytes: Uint8Array, ctx: DecodeContext<TeeworldsWarningCode>, summaryOnly: boolean): TeeworldsMap {
  const df = readDatafile(bytes, ctx);
  const rd: Reader = {
    df,
    ctx,
    summaryOnly,
    ofType: (typeId) => df.types.get(typeId) ?? NO_ITEMS,
    data: (index) => df.itemData(index),
    fail(code, itemIndex, path, d = {}) {
      return decodeError('teeworlds', code, { offset: df.itemOffsets[itemIndex], path, ...d });
    },
    claimedBy: new Map(),
    gridCells: 0,
    deferred: 0,
    opaque: [],
    late: [],
    unchecked: new Set(),
  };
  const base = { format: 'teeworlds' as const, warnings: ctx.warnings.list, datafileVersion: df.version, magic: df.magic };

  // UUID index: internal type id → UUID (the first EX item wins when an old tool wrote two).
  const uuids = new Map<number, string>();
  const ex = rd.ofType(ITEMTYPE_EX);
  for (let i = ex.start; i < ex.start + ex.num; i++) if (!uuids.has(df.itemIds[i]!)) uuids.set(df.itemIds[i]!, uuidFromInts(rd.data(i)));

  const versionItems = rd.ofType(ITEM.VERSION);
  if (versionItems.num === 0) {
    // QUIRK: 2007 maps (teeworlds before 0.4) have no VERSION item and raw types 0x8001–0x8003.
    if (df.types.has(LEGACY_TYPES.IMAGE) || df.types.has(LEGACY_TYPES.TILEMAP) || df.types.has(LEGACY_TYPES.COLLISION)) {
      return {
        ...base,
        flavour: 'legacy',
        info: null,
        images: [],
        envelopes: [],
        groups: [],
        sounds: [],
        automapperConfigs: [],
        extraItems: [],
        legacy: decodeLegacy(rd),
        ...(summaryOnly ? { blocksNotInflated: rd.deferred, uncheckedWarnings: [] } : {}),
      };
    }
    throw decodeError('teeworlds', 'CORRUPT', { path: 'items', detail: 'no VERSION item (not a map)' });
  }
  const version = rd.data(versionItems.start)[0];
  if (version !== 1) throw rd.fail('UNSUPPORTED_VERSION', versionItems.start, 'version', { expected: 1, actual: version ?? 'none' });

  const images = eachItem(rd, ITEM.IMAGE, (d, index, k) => decodeImage(rd, d, index, `images[${k}]`));
  const envelopes = decodeEnvelopes(rd, uuids);
  const groups = decodeGroups(rd);
  const sounds = eachItem(rd, ITEM.SOUND, (d, index, k) => decodeSound(rd, d, index, `sounds[${k}]`));
  // After every section the game reads, so an info field pointing at one of their blocks never
  // takes it from them (it is the info field that is then bad); before the opaque layers' blocks.
  const info = decodeInfo(rd);
  readOpaqueBlocks(rd);

  const automapperConfigs: AutomapperConfig[] = [];
  // Extra items in a canonical order the encoder reproduces: numeric types first, then UUID
  // types, each by ascending type id (the encoder assigns UUID type ids in list order).
  const numericExtras: ExtraItem[] = [],
    uuidExtras: ExtraItem[] = [];
  for (const [typeId, t] of [...df.types].sort((a, b) => a[0] - b[0])) {
    if (typeId <= ITEM.SOUND || typeId === ITEMTYPE_EX) continue;
    const uuid = uuids.get(typeId);
    for (let i = t.start; i < t.start + t.num; i++) {
      const d = rd.data(i);
      if (uuid === UUID.AUTOMAPPER_CONFIG && d.length >= AUTOMAPPER.size) {
        automapperConfigs.push({
          version: d[AUTOMAPPER.version]!,
          group: d[AUTOMAPPER.group]!,
          layer: d[AUTOMAPPER.layer]!,
          config: d[AUTOMAPPER.config]!,
          seed: d[AUTOMAPPER.seed]!,
          flags: d[AUTOMAPPER.flags]!,
        });
      } else if (uuid === UUID.ENVPOINTS_BEZIER) {
        // Consumed by decodeEnvelopes.
      } else {
        // Kept in the result: a copy of its own, not a view of every item's ints.
        if (uuid) uuidExtras.push({ uuid, id: df.itemIds[i]!, data: d.slice() });
        else numericExtras.push({ typeId, id: df.itemIds[i]!, data: d.slice() });
      }
    }
  }
  const extraItems = [...numericExtras, ...uuidExtras];

  const map: TeeworldsMap = {
    ...base,
    flavour: flavourOf({ images, envelopes, groups }),
    info,
    images,
    envelopes,
    groups,
    sounds,
    automapperConfigs,
    extraItems,
  };
  if (summaryOnly) {
    map.blocksNotInflated = rd.deferred;
    map.uncheckedWarnings = [...rd.unchecked];
  }
  // Lazy grids still to be read hold warnings of the eager decode: the list is made on first read.
  if (rd.late.length > 0) deferWarnings(map, rd.late);
  return map;
}

const NO_ITEMS = { start: 0, num: 0 } as const;

// ── legacy 2007 maps ─────────────────────────────────────────────────────────

function decodeLegacy(rd: Reader): NonNullable<TeeworldsMap['legacy']> {
  const items = rd.df.items;
  if (rd.ctx.lazyLayers && !rd.summaryOnly) {
    // The data are read on first access, as a lazy map's grids (checked and charged now).
    const deferred = rd.df.blocks.map((_, i) => {
      claimBlock(rd, i, `data[${i}]`);
      return rd.df.deferData(i, `data[${i}]`);
    });
    const legacy: NonNullable<TeeworldsMap['legacy']> = { items, data: [] };
    defineLazy(legacy, 'data', () => deferred.map((b) => b.read()));
    noteDeferredBlocks(legacy, deferred);
    return legacy;
  }
  const data = rd.df.blocks.map((_, i) => readOrClaim(rd, i, `data[${i}]`));
  if (rd.summaryOnly) return { items };
  return { items, data: data.map((b) => b!) };
}
