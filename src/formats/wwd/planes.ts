// WWD planes: the 160-byte headers, each plane's tile grid, image-set names and objects, found
// through the absolute offsets in the plane headers. See README.md § Planes.

import type { DecodeContext } from '../../core/context.js';
import { bufferToOverwrite, LITTLE_ENDIAN_HOST } from '../../core/host.js';
import type { ByteReader } from '../../core/reader.js';
import { makeText, type Text } from '../../core/text.js';
import { PLANE_HEADER_BYTES, type PlaneHeader, readPlaneHeader } from './header.js';
import type { SectionBudget } from './layout.js';
import { emptyObjectTable, OBJECT_FIXED_BYTES, readObjects } from './objects.js';
import type { WwdGridStats } from './types.js';

/** Where an offset is stored: the absolute position of its field and its path, e.g. `header.planesOffset`. */
export interface OffsetField {
  at: number;
  path: string;
}

/**
 * Moves `r` (whose `base` is the absolute offset of its first byte) to absolute offset `abs`;
 * OUT_OF_RANGE at the field that holds `abs` when it is outside the block.
 */
export function seekAbsolute(r: ByteReader, abs: number, field: OffsetField): void {
  if (abs < r.base || abs > r.base + r.length) {
    throw r.fail('OUT_OF_RANGE', {
      at: field.at - r.base,
      path: field.path,
      expected: `an offset within 0x${r.base.toString(16)}..0x${(r.base + r.length).toString(16)}`,
      actual: `0x${abs.toString(16)}`,
    });
  }
  r.seek(abs - r.base, field.path);
}

export function readPlaneHeaders(r: ByteReader, count: number, ctx: DecodeContext, headerBytes: number): PlaneHeader[] {
  r.count(count, ctx.limits.maxRecords, headerBytes, 'planes');
  const out: PlaneHeader[] = [];
  for (let i = 0; i < count; i++) out.push(r.within(`planes[${i}]`, () => readPlaneHeader(r, ctx.encoding)));
  return out;
}

/** Offsets in a plane header of the fields errors about its sections point at. */
const TILES_WIDE_AT = 0x60;
const IMAGE_SET_COUNT_AT = 0x7c;
const OBJECT_COUNT_AT = 0x80;
const TILES_OFFSET_AT = 0x84;
const IMAGE_SETS_OFFSET_AT = 0x88;
const OBJECTS_OFFSET_AT = 0x8c;

/**
 * Checks every plane's grid size and claims, from the headers alone, what each plane's sections
 * take at least (the plane headers, 4 bytes a cell, 1 a name, 284 an object), before any section
 * is read. CORRUPT for a negative grid size, LIMIT_EXCEEDED when the planes' cells together pass
 * maxGridCells (they all come out of one block), OUT_OF_RANGE when the claims pass the block;
 * each at the plane's field that pushed it over. `headersAt` is the first header's position in `r`.
 */
export function claimPlaneSections(r: ByteReader, headers: PlaneHeader[], headersAt: number, ctx: DecodeContext, budget: SectionBudget): void {
  budget.claim(r, headers.length * PLANE_HEADER_BYTES, headersAt, 'planes');
  let cells = 0;
  headers.forEach((p, i) => {
    const { tilesWide: w, tilesHigh: h } = p;
    const at = headersAt + i * PLANE_HEADER_BYTES;
    const gridAt = { at: at + TILES_WIDE_AT, path: `planes[${i}].tilesWide` };
    if (w < 0 || h < 0) throw r.fail('CORRUPT', { ...gridAt, expected: 'non-negative grid size', actual: `${w}×${h}` });
    cells += w * h;
    if (cells > ctx.limits.maxGridCells)
      throw r.fail('LIMIT_EXCEEDED', {
        ...gridAt,
        expected: `≤ ${ctx.limits.maxGridCells} cells in all planes`,
        actual: `${w}×${h}, ${cells} with the planes before`,
      });
    budget.claim(r, w * h * 4, gridAt.at, `planes[${i}].tiles`);
    budget.claim(r, p.imageSetCount, at + IMAGE_SET_COUNT_AT, `planes[${i}].imageSetNames`);
    budget.claim(r, p.objectCount * OBJECT_FIXED_BYTES, at + OBJECT_COUNT_AT, `planes[${i}].objects`);
  });
}

/**
 * Cells of a plane: `tiles` a copy, `cells` the same cells where they lie in the block when they
 * are 4-byte aligned there (else `tiles`), for the scan kernel to read in place (the block may be
 * held in WASM memory: Kernels.inflateResident). With `inPlace` (the block is a fresh array the
 * level may keep, and this grid shares no byte with another's) an aligned grid is not copied:
 * `tiles` is then a view of the block. Its size was checked and claimed by claimPlaneSections.
 * `headerAt`: the plane header's absolute offset.
 */
