// One tile grid's columns from its block (a tile layer's `tiles`, `tele`, `speedup`, `switch` or
// `tune` field), once map-tile-layers.ts has checked the layer: CTile grids split in one step,
// 0.7 tile-skip expanded, short blocks read as far as they go.

import type { DecodeContext } from '../../core/context.js';
import { decodeError, type WarningSink } from '../../core/errors.js';
import { kernelError } from '../../core/kernel-status.js';
import type { BlockReader } from './datafile.js';
import { gridKey } from './items.js';
import type { SpeedupColumns, SwitchColumns, TeeworldsWarningCode, TeleColumns, TileColumns, TileLayer, TileLayerKind, TuneColumns } from './types.js';

/** What readGrid needs of a tile layer whose checks have passed (no reference to the file, so a lazy grid does not keep it). */
export interface GridPlan {
  kind: TileLayerKind;
  cells: number;
  tilemapVersion: number;
  stride: number;
  /** The block's offset in the file, for errors and warnings. */
  offset: number;
  path: string;
}

export type GridKey = ReturnType<typeof gridKey>;

/** A tile layer seen as its grid field (`gridKey(kind)` names the one its kind has). */
export function gridFields(layer: TileLayer): Partial<Record<GridKey, TileLayerGrid>> {
  return layer as unknown as Partial<Record<GridKey, TileLayerGrid>>;
}

/** The columns of one tile grid (the layer's `tiles`, `tele`, `speedup`, `switch` or `tune` field) from its block; its warnings go to `sink`. */
export function readGrid(
  ctx: DecodeContext<TeeworldsWarningCode>,
  plan: GridPlan,
  source: BlockReader,
  sink: WarningSink<TeeworldsWarningCode>,
): TileLayerGrid {
  const { kind, cells, tilemapVersion, stride, offset, path } = plan;
  const ctile = gridKey(kind) === 'tiles';
  const warnDirty = (dirty: number) => warnDirtyTiles(sink, dirty, plan);
  // The commonest grid, a compressed block of exactly width × height CTiles: inflated and split
  // in one step (with the WASM inflater, one trip into its memory; only the columns come out).
  const direct = ctile && tilemapVersion < 4 ? source.readTiles(cells) : undefined;
  if (direct) {
    warnDirty(direct.dirty);
    return { index: direct.columns.subarray(0, cells), flags: direct.columns.subarray(cells, 2 * cells) };
  }
  const raw = source.read();
  const k = ctx.kernels;
  const check = (n: number, what: string) => {
    if (n < 0) throw kernelError('teeworlds', n, { offset, path, detail: what });
    return n;
  };
  if (tilemapVersion >= 4) {
    const buf = new Uint8Array(cells * 2);
    const index = buf.subarray(0, cells),
      flags = buf.subarray(cells);
    const n = check(k.expandTileSkip(raw, index, flags), 'tile-skip expansion');
    if (n !== cells) throw decodeError('teeworlds', 'CORRUPT', { offset, path, expected: `${cells} tiles`, actual: n });
    return { index, flags };
  }
  // Short blocks (UNDERSIZED_TILES, warned by the caller) read what is there.
  const count = raw.length < cells * stride ? Math.floor(raw.length / stride) : cells;
  if (ctile && count === cells) {
    // The block is ours (inflated or copied for this read): its 4-byte records become the two
    // 1-byte columns in place, so the commonest grid needs no second buffer (the columns keep
    // the block alive: 4 bytes per tile held instead of 2, for a fifth less time beside inflate).
    warnDirty(check(k.splitTilesInPlace(raw, cells), 'tile split'));
    return { index: raw.subarray(0, cells), flags: raw.subarray(cells, 2 * cells) };
  }
  // Speedup keeps force, maxSpeed and type as byte columns; its i16 angle is read separately.
  const keep = ctile ? 2 : kind === 'speedup' ? 3 : stride;
  const buf = new Uint8Array(cells * keep);
  // Split the whole records into a count-strided layout, then spread to cell-strided columns if short.
  const tmp = count === cells ? buf : new Uint8Array(count * keep);
  // Both buf and tmp are fresh (zeroed) arrays: most physics grids are empty, and leaving their
  // zero windows unwritten keeps those pages untouched.
  const dropped = check(k.splitColumns(raw, stride, keep, count, tmp, true), 'tile split');
  if (tmp !== buf) for (let c = 0; c < keep; c++) buf.set(tmp.subarray(c * count, (c + 1) * count), c * cells);
  const col = (c: number) => buf.subarray(c * cells, (c + 1) * cells);
  switch (kind) {
    case 'tele':
      return { number: col(0), type: col(1) };
    case 'tune':
      return { number: col(0), type: col(1) };
    case 'switch':
      return { number: col(0), type: col(1), flags: col(2), delay: col(3) };
    case 'speedup': {
      const angle = new Int16Array(cells);
      // `dropped` counts records with a non-zero padding or angle byte: with none (most speedup
      // layers are empty) the fresh, zero angle column is already right.
      if (dropped > 0) {
        for (let i = 0, p = 4; i < count; i++, p += 6) if (raw[p]! | raw[p + 1]!) angle[i] = (raw[p + 1]! << 8) | raw[p]!;
      }
      return { force: col(0), maxSpeed: col(1), type: col(2), angle };
    }
    default:
      warnDirty(dropped);
      return { index: col(0), flags: col(1) };
  }
}

export function warnDirtyTiles(sink: WarningSink<TeeworldsWarningCode>, dirty: number, plan: GridPlan): void {
  if (dirty > 0) sink.warn('NONZERO_TILE_SKIP', `${dirty} tiles have non-zero skip/reserved bytes (ignored)`, plan.offset, plan.path);
}

/** Any tile layer's grid field. */
type TileLayerGrid = TileColumns | TeleColumns | SpeedupColumns | SwitchColumns | TuneColumns;
