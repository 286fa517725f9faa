// The WASM instance and its scratch arena. Bindings lay inputs and outputs out in the arena
// (one call per block, never per tile), call the export with pointers, and copy results out.
// Typed-array views over linear memory are rebuilt only when memory.grow detached the old ones.

import { WASM_BASE64 } from './binary.generated.js';

/** The raw exports of assembly/index.ts. */
export interface WasmExports {
  memory: WebAssembly.Memory;
  arenaEnsure(bytes: number): number;
  sumBytes(ptr: number, len: number): number;
  scanTileGrid(cells: number, count: number, maxIds: number, setCount: number, counts: number): number;
  gatherRecords(
    src: number,
    srcLen: number,
    maxRecs: number,
    fixedWords: number,
    lenIndex: number,
    lenCount: number,
    cols: number,
    colStride: number,
    blob: number,
    starts: number,
    blobBase: number,
    out: number,
  ): number;
  walkRecords(src: number, srcLen: number, count: number, prog: number, ops: number, cols: number, base: number, plan: number): number;
  expandTileSkip(src: number, srcLen: number, index: number, flags: number, capacity: number): number;
  splitColumns(src: number, stride: number, keep: number, count: number, dst: number): number;
  allZero(ptr: number, len: number): number;
  graalTileStream(src: number, srcLen: number, codeBits: number, dst: number, cap: number): number;
  decodeBoardRows(text: number, textLen: number, rows: number, rowCount: number, dst: number, dstLen: number): number;
  splitNwLines(src: number, len: number, trust: number, starts: number, ends: number, cap: number, boards: number, boardCap: number, out: number): number;
  replaceByte(ptr: number, len: number, from: number, to: number): number;
  inflateZlib(src: number, srcLen: number, dst: number, dstLen: number): number;
  snappyCompress(src: number, srcLen: number, dst: number, table: number): number;
  /** The Lua chunk module's (assembly/lua-index.ts), instantiated apart: src/kernels/lua.ts. */
  walkLuaChunk(
    src: number,
    srcLen: number,
    start: number,
    sizeT: number,
    records: number,
    maxDepth: number,
    fill: number,
    tables: number,
    caps: number,
    info: number,
    stack: number,
    cp1252: number,
  ): number;
  [name: string]: unknown;
}

/**
 * Linear memory a runtime keeps between calls. WASM memory cannot shrink, so a call that grew it
 * past this leaves a fresh instance behind (see WasmRuntime.release): a long scan then holds
 * memory for the file it is on, not for the largest it ever met.
 */
export const ARENA_CAP_BYTES = 16 << 20;

/**
 * Thrown when the WASM kernels cannot run here: no WebAssembly (or no SIMD), instantiation
 * failed, or linear memory could not grow for a call. `backend: 'wasm'` surfaces it as is.
 */
export class WasmUnavailableError extends Error {
  override readonly name = 'WasmUnavailableError';
}

export class WasmRuntime {
  private buffer: ArrayBuffer | null = null;
  private _u8!: Uint8Array;
  private grewPastCap = false;
  // Arena bytes known to be addressable from `base` (what the last arenaEnsure granted), so a
  // call that fits needs no export call: small per-call inputs are where the binding's fixed
  // cost decides whether WASM wins at all.
  private base = 0;
  private ensured = 0;
  // A block held in the arena across several kernel calls (hold()): its bytes and the scratch
  // the calls inside may use beyond it, which was made addressable up front.
  private held = 0;
  private heldScratch = 0;
  exports: WasmExports;

  /** `module` is kept so the instance can be replaced without compiling again. */
  constructor(private readonly module: WebAssembly.Module) {
    this.exports = instantiate(module);
  }

  /** Byte view of linear memory (fresh after growth). */
  get u8(): Uint8Array {
    if (this.buffer !== this.exports.memory.buffer) {
      this.buffer = this.exports.memory.buffer;
      this._u8 = new Uint8Array(this.buffer);
    }
    return this._u8;
  }

