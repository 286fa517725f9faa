// The plain-TypeScript kernel set: the reference path and the oracle the WASM kernels are tested against.
import type { Kernels } from '../types.js';
import { sumBytes } from './checksum.js';
import { scanTileGrid } from './tiles.js';
import { gatherRecords } from './records.js';

export const jsKernels: Kernels = Object.freeze({
  name: 'js' as const,
  sumBytes,
  scanTileGrid,
  gatherRecords,
});
