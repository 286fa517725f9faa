// The string constants of a Lua 5.1 chunk (a cartridge's names, descriptions, dialogue: what
// Wherigo builders compile into the bytecode), for the index's `texts` table. Walks the function
// prototypes as lundump.c lays them out: source, line range, four bytes, code, constants,
// nested prototypes, debug info. Never throws: a chunk it cannot follow gives the strings read so far.

import type { Text } from '../../core/text.js';
import { LUA_HEADER_BYTES } from './lua.js';
import type { LuaHeader } from './types.js';

/** Prototypes nest as deep as functions do in source; a chunk nesting deeper than this is not followed. */
const MAX_DEPTH = 200;
const LUA_TNIL = 0;
const LUA_TBOOLEAN = 1;
const LUA_TNUMBER = 3;
const LUA_TSTRING = 4;

class Stop extends Error {}

/** Every string constant of the chunk's functions, in file order, decoded by `text`. */
export function luaStrings(chunk: Uint8Array, header: LuaHeader, text: (raw: Uint8Array) => Text): string[] {
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const out: string[] = [];
  let pos = LUA_HEADER_BYTES;
  const need = (n: number) => {
    if (n < 0 || pos + n > chunk.length) throw new Stop();
  };
  const int = () => {
    need(4);
    const v = view.getInt32(pos, true);
    pos += 4;
    return v;
  };
  // A count of items at least `each` bytes long: more than the bytes left is a chunk we cannot follow.
  const count = (each: number) => {
    const n = int();
    need(n * each);
    return n;
  };
  const size = () => {
    need(header.sizeTSize);
    const lo = view.getUint32(pos, true);
    const hi = header.sizeTSize === 8 ? view.getUint32(pos + 4, true) : 0;
    pos += header.sizeTSize;
    if (hi !== 0) throw new Stop();
    return lo;
  };
  const string = (): Uint8Array | null => {
    const n = size();
    if (n === 0) return null;
    need(n);
    const raw = chunk.subarray(pos, pos + n - 1); // the stored length counts the NUL
    pos += n;
    return raw;
  };
  // `pos += count(…)` would add to the position read before count() moved it: skip() reads it after.
  const skip = (n: number) => {
    pos += n;
  };
  const fn = (depth: number): void => {
    if (depth > MAX_DEPTH) throw new Stop();
    string(); // source name
    need(8 + 4);
    pos += 8 + 4; // line range; upvalue, parameter, vararg and stack counts
    skip(count(4) * 4); // code
    for (let i = 0, n = count(1); i < n; i++) {
      need(1);
      const type = chunk[pos++]!;
      if (type === LUA_TBOOLEAN) pos += 1;
      else if (type === LUA_TNUMBER) pos += 8;
      else if (type === LUA_TSTRING) {
        const raw = string();
        if (raw) out.push(text(raw).text);
      } else if (type !== LUA_TNIL) throw new Stop();
      need(0);
    }
    for (let i = 0, n = count(1); i < n; i++) fn(depth + 1);
    skip(count(4) * 4); // line info
    for (let i = 0, n = count(1); i < n; i++) {
      string();
      need(8);
      pos += 8;
    }
    for (let i = 0, n = count(1); i < n; i++) string();
  };
  try {
    fn(0);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
  }
  return out;
}
