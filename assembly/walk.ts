// Record walks: tables whose records are a fixed sequence of ops — a 32-bit word, a UTF-16
// string counted by a u16 (in code units), or an array whose element count is an earlier word of
// the same record. Each op yields one column (word value, or the absolute offset of the string's
// length field / the array's first byte). Used for Rusty Hearts .wdata boxes.

import { STATUS_CORRUPT, STATUS_TRUNCATED } from './status';

// @ts-ignore: decorator
@inline const OP_WORD: i32 = 0;
// @ts-ignore: decorator
@inline const OP_WSTRING: i32 = 1;
// @ts-ignore: decorator
@inline const OP_ARRAY: i32 = 2;

/**
 * `src` holds `srcLen` readable bytes (the table from its first record on); `prog` holds `ops`
 * triples (op, a, b) of i32; column o of record r goes to cols + (o * count + r) * 4. Offsets are
 * reported as `base` + offset from `src`. Returns base + the offset past the last record,
 * STATUS_TRUNCATED when an op would read or skip past srcLen, STATUS_CORRUPT for a bad program.
 *
 * Invariants: `pos` is u64 (array sizes are u32 × element size); every load happens after
 * `pos + width <= srcLen` was checked; stores stay inside cols[0 .. ops*count).
 */
export function walkRecords(src: usize, srcLen: u32, count: u32, prog: usize, ops: u32, cols: usize, base: u32): i32 {
  for (let o: u32 = 0; o < ops; o++) {
    const p = prog + <usize>o * 12;
    const op = load<i32>(p), a = load<i32>(p, 4), b = load<i32>(p, 8);
    if (op < OP_WORD || op > OP_ARRAY) return STATUS_CORRUPT;
    if (op == OP_ARRAY && (a < 0 || <u32>a >= o || b < 0)) return STATUS_CORRUPT;
  }
  const len = <u64>srcLen;
  const stride = <usize>count << 2;
  let pos: u64 = 0;
  for (let r: u32 = 0; r < count; r++) {
    let out = cols + (<usize>r << 2);
    for (let o: u32 = 0; o < ops; o++) {
      const p = prog + <usize>o * 12;
      const op = load<i32>(p);
      if (op == OP_WORD) {
        if (pos + 4 > len) return STATUS_TRUNCATED;
        store<u32>(out, load<u32>(src + <usize>pos));
        pos += 4;
      } else if (op == OP_WSTRING) {
        if (pos + 2 > len) return STATUS_TRUNCATED;
        store<u32>(out, <u32>(pos + <u64>base));
        pos += 2 + (<u64>load<u16>(src + <usize>pos) << 1);
        if (pos > len) return STATUS_TRUNCATED;
      } else {
        store<u32>(out, <u32>(pos + <u64>base));
        const n = <u64>load<u32>(cols + ((<usize>load<i32>(p, 4) * <usize>count + <usize>r) << 2));
        pos += n * <u64>load<i32>(p, 8);
        if (pos > len) return STATUS_TRUNCATED;
      }
      out += stride;
    }
  }
  return <i32>(pos + <u64>base);
}
