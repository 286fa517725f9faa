// Reference kernel: Graal .nw line table (board family). See src/kernels/types.ts (splitNwLines);
// assembly/nwlines.ts is its WASM twin and must give the same tables.
import { Status } from '../status.js';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const LEVEL_SIZE = 64;
const MAX_LAYER = 255;
const BOARD_PREFIX = [0x42, 0x4f, 0x41, 0x52, 0x44, 0x20]; // "BOARD "

/** The header boardHeader just read: data offset, x, y, w, layer (one scratch array, not an object per row). */
export const HEADER = new Int32Array(5);

/**
 * The header of `BOARD x y w layer data` at `start` (the line may end anywhere before `limit`):
 * true with HEADER = (where the data starts, x, y, w, layer), or false unless the numbers are
 * what the servers accept. The .nw decoder uses it too, for rows this kernel did not take whole.
 */
export function boardHeader(bytes: Uint8Array, start: number, limit: number): boolean {
  if (limit - start < 6) return false;
  for (let k = 0; k < 6; k++) if (bytes[start + k] !== BOARD_PREFIX[k]) return false;
  let p = start + 6;
  for (let k = 1; k <= 4; k++) {
    let n = 0,
      digits = 0;
    while (p < limit && bytes[p]! >= 0x30 && bytes[p]! <= 0x39 && digits < 6) {
      n = n * 10 + bytes[p]! - 0x30;
      p++;
      digits++;
    }
    if (digits === 0 || p >= limit || bytes[p] !== SPACE) return false;
    HEADER[k] = n;
    p++;
  }
  HEADER[0] = p;
  const x = HEADER[1]!,
    y = HEADER[2]!,
    w = HEADER[3]!;
  return x < LEVEL_SIZE && y < LEVEL_SIZE && w >= 1 && x + w <= LEVEL_SIZE && HEADER[4]! <= MAX_LAYER;
}

export function splitNwLines(src: Uint8Array, trust: boolean, starts: Int32Array, ends: Int32Array, boards: Int32Array, out: Int32Array): number {
  const n = src.length;
  const cap = Math.min(starts.length, ends.length);
  const boardCap = Math.floor(boards.length / 5);
  let count = 0,
    boardCount = 0;
  for (let p = 0; p < n; ) {
    let lf = -1;
    if (trust && src[p] === 0x42 /* B */ && boardHeader(src, p, n)) {
      const q = HEADER[0]! + 2 * HEADER[3]!;
      if (src[q] === LF) lf = q;
      else if (src[q] === CR && src[q + 1] === LF) lf = q + 1;
      if (lf !== -1) {
        if (boardCount === boardCap) return Status.OVERFLOW;
        const at = boardCount++ * 5;
        boards[at] = count;
        boards[at + 1] = HEADER[0]!;
        boards[at + 2] = HEADER[3]!;
        boards[at + 3] = HEADER[4]!;
        boards[at + 4] = HEADER[2]! * LEVEL_SIZE + HEADER[1]!;
      }
    }
    // indexOf is a native byte search: several times a per-byte loop.
    if (lf === -1) lf = src.indexOf(LF, p);
    if (count === cap) return Status.OVERFLOW;
    starts[count] = p;
    if (lf === -1) {
      ends[count++] = n; // a last line without LF
      break;
    }
    ends[count++] = lf;
    p = lf + 1;
  }
  const crlf = count > 0 && ends[0]! > starts[0]! && src[ends[0]! - 1] === CR;
  if (crlf) for (let k = 0; k < count; k++) if (ends[k]! > starts[k]! && src[ends[k]! - 1] === CR) ends[k] = ends[k]! - 1;
  out[0] = boardCount;
  out[1] = crlf ? 1 : 0;
  return count;
}
