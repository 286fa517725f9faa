// The tile layers of a Teeworlds map (tiles and DDNet's physics layers: game, front, tele, speedup,
// switch, tune): placement, the size checks and budgets before anything is inflated, the grids
// DDNet ignores when short, and the grids left deflated for layers: 'lazy'. The grid's columns
// themselves are read by map-tile-grids.ts. README.md §Map.

import type { DecodeContext } from '../../core/context.js';
import { type DecodeWarning, WarningSink } from '../../core/errors.js';
import { defineLazy } from '../../core/lazy.js';
import type { BlockReader } from './datafile.js';
import { countRecordByte, countTileRecords, noteGridCounter, TYPE_BYTE } from './grid-counts.js';
import { gridKey, TILE_STRUCTS, TILEMAP } from './items.js';
import { decodeOpaqueLayer } from './map-opaque-layers.js';
import { claimBlock, EMPTY_TEXT, type Reader, readBlock, readOrClaim, text } from './map-reader.js';
import { type GridKey, type GridPlan, gridFields, readGrid, warnDirtyTiles } from './map-tile-grids.js';
import { unpackName } from './names.js';
import { placeTileLayer } from './placement.js';
import type { OpaqueLayer, TeeworldsWarningCode, TileLayer, TileLayerKind } from './types.js';

