// Reference kernels: record walks (tables whose records mix counted strings, words and counted
// arrays, e.g. Rusty Hearts .wdata boxes). See src/kernels/types.ts (walkRecords) for the contract.
import { isOffsetIn, Status } from '../status.js';

/** Record-program opcodes (mirrored in assembly/walk.ts). */
export const WalkOp = { WORD: 0, WSTRING: 1, ARRAY: 2 } as const;

/**
 * One pass, record by record and op by op: each op checks the bytes it needs before reading, so a
 * bad count or length ends the walk with TRUNCATED instead of reading past `src`.
 */
export function walkRecords(src: Uint8Array, offset: number, count: number, program: Int32Array, columns: Int32Array): number {
  if (!isOffsetIn(src, offset)) return Status.TRUNCATED;
  const ops = program.length / 3;
  if (!Number.isInteger(ops)) return Status.CORRUPT;
  for (let o = 0; o < ops; o++) {
    const op = program[o * 3]!,
      a = program[o * 3 + 1]!,
      b = program[o * 3 + 2]!;
    if (op < 0 || op > 2 || (op === WalkOp.ARRAY && (a < 0 || a >= o || b < 0))) return Status.CORRUPT;
  }
  const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const n = src.length;
  let pos = offset;
  for (let r = 0; r < count; r++) {
    for (let o = 0, col = r; o < ops; o++, col += count) {
      const op = program[o * 3]!;
      if (op === WalkOp.WORD) {
        if (pos + 4 > n) return Status.TRUNCATED;
        columns[col] = dv.getInt32(pos, true);
        pos += 4;
      } else if (op === WalkOp.WSTRING) {
        if (pos + 2 > n) return Status.TRUNCATED;
        columns[col] = pos;
        pos += 2 + 2 * dv.getUint16(pos, true);
        if (pos > n) return Status.TRUNCATED;
      } else {
        columns[col] = pos;
        pos += (columns[program[o * 3 + 1]! * count + r]! >>> 0) * program[o * 3 + 2]!;
        if (pos > n) return Status.TRUNCATED;
      }
    }
  }
  return pos;
}