export function readGrid(r: ByteReader, p: PlaneHeader, headerAt: number, inPlace = false): { tiles: Uint32Array; cells: Uint32Array } {
  const cells = p.tilesWide * p.tilesHigh;
  seekAbsolute(r, p.tilesOffset, { at: headerAt + TILES_OFFSET_AT, path: `${r.path}.tilesOffset` });
  const src = r.view8(cells * 4, 'tiles');
  if (LITTLE_ENDIAN_HOST) {
    const aligned = src.byteOffset % 4 === 0 ? new Uint32Array(src.buffer, src.byteOffset, cells) : null;
    if (aligned && inPlace) return { tiles: aligned, cells: aligned };
    // One built-in copy into a buffer it overwrites whole (not zeroed first); aligned whatever
    // the source alignment was.
    const tiles = new Uint32Array(bufferToOverwrite(cells * 4));
    new Uint8Array(tiles.buffer).set(src);
    return { tiles, cells: aligned ?? tiles };
  }
  const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const out = new Uint32Array(cells);
  for (let i = 0; i < cells; i++) out[i] = dv.getUint32(i * 4, true);
  return { tiles: out, cells: out };
}

/**
 * A plane's cells where they lie in the block, valid as long as the block is (a lazy plane counts
 * them there), or null when they are not 4-byte aligned there or the host is big-endian (then read
 * them with readGrid). Its size was checked and claimed by claimPlaneSections.
 */
export function gridView(r: ByteReader, p: PlaneHeader, headerAt: number): Uint32Array | null {
  const cells = p.tilesWide * p.tilesHigh;
  seekAbsolute(r, p.tilesOffset, { at: headerAt + TILES_OFFSET_AT, path: `${r.path}.tilesOffset` });
  const src = r.view8(cells * 4, 'tiles');
  return LITTLE_ENDIAN_HOST && src.byteOffset % 4 === 0 ? new Uint32Array(src.buffer, src.byteOffset, cells) : null;
}

/**
 * For each plane, whether its grid's bytes (tilesOffset, 4 per cell) overlap no other plane's
 * grid: only such a grid may be kept as a view of the block, or two planes would share cells.
 */
export function gridsApart(headers: readonly PlaneHeader[]): boolean[] {
  const apart = headers.map(() => true);
  const order = headers.map((_, i) => i).sort((a, b) => headers[a]!.tilesOffset - headers[b]!.tilesOffset);
  let reach = -Infinity,
    last = -1;
  for (const i of order) {
    const p = headers[i]!;
    const bytes = p.tilesWide * p.tilesHigh * 4;
    if (bytes === 0) continue;
    if (p.tilesOffset < reach) {
      apart[i] = false;
      if (last >= 0) apart[last] = false;
    }
    if (p.tilesOffset + bytes > reach) {
      reach = p.tilesOffset + bytes;
      last = i;
    }
  }
  return apart;
}

/** Runs the scanTileGrid kernel over a grid (`cells`, little-endian host order), with one max-id slot per image set of the plane. */
export function gridStats(tiles: Uint32Array, imageSetCount: number, ctx: DecodeContext): WwdGridStats {
  const counts = new Uint32Array(4);
  // Ids are 16-bit, so a grid can name at most 65536 sets; more slots would never be touched.
  const maxIds = new Int32Array(Math.min(imageSetCount, 0x10000)).fill(-1);
  ctx.kernels.scanTileGrid(tiles, counts, maxIds);
  return { invisible: counts[0]!, filled: counts[1]!, used: counts[2]!, outsideImageSets: counts[3]!, maxTileId: Array.from(maxIds) };
}

/** The plane's NUL-terminated image-set names; their bytes beyond one per name are claimed first. */
export function readImageSetNames(r: ByteReader, p: PlaneHeader, ctx: DecodeContext, budget: SectionBudget, headerAt: number): Text[] {
  if (p.imageSetCount === 0) return [];
  seekAbsolute(r, p.imageSetsOffset, { at: headerAt + IMAGE_SETS_OFFSET_AT, path: `${r.path}.imageSetsOffset` });
  r.count(p.imageSetCount, ctx.limits.maxRecords, 1, 'image sets');
  // Find where the list ends before copying a name, so a list shared by many planes fails here
  // instead of being copied once per plane (an unterminated list fails TRUNCATED below).
  let end = r.pos;
  for (let i = 0; i < p.imageSetCount && end >= 0; i++) {
    const nul = r.bytes.indexOf(0, end);
    end = nul < 0 ? -1 : nul + 1;
  }
  if (end >= 0) budget.claim(r, end - r.pos - p.imageSetCount, r.pos, `${r.path}.imageSetNames`);
  const out: Text[] = [];
  for (let i = 0; i < p.imageSetCount; i++) out.push(makeText(r.cstring('image-set name'), ctx.encoding));
  return out;
}

/** The plane's objects; their string bytes (the fixed parts were claimed up front) are claimed before they are copied. */
export function readPlaneObjects(r: ByteReader, p: PlaneHeader, ctx: DecodeContext, budget: SectionBudget, headerAt: number) {
  if (p.objectCount === 0) return emptyObjectTable();
  seekAbsolute(r, p.objectsOffset, { at: headerAt + OBJECTS_OFFSET_AT, path: `${r.path}.objectsOffset` });
  const at = r.pos,
    path = `${r.path}.objects`;
  return readObjects(r, p.objectCount, ctx, (stringBytes) => budget.claim(r, stringBytes, at, path));
}
