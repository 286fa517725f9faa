// A small PNG reader for the images previews draw with (the bundled Teeworlds map resources and
// entities atlas, a Graal tileset): 8-bit greyscale, grey+alpha, RGB, RGBA and palette images,
// not interlaced, filters 0-4, zlib through levelkit's own inflater (core/inflate.ts). Anything
// else, and any damage, is a DecodeError with format 'png' (code, offset, path), never a crash.

import { concatBytes } from '../core/bytes.js';
import { decodeError, type ErrorCode } from '../core/errors.js';
import { inflateExact } from '../core/inflate.js';
import { DEFAULT_LIMITS } from '../core/limits.js';
import { chooseInflater } from '../formats/decode-context.js';
import { chooseKernels } from '../kernels/select.js';

/** A decoded PNG: always RGBA, 8 bits per channel, row-major. */
export interface RgbaImage {
  width: number;
  height: number;
  channels: 4;
  /** `width × height × 4` bytes, owned by the caller. */
  pixels: Uint8Array;
}

export interface PngDecodeOptions {
  /** Most pixels the image may have (default 16 Mi: a 4096 × 4096 atlas); more is LIMIT_EXCEEDED before anything is allocated. */
  maxPixels?: number;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Channels per pixel by PNG colour type (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEFAULT_MAX_PIXELS = 1 << 24;

let crcTable: Uint32Array | undefined;
/** CRC-32 (ISO 3309, as PNG chunks use) of `bytes`. */
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * Decodes a PNG file to RGBA. Throws DecodeError (format 'png'): BAD_MAGIC (no PNG signature),
 * TRUNCATED (a chunk runs past the end, or IHDR/IDAT/IEND missing), CORRUPT (bad CRC, bad header
 * field, bad filter byte, palette index past the palette), UNSUPPORTED_VERSION (a bit depth other
 * than 8, interlacing), LIMIT_EXCEEDED (over `maxPixels`), CORRUPT_COMPRESSED (damaged zlib data).
 * The input is never written.
 */
export function decodePng(bytes: Uint8Array, opts: PngDecodeOptions = {}): RgbaImage {
  const maxPixels = opts.maxPixels ?? DEFAULT_MAX_PIXELS;
  if (!Number.isSafeInteger(maxPixels) || maxPixels < 1) throw new RangeError(`levelkit: decodePng: maxPixels must be a whole number ≥ 1, got ${maxPixels}`);
  const fail = (code: ErrorCode, offset: number, path: string, detail: string, extra: { expected?: string | number; actual?: string | number } = {}) =>
    decodeError('png', code, { offset, path, detail, ...extra });
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) throw fail('BAD_MAGIC', 0, 'signature', 'not a PNG file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let header: { width: number; height: number; colourType: number } | undefined;
  let palette: Uint8Array | undefined;
  let transparency: Uint8Array | undefined;
  const idat: Uint8Array[] = [];
  let idatOffset = -1;
  let ended = false;
  for (let at = 8, index = 0; !ended; index++) {
    const path = `chunks[${index}]`;
    if (at + 12 > bytes.length) throw fail('TRUNCATED', at, path, 'the file ends before IEND', { expected: at + 12, actual: bytes.length });
    const length = view.getUint32(at);
    const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
    if (length > bytes.length - at - 12) throw fail('TRUNCATED', at, `${path}.${type}`, 'chunk length past the end of the file', { actual: length });
    const data = bytes.subarray(at + 8, at + 8 + length);
    const stored = view.getUint32(at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== stored) throw fail('CORRUPT', at + 8 + length, `${path}.${type}.crc`, 'chunk CRC does not match');
    if (index === 0 && type !== 'IHDR') throw fail('CORRUPT', at, path, 'the first chunk is not IHDR', { actual: type });
    if (type === 'IHDR') header = readHeader(data, at + 8, `${path}.IHDR`, maxPixels, fail);
    else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') transparency = data;
    else if (type === 'IDAT') {
      if (idatOffset < 0) idatOffset = at + 8;
      idat.push(data);
    } else if (type === 'IEND') ended = true;
    else if (!(type.charCodeAt(0) & 0x20))
      throw fail('UNSUPPORTED_VERSION', at, `${path}.${type}`, 'a critical chunk this reader does not know', { actual: type });
    at += 12 + length;
  }
  if (!header) throw fail('TRUNCATED', 8, 'IHDR', 'no IHDR chunk');
  if (!idat.length) throw fail('TRUNCATED', 8, 'IDAT', 'no IDAT chunk');
  const { width, height, colourType } = header;
  if (colourType === 3 && (!palette || palette.length % 3 !== 0 || palette.length === 0))
    throw fail('CORRUPT', 8, 'PLTE', 'a palette image needs a PLTE chunk of whole RGB entries', { actual: palette?.length ?? 'none' });
  const channels = CHANNELS[colourType]!;
  const stride = width * channels;
  const zlib = idat.length === 1 ? idat[0]! : concatBytes(idat);
  const kernels = chooseKernels('auto');
  const { bytes: raw } = inflateExact(zlib, height * (stride + 1), chooseInflater('auto', kernels), DEFAULT_LIMITS, {
    format: 'png',
    offset: idatOffset,
    path: 'IDAT',
  });
  const rows = unfilter(raw, width, height, channels, (row, filter) =>
    fail('CORRUPT', idatOffset, `IDAT.rows[${row}]`, 'unknown filter type (inflated data)', { expected: '0…4', actual: filter }),
  );
  return {
    width,
    height,
    channels: 4,
    pixels: toRgba(rows, width * height, colourType, palette, transparency, (i) =>
      fail('CORRUPT', idatOffset, 'IDAT', 'palette index past the palette', { actual: i }),
    ),
  };
}

function readHeader(
  data: Uint8Array,
  offset: number,
  path: string,
  maxPixels: number,
  fail: (code: ErrorCode, offset: number, path: string, detail: string, extra?: { expected?: string | number; actual?: string | number }) => Error,
): { width: number; height: number; colourType: number } {
  if (data.length !== 13) throw fail('CORRUPT', offset, path, 'IHDR is not 13 bytes', { actual: data.length });
  const v = new DataView(data.buffer, data.byteOffset, 13);
  const width = v.getUint32(0);
  const height = v.getUint32(4);
  const [depth, colourType, compression, filter, interlace] = [data[8]!, data[9]!, data[10]!, data[11]!, data[12]!];
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff)
    throw fail('CORRUPT', offset, `${path}.size`, 'width and height must be 1…2³¹−1', { actual: `${width}×${height}` });
  if (width * height > maxPixels)
    throw fail('LIMIT_EXCEEDED', offset, `${path}.size`, 'too many pixels', { expected: `≤ ${maxPixels}`, actual: `${width}×${height}` });
  if (CHANNELS[colourType] === undefined)
    throw fail('CORRUPT', offset + 9, `${path}.colourType`, 'no such colour type', { expected: '0, 2, 3, 4 or 6', actual: colourType });
  if (depth !== 8) throw fail('UNSUPPORTED_VERSION', offset + 8, `${path}.bitDepth`, 'only 8 bits per channel are read', { actual: depth });
  if (compression !== 0 || filter !== 0)
    throw fail('CORRUPT', offset + 10, `${path}.method`, 'compression and filter method must be 0', { actual: `${compression}/${filter}` });
  if (interlace !== 0) throw fail('UNSUPPORTED_VERSION', offset + 12, `${path}.interlace`, 'interlaced images are not read', { actual: interlace });
  return { width, height, colourType };
}

/** Undoes the per-row filters (None, Sub, Up, Average, Paeth); returns the pixel bytes without the filter bytes. One loop per filter: a switch per byte costs several times more. */
function unfilter(raw: Uint8Array, width: number, height: number, bpp: number, bad: (row: number, filter: number) => Error): Uint8Array {
  const stride = width * bpp;
  const out = new Uint8Array(stride * height);
  // Row −1 reads as zeros.
  const zeros = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = out.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? out.subarray((y - 1) * stride, y * stride) : zeros;
    if (filter === 0) cur.set(src);
    else if (filter === 1) for (let x = 0; x < stride; x++) cur[x] = src[x]! + (x >= bpp ? cur[x - bpp]! : 0);
    else if (filter === 2) for (let x = 0; x < stride; x++) cur[x] = src[x]! + up[x]!;
    else if (filter === 3) for (let x = 0; x < stride; x++) cur[x] = src[x]! + (((x >= bpp ? cur[x - bpp]! : 0) + up[x]!) >> 1);
    else if (filter === 4) {
      for (let x = 0; x < stride; x++) {
        const a = x >= bpp ? cur[x - bpp]! : 0;
        const b = up[x]!;
        const c = x >= bpp ? up[x - bpp]! : 0;
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - 2 * c);
        cur[x] = src[x]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
    } else throw bad(y, filter);
  }
  return out;
}

