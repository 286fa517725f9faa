// The Lua chunk walk's kernel pair (LuaKernels in types.ts), chosen like the shared kernel set:
// the twin of the set a decode runs with (`backend`, or explicit `kernels`, by their name). The
// WASM twin is a module of its own (assembly/lua-index.ts), compiled on first use, so only apps
// that decode Lua chunks carry it.
import { LuaCount, LuaInfo, luaTablesFor, walkLuaChunk } from './js/lua.js';
import { Status } from './status.js';
import type { Kernels, LuaChunkTables, LuaKernels } from './types.js';
import { walkTables as walkTablesWasm, walkLuaChunk as walkWasm } from './wasm/lua.js';
import { LUA_WASM_BASE64 } from './wasm/lua-binary.generated.js';
import { compileError, decodeBase64, hostWebAssembly, WasmRuntime } from './wasm/runtime.js';

/** The TypeScript reference walk. */
export const jsLuaKernels: LuaKernels = Object.freeze({
  name: 'js' as const,
  walkLuaChunk,
  walkTables: (src: Uint8Array, start: number, sizeT: number, limits: Int32Array, info: Int32Array, keepChunk = false) => {
    const counted = walkLuaChunk(src, start, sizeT, limits, null, info);
    if (counted < 0) return counted;
    const tables = luaTablesFor(info, keepChunk ? src : undefined);
    const end = walkLuaChunk(src, start, sizeT, limits, tables, info);
    // The count gave the strings' bytes; the fill, the UTF-16 units they came to (as many or fewer).
    tables.text = tables.text.subarray(0, info[LuaInfo.COUNTS + LuaCount.TEXT]!);
    return end === counted ? { end, tables } : end < 0 ? end : Status.CORRUPT;
  },
});

let wasm: LuaKernels | null = null;

/** The WASM walk; WasmUnavailableError where WebAssembly (with SIMD) cannot run it, as wasmKernels() throws. */
export function wasmLuaKernels(): LuaKernels {
  if (wasm) return wasm;
  const wa = hostWebAssembly();
  let module: WebAssembly.Module;
  try {
    module = new wa.Module(decodeBase64(LUA_WASM_BASE64) as BufferSource);
  } catch (e) {
    throw compileError(e);
  }
  const rt = new WasmRuntime(module);
  wasm = Object.freeze({
    name: 'wasm' as const,
    walkLuaChunk: (src: Uint8Array, start: number, sizeT: number, limits: Int32Array, tables: LuaChunkTables | null, info: Int32Array) => {
      try {
        return walkWasm(rt, src, start, sizeT, limits, tables, info);
      } finally {
        // A big chunk may have grown memory past the arena cap: drop it, as every kernel call does.
        rt.release();
      }
    },
    walkTables: (src: Uint8Array, start: number, sizeT: number, limits: Int32Array, info: Int32Array, keepChunk = false) => {
      try {
        return walkTablesWasm(rt, src, start, sizeT, limits, info, keepChunk);
      } finally {
        rt.release();
      }
    },
  });
  return wasm;
}

/** The Lua walk twin of `kernels` (a set chooseKernels gave). */
export function luaKernelsFor(kernels: Kernels): LuaKernels {
  return kernels.name === 'wasm' ? wasmLuaKernels() : jsLuaKernels;
}