export function decodeTileLayer(rd: Reader, d: Int32Array, index: number, path: string, detail: boolean): TileLayer | OpaqueLayer {
  const placed = placeTileLayer(d, rd.df.blocks.length);
  if ('reason' in placed) return decodeOpaqueLayer(rd, d, path, detail, placed.reason);
  const { kind, dataIndex, layout } = placed;
  const tilemapVersion = d[TILEMAP.version]!;
  const width = d[TILEMAP.width]!,
    height = d[TILEMAP.height]!;
  if (width <= 0 || height <= 0 || width * height > rd.ctx.limits.maxGridCells) {
    throw rd.fail('LIMIT_EXCEEDED', index, `${path}.size`, {
      expected: `0 < width × height ≤ ${rd.ctx.limits.maxGridCells} (limits.maxGridCells)`,
      actual: `${width} × ${height}`,
    });
  }
  const name = layout.name >= 0 && d.length >= layout.name + 3 ? text(unpackName(d, layout.name, 3)) : EMPTY_TEXT();
  const layer: TileLayer = {
    kind,
    name,
    detail,
    tilemapVersion,
    width,
    height,
    color: { r: d[TILEMAP.color]!, g: d[TILEMAP.color + 1]!, b: d[TILEMAP.color + 2]!, a: d[TILEMAP.color + 3]! },
    colorEnv: d[TILEMAP.colorEnv]!,
    colorEnvOffset: d[TILEMAP.colorEnvOffset]!,
    image: d[TILEMAP.image]!,
  };
  const gridPath = `${path}.${gridKey(kind)}`;
  if (dataIndex < 0 || dataIndex >= rd.df.blocks.length)
    throw rd.fail('BAD_INDEX', index, gridPath, { expected: `data index < ${rd.df.blocks.length}`, actual: dataIndex });
  const cells = width * height;
  // All layers' grids share one cell budget, so many layers cannot add up to more than one
  // maximal grid; checked before the block is inflated or the grid allocated.
  rd.gridCells += cells;
  if (rd.gridCells > rd.ctx.limits.maxGridCells) {
    throw rd.fail('LIMIT_EXCEEDED', index, gridPath, {
      expected: `≤ ${rd.ctx.limits.maxGridCells} cells over all tile layers (limits.maxGridCells)`,
      actual: `${rd.gridCells} cells`,
    });
  }
  // Bound the grid by what its block can hold before allocating for it: a skip record covers at
  // most 256 tiles; uncompressed grids are tolerated down to half size (see UNDERSIZED_TILES).
  const declared = rd.df.blocks[dataIndex]!.byteLength;
  const struct = TILE_STRUCTS[gridKey(kind)];
  const short = tilemapVersion < 4 && declared < cells * struct.stride;
  // DDNet uses a tele, speed-up, switch or tune grid only when its block holds width × height
  // records (CCollision::Init compares the block's size); a shorter one is ignored, the map plays.
  const ignored = short && IGNORED_WHEN_SHORT.has(kind);
  if (!ignored && (tilemapVersion >= 4 ? cells > (declared >>> 2) * 256 : cells * struct.stride > declared * 2)) {
    throw rd.fail('CORRUPT', index, gridPath, { expected: `a data block for ${width} × ${height} tiles`, actual: `${declared} bytes` });
  }
  // A tile-skip grid expands beyond its block: the expansion is charged to the per-file budget.
  if (tilemapVersion >= 4) rd.ctx.charge(cells * 2, { offset: rd.df.blocks[dataIndex]!.offset, path: gridPath });
  // So does an ignored grid (any short block): its empty columns are not bounded by its block.
  if (ignored) rd.ctx.charge(cells * struct.stride, { offset: rd.df.blocks[dataIndex]!.offset, path: gridPath });
  if (short) {
    // QUIRK: 2010 DDRace test maps use 4-byte speedup and 2-byte switch tiles. (The block's
    // declared size is what it inflates to, so this is known before inflating, and given at every depth.)
    rd.ctx.warnings.warn(
      'UNDERSIZED_TILES',
      `${kind} grid holds ${declared} bytes, ${width}×${height} ${struct.stride}-byte tiles need ${cells * struct.stride}; ` +
        (ignored ? 'ignored as DDNet ignores it (reads as empty; its bytes kept in ignoredGrid)' : 'the rest reads as empty'),
      rd.df.blocks[dataIndex]!.offset,
      gridPath,
    );
  }
  const plan: GridPlan = { kind, cells, tilemapVersion, stride: struct.stride, offset: rd.df.blocks[dataIndex]!.offset, path: gridPath };
  if (ignored) return ignoreGrid(rd, layer, plan, dataIndex);
  // The summary reads the game grid only (for gridDigest); the rest is checked up to the inflate,
  // and the checks of the stream's contents are named as not run.
  if (rd.summaryOnly && kind !== 'game') {
    readOrClaim(rd, dataIndex, gridPath);
    if (mayWarnOnRead(plan)) rd.unchecked.add('NONZERO_TILE_SKIP');
    return layer;
  }
  claimBlock(rd, dataIndex, gridPath);
  const key = gridKey(kind);
  if (rd.ctx.lazyLayers && !rd.summaryOnly) {
    // Everything above is what the full decode checks before inflating; the stream waits for a read.
    const late = deferGrid(rd.ctx, layer, key, plan, rd.df.deferData(dataIndex, gridPath), declared);
    if (mayWarnOnRead(plan)) rd.late.push({ at: rd.ctx.warnings.list.length, list: late });
  } else {
    const source: BlockReader = { read: () => rd.df.readData(dataIndex, gridPath), readTiles: (c) => rd.df.readTiles(dataIndex, gridPath, c) };
    gridFields(layer)[key] = readGrid(rd.ctx, plan, source, rd.ctx.warnings);
  }
  return layer;
}

/** Physics grids DDNet ignores when their block is shorter than width × height records. */
const IGNORED_WHEN_SHORT: ReadonlySet<TileLayerKind> = new Set(['tele', 'speedup', 'switch', 'tune']);

/** Nothing to read: the grid of a layer whose stored grid is ignored is all empty. */
const NO_RECORDS: BlockReader = { read: () => new Uint8Array(0), readTiles: () => undefined };

/**
 * A layer whose stored grid DDNet ignores (too short for its size): its grid reads as empty, as the
 * game plays it, and the stored bytes are kept in `ignoredGrid` so the encoder writes them back.
 * They are read now at every depth but the summary's: a short block, and no grid of records to defer.
 */
