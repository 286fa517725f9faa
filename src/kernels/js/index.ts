// The plain-TypeScript kernel set: the reference path and the oracle the WASM kernels are tested against.
import type { Kernels } from '../types.js';
import { graalTileStream } from './bitstream.js';
import { decodeBoardRows } from './board.js';
import { replaceByte } from './bytes.js';
import { sumBytes } from './checksum.js';
import { inflateResident, inflateTiles, inflateZlib } from './inflate.js';
import { splitNwLines } from './nwlines.js';
import { gatherRecords } from './records.js';
import { holdBytes } from './resident.js';
import { snappyCompress } from './snappy.js';
import { expandTileSkip, splitColumns, splitTilesInPlace } from './tilemap.js';
import { scanTileGrid } from './tiles.js';
import { walkRecords } from './walk.js';

export const jsKernels: Kernels = Object.freeze({
  name: 'js' as const,
  sumBytes,
  scanTileGrid,
  gatherRecords,
  walkRecords,
  graalTileStream,
  decodeBoardRows,
  splitNwLines,
  replaceByte,
  expandTileSkip,
  splitColumns,
  splitTilesInPlace,
  inflateZlib,
  inflateTiles,
  inflateResident,
  holdBytes,
  snappyCompress,
});
