// WASM bindings: record-table family. The table streams through the arena in windows of about
// WINDOW_BYTES of input (copy in, gather, copy each column's part and the packed tails out), so
// the arena stays in L2 and only the read of `src` and the writes of the outputs reach DRAM.

import { gatherRecords as gatherOutside, outputsHold } from '../js/records.js';
import { isOffsetIn, Status } from '../status.js';
import type { RecordLayout } from '../types.js';
import type { WasmRuntime } from './runtime.js';

const WINDOW_BYTES = 256 << 10;

export function gatherRecords(
  rt: WasmRuntime,
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
  const fixedBytes = fixedWords * 4;
  // A table inside a held block (inflateResident) is read where it lies: no copy in.
  const resident = rt.pointerOf(src);
  let window = Math.min(WINDOW_BYTES, src.length - offset);
  let pos = offset,
    done = 0,
    at = 0;
  while (done < count) {
    const len = Math.min(window, src.length - pos);
    // A window holds at most len / fixedBytes records; its tails at most len bytes.
    const maxRecs = Math.max(1, Math.floor(len / Math.max(fixedBytes, 1)));
    let [ps, pc, pb, pst, po] = rt.reserve(resident >= 0 ? 0 : len, fixedWords * maxRecs * 4, len, maxRecs * 4, 8) as [number, number, number, number, number];
    const mem = rt.u8;
    if (resident >= 0) ps = resident + pos;
    else mem.set(src.subarray(pos, pos + len), ps);
    const n = rt.exports.gatherRecords(ps, len, Math.min(maxRecs, count - done), fixedWords, lenIndex, lenCount, pc, maxRecs, pb, pst, at, po);
    if (n < 0) return n;
    if (n === 0) {
      // The next record does not end inside the window: past the end of src it is TRUNCATED,
      // otherwise it is longer than the window, which grows to hold it (once, for this record).
      const need = recordBytes(src, pos, fixedBytes, lenIndex, lenCount);
      if (need < 0 || pos + need > src.length) return Status.TRUNCATED;
      // In a held block the scratch cannot grow: that one record is read by the TS twin.
      if (resident >= 0) {
        const end = gatherOutside(
          src,
          pos,
          1,
          layout,
          columns.map((c) => c.subarray(done, done + 1)),
          strings.subarray(at),
          starts.subarray(done, done + 1),
        );
        if (end < 0) return end;
        starts[done] = starts[done]! + at;
        at += end - pos - fixedBytes;
        done++;
        pos = end;
        window = Math.min(WINDOW_BYTES, src.length - pos);
        continue;
      }
      window = need;
      continue;
    }
    const words = new Uint32Array(mem.buffer, po, 2);
    const used = words[0]!,
      tailBytes = words[1]!;
    if (at + tailBytes > strings.length) return Status.OVERFLOW;
    const i32 = new Int32Array(mem.buffer, pc, fixedWords * maxRecs);
    for (let w = 0; w < fixedWords; w++) columns[w]!.set(i32.subarray(w * maxRecs, w * maxRecs + n), done);
    strings.set(mem.subarray(pb, pb + tailBytes), at);
    starts.set(new Uint32Array(mem.buffer, pst, n), done);
    done += n;
    pos += used;
    at += tailBytes;
    window = Math.min(WINDOW_BYTES, src.length - pos);
  }
  return pos;
}

/** Bytes of the record at `pos` (fixed part plus tail), or -1 when its fixed part passes the end. */
function recordBytes(src: Uint8Array, pos: number, fixedBytes: number, lenIndex: number, lenCount: number): number {
  if (pos + fixedBytes > src.length) return -1;
  const dv = new DataView(src.buffer, src.byteOffset + pos, fixedBytes);
  let tail = 0;
  for (let k = 0; k < lenCount; k++) tail += dv.getUint32((lenIndex + k) * 4, true);
  return fixedBytes + tail;
}
