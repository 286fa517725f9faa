// WASM bindings: the Lua 5.1 chunk walk. The chunk goes into the arena once per call, beside the
// tables (sized by the caller from a walk without tables) and a table of their pointers and
// capacities, so the kernel checks every write against what the binding reserved.

import { CP1252_HIGH, LUA_CONSTANT_FIELDS, LUA_LOCVAR_FIELDS, LUA_PROTO_FIELDS, LUA_STRING_FIELDS, LuaCount, LuaInfo, LuaLimit } from '../js/lua.js';
import { Status } from '../status.js';
import type { LuaChunkTables } from '../types.js';
import type { WasmRuntime } from './runtime.js';

/** The tables in the order assembly/lua.ts numbers them (T_PROTOS … T_TEXT). */
const ORDER = ['protos', 'constants', 'strings', 'locVars', 'upvalues', 'lineInfo', 'code', 'op', 'a', 'b', 'c', 'text'] as const;
/** For each table, the total (LuaCount) that says how many entries the walk wrote, and the slots per entry. */
const USED = [
  LuaCount.PROTOS,
  LuaCount.CONSTANTS,
  LuaCount.STRINGS,
  LuaCount.LOCVARS,
  LuaCount.UPVALUES,
  LuaCount.LINES,
  ...Array(5).fill(LuaCount.CODE),
  LuaCount.TEXT,
];
const PER = [LUA_PROTO_FIELDS, LUA_CONSTANT_FIELDS, LUA_STRING_FIELDS, LUA_LOCVAR_FIELDS, 1, 1, 1, 1, 1, 1, 1, 1];

export function walkLuaChunk(
  rt: WasmRuntime,
  src: Uint8Array,
  start: number,
  sizeT: number,
  limits: Int32Array,
  tables: LuaChunkTables | null,
  info: Int32Array,
): number {
  const maxDepth = limits[LuaLimit.DEPTH]!;
  const records = limits[LuaLimit.RECORDS]!;
  if (!Number.isInteger(start) || start < 0 || start > src.length || (sizeT !== 4 && sizeT !== 8) || !(maxDepth >= 1) || info.length < LuaInfo.PATH + maxDepth)
    return Status.CORRUPT;
  const outs = ORDER.map((k) => (tables ? tables[k] : null));
  const [ps, pi, pst, pcp, ptp, pcaps, ...po] = rt.reserve(
    src.length,
    info.byteLength,
    maxDepth * 8,
    CP1252_HIGH.byteLength,
    ORDER.length * 4,
    ORDER.length * 4,
    ...outs.map((t) => (t ? t.byteLength : 0)),
  ) as number[];
  rt.put(src, ps!);
  rt.put(info, pi!);
  rt.put(CP1252_HIGH, pcp!);
  // Capacities in elements; the four instruction columns share the code table's count.
  const codeCap = tables ? Math.min(tables.code.length, tables.op.length, tables.a.length, tables.b.length, tables.c.length) : 0;
  const ptrs = new Uint32Array(ORDER.length);
  const caps = new Uint32Array(ORDER.length);
  outs.forEach((t, i) => {
    ptrs[i] = po[i]!;
    caps[i] = !t ? 0 : i >= 6 && i <= 10 ? codeCap : t.length;
  });
  rt.put(ptrs, ptp!);
  rt.put(caps, pcaps!);
  const end = rt.exports.walkLuaChunk(ps!, src.length, start, sizeT, records, maxDepth, tables ? 1 : 0, ptp!, pcaps!, pi!, pst!, pcp!) as number;
  rt.get(info, pi!);
  // Only what the walk wrote goes back (the text table is sized by bytes, its units may be fewer),
  // so entries past the totals stay as the caller left them, as with the TS twin.
  if (end >= 0 && tables) outs.forEach((t, i) => rt.get(t!.subarray(0, Math.min(t!.length, info[LuaInfo.COUNTS + USED[i]!]! * PER[i]!)), po[i]!));
  return end;
}
