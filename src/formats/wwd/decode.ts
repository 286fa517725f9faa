// WWD decoder: the container (header, zlib main block, checksum) and then the semantics (planes,
// grids, objects, tile properties) found through absolute offsets. See README.md for the layout
// and every tolerated fault.

import type { DecodeContext } from '../../core/context.js';
import { type Inflater, inflateBlockResident, residentInflater } from '../../core/inflate.js';
import { defineLazy } from '../../core/lazy.js';
import type { DecodeOptions } from '../../core/limits.js';
import { ByteReader } from '../../core/reader.js';
import { startDecode } from '../decode-context.js';
import { type Histogram, runCounts } from '../rows.js';
import { classifyChecksum } from './checksum.js';
import { detectGame } from './game.js';
import { HEADER_BYTES, PLANE_HEADER_BYTES, PLANES_OFFSET_AT, type PlaneHeader, readHeader, SIGNATURE, TILE_PROPERTIES_OFFSET_AT } from './header.js';
import { canonicalLayout, firstLayoutDifference, SectionBudget } from './layout.js';
import { emptyObjectTable, objectsByteLength } from './objects.js';
import { notePlaneCounts } from './plane-counts.js';
import {
  claimPlaneSections,
  gridStats,
  gridsApart,
  gridView,
  readGrid,
  readImageSetNames,
  readPlaneHeaders,
  readPlaneObjects,
  seekAbsolute,
} from './planes.js';
import { readTileProperties, readTileTableHeader, TILE_TABLE_COUNT_WORD } from './tile-properties.js';
import { treasureTotals } from './treasure.js';
import type { WwdContainer, WwdLevel, WwdObjectTable, WwdPlane, WwdWarningCode } from './types.js';

/** True when `head` starts with the WWD signature (the header size, 0x5F4). Never throws. */
export function sniffWwd(head: Uint8Array): boolean {
  return head.length >= 4 && (head[0]! | (head[1]! << 8) | (head[2]! << 16) | (head[3]! << 24)) === SIGNATURE;
}

/**
 * Decodes a WWD file. Throws DecodeError: BAD_MAGIC (signature ≠ 0x5F4), TRUNCATED,
 * OUT_OF_RANGE (an offset outside the main block, or planes whose sections together take more
 * than the block: they share bytes, which no writer does), CORRUPT (tile type other than 1–3, negative
 * grid size), CORRUPT_COMPRESSED, LIMIT_EXCEEDED. Offsets inside the main block are the spec's
 * absolute offsets into header + uncompressed block. Warnings: CHECKSUM_MISMATCH, TRAILING_BYTES,
 * LAYOUT, NO_MAIN_PLANE. The input is never modified, and no array in the result is a view of it
 * (grids may be views of the freshly inflated block, see keepGridsInPlace). With `layers: 'lazy'`
 * (a compressed file, full depth) every plane but the main one keeps its tiles unread: they are
 * inflated again on first read, and its histogram, counted in the decode's pass, is there for the
 * archive index (plane-counts.ts).
 */
export function decode(input: Uint8Array, opts: DecodeOptions = {}): WwdLevel {
  const { bytes, ctx } = startDecode<WwdWarningCode>('wwd', input, opts);
  const r = new ByteReader(bytes, 'wwd');
  r.need(4, 'signature');
  const signature = r.u32();
  // QUIRK: Gruntz retail only rejects signatures above 0x5F4; every editor and Claw tool
  // requires equality, and no writer produces another value, so anything else is BAD_MAGIC.
  if (signature !== SIGNATURE) throw r.fail('BAD_MAGIC', { at: 0, path: 'header.signature', expected: '0x5f4', actual: `0x${signature.toString(16)}` });
  r.pos = 0;
  const raw = r.within('header', () => {
    r.need(HEADER_BYTES, 'header');
    return readHeader(r, ctx.encoding);
  });
  const { mainBlockSizeField, checksum: storedChecksum, ...header } = raw;

  const stored = bytes.subarray(HEADER_BYTES);
  // The block's kernels (grid scans, object tables) read it where the inflater left it: in the
  // WASM arena for a kernel inflater (one trip into its memory, issue 22); everything the level
  // keeps is copied out of it inside semantics().
  // Lazy planes are counted and left where the inflater put the block: WASM memory, when it can.
  const lazy = header.compressed && ctx.lazyLayers && !ctx.summaryOnly;
  const inflater = lazy ? residentInflater(ctx) : ctx.inflater;
  const top: TopFields = { header, mainBlockSizeField, storedChecksum, stored, lazy, inflater };
  return header.compressed
    ? inflateBlockResident(
        ctx,
        stored,
        mainBlockSizeField,
        MAIN_BLOCK,
        (block, consumed, owned) => readBlock(ctx, top, block, consumed, owned),
        false,
        inflater,
      )
    : readBlock(ctx, top, stored, stored.length, false);
}