function ignoreGrid(rd: Reader, layer: TileLayer, plan: GridPlan, dataIndex: number): TileLayer {
  if (rd.summaryOnly) {
    readOrClaim(rd, dataIndex, plan.path);
    return layer;
  }
  if (rd.ctx.lazyLayers) {
    // Deferred like every other grid: the stored bytes and the empty grid are made on first read.
    claimBlock(rd, dataIndex, plan.path);
    deferIgnoredGrid(rd.ctx, layer, plan, rd.df.deferData(dataIndex, plan.path));
    return layer;
  }
  layer.ignoredGrid = readBlock(rd, dataIndex, plan.path);
  gridFields(layer)[gridKey(plan.kind)] = readGrid(rd.ctx, plan, NO_RECORDS, rd.ctx.warnings);
  return layer;
}

/** ignoreGrid's fields read on first access (layers: 'lazy'); a function of its own so the loaders hold only `source`. */
function deferIgnoredGrid(ctx: DecodeContext<TeeworldsWarningCode>, layer: TileLayer, plan: GridPlan, source: BlockReader): void {
  defineLazy(layer, 'ignoredGrid', () => source.read());
  // Reading no records warns of nothing: the sink is only readGrid's due.
  defineLazy(gridFields(layer), gridKey(plan.kind), () => readGrid(ctx, plan, NO_RECORDS, new WarningSink<TeeworldsWarningCode>('teeworlds', ctx.strict)));
}

/** Whether reading a grid's stream can warn (NONZERO_TILE_SKIP: CTile grids not in tile-skip form). */
function mayWarnOnRead(plan: GridPlan): boolean {
  return gridKey(plan.kind) === 'tiles' && plan.tilemapVersion < 4;
}

/**
 * `layer[key]` read on first access from `source` (layers: 'lazy'). Returns the grid's warnings
 * (those of its last read, else of a read made for them and dropped), for the map's `warnings`.
 * Under `strict` a warning throws at the read, as the eager decode throws at decode time.
 */
function deferGrid(
  ctx: DecodeContext<TeeworldsWarningCode>,
  layer: TileLayer,
  key: GridKey,
  plan: GridPlan,
  source: BlockReader,
  declared: number,
): () => DecodeWarning<TeeworldsWarningCode>[] {
  let found: DecodeWarning<TeeworldsWarningCode>[] | undefined;
  const read = () => {
    const sink = new WarningSink<TeeworldsWarningCode>('teeworlds', ctx.strict);
    const grid = readGrid(ctx, plan, source, sink);
    found = sink.list;
    return grid;
  };
  defineLazy(gridFields(layer), key, read);
  // A grid stored as whole records can also be counted without being read (grid-counts.ts): a
  // CTile grid of exactly its records (what readGrid splits in one step), whose count gives the
  // read's warnings too, and a physics grid (its tile type byte; its read warns of nothing).
  const resident = source.readResident;
  if (resident && plan.cells > 0 && plan.tilemapVersion < 4) {
    const typeAt = TYPE_BYTE[plan.kind];
    if (key === 'tiles' && declared === plan.cells * 4)
      noteGridCounter(layer, {
        key,
        count: () => {
          const sink = new WarningSink<TeeworldsWarningCode>('teeworlds', ctx.strict);
          const counts = new Uint32Array(256);
          const dirty = resident((block) => countTileRecords(block, plan.cells, counts));
          warnDirtyTiles(sink, dirty, plan);
          found = sink.list;
          return counts;
        },
      });
    else if (typeAt !== undefined && declared >= plan.cells * plan.stride)
      noteGridCounter(layer, {
        key,
        count: () => {
          const counts = new Uint32Array(256);
          resident((block) => countRecordByte(block, plan.cells, plan.stride, typeAt, counts));
          found = [];
          return counts;
        },
      });
  }
  return () => {
    if (!found) read();
    return found!;
  };
}
