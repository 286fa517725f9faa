// Teeworlds datafile container (versions 3 and 4, magics DATA and ATAD): header, item types,
// items and lazily read data blocks. Knows nothing of maps; map.ts builds on it.
// Layout and validation rules: README.md §Container.

import type { DecodeContext, Inflater } from '../../core/context.js';
import { decodeError } from '../../core/errors.js';
import { inflateBlock, inflateBlockResident, inflateTileBlock } from '../../core/inflate.js';
import type { DecodeOptions } from '../../core/limits.js';
import { ByteReader } from '../../core/reader.js';
import { startDecode } from '../decode-context.js';
import type { DataBlockInfo, DatafileItem, TeeworldsWarningCode } from './types.js';

export const ITEMTYPE_EX = 0xffff;
const HEADER_BYTES = 36; // magic, version, then 7 ints

/**
 * An opened datafile: the item table read eagerly into columns (one copy of the item section, no
 * object per item), data blocks on request.
 */
export interface Datafile {
  version: 3 | 4;
  magic: 'DATA' | 'ATAD';
  /**
   * Every item as `{typeId, id, data}`, `data` a copy: built on first access, for tools that work
   * on the container (the map decoder reads the columns below instead).
   */
  readonly items: DatafileItem[];
  /** Item index ranges per type id, in file order. */
  types: Map<number, { start: number; num: number }>;
  blocks: DataBlockInfo[];
  /** Absolute offset of each item's payload, for error messages. */
  itemOffsets: Int32Array;
  /** Type id of each item. */
  itemTypeIds: Uint16Array;
  /** Id of each item (the low 16 bits of its key). */
  itemIds: Uint16Array;
  /** Item `i`'s payload ints: a view into one array of every item's ints (not a copy; slice() what you keep). */
  itemData(i: number): Int32Array;
  /** Inflated (v4) or copied (v3) bytes of block `index`; throws DecodeError when it is damaged. */
  readData(index: number, path: string): Uint8Array;
  /**
   * Block `index` as the index and flags columns of `cells` 4-byte tiles (index then flags,
   * 2 × cells bytes) and the count of tiles with non-zero skip/reserved bytes, when it is a
   * compressed (v4) block of exactly 4 × cells bytes: inflated and split in one step
   * (core/inflate.ts inflateTileBlock). undefined for any other block (read it with readData).
   */
  readTiles(index: number, path: string, cells: number): { columns: Uint8Array; dirty: number } | undefined;
  /**
   * Every check readData makes before inflating block `index` (index, size 0, maxInflatedBytes,
   * DEFLATE's ratio, the per-file budget, which it charges), without inflating it.
   */
  checkData(index: number, path: string): void;
  /**
   * checkData(), then block `index` kept for later (`layers: 'lazy'`): a copy of its stored bytes
   * (so nothing holds the input), read as readData / readTiles would, each call inflating afresh
   * without charging the budget again (checkData did). Throws what checkData throws.
   */
  deferData(index: number, path: string): BlockReader;
  /** Block `index` as stored (v4: compressed), a view into the input; undefined for a v3 block or a bad index. */
  storedData(index: number): Uint8Array | undefined;
}

/** One data block's bytes on request: what Datafile.readData and readTiles give for it. */
export interface BlockReader {
  /** The block's bytes (fresh, owned by the caller); DecodeError when the stream is damaged. */
  read(): Uint8Array;
  /** As Datafile.readTiles for this block. */
  readTiles(cells: number): { columns: Uint8Array; dirty: number } | undefined;
  /** A deferred v4 block's compressed bytes as stored (the reader's own copy, not the input); absent otherwise. */
  readonly stored?: Uint8Array;
  /**
   * read() for a caller that keeps nothing (a digest, a count): `use` gets the bytes, valid only
   * while it runs. With the WASM inflater they stay in its memory, so no array is made for them.
   */
  readResident?<T>(use: (bytes: Uint8Array) => T): T;
}

/** True when `head` starts with a datafile signature and a known version. */
export function sniffDatafile(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  const m = String.fromCharCode(head[0]!, head[1]!, head[2]!, head[3]!);
  if (m !== 'DATA' && m !== 'ATAD') return false;
  const v = head[4]! | (head[5]! << 8) | (head[6]! << 16) | (head[7]! << 24);
  return v === 3 || v === 4;
}