/** Expands unfiltered pixels of `colourType` to RGBA (tRNS: palette alphas, or the grey/RGB value that is transparent). */
function toRgba(
  px: Uint8Array,
  count: number,
  colourType: number,
  palette: Uint8Array | undefined,
  trns: Uint8Array | undefined,
  badIndex: (i: number) => Error,
): Uint8Array {
  if (colourType === 6) return px;
  const out = new Uint8Array(count * 4);
  for (let i = 0; i < count; i++) {
    const o = i * 4;
    if (colourType === 0 || colourType === 4) {
      const g = px[i * (colourType === 0 ? 1 : 2)]!;
      out[o] = out[o + 1] = out[o + 2] = g;
      // A tRNS grey sample is 16 bits; at depth 8 its low byte is the value.
      out[o + 3] = colourType === 4 ? px[i * 2 + 1]! : trns && trns.length >= 2 && trns[1] === g ? 0 : 255;
    } else if (colourType === 2) {
      const [r, g, b] = [px[i * 3]!, px[i * 3 + 1]!, px[i * 3 + 2]!];
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      out[o + 3] = trns && trns.length >= 6 && trns[1] === r && trns[3] === g && trns[5] === b ? 0 : 255;
    } else {
      const k = px[i]!;
      if (k * 3 >= palette!.length) throw badIndex(k);
      out[o] = palette![k * 3]!;
      out[o + 1] = palette![k * 3 + 1]!;
      out[o + 2] = palette![k * 3 + 2]!;
      out[o + 3] = trns && k < trns.length ? trns[k]! : 255;
    }
  }
  return out;
}
