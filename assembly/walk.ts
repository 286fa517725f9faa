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
 * reported as `base` + offset from `src`. `plan` is scratch for 4 × ops i32 (the program with runs
 * of WORD ops merged: op, run length or count column, element size, first column), so a run such
 * as the 13 floats of a bounding box is one bounds check and a tight loop. Returns base + the
 * offset past the last record, STATUS_TRUNCATED when an op would read or skip past srcLen,
 * STATUS_CORRUPT for a bad program.
 *
 * Invariants: `pos` is u64 (array sizes are u32 × element size); every load happens after
 * `pos + width <= srcLen` was checked; stores stay inside cols[0 .. ops*count).
 */
export function walkRecords(src: usize, srcLen: u32, count: u32, prog: usize, ops: u32, cols: usize, base: u32, plan: usize): i32 {
  let steps: u32 = 0;
  for (let o: u32 = 0; o < ops; o++) {
    const p = prog + <usize>o * 12;
    const op = load<i32>(p), a = load<i32>(p, 4), b = load<i32>(p, 8);
    if (op < OP_WORD || op > OP_ARRAY) return STATUS_CORRUPT;
    if (op == OP_ARRAY && (a < 0 || <u32>a >= o || b < 0)) return STATUS_CORRUPT;
    const prev = plan + <usize>(steps - 1) * 16;
    if (op == OP_WORD && steps > 0 && load<i32>(prev) == OP_WORD) {
      store<i32>(prev, load<i32>(prev, 4) + 1, 4);
      continue;
    }
    const q = plan + <usize>steps * 16;
    store<i32>(q, op);
    store<i32>(q, op == OP_WORD ? 1 : a, 4);
    store<i32>(q, b, 8);
    store<u32>(q, o, 12);
    steps++;
  }
  const len = <u64>srcLen;
  const stride = <usize>count << 2;
  let pos: u64 = 0;
  for (let r: u32 = 0; r < count; r++) {
    const row = cols + (<usize>r << 2);
    for (let k: u32 = 0; k < steps; k++) {
      const q = plan + <usize>k * 16;
      const op = load<i32>(q);
      let out = row + <usize>load<u32>(q, 12) * stride;
      if (op == OP_WORD) {
        const n = <u32>load<i32>(q, 4);
        if (pos + (<u64>n << 2) > len) return STATUS_TRUNCATED;
        let at = src + <usize>pos;
        for (let w: u32 = 0; w < n; w++) {
          store<u32>(out, load<u32>(at));
          out += stride;
          at += 4;
        }
        pos += <u64>n << 2;
      } else if (op == OP_WSTRING) {
        if (pos + 2 > len) return STATUS_TRUNCATED;
        store<u32>(out, <u32>(pos + <u64>base));
        pos += 2 + (<u64>load<u16>(src + <usize>pos) << 1);
        if (pos > len) return STATUS_TRUNCATED;
      } else {
        store<u32>(out, <u32>(pos + <u64>base));
        const n = <u64>load<u32>(row + <usize>load<i32>(q, 4) * stride);
        pos += n * <u64>load<i32>(q, 8);
        if (pos > len) return STATUS_TRUNCATED;
      }
    }
  }
  return <i32>(pos + <u64>base);
}
