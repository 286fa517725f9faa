// Cheap facts of a decoded map for `levelkit info` and bulk scans (the summary fields of issue 3).
import { sha256Hex } from '../../core/digest.js';
import type { MainGrid, Summary } from '../define.js';
import { LEGACY_TYPES } from './items.js';
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

export function summarize(map: TeeworldsMap): TeeworldsSummary {
  const layersByKind: Record<string, number> = {};
  let layers = 0;
  if (map.legacy) {
    // 2007 maps: images and tilemaps are raw items; no game layer in the modern sense.
    const count = (t: number) => map.legacy!.items.filter((i) => i.typeId === t).length;
    layers = count(LEGACY_TYPES.TILEMAP);
    if (layers) layersByKind.legacyTilemap = layers;
    const images = count(LEGACY_TYPES.IMAGE);
    return {
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
        info: null,
      },
    };
  }
  for (const g of map.groups)
    for (const l of g.layers) {
      layers++;
      layersByKind[l.kind] = (layersByKind[l.kind] ?? 0) + 1;
    }
  const game = gameLayer(map);
  return {
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
      gridDigest: game?.tiles ? sha256Hex(game.tiles.index) : null,
      info: infoSummary(map.info),
    },
  };
}
