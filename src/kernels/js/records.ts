// Reference kernels: record-table family. See src/kernels/types.ts for the contract.

import { isOffsetIn, Status } from '../status.js';
import type { RecordLayout } from '../types.js';

/**
 * One pass, record by record: bounds first, then the fixed words into their columns (DataView:
 * records follow variable-length tails, so they are not 4-aligned), then the tail into `strings`.
 * (Transposing blocks of 16 records at a time measured about 2× slower here, in TS and in WASM.)
 */
export function gatherRecords(
  src: Uint8Array,
  offset: number,
  count: number,
  layout: RecordLayout,
  columns: readonly Int32Array[],
  strings: Uint8Array,
  starts: Uint32Array,
): number {
  if (!isOffsetIn(src, offset)) return Status.TRUNCATED;
  const { fixedWords, lenIndex, lenCount } = layout;
  if (lenIndex + lenCount > fixedWords) return Status.CORRUPT;
  if (!outputsHold(columns, fixedWords, starts, count)) return Status.OVERFLOW;
  const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const fixedBytes = fixedWords * 4;
  const n = src.length,
    cap = strings.length;
  let pos = offset,
    at = 0;
  for (let r = 0; r < count; r++) {
    if (pos + fixedBytes > n) return Status.TRUNCATED;
    let tail = 0;
    for (let k = 0; k < lenCount; k++) tail += dv.getUint32(pos + (lenIndex + k) * 4, true);
    if (pos + fixedBytes + tail > n) return Status.TRUNCATED;
    if (at + tail > cap) return Status.OVERFLOW;
    for (let w = 0; w < fixedWords; w++) columns[w]![r] = dv.getInt32(pos + w * 4, true);
    pos += fixedBytes;
    starts[r] = at;
    // Tails are mostly a few bytes: a plain loop beats creating a subarray for each.
    if (tail > 64) strings.set(src.subarray(pos, pos + tail), at);
    else for (let b = 0; b < tail; b++) strings[at + b] = src[pos + b]!;
    at += tail;
    pos += tail;
  }
  return pos;
}

/** True when `columns` has fixedWords arrays of at least `count` and `starts` holds `count`. */
export function outputsHold(columns: readonly Int32Array[], fixedWords: number, starts: Uint32Array, count: number): boolean {
  if (columns.length < fixedWords || starts.length < count) return false;
  for (let w = 0; w < fixedWords; w++) if (columns[w]!.length < count) return false;
  return true;
}
