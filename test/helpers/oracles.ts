// Naive reference kernels, written from the contract in src/kernels/types.ts and nothing else:
// byte by byte, bit by bit, no fast paths. The kernel suites compare every kernel set, the
// TypeScript one included, with these; comparing src/kernels/js with itself proves nothing.
import { Status } from '../../src/kernels/status.js';
import type { RecordLayout } from '../../src/kernels/types.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const validOffset = (src: Uint8Array, offset: number) => Number.isInteger(offset) && offset >= 0 && offset <= src.length;
const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

export function sumBytes(src: Uint8Array): number {
  let sum = 0;
  for (const v of src) sum = (sum + v) % 2 ** 32;
  return sum;
}

export function scanTileGrid(cells: Uint32Array, counts: Uint32Array, maxIds: Int32Array): number {
  const c = [0, 0, 0, 0];
  for (const v of cells) {
    if (v === 0xffffffff) c[0]!++;
    else if (v === 0xeeeeeeee) c[1]!++;
    else {
      c[2]!++;
      const set = Math.floor(v / 65536),
        id = v % 65536;
      if (set >= maxIds.length) c[3]!++;
      else maxIds[set] = Math.max(maxIds[set]!, id);
    }
  }
  counts.set(c);
  return 0;
}

export function gatherRecords(
  src: Uint8Array,
  offset: number,
  count: number,
  layout: RecordLayout,
  columns: readonly Int32Array[],
  strings: Uint8Array,
  starts: Uint32Array,
): number {
  if (!validOffset(src, offset)) return Status.TRUNCATED;
  if (layout.lenIndex + layout.lenCount > layout.fixedWords) return Status.CORRUPT;
  if (columns.length < layout.fixedWords || starts.length < count || columns.some((c, w) => w < layout.fixedWords && c.length < count)) return Status.OVERFLOW;
  let pos = offset;
  let packed = 0;
  for (let r = 0; r < count; r++) {
    if (pos + layout.fixedWords * 4 > src.length) return Status.TRUNCATED;
    const words: number[] = [];
    for (let w = 0; w < layout.fixedWords; w++) words.push(u32le(src, pos + w * 4));
    let tail = 0;
    for (let k = 0; k < layout.lenCount; k++) tail += words[layout.lenIndex + k]!;
    if (pos + layout.fixedWords * 4 + tail > src.length) return Status.TRUNCATED;
    if (packed + tail > strings.length) return Status.OVERFLOW;
    words.forEach((word, w) => {
      columns[w]![r] = word | 0;
    });
    pos += layout.fixedWords * 4;
    starts[r] = packed;
    for (let b = 0; b < tail; b++) strings[packed + b] = src[pos + b]!;
    packed += tail;
    pos += tail;
  }
  return pos;
}

/** Every byte equal to `from` becomes `to & 0xFF`; the count of replaced bytes. */
export function replaceByte(buf: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = 0; i < buf.length; i++) {
    if (Number.isInteger(from) && from >= 0 && from <= 255 && buf[i] === from) {
      buf[i] = to & 0xff;
      n++;
    }
  }
  return n;
}

export function graalTileStream(src: Uint8Array, offset: number, codeBits: number, dst: Uint16Array): number {
  if (!validOffset(src, offset)) return Status.TRUNCATED;
  if (codeBits < 10 || codeBits > 16) return Status.CORRUPT;
  let bit = offset * 8;
  /** The next LSB-first code, or -1 when `src` ends first. */
  const next = (): number => {
    if (bit + codeBits > src.length * 8) return -1;
    let code = 0;
    for (let i = 0; i < codeBits; i++, bit++) code |= ((src[bit >> 3]! >> (bit & 7)) & 1) << i;
    return code;
  };
  let n = 0,
    count = 1,
    pair = false,
    first = -1;
  while (n < dst.length) {
    const code = next();
    if (code < 0) return Status.TRUNCATED;
    if (code >= 2 ** (codeBits - 1)) {
      count = code & 0xff;
      pair = (code & 0x100) !== 0;
      continue;
    }
    if (pair) {
      if (first < 0) {
        first = code;
        continue;
      }
      for (let i = 0; i < count && dst.length - n >= 2; i++) {
        dst[n++] = first;
        dst[n++] = code;
      }
      first = -1;
      pair = false;
    } else {
      for (let i = 0; i < count && n < dst.length; i++) dst[n++] = code;
    }
    count = 1;
  }
  return Math.ceil(bit / 8);
}

export function decodeBoardRows(text: Uint8Array, rows: Int32Array, rowCount: number, dst: Uint16Array): number {
  let bad = 0;
  const six = (byte: number) => {
    const v = ALPHABET.indexOf(String.fromCharCode(byte));
    if (v < 0) bad++;
    return Math.max(v, 0);
  };
  for (let r = 0; r < rowCount && r * 3 + 2 < rows.length; r++) {
    const [off, n, at] = [rows[r * 3]!, rows[r * 3 + 1]!, rows[r * 3 + 2]!];
    if (off < 0 || n < 0 || off + 2 * n > text.length) return Status.TRUNCATED;
    if (at < 0 || at + n > dst.length) return Status.OVERFLOW;
    for (let i = 0; i < n; i++) dst[at + i] = six(text[off + 2 * i]!) * 64 + six(text[off + 2 * i + 1]!);
  }
  return bad;
}

