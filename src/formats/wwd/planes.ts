// WWD planes: the 160-byte headers, each plane's tile grid, image-set names and objects, found
// through the absolute offsets in the plane headers. See README.md § Planes.

import type { ByteReader } from '../../core/reader.js';
import type { DecodeContext } from '../../core/context.js';
import { decodeText } from '../../core/text.js';
import { LITTLE_ENDIAN_HOST } from '../../core/host.js';
import { readPlaneHeader, type PlaneHeader } from './header.js';
import { emptyObjectTable, readObjects } from './objects.js';
import type { WwdGridStats, WwdText } from './types.js';

/** Moves `r` (whose `base` is the absolute offset of its first byte) to absolute offset `abs`. */
export function seekAbsolute(r: ByteReader, abs: number, what: string): void {
  if (abs < r.base || abs > r.base + r.length) {
    throw r.fail('OUT_OF_RANGE', { expected: `${what} offset within 0x${r.base.toString(16)}..0x${(r.base + r.length).toString(16)}`, actual: '0x' + abs.toString(16) });
  }
  r.seek(abs - r.base, what);
}

export function readPlaneHeaders(r: ByteReader, count: number, ctx: DecodeContext, headerBytes: number): PlaneHeader[] {
  r.count(count, ctx.limits.maxRecords, headerBytes, 'planes');
  const out: PlaneHeader[] = [];
  for (let i = 0; i < count; i++) out.push(r.within(`planes[${i}]`, () => readPlaneHeader(r, ctx.encoding)));
  return out;
}

/** Offset of tilesWide in a plane header (errors about the grid size point there). */
const TILES_WIDE_AT = 0x60;

/**
 * Cells of a plane, checked against the grid limit and the bytes present before allocating.
 * `headerAt` is the plane header's position in `r`.
 */
export function readGrid(r: ByteReader, p: PlaneHeader, headerAt: number, ctx: DecodeContext): Uint32Array {
  const { tilesWide: w, tilesHigh: h } = p;
  const at = headerAt + TILES_WIDE_AT;
  if (w < 0 || h < 0) throw r.fail('CORRUPT', { at, expected: 'non-negative grid size', actual: `${w}×${h}` });
  const cells = w * h;
  if (cells > ctx.limits.maxGridCells) throw r.fail('LIMIT_EXCEEDED', { at, expected: `≤ ${ctx.limits.maxGridCells} cells`, actual: `${w}×${h}` });
  seekAbsolute(r, p.tilesOffset, 'tiles');
  const src = r.view8(cells * 4, 'tiles');
  if (LITTLE_ENDIAN_HOST) {
    // One built-in copy; the fresh buffer is aligned whatever the source alignment was.
    return new Uint32Array(src.slice().buffer);
  }
  const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const out = new Uint32Array(cells);
  for (let i = 0; i < cells; i++) out[i] = dv.getUint32(i * 4, true);
  return out;
}

/** Runs the scanTileGrid kernel over a grid, with one max-id slot per image set of the plane. */
export function gridStats(tiles: Uint32Array, imageSetCount: number, ctx: DecodeContext): WwdGridStats {
  const counts = new Uint32Array(4);
  // Ids are 16-bit, so a grid can name at most 65536 sets; more slots would never be touched.
  const maxIds = new Int32Array(Math.min(imageSetCount, 0x10000)).fill(-1);
  ctx.kernels.scanTileGrid(tiles, counts, maxIds);
  return { invisible: counts[0]!, filled: counts[1]!, used: counts[2]!, outsideImageSets: counts[3]!, maxTileId: Array.from(maxIds) };
}

/** The plane's NUL-terminated image-set names. */
export function readImageSetNames(r: ByteReader, p: PlaneHeader, ctx: DecodeContext): WwdText[] {
  if (p.imageSetCount === 0) return [];
  seekAbsolute(r, p.imageSetsOffset, 'image sets');
  r.count(p.imageSetCount, ctx.limits.maxRecords, 1, 'image sets');
  const out: WwdText[] = [];
  for (let i = 0; i < p.imageSetCount; i++) {
    const raw = r.cstring('image-set name');
    out.push({ text: decodeText(raw, ctx.encoding), raw });
  }
  return out;
}

export function readPlaneObjects(r: ByteReader, p: PlaneHeader, ctx: DecodeContext) {
  if (p.objectCount === 0) return emptyObjectTable();
  seekAbsolute(r, p.objectsOffset, 'objects');
  return readObjects(r, p.objectCount, ctx);
}
