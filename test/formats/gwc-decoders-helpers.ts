// Shared by the string-decoder suites: the compiled fixtures of fixtures/gwc/lua/ and a finder of
// the places a chunk calls a decoder on a constant (`x = _q7Xa("…")`, `Lib.swap("…")`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Text } from '../../src/core/text.js';
import type { StringDecoders } from '../../src/formats/gwc/analysis/types.js';
import { bx, decodeLuaChunk, LUA_RK_CONSTANT, type LuaChunk, LuaOp } from '../../src/formats/gwc/index.js';
import { FIXTURES } from '../helpers/paths.js';

export const LUA_FIXTURES = join(FIXTURES, 'gwc/lua');

/** The compiled chunk of fixtures/gwc/lua/<name>.luac. */
export function fixtureChunk(name: string): LuaChunk {
  return decodeLuaChunk(new Uint8Array(readFileSync(join(LUA_FIXTURES, `${name}.luac`))));
}

/** What lua5.1 gave for each `R_*` global of fixture `name` (fixtures/gwc/lua/expected.json, written by make.sh). */
export function expectedBytes(name: string): Map<string, Uint8Array> {
  const all = JSON.parse(readFileSync(join(LUA_FIXTURES, 'expected.json'), 'utf8')) as Record<string, Record<string, string>>;
  return new Map(Object.entries(all[name]!).map(([k, hex]) => [k, Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16))]));
}

/** A call of a decoder on one string constant, and the global its result is stored in (if next). */
export interface ConstantCall {
  proto: number;
  decoder: string;
  arg: Text;
  target: string | null;
}

/**
 * Every `GETGLOBAL f; LOADK s; CALL` (or `GETGLOBAL t; GETTABLE f t "key"; LOADK s; CALL`) in any
 * function of `chunk` where `f` (or `t.key`) is the name of a decoder in `decoders.found`.
 */
export function constantCalls(chunk: LuaChunk, decoders: StringDecoders): ConstantCall[] {
  const byName = new Map<string, number>();
  for (const p of chunk.protos) {
    const info = decoders.found.find((d) => d.origin.startsWith(`${p.path} `));
    if (info?.name && decoders.isDecoder(p.id)) byName.set(info.name, p.id);
  }
  const out: ConstantCall[] = [];
  for (const p of chunk.protos) {
    const c = p.code;
    const kText = (i: number): string | null => {
      const k = p.k[i];
      return k?.type === 'string' ? k.value.text : null;
    };
    for (let pc = 0; pc < c.length; pc++) {
      if (c.op[pc] !== LuaOp.GETGLOBAL) continue;
      let name = kText(bx(c, pc));
      let at = pc + 1;
      if (c.op[at] === LuaOp.GETTABLE && c.a[at] === c.a[pc] && c.b[at] === c.a[pc] && c.c[at]! >= LUA_RK_CONSTANT) {
        name = `${name}.${kText(c.c[at]! - LUA_RK_CONSTANT)}`;
        at++;
      }
      if (name === null || !byName.has(name)) continue;
      if (c.op[at] !== LuaOp.LOADK || c.a[at] !== c.a[pc]! + 1 || c.op[at + 1] !== LuaOp.CALL || c.b[at + 1] !== 2) continue;
      const arg = p.k[bx(c, at)];
      if (arg?.type !== 'string') continue;
      const next = at + 2;
      const target = c.op[next] === LuaOp.SETGLOBAL && c.a[next] === c.a[pc] ? kText(bx(c, next)) : null;
      out.push({ proto: byName.get(name)!, decoder: name, arg: arg.value, target });
    }
  }
  return out;
}
