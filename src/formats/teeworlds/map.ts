// Teeworlds / DDNet map semantics on top of the datafile container: info, images, envelopes,
// groups, layers (tiles and DDNet physics, quads, sounds), sounds, automapper configs, and the
// 2007 legacy maps. Layouts come from items.ts; see README.md §Map for the rules.

import type { DecodeContext } from '../../core/context.js';
import { DecodeError, type DecodeWarning, decodeError, type ErrorCode, WarningSink } from '../../core/errors.js';
import { kernelError } from '../../core/kernel-status.js';
import { defineLazy } from '../../core/lazy.js';
import { makeText, type Text } from '../../core/text.js';
import { notePixelSource } from '../pixel-source.js';
import { type BlockReader, type Datafile, ITEMTYPE_EX, readDatafile } from './datafile.js';
import { noteDeferredBlocks } from './deferred-blocks.js';
import { flavourOf } from './flavour.js';
import { countRecordByte, countTileRecords, noteGridCounter, TYPE_BYTE } from './grid-counts.js';
import {
  AUTOMAPPER,
  BEZIER_INTS,
  ENVELOPE,
  ENVPOINT,
  GROUP,
  gatherInts,
  gridKey,
  IMAGE,
  INFO,
  type IntColumns,
  type IntStruct,
  ITEM,
  LAYER,
  LAYER_TYPE,
  LEGACY_TYPES,
  MAX_SETTINGS_BYTES,
  MAX_STRING_BYTES,
  QUAD_STRUCT,
  QUADS,
  SHAPE_CIRCLE,
  SOUND,
  SOUNDS,
  SOURCE_STRUCT,
  SOURCE_STRUCT_DEPRECATED,
  structInts,
  TILE_STRUCTS,
  TILEMAP,
  TILEMAP_BY_VERSION,
} from './items.js';
import { deferWarnings, type LateWarnings } from './late-warnings.js';
import { unpackName } from './names.js';
import { blockSlots, placeTileLayer, withoutBlockIndices } from './placement.js';
import type {
  AutomapperConfig,
  EnvelopePoints,
  ExtraItem,
  MapEnvelope,
  MapGroup,
  MapImage,
  MapInfo,
  MapLayer,
  MapSound,
  OpaqueBlock,
  OpaqueLayer,
  SoundSourceColumns,
  SpeedupColumns,
  SwitchColumns,
  TeeworldsMap,
  TeeworldsWarningCode,
  TeleColumns,
  TileColumns,
  TileLayer,
  TileLayerKind,
  TuneColumns,
} from './types.js';
import { UUID, uuidFromInts } from './uuid.js';

/** Decoding state shared by the section readers. */
interface Reader {
  df: Datafile;
  ctx: DecodeContext<TeeworldsWarningCode>;
  summaryOnly: boolean;
  /** The item indices of one type id (`start` … `start + num − 1`, in file order). */
  ofType(typeId: number): { start: number; num: number };
  /** Item `index`'s payload ints (a view into the datafile's item ints: slice() what the result keeps). */
  data(index: number): Int32Array;
  fail(code: ErrorCode, itemIndex: number, path: string, d?: { expected?: string | number; actual?: string | number; detail?: string }): DecodeError;
  /** Path of the section that has read each data block so far (see readBlock). */
  claimedBy: Map<number, string>;
  /** Tile-grid cells allocated so far, over all layers (bounded by maxGridCells together). */
  gridCells: number;
  /** Blocks claimed but not inflated (`sections: 'summary'`). */
  deferred: number;
  /** Opaque layers whose blocks are read last (readOpaqueBlocks). */
  opaque: { layer: OpaqueLayer; d: Int32Array; path: string }[];
  /** `layers: 'lazy'`: the warnings of grids left deflated, each where the eager decode gives them. */
  late: LateWarnings<TeeworldsWarningCode>[];
  /** `sections: 'summary'`: warnings whose checks need a block this decode left deflated. */
  unchecked: Set<TeeworldsWarningCode>;
}