/** What the file header gives the main block's reader: the header, its two container fields, and the stored bytes after it. */
interface TopFields {
  header: WwdLevel['header'];
  mainBlockSizeField: number;
  storedChecksum: number;
  stored: Uint8Array;
  /** Planes other than the main one are left lazy (compressed files only). */
  lazy: boolean;
  /** What inflated the main block, and inflates it again for a lazy plane. */
  inflater: Inflater;
}

const MAIN_BLOCK = { offset: HEADER_BYTES, path: 'mainBlock' };

/**
 * The container facts (checksum, trailing bytes) and the semantics of the main block (`block`,
 * whose zlib stream took `consumed` stored bytes). `block` may be a view of WASM memory valid only
 * during this call: everything the level keeps is copied out of it, unless `owned` (a fresh array
 * only this decode holds), when grids may stay where they lie (see keepGridsInPlace).
 */
function readBlock(ctx: DecodeContext<WwdWarningCode>, top: TopFields, block: Uint8Array, consumed: number, owned: boolean): WwdLevel {
  const { header, mainBlockSizeField, storedChecksum, stored, lazy } = top;
  const summaryOnly = ctx.summaryOnly;
  const trailing = stored.slice(consumed);
  const facts = classifyChecksum(ctx.kernels, stored.subarray(0, consumed), trailing, storedChecksum);
  if (facts.class === 'mismatch') {
    ctx.warnings.warn(
      'CHECKSUM_MISMATCH',
      `stored checksum 0x${(storedChecksum >>> 0).toString(16)} fits neither WapWorld (0x${facts.wapworld.toString(16)} + 0..255) nor WapMap (0x${facts.wapmap.toString(16)})`,
      0x2ec,
      'header.checksum',
    );
  }
  if (trailing.length)
    ctx.warnings.warn('TRAILING_BYTES', `${trailing.length} bytes after the zlib stream (kept in container.trailing)`, HEADER_BYTES + consumed, 'mainBlock');
  const container: WwdContainer = {
    mainBlockSizeField,
    storedLength: stored.length,
    streamLength: consumed,
    trailing,
    checksum: { stored: storedChecksum, ...facts },
  };

  // Offsets in the file are absolute over header + (uncompressed) block: base the reader there.
  const br = new ByteReader(block, 'wwd', HEADER_BYTES);
  seekAbsolute(br, header.planesOffset, { at: PLANES_OFFSET_AT, path: 'header.planesOffset' });
  const headers = readPlaneHeaders(br, header.planeCount, ctx, PLANE_HEADER_BYTES);
  const mainPlane = headers.findIndex((p) => p.flagBits.main);
  if (mainPlane < 0 && headers.length) ctx.warnings.warn('NO_MAIN_PLANE', 'no plane is flagged main', header.planesOffset, 'planes');

  // Sections may sit anywhere, but never share bytes: the claims of all planes must fit in the
  // block before any grid is copied (see SectionBudget).
  const budget = new SectionBudget(block.length);
  claimPlaneSections(br, headers, header.planesOffset - HEADER_BYTES, ctx, budget);
  /** The zlib stream, copied once for the lazy planes to inflate again (the input is not kept). */
  let kept: Uint8Array | undefined;
  /** Every plane's objects as read, kept only as long as a summary needs them to count treasure. */
  const readTables: WwdObjectTable[] = [];
  // A summary or a lazy decode keeps only the main plane's grid: only it counts toward keeping views.
  const inPlace = owned ? keepGridsInPlace(headers, block.length, summaryOnly || lazy ? mainPlane : -1) : null;

  const planes: WwdPlane[] = headers.map((p, i) =>
    br.within(`planes[${i}]`, () => {
      const full = !summaryOnly || i === mainPlane;
      const headerAt = header.planesOffset + i * PLANE_HEADER_BYTES;
      // A lazy plane's cells are read where they lie (null: not 4-byte aligned there, read eagerly).
      const resident = lazy && i !== mainPlane && p.tilesWide * p.tilesHigh > 0 ? gridView(br, p, headerAt) : null;
      const grid = resident ? { tiles: resident, cells: resident } : full ? readGrid(br, p, headerAt, inPlace?.[i]) : null;
      const tiles = grid ? grid.tiles : new Uint32Array(0);
      const imageSetNames = readImageSetNames(br, p, ctx, budget, headerAt);
      // A summary keeps no objects but still reads them: the block is inflated already, and a
      // file the summary passes must not fail the full decode (issue 19 §3).
      const read = readPlaneObjects(br, p, ctx, budget, headerAt);
      readTables.push(read);
      const objects = summaryOnly ? emptyObjectTable() : read;
      // Scanned where the cells lie in the block (in place when it is held in WASM memory).
      const stats = grid ? gridStats(grid.cells, p.imageSetCount, ctx) : null;
      const plane: WwdPlane = { ...p, tiles, imageSetNames, objects, stats };
      if (resident) {
        kept ??= stored.slice(0, consumed);
        deferTiles(ctx, top, plane, p, headerAt, runCounts(resident), kept, i);
      }
      return plane;
    }),
  );

  seekAbsolute(br, header.tilePropertiesOffset, { at: TILE_PROPERTIES_OFFSET_AT, path: 'header.tilePropertiesOffset' });
  const tilePropertiesHeader = br.within('tilePropertiesHeader', () => readTileTableHeader(br));
  // Read at every depth, kept only by a full decode (as the objects above).
  const allTileProperties = readTileProperties(br, tilePropertiesHeader[TILE_TABLE_COUNT_WORD]!, ctx.limits);
  const tileProperties = summaryOnly ? [] : allTileProperties;

  let tail: Uint8Array = new Uint8Array(0);
  if (!summaryOnly) tail = checkLayout(ctx, header, planes, br.pos, block);

  const lead = headers[mainPlane] ?? headers[0];
  return {
    format: 'wwd',
    warnings: ctx.warnings.list,
    sections: summaryOnly ? 'summary' : 'all',
    game: detectGame(header, lead?.tileWidth, lead?.tileHeight),
    header,
    planes,
    mainPlane,
    tilePropertiesHeader,
    tileProperties,
    tail,
    container,
    ...(summaryOnly ? { treasure: treasureTotals(readTables) } : {}),
  };
}