/**
 * Opens the datafile container alone (header, item types, items, data blocks inflated lazily by
 * `readData`), for tools that work below the map level. Validates `opts` like decode().
 */
export function openDatafile(input: Uint8Array, opts?: DecodeOptions): Datafile {
  const { bytes, ctx } = startDecode<TeeworldsWarningCode>('teeworlds', input, opts);
  return readDatafile(bytes, ctx);
}

/** openDatafile() inside a decode that already has its context (`bytes` already checked by startDecode). */
export function readDatafile(bytes: Uint8Array, ctx: DecodeContext<TeeworldsWarningCode>): Datafile {
  const r = new ByteReader(bytes, ctx.format);
  r.within('header', () => r.need(8, 'signature'));
  const magicText = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  if (magicText !== 'DATA' && magicText !== 'ATAD')
    throw r.fail('BAD_MAGIC', { at: 0, path: 'header.magic', expected: 'DATA or ATAD', actual: JSON.stringify(magicText) });
  const magic = magicText as 'DATA' | 'ATAD';
  r.pos = 4;
  const version = r.i32();
  if (version !== 3 && version !== 4) throw r.fail('UNSUPPORTED_VERSION', { at: 4, path: 'header.version', expected: '3 or 4', actual: version });
  r.within('header', () => r.need(HEADER_BYTES - 8, 'header'));
  const size = r.i32();
  const swaplen = r.i32();
  const numItemTypes = r.i32();
  const numItems = r.i32();
  const numData = r.i32();
  const itemSize = r.i32();
  const dataSize = r.i32();

  // Each count against its cap and the bytes after the header, reported at its own field.
  const count = (value: number, max: number, bytesEach: number, at: number, field: string) => {
    const path = `header.${field}`;
    if (!Number.isInteger(value) || value < 0 || value > max) throw r.fail('LIMIT_EXCEEDED', { at, path, expected: `≤ ${max}`, actual: value });
    if (value * bytesEach > bytes.length - HEADER_BYTES) {
      throw r.fail('TRUNCATED', {
        at,
        path,
        expected: `${value * bytesEach} bytes for ${value} entries`,
        actual: `${bytes.length - HEADER_BYTES} after the header`,
      });
    }
  };
  count(numItemTypes, 0x10000, 12, 16, 'num_item_types');
  count(numItems, ctx.limits.maxRecords, 4, 20, 'num_items');
  count(numData, ctx.limits.maxRecords, version === 4 ? 8 : 4, 24, 'num_data');
  const tablesBytes = numItemTypes * 12 + numItems * 4 + numData * (version === 4 ? 8 : 4);
  const itemsStart = HEADER_BYTES + tablesBytes;
  if (itemSize < 0 || (itemSize & 3) !== 0)
    throw r.fail('CORRUPT', { at: 28, path: 'header.item_size', expected: 'a non-negative multiple of 4', actual: itemSize });
  if (dataSize < 0) throw r.fail('CORRUPT', { at: 32, path: 'header.data_size', expected: '≥ 0', actual: dataSize });
  const dataStart = itemsStart + itemSize;
  const end = dataStart + dataSize;
  if (end > bytes.length) {
    // Reported where the input ends, in the section it cuts short.
    const cut = bytes.length < itemsStart ? 'header' : bytes.length < dataStart ? 'items' : 'data';
    throw r.fail('TRUNCATED', { at: bytes.length, path: cut, expected: `${end} bytes (item_size + data_size)`, actual: bytes.length });
  }

  // size and swaplen are not read by the game; check them only to report the known writer bug.
  const expectedSize = end - 16;
  const expectedSwap = dataStart - 16;
  if (size !== expectedSize || swaplen !== expectedSwap) {
    const crude = 4 * numData;
    if (version === 4 && size === expectedSize - crude && swaplen === expectedSwap - crude) {
      // QUIRK: v4 writers before 2010-09 (teeworlds 3dd1ea0) left data_sizes out of both fields.
      ctx.warnings.warn('HEADER_SIZE_BUG', 'size and swaplen omit the data_sizes table (pre-2010 writer bug)', 8, 'header');
    } else {
      ctx.warnings.warn('HEADER_SIZE_MISMATCH', `size/swaplen ${size}/${swaplen}, layout gives ${expectedSize}/${expectedSwap}`, 8, 'header');
    }
  }
  if (end < bytes.length) ctx.warnings.warn('TRAILING_BYTES', `${bytes.length - end} bytes after the data section`, end);

  // Item types: unique, within u16, non-empty, contiguous and in file order.
  const types = new Map<number, { start: number; num: number }>();
  const typeOfIndex = new Int32Array(numItems);
  r.within('item_types', () => {
    let running = 0;
    for (let t = 0; t < numItemTypes; t++) {
      const at = r.pos;
      const typeId = r.i32(),
        start = r.i32(),
        num = r.i32();
      const path = `item_types[${t}]`;
      if (typeId < 0 || typeId > 0xffff) throw r.fail('CORRUPT', { at, path: `${path}.type_id`, expected: 'type id ≤ 0xffff', actual: typeId });
      if (types.has(typeId)) throw r.fail('CORRUPT', { at, path: `${path}.type_id`, expected: 'unique type ids', actual: typeId });
      if (start !== running)
        throw r.fail('CORRUPT', { at: at + 4, path: `${path}.start`, detail: `type ${typeId}`, expected: `start ${running}`, actual: start });
      if (num <= 0 || num > numItems - running) {
        throw r.fail('CORRUPT', { at: at + 8, path: `${path}.num`, detail: `type ${typeId}`, expected: `1 ≤ num ≤ ${numItems - running}`, actual: num });
      }
      types.set(typeId, { start, num });
      typeOfIndex.fill(typeId, start, start + num);
      running += num;
    }
    if (running !== numItems) throw r.fail('CORRUPT', { expected: `item types covering ${numItems} items`, actual: running });
  });

  const itemOffsetsRel = readOffsets(r, numItems, itemSize, 'item_offsets', true);
  const dataOffsets = readOffsets(r, numData, dataSize, 'data_offsets', version === 4);
  const dataSizes = version === 4 ? r.within('data_sizes', () => Array.from({ length: numData }, () => r.i32())) : null;

  // Items: {type_id << 16 | id, size, ints…}; the header must agree with the type table. Read into
  // columns; the ints themselves are copied once, all items together (readItemInts).
  const itemTypeIds = new Uint16Array(numItems);
  const itemIds = new Uint16Array(numItems);
  const itemOffsets = new Int32Array(numItems);
  const itemLengths = new Int32Array(numItems);
  const seen = new Set<number>();
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  r.within('items', () => {
    for (let i = 0; i < numItems; i++) {
      const rel = itemOffsetsRel[i]!;
      const next = i + 1 < numItems ? itemOffsetsRel[i + 1]! : itemSize;
      const at = itemsStart + rel;
      if (next - rel < 8) throw r.fail('CORRUPT', { at, detail: `item ${i}`, expected: '≥ 8 bytes per item', actual: next - rel });
      const key = dv.getInt32(at, true) >>> 0;
      const payload = dv.getInt32(at + 4, true);
      const typeId = key >>> 16,
        id = key & 0xffff;
      if (typeId !== typeOfIndex[i]) throw r.fail('CORRUPT', { at, detail: `item ${i}`, expected: `type ${typeOfIndex[i]}`, actual: typeId });
      if (payload !== next - rel - 8) throw r.fail('CORRUPT', { at: at + 4, detail: `item ${i} size`, expected: next - rel - 8, actual: payload });
      if (seen.has(key)) {
        // QUIRK: old DDNet tools wrote the same UUID-index (EX) item twice (the first one wins), and
        // some infclass maps repeat envelope ids; items are used by position, so both still load.
        if (typeId === ITEMTYPE_EX) ctx.warnings.warn('DUPLICATE_EX_ITEM', `UUID index item ${id} appears twice`, at, `items[${i}]`);
        else ctx.warnings.warn('DUPLICATE_ITEM_ID', `type ${typeId} id ${id} appears twice`, at, `items[${i}]`);
      }
      seen.add(key);
      itemTypeIds[i] = typeId;
      itemIds[i] = id;
      itemOffsets[i] = at + 8;
      itemLengths[i] = payload >>> 2;
    }
  });
  const { ints, starts } = readItemInts(bytes, itemsStart, itemSize, itemOffsets, itemLengths);
  const itemData = (i: number): Int32Array => ints.subarray(starts[i]!, starts[i]! + itemLengths[i]!);
  let itemList: DatafileItem[] | undefined;
  const listItems = (): DatafileItem[] =>
    (itemList ??= Array.from({ length: numItems }, (_, i) => ({ typeId: itemTypeIds[i]!, id: itemIds[i]!, data: itemData(i).slice() })));

  const blocks: DataBlockInfo[] = [];
  for (let i = 0; i < numData; i++) {
    const rel = dataOffsets[i]!;
    const stored = (i + 1 < numData ? dataOffsets[i + 1]! : dataSize) - rel;
    const byteLength = dataSizes ? dataSizes[i]! : stored;
    if (dataSizes && byteLength === 0) {
      // QUIRK: TeeUniverse exports store data_sizes of 0; DDNet opens them and fails only on read.
      ctx.warnings.warn(
        'ZERO_SIZE_DATA',
        `data block ${i} declares an inflated size of 0`,
        HEADER_BYTES + numItemTypes * 12 + (numItems + numData + i) * 4,
        `data_sizes[${i}]`,
      );
    }
    blocks.push({ offset: dataStart + rel, storedByteLength: stored, byteLength });
  }

  const block = (index: number, path: string): DataBlockInfo => {
    const b = blocks[index];
    if (!b) throw decodeError(ctx.format, 'BAD_INDEX', { path, expected: `data index < ${blocks.length}`, actual: index });
    if (version === 4 && b.byteLength <= 0)
      throw r.fail('CORRUPT', { at: b.offset, path, detail: `data block ${index}`, expected: 'inflated size > 0', actual: b.byteLength });
    return b;
  };
  const inflaters = blockInflaters(ctx);
  const readData = (index: number, path: string): Uint8Array => {
    const b = block(index, path);
    const src = bytes.subarray(b.offset, b.offset + b.storedByteLength);
    if (version === 3) return src.slice();
    // inflateExact refuses a data_sizes entry beyond DEFLATE's ~1032:1 ratio (CORRUPT_COMPRESSED at
    // the block's offset) before allocating for it, and one beyond maxInflatedBytes (LIMIT_EXCEEDED).
    return inflateBlock(ctx, src, b.byteLength, { offset: b.offset, path }, false, inflaters.forSize(b.byteLength)).bytes;
  };
  const checkData = (index: number, path: string): void => {
    const b = block(index, path);
    if (version === 4) ctx.reserve(b.storedByteLength, b.byteLength, { offset: b.offset, path });
  };

  const readTiles = (index: number, path: string, cells: number) => {
    const b = blocks[index];
    if (version !== 4 || !b || b.byteLength !== cells * 4 || cells <= 0) return undefined;
    return inflateTileBlock(ctx, bytes.subarray(b.offset, b.offset + b.storedByteLength), cells, { offset: b.offset, path }, false, inflaters.tiles);
  };

  const deferData = (index: number, path: string): BlockReader => {
    checkData(index, path);
    const b = blocks[index]!;
    return blockReader(bytes.slice(b.offset, b.offset + b.storedByteLength), b, version, ctx, path, inflaters);
  };

  const storedData = (index: number): Uint8Array | undefined => {
    const b = blocks[index];
    return version === 4 && b ? bytes.subarray(b.offset, b.offset + b.storedByteLength) : undefined;
  };

  return {
    version,
    magic,
    get items() {
      return listItems();
    },
    types,
    blocks,
    itemOffsets,
    itemTypeIds,
    itemIds,
    itemData,
    readData,
    readTiles,
    checkData,
    deferData,
    storedData,
  };
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Every item's payload ints in one Int32Array, and where each item's start. On a little-endian host
 * with every item 4-byte aligned (every real map) that is one copy of the whole item section; otherwise
 * the payloads are gathered one int at a time.
 */
function readItemInts(
  bytes: Uint8Array,
  itemsStart: number,
  itemSize: number,
  payloadOffsets: Int32Array,
  lengths: Int32Array,
): { ints: Int32Array; starts: Int32Array } {
  const n = payloadOffsets.length;
  const starts = new Int32Array(n);
  let aligned = LITTLE_ENDIAN_HOST;
  for (let i = 0; i < n && aligned; i++) aligned = ((payloadOffsets[i]! - itemsStart) & 3) === 0;
  if (aligned) {
    const ints = new Int32Array(itemSize >>> 2);
    new Uint8Array(ints.buffer).set(bytes.subarray(itemsStart, itemsStart + ints.length * 4));
    for (let i = 0; i < n; i++) starts[i] = (payloadOffsets[i]! - itemsStart) >>> 2;
    return { ints, starts };
  }
  let total = 0;
  for (let i = 0; i < n; i++) total += lengths[i]!;
  const ints = new Int32Array(total);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0, p = 0; i < n; i++) {
    starts[i] = p;
    for (let k = 0; k < lengths[i]!; k++) ints[p++] = dv.getInt32(payloadOffsets[i]! + k * 4, true);
  }
  return { ints, starts };
}

