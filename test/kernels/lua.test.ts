// walkLuaChunk: both kernel sets give the same return, info and tables on built chunks, the
// corpus's chunks, random strings (transcoded as gwc's autoText decodes them), random and
// mutated bytes; tables too small are OVERFLOW, bad arguments CORRUPT, never a trap.
import { describe, expect, it } from 'vitest';
import { autoText } from '../../src/formats/gwc/lua.js';
import { gwc } from '../../src/index.js';
import { LUA_STRING_FIELDS, LuaInfo, luaTablesFor } from '../../src/kernels/js/lua.js';
import { jsLuaKernels, wasmLuaKernels } from '../../src/kernels/lua.js';
import { Status } from '../../src/kernels/status.js';
import type { LuaChunkTables, LuaKernels } from '../../src/kernels/types.js';
import { luaChunk, SAMPLE } from '../formats/gwc-lua-helpers.js';
import { firstDifference } from '../formats/teeworlds-helpers.js';
import { itCorpus } from '../helpers/needs.js';
import { listFiles, readBytes } from '../helpers/paths.js';
import { Prng } from '../helpers/prng.js';

const LIMITS = Int32Array.of(1 << 24, 200);
const js = jsLuaKernels;
const wasm = wasmLuaKernels();
const KERNEL_SETS: [string, LuaKernels][] = [
  ['js', js],
  ['wasm', wasm],
];

function tablesFor(info: Int32Array, shrink = ''): LuaChunkTables {
  const t = luaTablesFor(info);
  const all = t as unknown as Record<string, Int32Array>;
  if (shrink) all[shrink] = all[shrink]!.subarray(0, all[shrink]!.length >> 1);
  return t;
}

/** Both passes with one kernel set: the returns, info and (after a good count) the tables. */
function walk(k: LuaKernels, src: Uint8Array, sizeT = 4, shrink = '') {
  const info = new Int32Array(LuaInfo.PATH + 200).fill(-7);
  const counted = k.walkLuaChunk(src, 12, sizeT, LIMITS, null, info);
  if (counted < 0) return { counted, info: [...info] };
  const tables = tablesFor(info, shrink);
  const filled = k.walkLuaChunk(src, 12, sizeT, LIMITS, tables, info);
  return { counted, filled, info: [...info], tables: filled < 0 ? null : tables };
}