/**
 * Makes the tiles of lazy `plane` (the `i`th, read from `header` at `headerAt`) inflate the main
 * block (`stream`) again on first read and copy them out; `counts` is its histogram, taken while
 * its cells lay in this decode's block. The block's size and budget were checked and charged by the decode.
 */
function deferTiles(
  ctx: DecodeContext<WwdWarningCode>,
  top: TopFields,
  plane: WwdPlane,
  header: PlaneHeader,
  headerAt: number,
  counts: Histogram,
  stream: Uint8Array,
  i: number,
): void {
  notePlaneCounts(plane, counts);
  defineLazy(plane, 'tiles', () =>
    inflateBlockResident(
      ctx,
      stream,
      top.mainBlockSizeField,
      MAIN_BLOCK,
      (block) => {
        const r = new ByteReader(block, 'wwd', HEADER_BYTES);
        return r.within(`planes[${i}]`, () => readGrid(r, header, headerAt).tiles);
      },
      true,
      top.inflater,
    ),
  );
}

/**
 * Which grids of an owned block the level keeps as views of it rather than copies (issue 21: no
 * copy you can avoid; a corpus pass copied 68 MB of grids). A view keeps the whole block alive, so
 * only when the kept grids are at least half of it (the level then holds at most twice its grids),
 * and only grids that share no byte with another plane's (each plane's cells stay its own).
 * `only`: the one plane a summary keeps, or -1 for all.
 */
function keepGridsInPlace(headers: readonly PlaneHeader[], blockBytes: number, only: number): boolean[] | null {
  let kept = 0;
  headers.forEach((p, i) => {
    if (only < 0 || i === only) kept += p.tilesWide * p.tilesHigh * 4;
  });
  return kept * 2 >= blockBytes ? gridsApart(headers) : null;
}

/**
 * Warns (LAYOUT) when sections are not where WapWorld puts them, and returns the bytes after
 * the tile-property table when it ends the block (TRAILING_BYTES; none in known files).
 */
function checkLayout(ctx: DecodeContext<WwdWarningCode>, header: WwdLevel['header'], planes: WwdPlane[], tableEnd: number, block: Uint8Array): Uint8Array {
  const expected = canonicalLayout(
    planes.map((p) => ({
      // From the header, not `tiles` (a lazy plane's would be inflated for it).
      gridBytes: p.tilesWide * p.tilesHigh * 4,
      imageSetBytes: p.imageSetNames.reduce((n, s) => n + s.raw.length + 1, 0),
      objectCount: p.objects.count,
      objectBytes: objectsByteLength(p.objects),
    })),
  );
  const diff = firstLayoutDifference({ planesOffset: header.planesOffset, planes, tilePropertiesOffset: header.tilePropertiesOffset }, expected);
  if (diff) {
    ctx.warnings.warn(
      'LAYOUT',
      `${diff.what} is 0x${diff.stored.toString(16)} where WapWorld writes 0x${diff.expected.toString(16)}; encode() will re-lay the sections out`,
      diff.stored,
      diff.what,
    );
    return new Uint8Array(0);
  }
  const tail = block.slice(tableEnd);
  if (tail.length)
    ctx.warnings.warn('TRAILING_BYTES', `${tail.length} bytes after the tile-property table (kept in tail)`, HEADER_BYTES + tableEnd, 'mainBlock');
  return tail;
}
