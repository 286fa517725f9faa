// The IMAGE items of a Teeworlds map: external names, embedded pixels (read, claimed in a summary,
// or left deflated for layers: 'lazy'), and the 0 × 0 and short embedded images. README.md §Map.

import { defineLazy } from '../../core/lazy.js';
import { notePixelSource } from '../pixel-source.js';
import type { BlockReader } from './datafile.js';
import { IMAGE } from './items.js';
import { claimBlock, EMPTY_TEXT, need, type Reader, readOrClaim, readString } from './map-reader.js';
import type { MapImage } from './types.js';

export function decodeImage(rd: Reader, d: Int32Array, index: number, path: string): MapImage {
  need(rd, d, index, IMAGE.sizeByVersion[1]!, path);
  const version = d[IMAGE.version]!;
  const width = d[IMAGE.width]!,
    height = d[IMAGE.height]!;
  const external = d[IMAGE.external]! !== 0;
  const name = readString(rd, d[IMAGE.name]!, `${path}.name`) ?? EMPTY_TEXT();
  const img: MapImage = { version, width, height, name, external };
  if (version >= 2) img.format = d[IMAGE.format] ?? 1;
  if (external) return img;
  // QUIRK: 0.7 editors 2012–2020 wrote format 0 for 3-byte RGB images.
  const channels = img.format === 0 ? 3 : 4;
  const dataIndex = d[IMAGE.data]!;
  // QUIRK: older editors embed an image they could not load as 0 × 0 with an empty block.
  if (width === 0 && height === 0) return emptyImage(rd, img, dataIndex, path);
  const bytes = width > 0 && height > 0 ? width * height * channels : -1;
  if (bytes < 0 || bytes > rd.ctx.limits.maxInflatedBytes)
    throw rd.fail('LIMIT_EXCEEDED', index, path, {
      expected: `0 < width × height × ${channels} ≤ ${rd.ctx.limits.maxInflatedBytes}`,
      actual: `${width} × ${height}`,
    });
  const declared = rd.df.blocks[dataIndex]?.byteLength ?? -1;
  if (declared >= 0 && declared < bytes) return shortImage(rd, img, dataIndex, bytes, path);
  if (rd.ctx.lazyLayers && !rd.summaryOnly) {
    // Tilesets are most of a big map's memory after its grids: kept deflated like them.
    claimBlock(rd, dataIndex, `${path}.pixels`);
    const source = rd.df.deferData(dataIndex, `${path}.pixels`);
    warnOversized(rd, declared - bytes, dataIndex, path);
    deferPixels(img, source, bytes);
    // Noted on the image while its pixels wait: the index can then look their digest up without inflating them.
    if (source.stored)
      notePixelSource(img, {
        stored: source.stored,
        channels,
        declared,
        ...(channels === 4 && source.readResident
          ? { withPixels: <T>(use: (pixels: Uint8Array) => T) => source.readResident!((b) => use(b.subarray(0, bytes))) }
          : {}),
      });
    return img;
  }
  const pixels = readOrClaim(rd, dataIndex, `${path}.pixels`);
  // Read or not (a summary), the same warning: a block inflates to exactly its declared size.
  warnOversized(rd, declared - bytes, dataIndex, path);
  if (!pixels) return img;
  img.pixels = pixels.length > bytes ? pixels.slice(0, bytes) : pixels;
  const stored = rd.df.storedData(dataIndex);
  if (stored) notePixelSource(img.pixels, { stored, channels, declared });
  return img;
}

/**
 * A 0 × 0 embedded image: no pixels (DDNet loads the map and reports the image as not loaded).
 * Its block is claimed but not read: an empty v4 block cannot be inflated (ZERO_SIZE_DATA), and
 * any bytes it holds are dropped, as after any image's pixels. The encoder writes an empty block.
 */
function emptyImage(rd: Reader, img: MapImage, dataIndex: number, path: string): MapImage {
  claimBlock(rd, dataIndex, `${path}.pixels`);
  rd.ctx.warnings.warn('EMPTY_IMAGE', 'embedded image of 0 × 0 pixels', rd.df.blocks[dataIndex]!.offset, path);
  warnOversized(rd, rd.df.blocks[dataIndex]!.byteLength, dataIndex, path);
  if (rd.summaryOnly) return img;
  // Lazy like every embedded image's pixels (there is nothing to inflate).
  if (rd.ctx.lazyLayers) defineLazy(img, 'pixels', () => new Uint8Array(0));
  else img.pixels = new Uint8Array(0);
  return img;
}

/**
 * An embedded image whose block holds fewer bytes than its pixels (an InfClass map's 128 × 128
 * image stored as 3-byte pixels in a version-1 item, which has no format field): the game cannot
 * use it and plays the map without it. No `pixels`; the stored bytes are kept in `storedPixels`,
 * which the encoder writes back. Read at every depth but the summary's (no stream is left unchecked).
 */
function shortImage(rd: Reader, img: MapImage, dataIndex: number, bytes: number, path: string): MapImage {
  const declared = rd.df.blocks[dataIndex]!.byteLength;
  rd.ctx.warnings.warn(
    'SHORT_IMAGE_DATA',
    `${img.width} × ${img.height} image needs ${bytes} bytes of pixels, its block holds ${declared}; not loaded (kept in storedPixels)`,
    rd.df.blocks[dataIndex]!.offset,
    `${path}.pixels`,
  );
  if (rd.ctx.lazyLayers && !rd.summaryOnly) {
    claimBlock(rd, dataIndex, `${path}.pixels`);
    deferStoredPixels(img, rd.df.deferData(dataIndex, `${path}.pixels`));
    return img;
  }
  const stored = readOrClaim(rd, dataIndex, `${path}.pixels`);
  if (stored) img.storedPixels = stored;
  return img;
}

/** An image's `storedPixels` read on first access (layers: 'lazy'); a function of its own so the loader holds only `source`. */
function deferStoredPixels(img: MapImage, source: BlockReader): void {
  defineLazy(img, 'storedPixels', () => source.read());
}

function warnOversized(rd: Reader, extra: number, dataIndex: number, path: string): void {
  if (extra > 0) rd.ctx.warnings.warn('OVERSIZED_IMAGE_DATA', `${extra} bytes after the pixels`, rd.df.blocks[dataIndex]!.offset, path);
}

/** An image's `pixels` read on first access (layers: 'lazy'); a function of its own so the loader holds only `source`. */
function deferPixels(img: MapImage, source: BlockReader, bytes: number): void {
  defineLazy(img, 'pixels', () => {
    const pixels = source.read();
    return pixels.length > bytes ? pixels.slice(0, bytes) : pixels;
  });
}