/**
 * A BlockReader over `stored` (a copy of one block's stored bytes). Built outside readDatafile so
 * its closures capture only these arguments: a closure made there would share the scope that holds
 * the input, and keep the whole file alive for as long as a lazy grid is unread.
 */
function blockReader(
  stored: Uint8Array,
  b: DataBlockInfo,
  version: 3 | 4,
  ctx: DecodeContext<TeeworldsWarningCode>,
  path: string,
  inflaters: BlockInflaters,
): BlockReader {
  const site = { offset: b.offset, path };
  return {
    read: () => (version === 3 ? stored.slice() : inflateBlock(ctx, stored, b.byteLength, site, true, inflaters.forSize(b.byteLength)).bytes),
    readTiles: (cells) =>
      version !== 4 || b.byteLength !== cells * 4 || cells <= 0 ? undefined : inflateTileBlock(ctx, stored, cells, site, true, inflaters.tiles),
    ...(version === 4 ? { stored } : {}),
    readResident: (use) => (version === 3 ? use(stored) : inflateBlockResident(ctx, stored, b.byteLength, site, (block) => use(block), true, inflaters.tiles)),
  };
}

/** Which inflater takes a block, by its shape (see blockInflaters). */
interface BlockInflaters {
  /** For a CTile grid inflated and split in one step. */
  tiles: Inflater;
  /** For any other block of `byteLength` inflated bytes. */
  forSize(byteLength: number): Inflater;
}