describe('walkLuaChunk', () => {
  it('both sets agree on a built chunk, size_t 4 and 8', () => {
    for (const sizeT of [4, 8]) {
      const src = luaChunk(SAMPLE, sizeT);
      const a = walk(js, src, sizeT);
      expect(a.filled).toBe(src.length);
      expect(walk(wasm, src, sizeT)).toEqual(a);
    }
  });

  itCorpus('gwc', 'both sets agree on every corpus chunk', (dir) => {
    for (const p of listFiles(dir, /\.gwc$/)) {
      const c = gwc.decode(readBytes(p)) as gwc.GwcCartridge;
      const a = walk(js, c.lua.bytes);
      expect(a.filled, p).toBe(c.lua.bytes.length);
      // isDeepStrictEqual: vitest's toEqual takes seconds on tables of 100,000 entries.
      expect(firstDifference(walk(wasm, c.lua.bytes), a), p).toBeNull();
    }
  });

  it('strings come out as gwc’s autoText reads them, on random bytes (UTF-8, Windows-1252, BOMs, surrogates, overlongs, ASCII runs)', () => {
    const rng = new Prng(0x5151);
    const pieces = [
      // Longer than the WASM twin's 16-byte ASCII step, so runs of it meet every other piece.
      [...'Wherigo.ZonePoint(52.1'].map((ch) => ch.charCodeAt(0)),
      [0xef, 0xbb, 0xbf],
      [0xed, 0xa0, 0x80],
      [0xc0, 0xaf],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf0, 0x9f, 0x98, 0x80],
      [0xc3, 0xa9],
      [0xe2, 0x82, 0xac],
      [0x80],
      [0x9f],
      [0x41],
    ];
    const strings: Uint8Array[] = [];
    for (let i = 0; i < 600; i++) {
      const out: number[] = [];
      for (let n = rng.int(6); n > 0; n--) out.push(...(rng.int(3) === 0 ? [rng.next() & 0xff] : pieces[rng.int(pieces.length)]!));
      strings.push(Uint8Array.from(out.map((b) => b || 1)));
    }
    const src = luaChunk({ code: [], k: strings });
    for (const [, k] of KERNEL_SETS) {
      const r = walk(k, src);
      const text = String.fromCharCode(...r.tables!.text);
      let from = 0;
      strings.forEach((s, i) => {
        const at = i * LUA_STRING_FIELDS;
        const to = r.tables!.strings[at + 2]!;
        const want = autoText(s);
        expect([text.slice(from, to), r.tables!.strings[at + 3] ? 'utf-8' : 'windows-1252'], `${k.name} string ${i}: ${[...s]}`).toEqual([
          want.text,
          want.encoding,
        ]);
        from = to;
      });
    }
  });

  it('both sets agree on random and mutated bytes', () => {
    const rng = new Prng(0xc0de);
    const base = luaChunk(SAMPLE);
    for (let round = 0; round < 500; round++) {
      let src: Uint8Array;
      if (round % 3 === 0) src = Uint8Array.from([...base.subarray(0, 12), ...rng.bytes(rng.int(200))]);
      else {
        src = base.slice();
        for (let n = 1 + rng.int(4); n > 0; n--) src[12 + rng.int(src.length - 12)] = rng.next() & 0xff;
        if (round % 3 === 2) src = src.subarray(0, 12 + rng.int(src.length - 12));
      }
      expect(walk(wasm, src), `round ${round}`).toEqual(walk(js, src));
    }
  });

  it('walkTables: the WASM single pass into bounded arena tables gives the TS twin’s exact tables and statuses', () => {
    const rng = new Prng(0x7ab1e5);
    const base = luaChunk(SAMPLE, 8);
    const outcome = (k: LuaKernels, src: Uint8Array) => {
      const info = new Int32Array(LuaInfo.PATH + 200);
      const r = k.walkTables(src, 12, 8, LIMITS, info);
      return typeof r === 'number' ? { status: r, field: [...info.subarray(0, LuaInfo.COUNTS)] } : r;
    };
    for (let round = 0; round < 300; round++) {
      const src = base.slice();
      if (round > 0) for (let n = 1 + rng.int(3); n > 0; n--) src[12 + rng.int(src.length - 12)] = rng.next() & 0xff;
      expect(firstDifference(outcome(wasm, src), outcome(js, src)), `round ${round}`).toBeNull();
    }
  });

  it('walkTables keepChunk: the same tables and a copy of the chunk beside them, not the caller’s bytes', () => {
    const src = luaChunk(SAMPLE, 8);
    const copy = src.slice();
    for (const [, k] of KERNEL_SETS) {
      const plain = k.walkTables(src, 12, 8, LIMITS, new Int32Array(LuaInfo.PATH + 200));
      const kept = k.walkTables(src, 12, 8, LIMITS, new Int32Array(LuaInfo.PATH + 200), true);
      if (typeof plain === 'number' || typeof kept === 'number') throw new Error(`${k.name}: the sample did not walk`);
      const { chunk, ...tables } = kept.tables;
      expect(firstDifference(tables, plain.tables), k.name).toBeNull();
      expect(plain.tables.chunk, k.name).toBeUndefined();
      expect(chunk, k.name).toEqual(copy);
      expect(chunk!.buffer, k.name).not.toBe(src.buffer);
      chunk![12] = 0xff;
      expect(src, k.name).toEqual(copy);
    }
  });

  it.each(['protos', 'constants', 'strings', 'locVars', 'upvalues', 'lineInfo', 'code', 'op', 'b', 'text'])('a %s table too small is OVERFLOW', (name) => {
    const src = luaChunk(SAMPLE);
    for (const [, k] of KERNEL_SETS) expect(walk(k, src, 4, name).filled, k.name).toBe(Status.OVERFLOW);
  });

  it('bad arguments are CORRUPT: start outside the chunk, size_t 2, depth 0, info too short', () => {
    const src = luaChunk(SAMPLE);
    for (const [, k] of KERNEL_SETS) {
      const info = new Int32Array(LuaInfo.PATH + 200);
      expect(k.walkLuaChunk(src, src.length + 1, 4, LIMITS, null, info)).toBe(Status.CORRUPT);
      expect(k.walkLuaChunk(src, 12, 2, LIMITS, null, info)).toBe(Status.CORRUPT);
      expect(k.walkLuaChunk(src, 12, 4, Int32Array.of(100, 0), null, info)).toBe(Status.CORRUPT);
      expect(k.walkLuaChunk(src, 12, 4, LIMITS, null, new Int32Array(LuaInfo.PATH + 10))).toBe(Status.CORRUPT);
    }
  });
});
