// Wherigo Lua chunks: decodeLuaChunk with each kernel set (js ÷ wasm, issue 42's floor ≥ 1.5) on
// the corpus's largest chunks, the walk kernel alone (both passes), and the cost of the model
// beside it. Every chunk's models are checked equal (isDeepStrictEqual) before anything is timed;
// the whole-decode ratio comes from alternating passes with the load printed beside it.
// Run alone: npx tsx bench/index.ts gwc-lua

import { gwc } from '../src/index.js';
import { LuaInfo, luaTablesFor } from '../src/kernels/js/lua.js';
import { jsLuaKernels, wasmLuaKernels } from '../src/kernels/lua.js';
import type { LuaKernels } from '../src/kernels/types.js';
import { corpusDir, listFiles, readBytes } from '../test/helpers/paths.js';
import { assertSameOutputs, comparePair, interleavedRatios } from './lib.js';

const dir = corpusDir('gwc');
if (!dir) console.log('gwc-lua: ../shared/corpus/gwc not found; skipped');
else {
  const chunks = listFiles(dir, /\.gwc$/)
    .filter((p) => !p.includes('/gwz/'))
    .map((p) => (gwc.decode(readBytes(p)) as gwc.GwcCartridge).lua.bytes)
    .sort((a, b) => b.length - a.length);
  // The largest distinct chunks (the corpus holds some cartridges twice).
  const seen = new Set<number>();
  const largest = chunks.filter((c) => !seen.has(c.length) && seen.add(c.length)).slice(0, 6);
  const bytes = largest.reduce((n, c) => n + c.length, 0);
  assertSameOutputs(
    'gwc-lua decode',
    largest,
    (c) => gwc.decodeLuaChunk(c, { backend: 'js' }),
    (c) => gwc.decodeLuaChunk(c, { backend: 'wasm' }),
  );

  const limits = Int32Array.of(1 << 24, gwc.LUA_MAX_DEPTH);
  /** Both passes of the walk over every chunk (what decodeLuaChunk asks of the kernel). */
  const walkAll = (k: LuaKernels) => (input: Uint8Array[]) => {
    let check = 0;
    for (const c of input) {
      const info = new Int32Array(LuaInfo.PATH + gwc.LUA_MAX_DEPTH);
      k.walkLuaChunk(c, 12, 4, limits, null, info);
      check = (check + k.walkLuaChunk(c, 12, 4, limits, luaTablesFor(info), info)) | 0;
    }
    return check;
  };
  const wasm = wasmLuaKernels();
  await comparePair(
    'walkLuaChunk (count + fill, MB/s of chunk bytes)',
    [{ name: `${largest.length} largest corpus chunks (${(bytes / 1024).toFixed(0)} KB)`, input: largest, bytes }],
    walkAll(jsLuaKernels),
    walkAll(wasm),
    (a, b) => a === b,
  );

  const decodeAll = (backend: 'js' | 'wasm') => () => {
    for (const c of largest) gwc.decodeLuaChunk(c, { backend });
  };
  interleavedRatios(
    `decodeLuaChunk, ${largest.length} largest corpus chunks (${(bytes / 1024).toFixed(0)} KB), 40 decodes per pass`,
    ['wasm', () => repeat(decodeAll('wasm'))],
    [['js', () => repeat(decodeAll('js'))]],
  );
}

function repeat(f: () => void): void {
  for (let i = 0; i < 40; i++) f();
}