export function decodeMap(bytes: Uint8Array, ctx: DecodeContext<TeeworldsWarningCode>, summaryOnly: boolean): TeeworldsMap {
  const df = readDatafile(bytes, ctx);
  const rd: Reader = {
    df,
    ctx,
    summaryOnly,
    ofType: (typeId) => df.types.get(typeId) ?? NO_ITEMS,
    data: (index) => df.itemData(index),
    fail(code, itemIndex, path, d = {}) {
      return decodeError('teeworlds', code, { offset: df.itemOffsets[itemIndex], path, ...d });
    },
    claimedBy: new Map(),
    gridCells: 0,
    deferred: 0,
    opaque: [],
    late: [],
    unchecked: new Set(),
  };
  const base = { format: 'teeworlds' as const, warnings: ctx.warnings.list, datafileVersion: df.version, magic: df.magic };

  // UUID index: internal type id → UUID (the first EX item wins when an old tool wrote two).
  const uuids = new Map<number, string>();
  const ex = rd.ofType(ITEMTYPE_EX);
  for (let i = ex.start; i < ex.start + ex.num; i++) if (!uuids.has(df.itemIds[i]!)) uuids.set(df.itemIds[i]!, uuidFromInts(rd.data(i)));

  const versionItems = rd.ofType(ITEM.VERSION);
  if (versionItems.num === 0) {
    // QUIRK: 2007 maps (teeworlds before 0.4) have no VERSION item and raw types 0x8001–0x8003.
    if (df.types.has(LEGACY_TYPES.IMAGE) || df.types.has(LEGACY_TYPES.TILEMAP) || df.types.has(LEGACY_TYPES.COLLISION)) {
      return {
        ...base,
        flavour: 'legacy',
        info: null,
        images: [],
        envelopes: [],
        groups: [],
        sounds: [],
        automapperConfigs: [],
        extraItems: [],
        legacy: decodeLegacy(rd),
        ...(summaryOnly ? { blocksNotInflated: rd.deferred, uncheckedWarnings: [] } : {}),
      };
    }
    throw decodeError('teeworlds', 'CORRUPT', { path: 'items', detail: 'no VERSION item (not a map)' });
  }
  const version = rd.data(versionItems.start)[0];
  if (version !== 1) throw rd.fail('UNSUPPORTED_VERSION', versionItems.start, 'version', { expected: 1, actual: version ?? 'none' });

  const images = eachItem(rd, ITEM.IMAGE, (d, index, k) => decodeImage(rd, d, index, `images[${k}]`));
  const envelopes = decodeEnvelopes(rd, uuids);
  const groups = decodeGroups(rd);
  const sounds = eachItem(rd, ITEM.SOUND, (d, index, k) => decodeSound(rd, d, index, `sounds[${k}]`));
  // After every section the game reads, so an info field pointing at one of their blocks never
  // takes it from them (it is the info field that is then bad); before the opaque layers' blocks.
  const info = decodeInfo(rd);
  readOpaqueBlocks(rd);

  const automapperConfigs: AutomapperConfig[] = [];
  // Extra items in a canonical order the encoder reproduces: numeric types first, then UUID
  // types, each by ascending type id (the encoder assigns UUID type ids in list order).
  const numericExtras: ExtraItem[] = [],
    uuidExtras: ExtraItem[] = [];
  for (const [typeId, t] of [...df.types].sort((a, b) => a[0] - b[0])) {
    if (typeId <= ITEM.SOUND || typeId === ITEMTYPE_EX) continue;
    const uuid = uuids.get(typeId);
    for (let i = t.start; i < t.start + t.num; i++) {
      const d = rd.data(i);
      if (uuid === UUID.AUTOMAPPER_CONFIG && d.length >= AUTOMAPPER.size) {
        automapperConfigs.push({
          version: d[AUTOMAPPER.version]!,
          group: d[AUTOMAPPER.group]!,
          layer: d[AUTOMAPPER.layer]!,
          config: d[AUTOMAPPER.config]!,
          seed: d[AUTOMAPPER.seed]!,
          flags: d[AUTOMAPPER.flags]!,
        });
      } else if (uuid === UUID.ENVPOINTS_BEZIER) {
        // Consumed by decodeEnvelopes.
      } else {
        // Kept in the result: a copy of its own, not a view of every item's ints.
        if (uuid) uuidExtras.push({ uuid, id: df.itemIds[i]!, data: d.slice() });
        else numericExtras.push({ typeId, id: df.itemIds[i]!, data: d.slice() });
      }
    }
  }
  const extraItems = [...numericExtras, ...uuidExtras];

  const map: TeeworldsMap = {
    ...base,
    flavour: flavourOf({ images, envelopes, groups }),
    info,
    images,
    envelopes,
    groups,
    sounds,
    automapperConfigs,
    extraItems,
  };
  if (summaryOnly) {
    map.blocksNotInflated = rd.deferred;
    map.uncheckedWarnings = [...rd.unchecked];
  }
  // Lazy grids still to be read hold warnings of the eager decode: the list is made on first read.
  if (rd.late.length > 0) deferWarnings(map, rd.late);
  return map;
}

const NO_ITEMS = { start: 0, num: 0 } as const;

/** `fn` over the items of one type id, in file order: payload view, item index, position within the type. */
function eachItem<T>(rd: Reader, typeId: number, fn: (d: Int32Array, index: number, k: number) => T): T[] {
  const { start, num } = rd.ofType(typeId);
  const out: T[] = new Array(num);
  for (let k = 0; k < num; k++) out[k] = fn(rd.data(start + k), start + k, k);
  return out;
}

// ── strings ──────────────────────────────────────────────────────────────────

/** Map text is UTF-8 whatever the decode's `encoding` option says; `raw` keeps invalid bytes as stored. */
function text(bytes: Uint8Array): Text {
  return makeText(bytes, 'utf-8');
}

/** A NUL-terminated data string; null for index −1. */
function readString(rd: Reader, dataIndex: number, path: string): Text | null {
  if (dataIndex === -1) return null;
  return stringOf(rd, readBlock(rd, dataIndex, path, MAX_STRING_BYTES), dataIndex, path);
}

/** A data string's text from its block's bytes (up to the NUL, warned when there is none). */
function stringOf(rd: Reader, raw: Uint8Array, dataIndex: number, path: string): Text {
  const end = raw.indexOf(0);
  if (end < 0) rd.ctx.warnings.warn('STRING_NOT_TERMINATED', 'data string has no NUL terminator', rd.df.blocks[dataIndex]!.offset, path);
  return text(end < 0 ? raw : raw.slice(0, end));
}

/**
 * The bytes of one data block, for the one section that owns it. A block may be read once per
 * decode: DDNet likewise lets a data index belong to one layer only. Without this, a small file
 * whose many layers (or image names, sounds…) point at one block inflated it again for each and
 * kept a copy per reader (50 layers sharing a block: 21 KB of file, 400 MiB of grids). With it,
 * every array in the result comes from its own block, so the output is bounded by the blocks'
 * declared sizes (tile-skip grids, which expand, are bounded together by maxGridCells).
 */
function readBlock(rd: Reader, dataIndex: number, path: string, maxBytes = Infinity): Uint8Array {
  claimBlock(rd, dataIndex, path, maxBytes);
  return rd.df.readData(dataIndex, path);
}

/**
 * Every check readBlock makes before inflating (index, declared size, one reader per block), so a
 * `sections: 'summary'` decode that skips a block still fails where the full decode would, short
 * of the zlib stream itself (counted in `blocksNotInflated`).
 */
