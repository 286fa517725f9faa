// The WASM kernel set: lazily instantiated from the embedded module on first use.
import type { Kernels } from '../types.js';
import { instantiateAsync, instantiateSync, type WasmRuntime } from './runtime.js';
import * as checksum from './checksum.js';
import * as tiles from './tiles.js';
import * as records from './records.js';
import * as walk from './walk.js';
import * as bitstream from './bitstream.js';
import * as board from './board.js';
import * as tilemap from './tilemap.js';

function bind(rt: WasmRuntime): Kernels {
  return Object.freeze({
    name: 'wasm' as const,
    sumBytes: (src) => checksum.sumBytes(rt, src),
    scanTileGrid: (cells, counts, maxIds) => tiles.scanTileGrid(rt, cells, counts, maxIds),
    gatherRecords: (src, offset, count, layout, columns, tails) => records.gatherRecords(rt, src, offset, count, layout, columns, tails),
    walkRecords: (src, offset, count, program, columns) => walk.walkRecords(rt, src, offset, count, program, columns),
    graalTileStream: (src, offset, codeBits, dst) => bitstream.graalTileStream(rt, src, offset, codeBits, dst),
    decodeBoardRows: (text, rows, rowCount, dst) => board.decodeBoardRows(rt, text, rows, rowCount, dst),
    expandTileSkip: (src, index, flags) => tilemap.expandTileSkip(rt, src, index, flags),
    splitColumns: (src, stride, keep, count, dst, dstZeroed) => tilemap.splitColumns(rt, src, stride, keep, count, dst, dstZeroed),
    splitTilesInPlace: (buf, count) => tilemap.splitTilesInPlace(rt, buf, count),
  } satisfies Kernels);
}

let instance: Kernels | null = null;
let failure: unknown = null;

/** The WASM kernels, instantiating synchronously on first call. Throws if WebAssembly (with SIMD) is unavailable. */
export function wasmKernels(): Kernels {
  if (instance) return instance;
  if (failure) throw failure;
  try {
    instance = bind(instantiateSync());
    return instance;
  } catch (e) {
    failure = e;
    throw e;
  }
}

/** True when the WASM kernels can be (or already are) instantiated here. */
export function wasmAvailable(): boolean {
  try {
    wasmKernels();
    return true;
  } catch {
    return false;
  }
}

/**
 * Instantiates asynchronously, for hosts that forbid synchronous compilation on the main thread.
 * Pass a precompiled module to share one across workers.
 */
export async function init(module?: WebAssembly.Module): Promise<void> {
  if (instance) return;
  instance = bind(await instantiateAsync(module));
  failure = null;
}
