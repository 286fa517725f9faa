// Reference kernels: board family (Graal .nw BOARD rows). See src/kernels/types.ts.
import { Status } from '../status.js';

// Byte → 6-bit value; 64 marks a byte outside the alphabet A–Z a–z 0–9 + /.
const LETTER = new Uint8Array(256).fill(64);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => {
  LETTER[c.charCodeAt(0)] = i;
});

export function decodeBoardRows(text: Uint8Array, rows: Int32Array, rowCount: number, dst: Uint16Array): number {
  let bad = 0;
  const n = Math.max(0, Math.min(rowCount, Math.floor(rows.length / 3)));
  for (let r = 0; r < n; r++) {
    const off = rows[r * 3]!,
      count = rows[r * 3 + 1]!,
      at = rows[r * 3 + 2]!;
    if (off < 0 || count < 0 || off + 2 * count > text.length) return Status.TRUNCATED;
    if (at < 0 || at + count > dst.length) return Status.OVERFLOW;
    let p = off;
    for (let i = at, end = at + count; i < end; i++, p += 2) {
      const hi = LETTER[text[p]!]!,
        lo = LETTER[text[p + 1]!]!;
      bad += (hi >> 6) + (lo >> 6);
      dst[i] = ((hi & 63) << 6) | (lo & 63);
    }
  }
  return bad;
}
