// WWD tile-property table: an 8-dword header then variable-size records by type
// (1 single: 20 bytes, 2 double: 40, 3 mask: 16 + width×height). See README.md § Tile properties.

import type { Limits } from '../../core/limits.js';
import type { ByteReader, ByteWriter } from '../../core/reader.js';
import type { WwdTileProperty } from './types.js';

export const TILE_TABLE_HEADER_WORDS = 8;
/** Index of the record count among the header dwords. */
export const TILE_TABLE_COUNT_WORD = 2;

/** The i32 fields after the 16-byte record base, by type; type 3 has width × height mask bytes instead. */
export const TILE_PROPERTY_FIELDS = {
  1: ['attribute'],
  2: ['outside', 'inside', 'left', 'top', 'right', 'bottom'],
  3: [],
} as const satisfies Record<WwdTileProperty['type'], readonly string[]>;
const MIN_RECORD_BYTES = 20;

/** Reads the header dwords at the cursor. */
export function readTileTableHeader(r: ByteReader): Uint32Array {
  r.need(TILE_TABLE_HEADER_WORDS * 4, 'tile-property header');
  const words = new Uint32Array(TILE_TABLE_HEADER_WORDS);
  for (let i = 0; i < words.length; i++) words[i] = r.u32();
  return words;
}

/** Reads `count` records at the cursor. CORRUPT for a type other than 1, 2, 3 (never "assume double"). */
export function readTileProperties(r: ByteReader, count: number, limits: Limits): WwdTileProperty[] {
  r.count(count, limits.maxRecords, MIN_RECORD_BYTES, 'tile properties');
  const out: WwdTileProperty[] = new Array(count);
  for (let i = 0; i < count; i++) {
    out[i] = r.within(`tileProperties[${i}]`, () => readRecord(r));
  }
  return out;
}

function readRecord(r: ByteReader): WwdTileProperty {
  const at = r.pos;
  const type = r.u32();
  const unknown = r.u32();
  const width = r.u32();
  const height = r.u32();
  switch (type) {
    // The fields of TILE_PROPERTY_FIELDS[type] spelled out (properties evaluate in source order):
    // building them from the table cost an object and a closure per record, ~8 % of a WWD decode.
    case 1:
      return { type, unknown, width, height, attribute: r.i32() };
    case 2:
      return { type, unknown, width, height, outside: r.i32(), inside: r.i32(), left: r.i32(), top: r.i32(), right: r.i32(), bottom: r.i32() };
    case 3: {
      // Checked against the bytes left before allocating: width × height comes from the file.
      const size = width * height;
      if (size > r.remaining) throw r.fail('TRUNCATED', { expected: `${width}×${height} mask bytes`, actual: `${r.remaining} left` });
      return { type, unknown, width, height, mask: r.take(size) };
    }
    default:
      throw r.fail('CORRUPT', { at, path: `${r.path}.type`, expected: 'tile type 1, 2 or 3', actual: type });
  }
}

/** Writes the table: the header words as found but the count, then each (checked) record; `mask` is type 3's bytes. */
export function writeTileProperties(
  w: ByteWriter,
  header: ArrayLike<number>,
  props: readonly { record: WwdTileProperty; mask: Uint8Array | undefined }[],
): void {
  for (let i = 0; i < TILE_TABLE_HEADER_WORDS; i++) w.u32(i === TILE_TABLE_COUNT_WORD ? props.length : header[i]!);
  for (const { record, mask } of props) {
    w.u32(record.type).u32(record.unknown).u32(record.width).u32(record.height);
    if (mask) w.bytes(mask);
    else if (record.type === 1) for (const name of TILE_PROPERTY_FIELDS[1]) w.i32(record[name]);
    else if (record.type === 2) for (const name of TILE_PROPERTY_FIELDS[2]) w.i32(record[name]);
  }
}
