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
  gatherRecords(src: number, srcLen: number, count: number, fixedWords: number, lenIndex: number, lenCount: number, cols: number, tails: number, base: number): number;
  walkRecords(src: number, srcLen: number, count: number, prog: number, ops: number, cols: number, base: number, plan: number): number;
  expandTileSkip(src: number, srcLen: number, index: number, flags: number, capacity: number): number;
  splitColumns(src: number, stride: number, keep: number, count: number, dst: number): number;
  allZero(ptr: number, len: number): number;
  graalTileStream(src: number, srcLen: number, codeBits: number, dst: number, cap: number): number;
  decodeBoardRows(text: number, textLen: number, rows: number, rowCount: number, dst: number, dstLen: number): number;
  [name: string]: unknown;
}

export class WasmRuntime {
  private buffer: ArrayBuffer | null = null;
  private _u8!: Uint8Array;

  constructor(readonly exports: WasmExports) {}

  /** Byte view of linear memory (fresh after growth). */
  get u8(): Uint8Array {
    if (this.buffer !== this.exports.memory.buffer) {
      this.buffer = this.exports.memory.buffer;
      this._u8 = new Uint8Array(this.buffer);
    }
    return this._u8;
  }

  /**
   * Reserves one region per size (each 16-byte aligned) for one kernel call and returns their
   * pointers, or null when the arena cannot grow that far (the caller falls back to JS).
   * Regions are valid until the next reserve().
   */
  reserve(...sizes: number[]): number[] | null {
    let total = 0;
    const offs: number[] = [];
    for (const s of sizes) {
      offs.push(total);
      total += (s + 15) & ~15;
    }
    if (total > 0xffff0000) return null;
    const base = this.exports.arenaEnsure(total) >>> 0;
    if (base === 0) return null;
    return offs.map((o) => base + o);
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

function decodeBase64(b64: string): Uint8Array {
  const B = (globalThis as { Buffer?: { from(s: string, enc: string): Uint8Array } }).Buffer;
  if (B) return new Uint8Array(B.from(b64, 'base64'));
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The embedded module bytes (for hosts that want to compile it themselves). */
export function wasmBytes(): Uint8Array { return decodeBase64(WASM_BASE64); }

const imports = { env: { abort: () => { throw new Error('levelkit: WASM kernel aborted'); } } };

/** Instantiates synchronously (the module is a few KB, under every browser's sync limit). */
export function instantiateSync(module?: WebAssembly.Module): WasmRuntime {
  const mod = module ?? new WebAssembly.Module(wasmBytes() as BufferSource);
  const inst = new WebAssembly.Instance(mod, imports);
  return new WasmRuntime(inst.exports as unknown as WasmExports);
}

/** Async instantiate, for hosts that forbid synchronous compilation. */
export async function instantiateAsync(module?: WebAssembly.Module): Promise<WasmRuntime> {
  const mod = module ?? (await WebAssembly.compile(wasmBytes() as BufferSource));
  const inst = await WebAssembly.instantiate(mod, imports);
  return new WasmRuntime(inst.exports as unknown as WasmExports);
}
