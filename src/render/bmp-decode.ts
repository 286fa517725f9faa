// A BMP reader for the tile images a user extracted from their copy of a game (Claw's tiles are
// 8-bit palettised): Windows bitmaps with a BITMAPINFOHEADER or a later, longer header, 8-bit
// with a palette, 24-bit or 32-bit (BI_RGB, or BI_BITFIELDS with byte-aligned masks), rows bottom-up
// or top-down. Anything else, and any damage, is a DecodeError with format 'bmp', never a crash.

import { decodeError, type ErrorCode } from '../core/errors.js';
import type { PngDecodeOptions, RgbaImage } from './png-decode.js';

const FILE_HEADER = 14;
const INFO_HEADER = 40;
const DEFAULT_MAX_PIXELS = 1 << 24;

/** A mask's shift when it is one whole byte (0xFF << 8k), else -1. */
function byteShift(mask: number): number {
  for (let k = 0; k < 4; k++) if (mask >>> 0 === (0xff << (8 * k)) >>> 0) return 8 * k;
  return -1;
}

/**
 * Decodes a BMP file to RGBA. Throws DecodeError (format 'bmp'): BAD_MAGIC (no `BM`), TRUNCATED
 * (headers, palette or pixel rows past the end), UNSUPPORTED_VERSION (a core header, bit depths
 * other than 8/24/32, compression), CORRUPT (a zero or absurd size, a palette index past the
 * palette), LIMIT_EXCEEDED (over `maxPixels`). 32-bit images keep their alpha only when a mask
 * says they have one. The input is never written.
 */
export function decodeBmp(bytes: Uint8Array, opts: PngDecodeOptions = {}): RgbaImage {
  const maxPixels = opts.maxPixels ?? DEFAULT_MAX_PIXELS;
  if (!Number.isSafeInteger(maxPixels) || maxPixels < 1) throw new RangeError(`levelkit: decodeBmp: maxPixels must be a whole number ≥ 1, got ${maxPixels}`);
  const fail = (code: ErrorCode, offset: number, path: string, detail: string, extra: { expected?: string | number; actual?: string | number } = {}) =>
    decodeError('bmp', code, { offset, path, detail, ...extra });
  if (bytes.length < 2 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) throw fail('BAD_MAGIC', 0, 'signature', 'not a BMP file (no "BM")');
  if (bytes.length < FILE_HEADER + 4)
    throw fail('TRUNCATED', 0, 'header', 'the file ends inside its header', { expected: FILE_HEADER + 4, actual: bytes.length });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dataOffset = view.getUint32(10, true);
  const headerSize = view.getUint32(FILE_HEADER, true);
  if (headerSize < INFO_HEADER)
    throw fail('UNSUPPORTED_VERSION', FILE_HEADER, 'info.size', 'only BITMAPINFOHEADER (40 bytes) and later headers are read', { actual: headerSize });
  if (FILE_HEADER + headerSize > bytes.length)
    throw fail('TRUNCATED', FILE_HEADER, 'info', 'the file ends inside its info header', { expected: FILE_HEADER + headerSize, actual: bytes.length });
  const width = view.getInt32(18, true);
  const rawHeight = view.getInt32(22, true);
  const bits = view.getUint16(28, true);
  const compression = view.getUint32(30, true);
  const coloursUsed = view.getUint32(46, true);
  const height = Math.abs(rawHeight);
  if (width < 1 || height < 1 || width > 65_535 || height > 65_535) throw fail('CORRUPT', 18, 'info.width', `bad size ${width} × ${rawHeight}`);
  if (width * height > maxPixels)
    throw fail('LIMIT_EXCEEDED', 18, 'info.width', `${width} × ${height} pixels is over the ${maxPixels} allowed`, { actual: width * height });
  if (bits !== 8 && bits !== 24 && bits !== 32)
    throw fail('UNSUPPORTED_VERSION', 28, 'info.bitCount', 'only 8-, 24- and 32-bit images are read', { actual: bits });
  // Channel shifts (red, green, blue, alpha; -1: no alpha): BI_RGB's fixed order, or BI_BITFIELDS masks of whole bytes.
  let shifts = [16, 8, 0, -1];
  if (compression === 3 && bits === 32) {
    const masksAt = headerSize >= 52 ? FILE_HEADER + 40 : FILE_HEADER + headerSize;
    if (masksAt + 12 > bytes.length) throw fail('TRUNCATED', masksAt, 'masks', 'the file ends inside its colour masks');
    const masks = [0, 4, 8].map((k) => view.getUint32(masksAt + k, true));
    const alpha = headerSize >= 56 ? view.getUint32(FILE_HEADER + 52, true) : 0;
    shifts = [...masks.map(byteShift), alpha ? byteShift(alpha) : -1];
    if (shifts.slice(0, 3).some((s) => s < 0)) throw fail('UNSUPPORTED_VERSION', masksAt, 'masks', 'colour masks other than whole bytes are not read');
  } else if (compression !== 0) throw fail('UNSUPPORTED_VERSION', 30, 'info.compression', 'compressed bitmaps are not read', { actual: compression });
  let palette: Uint8Array | undefined;
  if (bits === 8) {
    const count = coloursUsed === 0 ? 256 : coloursUsed;
    if (count > 256) throw fail('CORRUPT', 46, 'info.coloursUsed', 'more than 256 palette entries', { actual: count });
    const at = FILE_HEADER + headerSize;
    if (at + count * 4 > bytes.length)
      throw fail('TRUNCATED', at, 'palette', 'the file ends inside its palette', { expected: at + count * 4, actual: bytes.length });
    palette = bytes.subarray(at, at + count * 4);
  }
  const stride = Math.ceil((width * bits) / 32) * 4;
  if (dataOffset > bytes.length || stride * height > bytes.length - dataOffset)
    throw fail('TRUNCATED', dataOffset, 'pixels', 'the pixel rows run past the end of the file', {
      expected: dataOffset + stride * height,
      actual: bytes.length,
    });
  const pixels = new Uint8Array(width * height * 4);
  const bytesPer = bits / 8;
  for (let y = 0; y < height; y++) {
    // Positive heights store the bottom row first.
    const row = dataOffset + (rawHeight > 0 ? height - 1 - y : y) * stride;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const s = row + x * bytesPer;
      if (palette) {
        const i = bytes[s]!;
        if (i * 4 >= palette.length)
          throw fail('CORRUPT', s, `pixels[${y}][${x}]`, 'palette index past the palette', { actual: i, expected: `< ${palette.length / 4}` });
        pixels.set([palette[i * 4 + 2]!, palette[i * 4 + 1]!, palette[i * 4]!, 255], o);
        continue;
      }
      const v = bits === 24 ? bytes[s]! | (bytes[s + 1]! << 8) | (bytes[s + 2]! << 16) : view.getUint32(s, true);
      for (let c = 0; c < 3; c++) pixels[o + c] = (v >>> shifts[c]!) & 0xff;
      pixels[o + 3] = shifts[3]! >= 0 ? (v >>> shifts[3]!) & 0xff : 255;
    }
  }
  return { width, height, channels: 4, pixels };
}
