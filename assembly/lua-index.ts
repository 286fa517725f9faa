// Entry of the Lua chunk module: the walk of a Lua 5.1 chunk (assembly/lua.ts) and the arena. A
// module of its own, embedded only by gwc's Lua decoder, so the one-format bundles of the other
// formats do not carry it (src/kernels/lua.ts).

export { arenaBase, arenaEnsure } from './memory';
export { walkLuaChunk } from './lua';
