// WWD decoder: the container (header, zlib main block, checksum) and then the semantics (planes,
// grids, objects, tile properties) found through absolute offsets. See README.md for the layout
// and every tolerated fault.

import type { DecodeContext } from '../../core/context.js';
import { inflateBlockResident } from '../../core/inflate.js';
import type { DecodeOptions } from '../../core/limits.js';
import { ByteReader } from '../../core/reader.js';
import { startDecode } from '../decode-context.js';
import { classifyChecksum } from './checksum.js';
import { detectGame } from './game.js';
import { HEADER_BYTES, PLANE_HEADER_BYTES, PLANES_OFFSET_AT, type PlaneHeader, readHeader, SIGNATURE, TILE_PROPERTIES_OFFSET_AT } from './header.js';
import { canonicalLayout, firstLayoutDifference, SectionBudget } from './layout.js';
import { emptyObjectTable, objectsByteLength } from './objects.js';
import { claimPlaneSections, gridStats, gridsApart, readGrid, readImageSetNames, readPlaneHeaders, readPlaneObjects, seekAbsolute } from './planes.js';
import { readTileProperties, readTileTableHeader, TILE_TABLE_COUNT_WORD } from './tile-properties.js';
import type { WwdContainer, WwdLevel, WwdPlane, WwdWarningCode } from './types.js';

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
 * (grids may be views of the freshly inflated block, see keepGridsInPlace).
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
  const top: TopFields = { header, mainBlockSizeField, storedChecksum, stored };
  return header.compressed
    ? inflateBlockResident(ctx, stored, mainBlockSizeField, { offset: HEADER_BYTES, path: 'mainBlock' }, (block, consumed, owned) =>
        readBlock(ctx, top, block, consumed, owned),
      )
    : readBlock(ctx, top, stored, stored.length, false);
}

/** What the file header gives the main block's reader: the header, its two container fields, and the stored bytes after it. */
interface TopFields {
  header: WwdLevel['header'];
  mainBlockSizeField: number;
  storedChecksum: number;
  stored: Uint8Array;
}

/**
 * The container facts (checksum, trailing bytes) and the semantics of the main block (`block`,
 * whose zlib stream took `consumed` stored bytes). `block` may be a view of WASM memory valid only
 * during this call: everything the level keeps is copied out of it, unless `owned` (a fresh array
 * only this decode holds), when grids may stay where they lie (see keepGridsInPlace).
 */
function readBlock(ctx: DecodeContext<WwdWarningCode>, top: TopFields, block: Uint8Array, consumed: number, owned: boolean): WwdLevel {
  const { header, mainBlockSizeField, storedChecksum, stored } = top;
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
  const inPlace = owned ? keepGridsInPlace(headers, block.length, summaryOnly ? mainPlane : -1) : null;

  const planes: WwdPlane[] = headers.map((p, i) =>
    br.within(`planes[${i}]`, () => {
      const full = !summaryOnly || i === mainPlane;
      const headerAt = header.planesOffset + i * PLANE_HEADER_BYTES;
      const grid = full ? readGrid(br, p, headerAt, inPlace?.[i]) : null;
      const tiles = grid ? grid.tiles : new Uint32Array(0);
      const imageSetNames = readImageSetNames(br, p, ctx, budget, headerAt);
      // A summary keeps no objects but still reads them: the block is inflated already, and a
      // file the summary passes must not fail the full decode (issue 19 §3).
      const read = readPlaneObjects(br, p, ctx, budget, headerAt);
      const objects = summaryOnly ? emptyObjectTable() : read;
      // Scanned where the cells lie in the block (in place when it is held in WASM memory).
      const stats = grid ? gridStats(grid.cells, p.imageSetCount, ctx) : null;
      return { ...p, tiles, imageSetNames, objects, stats };
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
  };
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
      gridBytes: p.tiles.length * 4,
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