function claimBlock(rd: Reader, dataIndex: number, path: string, maxBytes = Infinity): void {
  if (!Number.isInteger(dataIndex) || dataIndex < 0 || dataIndex >= rd.df.blocks.length) {
    throw decodeError('teeworlds', 'BAD_INDEX', { path, expected: `data index < ${rd.df.blocks.length}`, actual: dataIndex });
  }
  const block = rd.df.blocks[dataIndex]!;
  // Strings are small: a block declaring more than its field can hold is refused before inflating.
  if (block.byteLength > maxBytes) {
    throw decodeError('teeworlds', 'LIMIT_EXCEEDED', { offset: block.offset, path, expected: `≤ ${maxBytes} bytes`, actual: block.byteLength });
  }
  const owner = rd.claimedBy.get(dataIndex);
  if (owner !== undefined) {
    throw decodeError('teeworlds', 'CORRUPT', { offset: rd.df.blocks[dataIndex]!.offset, path, detail: `data block ${dataIndex} is already used by ${owner}` });
  }
  rd.claimedBy.set(dataIndex, path);
}

/** readBlock in a full decode; in a summary decode the same checks, and the block left deflated. */
function readOrClaim(rd: Reader, dataIndex: number, path: string): Uint8Array | undefined {
  if (!rd.summaryOnly) return readBlock(rd, dataIndex, path);
  claimBlock(rd, dataIndex, path);
  rd.df.checkData(dataIndex, path);
  rd.deferred++;
  return undefined;
}

const EMPTY_TEXT = (): Text => text(new Uint8Array(0));

// ── info, images, sounds ─────────────────────────────────────────────────────

function decodeInfo(rd: Reader): MapInfo | null {
  const infos = rd.ofType(ITEM.INFO);
  if (infos.num === 0) return null;
  const d = rd.data(infos.start);
  const itemOffset = rd.df.itemOffsets[infos.start]!;
  const s = (k: number, what: string): Text | null => {
    const path = `info.${what}`;
    const raw = readInfoBlock(rd, d[k] ?? -1, path, MAX_STRING_BYTES, itemOffset);
    return raw ? stringOf(rd, raw, d[k]!, path) : null;
  };
  const author = s(INFO.author, 'author'),
    mapVersion = s(INFO.mapVersion, 'mapVersion'),
    credits = s(INFO.credits, 'credits'),
    license = s(INFO.license, 'license');
  // null: a 5-int INFO without DDNet's settings field; []: the field is −1, which is how DDNet
  // writes a map without commands (it never writes an empty block, which it could not read back).
  let settings: Text[] | null = d.length > INFO.settings ? [] : null;
  const raw = readInfoBlock(rd, d[INFO.settings] ?? -1, 'info.settings', MAX_SETTINGS_BYTES, itemOffset);
  if (raw === undefined) settings = null;
  else if (raw) {
    settings = [];
    // One block of consecutive NUL-terminated commands.
    for (let p = 0; p < raw.length; ) {
      let e = raw.indexOf(0, p);
      if (e < 0) e = raw.length;
      settings.push(text(raw.slice(p, e)));
      p = e + 1;
    }
  }
  return { version: d[INFO.version] ?? 1, author, mapVersion, credits, license, settings };
}

/**
 * The block an info field names: null for −1; undefined, with warning BAD_INFO_FIELD, when the
 * field names what cannot be its block (no such block, more than the field may hold, a block
 * another section reads, an empty v4 block, a broken stream). The map plays without its info item
 * (real maps point `author` at a tileset's pixels), so a bad field costs the field, not the map.
 * The size cap is checked before anything is inflated; the per-file limits still fail the map.
 */
function readInfoBlock(rd: Reader, dataIndex: number, path: string, maxBytes: number, itemOffset: number): Uint8Array | null | undefined {
  if (dataIndex === -1) return null;
  const bad = (why: string, offset: number | undefined) => {
    rd.ctx.warnings.warn('BAD_INFO_FIELD', `${why}; read as null`, offset, path);
    return undefined;
  };
  const block = Number.isInteger(dataIndex) ? rd.df.blocks[dataIndex] : undefined;
  if (!block) return bad(`data index ${dataIndex} names no block (${rd.df.blocks.length} blocks)`, itemOffset);
  if (block.byteLength > maxBytes)
    return bad(`data block ${dataIndex} declares ${block.byteLength} bytes, more than the field holds (≤ ${maxBytes})`, block.offset);
  const owner = rd.claimedBy.get(dataIndex);
  if (owner !== undefined) return bad(`data block ${dataIndex} is already used by ${owner}`, block.offset);
  if (rd.df.version === 4 && block.byteLength <= 0) return bad(`data block ${dataIndex} declares an inflated size of 0`, block.offset);
  try {
    return readBlock(rd, dataIndex, path, maxBytes);
  } catch (e) {
    if (e instanceof DecodeError && e.code === 'CORRUPT_COMPRESSED') return bad(e.message, e.offset);
    throw e;
  }
}

function need(rd: Reader, d: Int32Array, index: number, ints: number, path: string): void {
  if (d.length < ints) throw rd.fail('TRUNCATED', index, path, { expected: `≥ ${ints} ints`, actual: d.length });
}