  /** Bytes of linear memory the current instance holds. */
  get memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }

  /**
   * Reserves one region per size (each 16-byte aligned) for one kernel call and returns their
   * pointers. Regions are valid until the next reserve(). Throws WasmUnavailableError when
   * memory cannot grow that far: a caller that asked for WASM gets no silent TS run instead.
   */
  reserve(...sizes: number[]): number[] {
    let total = 0;
    const offs: number[] = [];
    for (const s of sizes) {
      offs.push(total);
      // Not `(s + 15) & ~15`: bit operations wrap at 2^32, and a huge size would reserve nothing.
      total += Math.ceil(s / 16) * 16;
    }
    const base = this.reserve1(total);
    return offs.map((o) => base + o);
  }

  /** reserve() for one region, without the arrays: the pointer. */
  reserve1(bytes: number): number {
    if (bytes <= this.ensured) return this.base;
    // Growing memory would detach the views of a held block that callers are reading.
    if (this.held > 0) throw new Error(`levelkit: internal: a kernel call asked for ${bytes} scratch bytes beside a held block (${this.heldScratch} reserved)`);
    const base = bytes > 0xffff0000 ? 0 : this.exports.arenaEnsure(bytes) >>> 0;
    if (base === 0)
      throw new WasmUnavailableError(
        `levelkit: WASM memory could not grow to ${bytes} bytes for one kernel call (out of memory or past 4 GiB); decode with backend 'js'`,
      );
    if (base + bytes > ARENA_CAP_BYTES) this.grewPastCap = true;
    this.base = base;
    this.ensured = bytes;
    return base;
  }

  /**
   * Ends a kernel call: when it grew memory past ARENA_CAP_BYTES, the instance is replaced by a
   * fresh one from the cached module (kernels keep no state between calls, so nothing is lost)
   * and the big memory is left to the garbage collector.
   */
  release(): void {
    if (!this.grewPastCap || this.held > 0) return;
    this.grewPastCap = false;
    if (this.memoryBytes <= ARENA_CAP_BYTES) return;
    this.exports = instantiate(this.module);
    this.buffer = null;
    this.ensured = 0;
  }

  /**
   * Holds `bytes` bytes at the start of the arena across kernel calls (one trip into memory for a
   * block several kernels read): returns their pointer; until unhold(), reserve() hands out
   * regions after them, within `scratch` bytes made addressable now, so memory never grows (and
   * views of the held bytes never detach) while they are held. A call needing more scratch is a
   * bug and throws. Throws WasmUnavailableError when memory cannot grow that far.
   */
  hold(bytes: number, scratch: number): number {
    if (this.held > 0) throw new Error('levelkit: internal: one block is held already');
    const size = Math.ceil(bytes / 16) * 16;
    const base = this.reserve1(size + scratch);
    this.held = size;
    this.heldScratch = scratch;
    this.base = base + size;
    this.ensured -= size;
    return base;
  }

  /** Ends hold(): the arena is free again (and memory grown past the cap is released). */
  unhold(): void {
    if (this.held === 0) return;
    this.base -= this.held;
    this.ensured += this.held;
    this.held = 0;
    this.heldScratch = 0;
    this.release();
  }

  /** The pointer of `view` when it is a view of this runtime's memory (a held block), else -1. */
  pointerOf(view: ArrayBufferView): number {
    return this.held > 0 && view.buffer === this.exports.memory.buffer ? view.byteOffset : -1;
  }

  /** Copies `src` into memory at `ptr`. */
  put(src: ArrayBufferView, ptr: number): void {
    this.u8.set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength), ptr);
  }

  /** Copies `dst.byteLength` bytes from memory at `ptr` into `dst`. */
  get(dst: ArrayBufferView, ptr: number): void {
    new Uint8Array(dst.buffer, dst.byteOffset, dst.byteLength).set(this.u8.subarray(ptr, ptr + dst.byteLength));
  }
}

/** Bytes of an embedded module (base64), with Node's Buffer where there is one. */
export function decodeBase64(b64: string): Uint8Array {
  const B = (globalThis as { Buffer?: { from(s: string, enc: string): Uint8Array } }).Buffer;
  if (B) return new Uint8Array(B.from(b64, 'base64'));
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The embedded module bytes (for hosts that want to compile it themselves). */
export function wasmBytes(): Uint8Array {
  return decodeBase64(WASM_BASE64);
}

const imports = {
  env: {
    abort: () => {
      throw new Error('levelkit: WASM kernel aborted');
    },
  },
};

function instantiate(module: WebAssembly.Module): WasmExports {
  try {
    return new WebAssembly.Instance(module, imports).exports as unknown as WasmExports;
  } catch (e) {
    throw new WasmUnavailableError(`levelkit: the WASM kernels could not be instantiated (${(e as Error)?.message ?? e}); decode with backend 'js'`, {
      cause: e,
    });
  }
}

export function hostWebAssembly(): typeof WebAssembly {
  const wa = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
  if (!wa) throw new WasmUnavailableError("levelkit: backend 'wasm' needs WebAssembly, which this host does not provide; use backend 'js' or 'auto'");
  return wa;
}

export function compileError(e: unknown): WasmUnavailableError {
  return new WasmUnavailableError(
    `levelkit: the WASM kernels could not be compiled here (they need WebAssembly SIMD): ${(e as Error)?.message ?? e}; use backend 'js' or 'auto'`,
    { cause: e },
  );
}

/**
 * Instantiates synchronously. The module is 8.4 KB (inflater included): Node, Workers and current
 * Chromium's main thread (8 MB limit) compile that synchronously; browsers that still cap a main
 * thread at 4 KB throw here (so `auto` falls back to TypeScript) unless init() compiled it first.
 */
export function instantiateSync(module?: WebAssembly.Module): WasmRuntime {
  const wa = hostWebAssembly();
  let mod = module;
  if (!mod) {
    try {
      mod = new wa.Module(wasmBytes() as BufferSource);
    } catch (e) {
      throw compileError(e);
    }
  }
  return new WasmRuntime(mod);
}

/** Async instantiate, for hosts that forbid synchronous compilation. */
export async function instantiateAsync(module?: WebAssembly.Module): Promise<WasmRuntime> {
  const wa = hostWebAssembly();
  let mod = module;
  if (!mod) {
    try {
      mod = await wa.compile(wasmBytes() as BufferSource);
    } catch (e) {
      throw compileError(e);
    }
  }
  return new WasmRuntime(mod);
}
