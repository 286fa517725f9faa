// The WASM kernel set: lazily instantiated from the embedded module on first use.
import type { Kernels } from '../types.js';
import { instantiateAsync, instantiateSync, type WasmRuntime, wasmBytes } from './runtime.js';

export { ARENA_CAP_BYTES, WasmUnavailableError } from './runtime.js';

import * as bitstream from './bitstream.js';
import * as board from './board.js';
import * as bytes from './bytes.js';
import * as checksum from './checksum.js';
import * as inflate from './inflate.js';
import * as nwlines from './nwlines.js';
import * as records from './records.js';
import * as resident from './resident.js';
import * as snappy from './snappy.js';
import * as tilemap from './tilemap.js';
import * as tiles from './tiles.js';
import * as walk from './walk.js';

function bind(rt: WasmRuntime): Kernels {
  // Every call ends in release(), which drops memory a big call grew past the cap.
  const done = <T>(v: T): T => {
    rt.release();
    return v;
  };
  return Object.freeze({
    name: 'wasm' as const,
    sumBytes: (src) => done(checksum.sumBytes(rt, src)),
    scanTileGrid: (cells, counts, maxIds) => done(tiles.scanTileGrid(rt, cells, counts, maxIds)),
    gatherRecords: (src, offset, count, layout, columns, strings, starts) =>
      done(records.gatherRecords(rt, src, offset, count, layout, columns, strings, starts)),
    walkRecords: (src, offset, count, program, columns) => done(walk.walkRecords(rt, src, offset, count, program, columns)),
    graalTileStream: (src, offset, codeBits, dst) => done(bitstream.graalTileStream(rt, src, offset, codeBits, dst)),
    decodeBoardRows: (text, rows, rowCount, dst) => done(board.decodeBoardRows(rt, text, rows, rowCount, dst)),
    splitNwLines: (src, trust, starts, ends, boards, out) => done(nwlines.splitNwLines(rt, src, trust, starts, ends, boards, out)),
    replaceByte: (buf, from, to) => done(bytes.replaceByte(rt, buf, from, to)),
    expandTileSkip: (src, index, flags) => done(tilemap.expandTileSkip(rt, src, index, flags)),
    splitColumns: (src, stride, keep, count, dst, dstZeroed) => done(tilemap.splitColumns(rt, src, stride, keep, count, dst, dstZeroed)),
    splitTilesInPlace: (buf, count) => done(tilemap.splitTilesInPlace(rt, buf, count)),
    inflateZlib: (src, dst) => done(inflate.inflateZlib(rt, src, dst)),
    inflateTiles: (src, dst, cells) => done(inflate.inflateTiles(rt, src, dst, cells)),
    // unhold() releases memory grown past the cap itself, once the held block is no longer read.
    inflateResident: (src, size, use) => inflate.inflateResident(rt, src, size, use),
    holdBytes: (src, scratch, use) => resident.holdBytes(rt, src, scratch, use),
    snappyCompress: (src, dst) => done(snappy.snappyCompress(rt, src, dst)),
  } satisfies Kernels);
}

let instance: Kernels | null = null;
let runtime: WasmRuntime | null = null;
let failure: unknown = null;

/**
 * The WASM kernels, instantiating synchronously on first call. Throws WasmUnavailableError when
 * WebAssembly (with SIMD) is unavailable here, and from a call whose memory cannot grow.
 */
export function wasmKernels(): Kernels {
  if (instance) return instance;
  if (failure) throw failure;
  try {
    runtime = instantiateSync();
    instance = bind(runtime);
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
  runtime = await instantiateAsync(module);
  instance = bind(runtime);
  failure = null;
}

/** Bytes of WASM linear memory held right now (0 before the first instantiation); for tests and benches. */
export function wasmMemoryBytes(): number {
  return runtime ? runtime.memoryBytes : 0;
}

/**
 * Compiles the embedded kernel module without instantiating it: a bulk scan compiles once and
 * posts the module to each worker, which passes it to init().
 */
export function compileWasm(): Promise<WebAssembly.Module> {
  return WebAssembly.compile(wasmBytes() as BufferSource);
}