function decodeImage(rd: Reader, d: Int32Array, index: number, path: string): MapImage {
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

function decodeSound(rd: Reader, d: Int32Array, index: number, path: string): MapSound {
  need(rd, d, index, SOUND.data + 1, path);
  const external = d[SOUND.external]! !== 0;
  const snd: MapSound = { version: d[SOUND.version]!, external, name: readString(rd, d[SOUND.name]!, `${path}.name`) ?? EMPTY_TEXT() };
  // data_size (when present) is ignored: the block's own size is the truth.
  if (!external) {
    const data = readOrClaim(rd, d[SOUND.data]!, `${path}.data`);
    if (data) snd.data = data;
  }
  return snd;
}

// ── envelopes ────────────────────────────────────────────────────────────────

function decodeEnvelopes(rd: Reader, uuids: Map<number, string>): MapEnvelope[] {
  const envItems = rd.ofType(ITEM.ENVELOPE);
  if (envItems.num === 0) return [];
  // 0.7 writes every point with inline bezier data (22 ints) as soon as one envelope is v3.
  let inline = false;
  for (let i = envItems.start; i < envItems.start + envItems.num; i++) inline ||= rd.data(i)[ENVELOPE.version]! >= 3;
  const pointInts = inline ? ENVPOINT.intsWithBezier : ENVPOINT.ints;
  const ptsItems = rd.ofType(ITEM.ENVPOINTS);
  const pts = ptsItems.num > 0 ? rd.data(ptsItems.start) : new Int32Array(0);
  const total = Math.floor(pts.length / pointInts);
  let bezier: Int32Array | null = null;
  for (const [typeId, uuid] of uuids) {
    if (uuid !== UUID.ENVPOINTS_BEZIER) continue;
    const b = rd.ofType(typeId);
    if (b.num === 0) continue;
    const bd = rd.data(b.start);
    // DDNet uses the bezier item only when it covers exactly the ENVPOINTS points.
    if (!inline && bd.length === total * BEZIER_INTS) bezier = bd;
    else
      rd.ctx.warnings.warn(
        'BEZIER_MISMATCH',
        `bezier item holds ${bd.length / BEZIER_INTS} points, ENVPOINTS ${total}; ignored`,
        rd.df.itemOffsets[b.start]!,
        'envelopes',
      );
  }
  return eachItem(rd, ITEM.ENVELOPE, (d, index, k) => {
    const path = `envelopes[${k}]`;
    need(rd, d, index, ENVELOPE.numPoints + 1, path);
    const version = d[ENVELOPE.version]!;
    const start = d[ENVELOPE.startPoint]!,
      num = d[ENVELOPE.numPoints]!;
    if (start < 0 || num < 0 || start + num > total)
      throw rd.fail('BAD_INDEX', index, `${path}.points`, { expected: `points within 0..${total}`, actual: `${start}+${num}` });
    // QUIRK: 0.5 maps write 5-int v1 envelopes (name[0] = -1, the rest missing): no name.
    const hasName = d.length >= ENVELOPE.name + ENVELOPE.nameInts && d[ENVELOPE.name] !== -1;
    const name = hasName ? text(unpackName(d, ENVELOPE.name, ENVELOPE.nameInts)) : EMPTY_TEXT();
    const synchronized = version >= 2 && (d[ENVELOPE.synchronized] ?? 0) !== 0;
    return { version, channels: d[ENVELOPE.channels]!, name, synchronized, points: envelopePoints(pts, start, num, pointInts, bezier) };
  });
}

function envelopePoints(pts: Int32Array, start: number, n: number, pointInts: number, bezier: Int32Array | null): EnvelopePoints {
  const time = new Int32Array(n),
    curve = new Int32Array(n),
    values = new Int32Array(n * 4);
  const withBezier = pointInts === ENVPOINT.intsWithBezier || bezier !== null;
  const tan = withBezier ? ([new Int32Array(n * 4), new Int32Array(n * 4), new Int32Array(n * 4), new Int32Array(n * 4)] as const) : null;
  for (let i = 0; i < n; i++) {
    const p = (start + i) * pointInts;
    time[i] = pts[p + ENVPOINT.time]!;
    curve[i] = pts[p + ENVPOINT.curve]!;
    for (let c = 0; c < 4; c++) values[i * 4 + c] = pts[p + ENVPOINT.values + c]!;
    if (tan) {
      const src = bezier ?? pts;
      const b = bezier ? (start + i) * BEZIER_INTS : p + ENVPOINT.bezier;
      for (let t = 0; t < 4; t++) for (let c = 0; c < 4; c++) tan[t]![i * 4 + c] = src[b + t * 4 + c]!;
    }
  }
  const out: EnvelopePoints = { time, curve, values };
  if (tan) out.bezier = { inDx: tan[0], inDy: tan[1], outDx: tan[2], outDy: tan[3] };
  return out;
}

// ── groups and layers ────────────────────────────────────────────────────────

function decodeGroups(rd: Reader): MapGroup[] {
  const layerItems = rd.ofType(ITEM.LAYER);
  const owner = new Int32Array(layerItems.num).fill(-1);
  // A layer listed by two groups is decoded once and appears in each (the same object), as the
  // game draws it in each; the encoder writes such groups back over the same layer items.
  const decoded: MapLayer[] = new Array(layerItems.num);
  // Shared layers make the groups list more layers than there are items: bounded together, or
  // a small file of many groups each listing every layer would list them quadratically often.
  let listed = 0;
  const groups = eachItem(rd, ITEM.GROUP, (d, index, g): MapGroup => {
    const path = `groups[${g}]`;
    need(rd, d, index, GROUP.sizeByVersion[1]!, path);
    const version = d[GROUP.version]!;
    const start = d[GROUP.startLayer]!,
      num = d[GROUP.numLayers]!;
    if (start < 0 || num < 0 || start + num > layerItems.num)
      throw rd.fail('BAD_INDEX', index, `${path}.layers`, { expected: `layers within 0..${layerItems.num}`, actual: `${start}+${num}` });
    listed += num;
    if (listed > rd.ctx.limits.maxRecords)
      throw rd.fail('LIMIT_EXCEEDED', index, `${path}.layers`, {
        expected: `≤ ${rd.ctx.limits.maxRecords} layers listed by all groups (limits.maxRecords)`,
        actual: listed,
      });
    let shared = 0;
    for (let l = start; l < start + num; l++) {
      if (owner[l] === -1) owner[l] = g;
      else shared++;
    }
    // QUIRK: an MMOTee map's group 1 starts inside group 0's layers. DDNet's loader refuses
    // overlapping groups; the game that ships the map draws the shared layers in both.
    if (shared > 0)
      rd.ctx.warnings.warn(
        'SHARED_LAYERS',
        `${shared} of its layers are also listed by an earlier group; drawn in each`,
        rd.df.itemOffsets[index],
        `${path}.layers`,
      );
    const at = (k: number) => (version >= 2 && d.length > k ? d[k]! : 0);
    const group: MapGroup = {
      version,
      offsetX: d[GROUP.offsetX]!,
      offsetY: d[GROUP.offsetY]!,
      parallaxX: d[GROUP.parallaxX]!,
      parallaxY: d[GROUP.parallaxY]!,
      clipping: { enabled: at(GROUP.useClipping) !== 0, x: at(GROUP.clipX), y: at(GROUP.clipY), width: at(GROUP.clipW), height: at(GROUP.clipH) },
      name: version >= 3 && d.length >= GROUP.name + GROUP.nameInts ? text(unpackName(d, GROUP.name, GROUP.nameInts)) : EMPTY_TEXT(),
      layers: [],
    };
    for (let l = 0; l < num; l++) {
      const li = layerItems.start + start + l;
      decoded[start + l] ??= decodeLayer(rd, rd.data(li), li, `${path}.layers[${l}]`);
      group.layers.push(decoded[start + l]!);
    }
    return group;
  });
  const orphans = owner.reduce((n, o) => n + (o === -1 ? 1 : 0), 0);
  if (orphans > 0) rd.ctx.warnings.warn('UNGROUPED_LAYERS', `${orphans} layer item(s) belong to no group; dropped`, undefined, 'groups');
  return groups;
}

function decodeLayer(rd: Reader, d: Int32Array, index: number, path: string): MapLayer {
  need(rd, d, index, 3, path);
  const type = d[LAYER.type]!;
  const detail = (d[LAYER.flags]! & LAYER.FLAG_DETAIL) !== 0;
  switch (type) {
    case LAYER_TYPE.TILES:
      return decodeTileLayer(rd, d, index, path, detail);
    case LAYER_TYPE.QUADS: {
      need(rd, d, index, QUADS.image + 1, path);
      const version = d[QUADS.version]!;
      const name = version >= 2 && d.length >= QUADS.name + 3 ? text(unpackName(d, QUADS.name, 3)) : EMPTY_TEXT();
      const layer: MapLayer = { kind: 'quads', name, detail, quadsVersion: version, image: d[QUADS.image]! };
      const quads = readStructs(rd, d[QUADS.data]!, d[QUADS.numQuads]!, QUAD_STRUCT, index, `${path}.quads`);
      if (quads) layer.quads = quads;
      return layer;
    }
    case LAYER_TYPE.SOUNDS:
    case LAYER_TYPE.SOUNDS_DEPRECATED: {
      need(rd, d, index, SOUNDS.sound + 1, path);
      const deprecated = type === LAYER_TYPE.SOUNDS_DEPRECATED;
      const name = d.length >= SOUNDS.name + 3 ? text(unpackName(d, SOUNDS.name, 3)) : EMPTY_TEXT();
      const layer: MapLayer = { kind: 'sounds', name, detail, deprecated, soundsVersion: d[SOUNDS.version]!, sound: d[SOUNDS.sound]! };
      const n = d[SOUNDS.numSources]!,
        at = d[SOUNDS.data]!,
        where = `${path}.sources`;
      if (deprecated) {
        const old = readStructs(rd, at, n, SOURCE_STRUCT_DEPRECATED, index, where);
        if (old) layer.sources = upgradeSources(old);
      } else {
        const sources = readStructs(rd, at, n, SOURCE_STRUCT, index, where);
        if (sources) layer.sources = sources;
      }
      return layer;
    }
    default:
      return { kind: 'unknown', name: EMPTY_TEXT(), detail, layerType: type, data: d.slice(3) };
  }
}

/** `count` int structs from a data block, as columns plus `count`; undefined (after the same checks) in a summary decode. */
function readStructs<S extends IntStruct>(
  rd: Reader,
  dataIndex: number,
  count: number,
  s: S,
  index: number,
  path: string,
): ({ count: number } & IntColumns<S>) | undefined {
  const bytesEach = structInts(s) * 4;
  if (!Number.isInteger(count) || count < 0 || count > rd.ctx.limits.maxRecords)
    throw rd.fail('LIMIT_EXCEEDED', index, path, { expected: `0 ≤ count ≤ ${rd.ctx.limits.maxRecords}`, actual: count });
  // QUIRK: DDNet writes a 1-record dummy block for an empty layer; with count 0 nothing is read.
  if (count === 0) return { count: 0, ...gatherInts(new Uint8Array(0), 0, s) };
  const declared = rd.df.blocks[dataIndex]?.byteLength ?? -1;
  if (declared >= 0 && declared < count * bytesEach) throw rd.fail('CORRUPT', index, path, { expected: `≥ ${count * bytesEach} bytes`, actual: declared });
  const raw = readOrClaim(rd, dataIndex, path);
  return raw && { count, ...gatherInts(raw, count, s) };
}

/** Deprecated sound sources → current columns: pan on, no falloff, a circle of the old radius. */
function upgradeSources(old: { count: number } & IntColumns<typeof SOURCE_STRUCT_DEPRECATED>): SoundSourceColumns {
  const n = old.count;
  const shape = new Int32Array(n * 3);
  for (let i = 0; i < n; i++) {
    shape[i * 3] = SHAPE_CIRCLE;
    shape[i * 3 + 1] = old.radius[i]!;
  }
  const { radius: _r, ...rest } = old;
  return { ...rest, pan: new Int32Array(n).fill(1), falloff: new Int32Array(n), shape };
}

/** A tile layer kept as stored: its ints, and the readable blocks they name (never a failure of the map). */
function decodeOpaqueLayer(rd: Reader, d: Int32Array, path: string, detail: boolean, reason: string): OpaqueLayer {
  const at = (k: number) => d[k] ?? 0;
  const layout = TILEMAP_BY_VERSION[at(TILEMAP.version)];
  const named = layout && layout.name >= 0 && d.length >= layout.name + 3;
  const layer: OpaqueLayer = {
    kind: 'opaque',
    name: named ? text(unpackName(d, layout.name, 3)) : EMPTY_TEXT(),
    detail,
    // Block slots read as −1: their indices are the file's numbering, which the encoder redoes.
    item: withoutBlockIndices(d).slice(3),
    tilemapVersion: at(TILEMAP.version),
    width: at(TILEMAP.width),
    height: at(TILEMAP.height),
    flags: at(TILEMAP.flags),
    reason,
  };
  // Its blocks are read after every other section has claimed its own (readOpaqueBlocks), so a
  // garbage index here never takes a block from the layer or image it belongs to.
  rd.opaque.push({ layer, d, path });
  return layer;
}

/** The blocks of the opaque layers: each slot naming a block that is there and that no other section reads. */
function readOpaqueBlocks(rd: Reader): void {
  const lazy = rd.ctx.lazyLayers && !rd.summaryOnly;
  for (const { layer, d, path } of rd.opaque) {
    const blocks: OpaqueBlock[] = [];
    const deferred: { slot: number; source: BlockReader }[] = [];
    for (const slot of blockSlots(d)) {
      const index = d[slot]!;
      // A slot naming anything else is garbage this layer cannot account for: written back as −1.
      if (index < 0 || index >= rd.df.blocks.length || rd.claimedBy.has(index)) continue;
      const where = `${path}.blocks[${blocks.length + deferred.length}]`;
      if (lazy) {
        claimBlock(rd, index, where);
        deferred.push({ slot: slot - 3, source: rd.df.deferData(index, where) });
        continue;
      }
      const bytes = readOrClaim(rd, index, where);
      if (bytes) blocks.push({ slot: slot - 3, bytes });
    }
    if (lazy) deferOpaqueBlocks(layer, deferred);
    else if (!rd.summaryOnly) layer.blocks = blocks;
  }
}

/** An opaque layer's `blocks`, read on first access (layers: 'lazy'); a function of its own so the loader holds only `deferred`. */
function deferOpaqueBlocks(layer: OpaqueLayer, deferred: { slot: number; source: BlockReader }[]): void {
  defineLazy(layer, 'blocks', () => deferred.map(({ slot, source }) => ({ slot, bytes: source.read() })));
  noteDeferredBlocks(
    layer,
    deferred.map((d) => d.source),
  );
}

function decodeTileLayer(rd: Reader, d: Int32Array, index: number, path: string, detail: boolean): TileLayer | OpaqueLayer {
  const placed = placeTileLayer(d, rd.df.blocks.length);
  if ('reason' in placed) return decodeOpaqueLayer(rd, d, path, detail, placed.reason);
  const { kind, dataIndex, layout } = placed;
  const tilemapVersion = d[TILEMAP.version]!;
  const width = d[TILEMAP.width]!,
    height = d[TILEMAP.height]!;
  if (width <= 0 || height <= 0 || width * height > rd.ctx.limits.maxGridCells) {
    throw rd.fail('LIMIT_EXCEEDED', index, `${path}.size`, {
      expected: `0 < width × height ≤ ${rd.ctx.limits.maxGridCells} (limits.maxGridCells)`,
      actual: `${width} × ${height}`,
    });
  }
  const name = layout.name >= 0 && d.length >= layout.name + 3 ? text(unpackName(d, layout.name, 3)) : EMPTY_TEXT();
  const layer: TileLayer = {
    kind,
    name,
    detail,
    tilemapVersion,
    width,
    height,
    color: { r: d[TILEMAP.color]!, g: d[TILEMAP.color + 1]!, b: d[TILEMAP.color + 2]!, a: d[TILEMAP.color + 3]! },
    colorEnv: d[TILEMAP.colorEnv]!,
    colorEnvOffset: d[TILEMAP.colorEnvOffset]!,
    image: d[TILEMAP.image]!,
  };
  const gridPath = `${path}.${gridKey(kind)}`;
  if (dataIndex < 0 || dataIndex >= rd.df.blocks.length)
    throw rd.fail('BAD_INDEX', index, gridPath, { expected: `data index < ${rd.df.blocks.length}`, actual: dataIndex });
  const cells = width * height;
  // All layers' grids share one cell budget, so many layers cannot add up to more than one
  // maximal grid; checked before the block is inflated or the grid allocated.
  rd.gridCells += cells;
  if (rd.gridCells > rd.ctx.limits.maxGridCells) {
    throw rd.fail('LIMIT_EXCEEDED', index, gridPath, {
      expected: `≤ ${rd.ctx.limits.maxGridCells} cells over all tile layers (limits.maxGridCells)`,
      actual: `${rd.gridCells} cells`,
    });
  }
  // Bound the grid by what its block can hold before allocating for it: a skip record covers at
  // most 256 tiles; uncompressed grids are tolerated down to half size (see UNDERSIZED_TILES).
  const declared = rd.df.blocks[dataIndex]!.byteLength;
  const struct = TILE_STRUCTS[gridKey(kind)];
  const short = tilemapVersion < 4 && declared < cells * struct.stride;
  // DDNet uses a tele, speed-up, switch or tune grid only when its block holds width × height
  // records (CCollision::Init compares the block's size); a shorter one is ignored, the map plays.
  const ignored = short && IGNORED_WHEN_SHORT.has(kind);
  if (!ignored && (tilemapVersion >= 4 ? cells > (declared >>> 2) * 256 : cells * struct.stride > declared * 2)) {
    throw rd.fail('CORRUPT', index, gridPath, { expected: `a data block for ${width} × ${height} tiles`, actual: `${declared} bytes` });
  }
  // A tile-skip grid expands beyond its block: the expansion is charged to the per-file budget.
  if (tilemapVersion >= 4) rd.ctx.charge(cells * 2, { offset: rd.df.blocks[dataIndex]!.offset, path: gridPath });
  // So does an ignored grid (any short block): its empty columns are not bounded by its block.
  if (ignored) rd.ctx.charge(cells * struct.stride, { offset: rd.df.blocks[dataIndex]!.offset, path: gridPath });
  if (short) {
    // QUIRK: 2010 DDRace test maps use 4-byte speedup and 2-byte switch tiles. (The block's
    // declared size is what it inflates to, so this is known before inflating, and given at every depth.)
    rd.ctx.warnings.warn(
      'UNDERSIZED_TILES',
      `${kind} grid holds ${declared} bytes, ${width}×${height} ${struct.stride}-byte tiles need ${cells * struct.stride}; ` +
        (ignored ? 'ignored as DDNet ignores it (reads as empty; its bytes kept in ignoredGrid)' : 'the rest reads as empty'),
      rd.df.blocks[dataIndex]!.offset,
      gridPath,
    );
  }
  const plan: GridPlan = { kind, cells, tilemapVersion, stride: struct.stride, offset: rd.df.blocks[dataIndex]!.offset, path: gridPath };
  if (ignored) return ignoreGrid(rd, layer, plan, dataIndex);
  // The summary reads the game grid only (for gridDigest); the rest is checked up to the inflate,
  // and the checks of the stream's contents are named as not run.
  if (rd.summaryOnly && kind !== 'game') {
    readOrClaim(rd, dataIndex, gridPath);
    if (mayWarnOnRead(plan)) rd.unchecked.add('NONZERO_TILE_SKIP');
    return layer;
  }
  claimBlock(rd, dataIndex, gridPath);
  const key = gridKey(kind);
  if (rd.ctx.lazyLayers && !rd.summaryOnly) {
    // Everything above is what the full decode checks before inflating; the stream waits for a read.
    const late = deferGrid(rd.ctx, layer, key, plan, rd.df.deferData(dataIndex, gridPath), declared);
    if (mayWarnOnRead(plan)) rd.late.push({ at: rd.ctx.warnings.list.length, list: late });
  } else {
    const source: BlockReader = { read: () => rd.df.readData(dataIndex, gridPath), readTiles: (c) => rd.df.readTiles(dataIndex, gridPath, c) };
    gridFields(layer)[key] = readGrid(rd.ctx, plan, source, rd.ctx.warnings);
  }
  return layer;
}

/** Physics grids DDNet ignores when their block is shorter than width × height records. */
const IGNORED_WHEN_SHORT: ReadonlySet<TileLayerKind> = new Set(['tele', 'speedup', 'switch', 'tune']);

/** Nothing to read: the grid of a layer whose stored grid is ignored is all empty. */
const NO_RECORDS: BlockReader = { read: () => new Uint8Array(0), readTiles: () => undefined };

/**
 * A layer whose stored grid DDNet ignores (too short for its size): its grid reads as empty, as the
 * game plays it, and the stored bytes are kept in `ignoredGrid` so the encoder writes them back.
 * They are read now at every depth but the summary's: a short block, and no grid of records to defer.
 */
function ignoreGrid(rd: Reader, layer: TileLayer, plan: GridPlan, dataIndex: number): TileLayer {
  if (rd.summaryOnly) {
    readOrClaim(rd, dataIndex, plan.path);
    return layer;
  }
  if (rd.ctx.lazyLayers) {
    // Deferred like every other grid: the stored bytes and the empty grid are made on first read.
    claimBlock(rd, dataIndex, plan.path);
    deferIgnoredGrid(rd.ctx, layer, plan, rd.df.deferData(dataIndex, plan.path));
    return layer;
  }
  layer.ignoredGrid = readBlock(rd, dataIndex, plan.path);
  gridFields(layer)[gridKey(plan.kind)] = readGrid(rd.ctx, plan, NO_RECORDS, rd.ctx.warnings);
  return layer;
}

/** ignoreGrid's fields read on first access (layers: 'lazy'); a function of its own so the loaders hold only `source`. */
function deferIgnoredGrid(ctx: DecodeContext<TeeworldsWarningCode>, layer: TileLayer, plan: GridPlan, source: BlockReader): void {
  defineLazy(layer, 'ignoredGrid', () => source.read());
  // Reading no records warns of nothing: the sink is only readGrid's due.
  defineLazy(gridFields(layer), gridKey(plan.kind), () => readGrid(ctx, plan, NO_RECORDS, new WarningSink<TeeworldsWarningCode>('teeworlds', ctx.strict)));
}

/** Whether reading a grid's stream can warn (NONZERO_TILE_SKIP: CTile grids not in tile-skip form). */
function mayWarnOnRead(plan: GridPlan): boolean {
  return gridKey(plan.kind) === 'tiles' && plan.tilemapVersion < 4;
}

/** What readGrid needs of a tile layer whose checks have passed (no reference to the file, so a lazy grid does not keep it). */
interface GridPlan {
  kind: TileLayerKind;
  cells: number;
  tilemapVersion: number;
  stride: number;
  /** The block's offset in the file, for errors and warnings. */
  offset: number;
  path: string;
}

/**
 * `layer[key]` read on first access from `source` (layers: 'lazy'). Returns the grid's warnings
 * (those of its last read, else of a read made for them and dropped), for the map's `warnings`.
 * Under `strict` a warning throws at the read, as the eager decode throws at decode time.
 */
function deferGrid(
  ctx: DecodeContext<TeeworldsWarningCode>,
  layer: TileLayer,
  key: GridKey,
  plan: GridPlan,
  source: BlockReader,
  declared: number,
): () => DecodeWarning<TeeworldsWarningCode>[] {
  let found: DecodeWarning<TeeworldsWarningCode>[] | undefined;
  const read = () => {
    const sink = new WarningSink<TeeworldsWarningCode>('teeworlds', ctx.strict);
    const grid = readGrid(ctx, plan, source, sink);
    found = sink.list;
    return grid;
  };
  defineLazy(gridFields(layer), key, read);
  // A grid stored as whole records can also be counted without being read (grid-counts.ts): a
  // CTile grid of exactly its records (what readGrid splits in one step), whose count gives the
  // read's warnings too, and a physics grid (its tile type byte; its read warns of nothing).
  const resident = source.readResident;
  if (resident && plan.cells > 0 && plan.tilemapVersion < 4) {
    const typeAt = TYPE_BYTE[plan.kind];
    if (key === 'tiles' && declared === plan.cells * 4)
      noteGridCounter(layer, {
        key,
        count: () => {
          const sink = new WarningSink<TeeworldsWarningCode>('teeworlds', ctx.strict);
          const counts = new Uint32Array(256);
          const dirty = resident((block) => countTileRecords(block, plan.cells, counts));
          warnDirtyTiles(sink, dirty, plan);
          found = sink.list;
          return counts;
        },
      });
    else if (typeAt !== undefined && declared >= plan.cells * plan.stride)
      noteGridCounter(layer, {
        key,
        count: () => {
          const counts = new Uint32Array(256);
          resident((block) => countRecordByte(block, plan.cells, plan.stride, typeAt, counts));
          found = [];
          return counts;
        },
      });
  }
  return () => {
    if (!found) read();
    return found!;
  };
}

type GridKey = ReturnType<typeof gridKey>;

/** A tile layer seen as its grid field (`gridKey(kind)` names the one its kind has). */
function gridFields(layer: TileLayer): Partial<Record<GridKey, TileLayerGrid>> {
  return layer as unknown as Partial<Record<GridKey, TileLayerGrid>>;
}

/** The columns of one tile grid (the layer's `tiles`, `tele`, `speedup`, `switch` or `tune` field) from its block; its warnings go to `sink`. */
function readGrid(ctx: DecodeContext<TeeworldsWarningCode>, plan: GridPlan, source: BlockReader, sink: WarningSink<TeeworldsWarningCode>): TileLayerGrid {
  const { kind, cells, tilemapVersion, stride, offset, path } = plan;
  const ctile = gridKey(kind) === 'tiles';
  const warnDirty = (dirty: number) => warnDirtyTiles(sink, dirty, plan);
  // The commonest grid, a compressed block of exactly width × height CTiles: inflated and split
  // in one step (with the WASM inflater, one trip into its memory; only the columns come out).
  const direct = ctile && tilemapVersion < 4 ? source.readTiles(cells) : undefined;
  if (direct) {
    warnDirty(direct.dirty);
    return { index: direct.columns.subarray(0, cells), flags: direct.columns.subarray(cells, 2 * cells) };
  }
  const raw = source.read();
  const k = ctx.kernels;
  const check = (n: number, what: string) => {
    if (n < 0) throw kernelError('teeworlds', n, { offset, path, detail: what });
    return n;
  };
  if (tilemapVersion >= 4) {
    const buf = new Uint8Array(cells * 2);
    const index = buf.subarray(0, cells),
      flags = buf.subarray(cells);
    const n = check(k.expandTileSkip(raw, index, flags), 'tile-skip expansion');
    if (n !== cells) throw decodeError('teeworlds', 'CORRUPT', { offset, path, expected: `${cells} tiles`, actual: n });
    return { index, flags };
  }
  // Short blocks (UNDERSIZED_TILES, warned by the caller) read what is there.
  const count = raw.length < cells * stride ? Math.floor(raw.length / stride) : cells;
  if (ctile && count === cells) {
    // The block is ours (inflated or copied for this read): its 4-byte records become the two
    // 1-byte columns in place, so the commonest grid needs no second buffer (the columns keep
    // the block alive: 4 bytes per tile held instead of 2, for a fifth less time beside inflate).
    warnDirty(check(k.splitTilesInPlace(raw, cells), 'tile split'));
    return { index: raw.subarray(0, cells), flags: raw.subarray(cells, 2 * cells) };
  }
  // Speedup keeps force, maxSpeed and type as byte columns; its i16 angle is read separately.
  const keep = ctile ? 2 : kind === 'speedup' ? 3 : stride;
  const buf = new Uint8Array(cells * keep);
  // Split the whole records into a count-strided layout, then spread to cell-strided columns if short.
  const tmp = count === cells ? buf : new Uint8Array(count * keep);
  // Both buf and tmp are fresh (zeroed) arrays: most physics grids are empty, and leaving their
  // zero windows unwritten keeps those pages untouched.
  const dropped = check(k.splitColumns(raw, stride, keep, count, tmp, true), 'tile split');
  if (tmp !== buf) for (let c = 0; c < keep; c++) buf.set(tmp.subarray(c * count, (c + 1) * count), c * cells);
  const col = (c: number) => buf.subarray(c * cells, (c + 1) * cells);
  switch (kind) {
    case 'tele':
      return { number: col(0), type: col(1) };
    case 'tune':
      return { number: col(0), type: col(1) };
    case 'switch':
      return { number: col(0), type: col(1), flags: col(2), delay: col(3) };
    case 'speedup': {
      const angle = new Int16Array(cells);
      // `dropped` counts records with a non-zero padding or angle byte: with none (most speedup
      // layers are empty) the fresh, zero angle column is already right.
      if (dropped > 0) {
        for (let i = 0, p = 4; i < count; i++, p += 6) if (raw[p]! | raw[p + 1]!) angle[i] = (raw[p + 1]! << 8) | raw[p]!;
      }
      return { force: col(0), maxSpeed: col(1), type: col(2), angle };
    }
    default:
      warnDirty(dropped);
      return { index: col(0), flags: col(1) };
  }
}

function warnDirtyTiles(sink: WarningSink<TeeworldsWarningCode>, dirty: number, plan: GridPlan): void {
  if (dirty > 0) sink.warn('NONZERO_TILE_SKIP', `${dirty} tiles have non-zero skip/reserved bytes (ignored)`, plan.offset, plan.path);
}

/** Any tile layer's grid field. */
type TileLayerGrid = TileColumns | TeleColumns | SpeedupColumns | SwitchColumns | TuneColumns;

// ── legacy 2007 maps ─────────────────────────────────────────────────────────

function decodeLegacy(rd: Reader): NonNullable<TeeworldsMap['legacy']> {
  const items = rd.df.items;
  if (rd.ctx.lazyLayers && !rd.summaryOnly) {
    // The data are read on first access, as a lazy map's grids (checked and charged now).
    const deferred = rd.df.blocks.map((_, i) => {
      claimBlock(rd, i, `data[${i}]`);
      return rd.df.deferData(i, `data[${i}]`);
    });
    const legacy: NonNullable<TeeworldsMap['legacy']> = { items, data: [] };
    defineLazy(legacy, 'data', () => deferred.map((b) => b.read()));
    noteDeferredBlocks(legacy, deferred);
    return legacy;
  }
  const data = rd.df.blocks.map((_, i) => readOrClaim(rd, i, `data[${i}]`));
  if (rd.summaryOnly) return { items };
  return { items, data: data.map((b) => b!) };
}
