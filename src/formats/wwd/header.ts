// WWD file header (1524 bytes) and plane headers (160 bytes): both described once as field
// tables, read and written by the same walker so the two directions cannot drift apart.
// See README.md § Header.

import type { ByteReader, ByteWriter } from '../../core/reader.js';
import { textToNul } from './text.js';
import type { WwdHeader, WwdPlane } from './types.js';

/** Header size and signature value. */
export const HEADER_BYTES = 1524;
export const SIGNATURE = 0x5f4;
export const PLANE_HEADER_BYTES = 160;

/** Header positions of the two offsets into the main block (errors about them point here). */
export const PLANES_OFFSET_AT = 0x2e0;
export const TILE_PROPERTIES_OFFSET_AT = 0x2e4;

export const FLAG_USE_Z = 0x1;
export const FLAG_COMPRESSED = 0x2;

/** A field: a dword (`u32`/`i32`), a fixed-size text field (its byte size), or one of four in a group (`imageSets.2`). */
export type Field = readonly [name: string, kind: 'u32' | 'i32' | number];

/** The file header in file order (offsets in the comments of types.ts and the spec). */
export const HEADER_FIELDS: readonly Field[] = [
  ['signature', 'u32'], ['unknown1', 'u32'], ['flags', 'u32'], ['unknown2', 'u32'],
  ['name', 64], ['author', 64], ['birth', 64], ['rezFile', 256], ['imageDir', 128], ['palRez', 128],
  ['startX', 'i32'], ['startY', 'i32'], ['unknown3', 'u32'], ['planeCount', 'u32'], ['planesOffset', 'u32'],
  ['tilePropertiesOffset', 'u32'], ['mainBlockSizeField', 'u32'], ['checksum', 'u32'], ['unknown4', 'u32'],
  ['launchApp', 128],
  ['imageSets.0', 128], ['imageSets.1', 128], ['imageSets.2', 128], ['imageSets.3', 128],
  ['prefixes.0', 32], ['prefixes.1', 32], ['prefixes.2', 32], ['prefixes.3', 32],
];

/** The plane header in file order. */
export const PLANE_FIELDS: readonly Field[] = [
  ['blockSize', 'u32'], ['unknown1', 'u32'], ['flags', 'u32'], ['unknown2', 'u32'], ['name', 64],
  ['widthPx', 'i32'], ['heightPx', 'i32'], ['tileWidth', 'i32'], ['tileHeight', 'i32'], ['tilesWide', 'i32'], ['tilesHigh', 'i32'],
  ['unknown3', 'u32'], ['unknown4', 'u32'], ['movementXPercent', 'i32'], ['movementYPercent', 'i32'], ['fillColor', 'i32'],
  ['imageSetCount', 'u32'], ['objectCount', 'u32'], ['tilesOffset', 'u32'], ['imageSetsOffset', 'u32'], ['objectsOffset', 'u32'],
  ['z', 'i32'], ['unknown5', 'u32'], ['unknown6', 'u32'], ['unknown7', 'u32'],
];

/** `src`'s value for a field name, following `group.index` names into their array. */
export function fieldValue(src: Record<string, unknown>, name: string): unknown {
  const dot = name.indexOf('.');
  if (dot < 0) return src[name];
  const group = src[name.slice(0, dot)];
  return Array.isArray(group) ? group[Number(name.slice(dot + 1))] : undefined;
}

function readFields(r: ByteReader, fields: readonly Field[], encoding: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, kind] of fields) {
    const v = kind === 'u32' ? r.u32() : kind === 'i32' ? r.i32() : textToNul(r.take(kind), encoding);
    const dot = name.indexOf('.');
    if (dot < 0) out[name] = v;
    else ((out[name.slice(0, dot)] ??= []) as unknown[])[Number(name.slice(dot + 1))] = v;
  }
  return out;
}

/**
 * Writes checked values: numbers from `src`, text fields from `texts` (each already its field's
 * size, from validate.ts), so nothing here can cut or pad a value.
 */
function writeFields(w: ByteWriter, fields: readonly Field[], src: Record<string, unknown>, texts: ReadonlyMap<string, Uint8Array>): void {
  for (const [name, kind] of fields) {
    if (kind === 'u32') w.u32(fieldValue(src, name) as number);
    else if (kind === 'i32') w.i32(fieldValue(src, name) as number);
    else w.bytes(texts.get(name)!);
  }
}

/** The raw header fields plus the two that live in `container` (mainBlockSizeField, checksum). */
export type RawHeader = WwdHeader & { mainBlockSizeField: number; checksum: number };

/** Reads the 1524-byte header at the cursor (the caller has checked the signature). */
export function readHeader(r: ByteReader, encoding: string): RawHeader {
  const h = readFields(r, HEADER_FIELDS, encoding) as unknown as RawHeader;
  h.useZCoords = (h.flags & FLAG_USE_Z) !== 0;
  h.compressed = (h.flags & FLAG_COMPRESSED) !== 0;
  return h;
}

export function writeHeader(w: ByteWriter, h: RawHeader, texts: ReadonlyMap<string, Uint8Array>): void {
  writeFields(w, HEADER_FIELDS, h as unknown as Record<string, unknown>, texts);
}

/** The header part of a plane (no grid, names or objects yet). */
export type PlaneHeader = Omit<WwdPlane, 'tiles' | 'imageSetNames' | 'objects' | 'stats'>;

export function readPlaneHeader(r: ByteReader, encoding: string): PlaneHeader {
  const p = readFields(r, PLANE_FIELDS, encoding) as unknown as PlaneHeader;
  const f = p.flags;
  p.flagBits = { main: (f & 1) !== 0, noDraw: (f & 2) !== 0, wrapX: (f & 4) !== 0, wrapY: (f & 8) !== 0, autoTileSize: (f & 16) !== 0 };
  return p;
}

export function writePlaneHeader(w: ByteWriter, p: PlaneHeader, texts: ReadonlyMap<string, Uint8Array>): void {
  writeFields(w, PLANE_FIELDS, p as unknown as Record<string, unknown>, texts);
}
