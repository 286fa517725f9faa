// Reference kernels: record-table family. See src/kernels/types.ts for the contract.
import type { RecordLayout } from '../types.js';
import { Status } from '../status.js';

export function gatherRecords(src: Uint8Array, offset: number, count: number, layout: RecordLayout, columns: Int32Array, tails: Uint32Array): number {
  const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const { fixedWords, lenIndex, lenCount } = layout;
  const fixedBytes = fixedWords * 4;
  let pos = offset;
  for (let r = 0; r < count; r++) {
    if (pos + fixedBytes > src.length) return Status.TRUNCATED;
    let tail = 0;
    for (let w = 0; w < fixedWords; w++) columns[w * count + r] = dv.getInt32(pos + w * 4, true);
    for (let k = 0; k < lenCount; k++) tail += dv.getUint32(pos + (lenIndex + k) * 4, true);
    pos += fixedBytes;
    tails[r] = pos;
    pos += tail;
  }
  return pos > src.length ? Status.TRUNCATED : pos;
}