export function expandTileSkip(src: Uint8Array, index: Uint8Array, flags: Uint8Array): number {
  if (src.length % 4 !== 0) return Status.TRUNCATED;
  const capacity = Math.min(index.length, flags.length);
  let out = 0;
  for (let p = 0; p < src.length; p += 4) {
    if (src[p + 3] !== 0) return Status.CORRUPT;
    const run = src[p + 2]! + 1;
    if (out + run > capacity) return Status.OVERFLOW;
    for (let i = 0; i < run; i++, out++) {
      index[out] = src[p]!;
      flags[out] = src[p + 1]!;
    }
  }
  return out;
}

export function splitColumns(src: Uint8Array, stride: number, keep: number, count: number, dst: Uint8Array): number {
  if (stride < 1 || keep < 0 || keep > stride) return Status.CORRUPT;
  if (count * stride > src.length) return Status.TRUNCATED;
  if (keep * count > dst.length) return Status.OVERFLOW;
  let dirty = 0;
  for (let r = 0; r < count; r++) {
    for (let c = 0; c < keep; c++) dst[c * count + r] = src[r * stride + c]!;
    if (src.subarray(r * stride + keep, (r + 1) * stride).some((v) => v !== 0)) dirty++;
  }
  return dirty;
}

/** walkRecords from its contract: op by op with a plain byte reader, no DataView. */
export function walkRecords(src: Uint8Array, offset: number, count: number, program: Int32Array, columns: Int32Array): number {
  if (!validOffset(src, offset)) return Status.TRUNCATED;
  if (program.length % 3 !== 0) return Status.CORRUPT;
  const ops: [number, number, number][] = [];
  for (let i = 0; i < program.length; i += 3) ops.push([program[i]!, program[i + 1]!, program[i + 2]!]);
  for (const [o, [op, a, b]] of ops.entries()) {
    if (![0, 1, 2].includes(op)) return Status.CORRUPT;
    if (op === 2 && (a < 0 || a >= o || b < 0)) return Status.CORRUPT;
  }
  let pos = offset;
  for (let r = 0; r < count; r++) {
    const row: number[] = [];
    for (const [op, a, b] of ops) {
      if (op === 0) {
        if (pos + 4 > src.length) return Status.TRUNCATED;
        row.push(u32le(src, pos) | 0);
        pos += 4;
      } else if (op === 1) {
        if (pos + 2 > src.length) return Status.TRUNCATED;
        row.push(pos);
        pos += 2 + 2 * (src[pos]! + 256 * src[pos + 1]!);
      } else {
        row.push(pos);
        pos += (row[a]! >>> 0) * b;
      }
      if (pos > src.length) return Status.TRUNCATED;
    }
    row.forEach((v, o) => {
      columns[o * count + r] = v;
    });
  }
  return pos;
}

/**
 * gridSignature from its contract, window by window: each window's 16 cells read afresh, its four
 * column hashes and their combination computed from scratch, each bin's minimum kept.
 */
export function gridSignature(cells: Uint8Array | Uint16Array | Uint32Array, width: number, height: number, out: Uint8Array): number {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0 || cells.length < width * height) return Status.TRUNCATED;
  if (out.length < 128) return Status.OVERFLOW;
  const mix = (h: number, v: number) => {
    const m = Number((BigInt((h ^ v) >>> 0) * 0x9e3779b1n) % 2n ** 32n);
    return (m ^ (m >>> 15)) >>> 0;
  };
  const fmix = (h: number) => {
    let x = BigInt(h >>> 0);
    x ^= x >> 16n;
    x = (x * 0x85ebca6bn) % 2n ** 32n;
    x ^= x >> 13n;
    x = (x * 0xc2b2ae35n) % 2n ** 32n;
    return Number(x ^ (x >> 16n));
  };
  const bins: (number | null)[] = new Array(128).fill(null);
  let count = 0;
  for (let y = 0; y + 4 <= height; y++)
    for (let x = 0; x + 4 <= width; x++) {
      const window: number[] = [];
      for (let dy = 0; dy < 4; dy++) for (let dx = 0; dx < 4; dx++) window.push(cells[(y + dy) * width + x + dx]!);
      if (window.every((v) => v === window[0])) continue;
      let h = 0x9e3779b9;
      for (let dx = 0; dx < 4; dx++) {
        let column = 0x2545f491;
        for (let dy = 0; dy < 4; dy++) column = mix(column, cells[(y + dy) * width + x + dx]!);
        h = mix(h, column);
      }
      h = fmix(h);
      const bin = Math.floor(h / 2 ** 25);
      const value = h % 2 ** 25;
      if (bins[bin] === null || value < bins[bin]!) bins[bin] = value;
      count++;
    }
  if (count === 0) {
    out.fill(0, 0, 128);
    return 0;
  }
  for (let j = 0; j < 128; j++) {
    let v = bins[j]!;
    if (v === null)
      for (let t = 1; t <= 4096 && v === null; t++)
        v = bins[Math.floor(fmix(Number((BigInt(j + 1) * 0x9e3779b1n) % 2n ** 32n) ^ Number((BigInt(t) * 0x85ebca77n) % 2n ** 32n)) / 2 ** 25)]!;
    for (let d = 1; v === null; d++) v = bins[(j + d) % 128]!;
    out[j] = v % 256;
  }
  return count;
}
