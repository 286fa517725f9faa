// WASM bindings: the Lua 5.1 chunk walk. The chunk goes into the arena once per call, beside the
// tables and a table of their pointers and capacities, so the kernel checks every write against
// what the binding reserved: the caller's tables' sizes (walkLuaChunk), or bounds from the
// chunk's size (walkTables: one pass instead of a count and a fill).

import * as L from '../js/lua.js';
import { Status } from '../status.js';
import type { LuaChunkTables } from '../types.js';
import type { WasmRuntime } from './runtime.js';

/** The tables in the order assembly/lua.ts numbers them (T_PROTOS … T_TEXT). */
const ORDER = ['protos', 'constants', 'strings', 'locVars', 'upvalues', 'lineInfo', 'code', 'op', 'a', 'b', 'c', 'text'] as const;
/** For each table, the total (L.LuaCount) that says how many entries the walk wrote, and the slots per entry. */
const USED = [
  L.LuaCount.PROTOS,
  L.LuaCount.CONSTANTS,
  L.LuaCount.STRINGS,
  L.LuaCount.LOCVARS,
  L.LuaCount.UPVALUES,
  L.LuaCount.LINES,
  ...Array(5).fill(L.LuaCount.CODE),
  L.LuaCount.TEXT,
];
const PER = [L.LUA_PROTO_FIELDS, L.LUA_CONSTANT_FIELDS, L.LUA_STRING_FIELDS, L.LUA_LOCVAR_FIELDS, 1, 1, 1, 1, 1, 1, 1, 1];
/** Bytes per element of each table. */
const BYTES = [4, 4, 4, 4, 4, 4, 4, 1, 1, 2, 2, 2];

export function walkLuaChunk(
  rt: WasmRuntime,
  src: Uint8Array,
  start: number,
  sizeT: number,
  limits: Int32Array,
  tables: LuaChunkTables | null,
  info: Int32Array,
): number {
  if (!argsHold(src, start, sizeT, limits, info)) return Status.CORRUPT;
  // Capacities in elements; the five instruction columns share the shortest one's.
  const codeCap = tables ? Math.min(tables.code.length, tables.op.length, tables.a.length, tables.b.length, tables.c.length) : 0;
  const caps = ORDER.map((k, i) => (!tables ? 0 : i >= 6 && i <= 10 ? codeCap : tables[k].length));
  return run(rt, src, start, sizeT, limits, tables ? caps : null, info, (end, at) => {
    // Only what the walk wrote goes back (the text table is sized by bytes, its units may be fewer),
    // so entries past the totals stay as the caller left them, as with the TS twin.
    if (end >= 0 && tables) ORDER.forEach((k, i) => rt.get(tables[k].subarray(0, Math.min(tables[k].length, used(info, i))), at[i]!));
  });
}

/**
 * walkTables' WASM twin: one pass (not a count, then a fill) into arena tables as large as a
 * chunk of `src`'s size could need (each item takes at least a few bytes: L.LUA_PROTO_MIN_BYTES +
 * size_t per prototype, 1 per constant, size_t per string…, about 22 bytes of arena per chunk
 * byte), then tables of exactly the totals, copied out (with a copy of `src` when `keepChunk`).
 */
export function walkTables(
  rt: WasmRuntime,
  src: Uint8Array,
  start: number,
  sizeT: number,
  limits: Int32Array,
  info: Int32Array,
  keepChunk = false,
): { end: number; tables: LuaChunkTables } | number {
  if (!argsHold(src, start, sizeT, limits, info)) return Status.CORRUPT;
  const n = src.length - start;
  const code = Math.floor(n / 4) + 1;
  const caps = [
    (Math.floor(n / (L.LUA_PROTO_MIN_BYTES + sizeT)) + 1) * L.LUA_PROTO_FIELDS,
    n * L.LUA_CONSTANT_FIELDS,
    (Math.floor(n / sizeT) + 1) * L.LUA_STRING_FIELDS,
    (Math.floor(n / (sizeT + 8)) + 1) * L.LUA_LOCVAR_FIELDS,
    Math.floor(n / sizeT) + 1,
    code,
    code,
    code,
    code,
    code,
    code,
    n,
  ];
  let tables: LuaChunkTables | null = null;
  const end = run(rt, src, start, sizeT, limits, caps, info, (e, at) => {
    if (e < 0) return;
    const t = L.luaTablesFor(info, keepChunk ? src : undefined);
    ORDER.forEach((k, i) => rt.get(t[k].subarray(0, used(info, i)), at[i]!));
    tables = t;
  });
  return end < 0 || !tables ? end : { end, tables };
}

/** What the TS twin checks before it reads anything (bad arguments are CORRUPT, info untouched). */
function argsHold(src: Uint8Array, start: number, sizeT: number, limits: Int32Array, info: Int32Array): boolean {
  const maxDepth = limits[L.LuaLimit.DEPTH]!;
  return (
    Number.isInteger(start) && start >= 0 && start <= src.length && (sizeT === 4 || sizeT === 8) && maxDepth >= 1 && info.length >= L.LuaInfo.PATH + maxDepth
  );
}

/** Elements of table `i` the walk wrote. */
function used(info: Int32Array, i: number): number {
  return info[L.LuaInfo.COUNTS + USED[i]!]! * PER[i]!;
}

/** One kernel call with tables of `caps` elements (null: count only); `done` copies out while the arena still holds them. */
function run(
  rt: WasmRuntime,
  src: Uint8Array,
  start: number,
  sizeT: number,
  limits: Int32Array,
  caps: number[] | null,
  info: Int32Array,
  done: (end: number, at: number[]) => void,
): number {
  const maxDepth = limits[L.LuaLimit.DEPTH]!;
  const [ps, pi, pst, pcp, ptp, pcaps, ...po] = rt.reserve(
    src.length,
    info.byteLength,
    maxDepth * 8,
    L.CP1252_HIGH.byteLength,
    ORDER.length * 4,
    ORDER.length * 4,
    ...ORDER.map((_, i) => (caps ? caps[i]! * BYTES[i]! : 0)),
  ) as number[];
  rt.put(src, ps!);
  rt.put(info, pi!);
  rt.put(L.CP1252_HIGH, pcp!);
  rt.put(Uint32Array.from(po), ptp!);
  rt.put(Uint32Array.from(caps ?? ORDER.map(() => 0)), pcaps!);
  const end = rt.exports.walkLuaChunk(
    ps!,
    src.length,
    start,
    sizeT,
    limits[L.LuaLimit.RECORDS]!,
    maxDepth,
    caps ? 1 : 0,
    ptp!,
    pcaps!,
    pi!,
    pst!,
    pcp!,
  ) as number;
  rt.get(info, pi!);
  done(end, po);
  return end;
}
