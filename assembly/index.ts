// Entry of the kernel module: re-exports every kernel, nothing else. Kernels work on pointers
// into the arena and plain integers; they know nothing of formats. See src/kernels/types.ts
// for the contract each export implements.

export { arenaBase, arenaEnsure } from './memory';
export { sumBytes } from './checksum';
export { scanTileGrid } from './tiles';
export { gatherRecords } from './records';
export { walkRecords } from './walk';
export { graalTileStream } from './bitstream';
export { decodeBoardRows } from './board';
export { splitNwLines } from './nwlines';
export { allZero, expandTileSkip, splitColumns } from './tilemap';
export { replaceByte } from './bytes';
export { inflateZlib } from './inflate';
export { snappyCompress } from './snappy';