/**
 * Blocks no larger than this many inflated bytes go to the WASM inflater under `inflate: 'auto'`
 * (with the WASM kernels): node:zlib's per-call set-up (a stream object, its handle, a buffer) costs
 * more than inflating them (most are strings and names, under 1 KiB). 64 KiB rather than 16: 2–4 %
 * less CPU per corpus pass in two alternating runs (bench/README.md §Teeworlds).
 */
export const SMALL_BLOCK_BYTES = 64 << 10;

/**
 * `inflate: 'auto'` with the WASM kernels picks per block: CTile grids go to the WASM kernels'
 * inflateTiles (inflated and split inside WASM memory, only the index and flags columns copied out:
 * half the bytes allocated, no second pass over the block, and faster than node:zlib plus the
 * split over the corpus's grids), small blocks to its inflateZlib; the rest to what `auto` resolved
 * to (node:zlib under Node). Any other choice is taken at its word for every block.
 */
function blockInflaters(ctx: DecodeContext<TeeworldsWarningCode>): BlockInflaters {
  const chosen = ctx.inflater;
  if (ctx.inflateChoice !== 'auto' || ctx.kernels.name !== 'wasm' || chosen !== 'native') return { tiles: chosen, forSize: () => chosen };
  const wasm = ctx.kernels;
  return { tiles: wasm, forSize: (n) => (n <= SMALL_BLOCK_BYTES ? wasm : chosen) };
}

/** Reads `n` offsets that start at 0, grow (strictly when `strict`) and stay below `limit`. */
function readOffsets(r: ByteReader, n: number, limit: number, what: string, strict: boolean): Int32Array {
  return r.within(what, () => {
    const out = new Int32Array(n);
    let prev = -1;
    for (let i = 0; i < n; i++) {
      const at = r.pos;
      const v = r.i32();
      const ok = i === 0 ? v === 0 : strict ? v > prev : v >= prev;
      if (!ok || v > limit || (strict && v === limit)) {
        throw r.fail('OUT_OF_RANGE', { at, detail: `${what}[${i}]`, expected: i === 0 ? 0 : `${prev} < offset < ${limit}`, actual: v });
      }
      out[i] = prev = v;
    }
    return out;
  });
}
