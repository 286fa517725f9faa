// Cheap facts of a decoded map for `levelkit info` and bulk scans (the summary fields of issue 3).
import { gridDigestOf } from '../../core/digest.js';
import { countKey, dictionary } from '../../core/record.js';
import { boundSummary, type MainGrid, type Summary } from '../define.js';
import { INFCLASS_GROUP_NAMES, LEGACY_TYPES } from './items.js';
import type { GameLayer, MapInfo, TeeworldsMap } from './types.js';

/** The map's INFO item as plain strings (each null when the map leaves it unset). */
export interface TeeworldsInfoSummary {
  author: string | null;
  version: string | null;
  credits: string | null;
  license: string | null;
  /** DDNet server settings, one command each; null when the INFO item has no settings field. */
  settings: string[] | null;
}

export interface TeeworldsSummaryFields {
  flavour: TeeworldsMap['flavour'];
  datafileVersion: 3 | 4;
  images: number;
  embeddedImages: number;
  envelopes: number;
  groups: number;
  layers: number;
  layersByKind: Record<string, number>;
  gameLayer: { width: number; height: number } | null;
  /** sha256 of the game layer's `index` column (row-major bytes); null without a game layer. */
  gridDigest: string | null;
  /**
   * The mod whose map conventions the map follows, when recognised (README.md §Mods): `infclass`
   * for InfClass entity/zone layers (flags 2, 4) or its `#Zones` / `#Entities` groups; else null.
   */
  mod: 'infclass' | null;
  /** Layers kept opaque (a tile layer that could not be placed for certain). */
  opaqueLayers: number;
  /** Author, version, credits, licence and settings from the INFO item; null when the map has none. */
  info: TeeworldsInfoSummary | null;
}

function infoSummary(info: MapInfo | null): TeeworldsInfoSummary | null {
  if (!info) return null;
  return {
    author: info.author?.text ?? null,
    version: info.mapVersion?.text ?? null,
    credits: info.credits?.text ?? null,
    license: info.license?.text ?? null,
    settings: info.settings?.map((t) => t.text) ?? null,
  };
}

/** The game layer (the first tile layer of kind `game`), if any. */
export function gameLayer(map: TeeworldsMap): GameLayer | undefined {
  for (const g of map.groups) for (const l of g.layers) if (l.kind === 'game') return l;
  return undefined;
}

/** What summarize() gives for a map: `version` is the datafile version. */
export type TeeworldsSummary = Summary<3 | 4, TeeworldsSummaryFields>;

/** The main grid: the game layer's `index` column (a view), when the map has one and it was decoded. */
export function mainGrid(map: TeeworldsMap): MainGrid | undefined {
  const game = gameLayer(map);
  return game?.tiles ? { width: game.width, height: game.height, cells: game.tiles.index } : undefined;
}

/** The game layer's empty tile: a game layer of nothing else is a blank map (gridDigest null). */
const AIR = 0;

/** The recognised mod a map follows (see TeeworldsSummaryFields.mod). */
function modOf(map: TeeworldsMap): 'infclass' | null {
  if (map.flavour === 'infclass') return 'infclass';
  return map.groups.some((g) => INFCLASS_GROUP_NAMES.includes(g.name.text)) ? 'infclass' : null;
}

export function summarize(map: TeeworldsMap): TeeworldsSummary {
  const layersByKind = dictionary<number>();
  let layers = 0;
  if (map.legacy) {
    // 2007 maps: images and tilemaps are raw items; no game layer in the modern sense.
    const count = (t: number) => map.legacy!.items.filter((i) => i.typeId === t).length;
    layers = count(LEGACY_TYPES.TILEMAP);
    if (layers) layersByKind.legacyTilemap = layers;
    const images = count(LEGACY_TYPES.IMAGE);
    return boundSummary({
      version: map.datafileVersion,
      summary: {
        flavour: map.flavour,
        datafileVersion: map.datafileVersion,
        images,
        embeddedImages: images,
        envelopes: 0,
        groups: 0,
        layers,
        layersByKind,
        gameLayer: null,
        gridDigest: null,
        mod: null,
        opaqueLayers: 0,
        info: null,
      },
    });
  }
  for (const g of map.groups)
    for (const l of g.layers) {
      layers++;
      countKey(layersByKind, l.kind);
    }
  const game = gameLayer(map);
  return boundSummary({
    version: map.datafileVersion,
    summary: {
      flavour: map.flavour,
      datafileVersion: map.datafileVersion,
      images: map.images.length,
      embeddedImages: map.images.filter((i) => !i.external).length,
      envelopes: map.envelopes.length,
      groups: map.groups.length,
      layers,
      layersByKind,
      gameLayer: game ? { width: game.width, height: game.height } : null,
      gridDigest: game?.tiles ? gridDigestOf(game.width, game.height, game.tiles.index, AIR) : null,
      mod: modOf(map),
      opaqueLayers: layersByKind.opaque ?? 0,
      info: infoSummary(map.info),
    },
  });
}
