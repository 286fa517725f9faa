// WWD file header (1524 bytes) and plane headers (160 bytes): both described once as field
// tables, read and written by the same walker so the two directions cannot drift apart.
// See README.md § Header.

import type { ByteReader, ByteWriter } from '../../core/reader.js';
import { isRecord } from '../../core/record.js';
import type { Text } from '../../core/text.js';
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
export const HEADER_FIELDS = [
  ['signature', 'u32'],
  ['unknown1', 'u32'],
  ['flags', 'u32'],
  ['unknown2', 'u32'],
  ['name', 64],
  ['author', 64],
  ['birth', 64],
  ['rezFile', 256],
  ['imageDir', 128],
  ['palRez', 128],
  ['startX', 'i32'],
  ['startY', 'i32'],
  ['unknown3', 'u32'],
  ['planeCount', 'u32'],
  ['planesOffset', 'u32'],
  ['tilePropertiesOffset', 'u32'],
  ['mainBlockSizeField', 'u32'],
  ['checksum', 'u32'],
  ['unknown4', 'u32'],
  ['launchApp', 128],
  ['imageSets.0', 128],
  ['imageSets.1', 128],
  ['imageSets.2', 128],
  ['imageSets.3', 128],
  ['prefixes.0', 32],
  ['prefixes.1', 32],
  ['prefixes.2', 32],
  ['prefixes.3', 32],
] as const satisfies readonly Field[];

/** The plane header in file order. */
export const PLANE_FIELDS = [
  ['blockSize', 'u32'],
  ['unknown1', 'u32'],
  ['flags', 'u32'],
  ['unknown2', 'u32'],
  ['name', 64],
  ['widthPx', 'i32'],
  ['heightPx', 'i32'],
  ['tileWidth', 'i32'],
  ['tileHeight', 'i32'],
  ['tilesWide', 'i32'],
  ['tilesHigh', 'i32'],
  ['unknown3', 'u32'],
  ['unknown4', 'u32'],
  ['movementXPercent', 'i32'],
  ['movementYPercent', 'i32'],
  ['fillColor', 'i32'],
  ['imageSetCount', 'u32'],
  ['objectCount', 'u32'],
  ['tilesOffset', 'u32'],
  ['imageSetsOffset', 'u32'],
  ['objectsOffset', 'u32'],
  ['z', 'i32'],
  ['unknown5', 'u32'],
  ['unknown6', 'u32'],
  ['unknown7', 'u32'],
] as const satisfies readonly Field[];

/** What a field reads as: a number for a dword, a Text for a fixed-size text field. */
type FieldValue<K> = K extends 'u32' | 'i32' ? number : Text;

/**
 * The object readFields makes from a table: `{ name: number | Text }` per plain field and, for
 * `group.0` … `group.3`, `{ group: [v, v, v, v] }` (WWD's groups are all of four).
 */
export type FieldsOf<F extends readonly Field[]> = {
  [E in F[number] as E[0] extends `${string}.${string}` ? never : E[0]]: FieldValue<E[1]>;
} & {
  [E in F[number] as E[0] extends `${infer G}.${string}` ? G : never]: [FieldValue<E[1]>, FieldValue<E[1]>, FieldValue<E[1]>, FieldValue<E[1]>];
};

/** `src`'s value for a field name, following `group.index` names into their array. */
export function fieldValue(src: object, name: string): unknown {
  if (!isRecord(src)) return undefined;
  const dot = name.indexOf('.');
  if (dot < 0) return src[name];
  const group = src[name.slice(0, dot)];
  return Array.isArray(group) ? group[Number(name.slice(dot + 1))] : undefined;
}

function readFields<const F extends readonly Field[]>(r: ByteReader, fields: F, encoding: string): FieldsOf<F> {
  const out: Record<string, number | Text | (number | Text)[]> = {};
  for (const [name, kind] of fields) {
    const v = kind === 'u32' ? r.u32() : kind === 'i32' ? r.i32() : textToNul(r.take(kind), encoding);
    const dot = name.indexOf('.');
    if (dot < 0) out[name] = v;
    else {
      out[name.slice(0, dot)] ??= [];
      const group = out[name.slice(0, dot)]!;
      if (Array.isArray(group)) group[Number(name.slice(dot + 1))] = v;
    }
  }
  // TypeScript cannot follow the loop filling FieldsOf<F> name by name: this is what it made
  // (one value per table entry, of the entry's kind; each group's four in order).
  return out as FieldsOf<F>;
}

/**
 * Writes checked values: numbers from `src`, text fields from `texts` (each already its field's
 * size, from validate.ts), so nothing here can cut or pad a value.
 */
function writeFields(w: ByteWriter, fields: readonly Field[], src: object, texts: ReadonlyMap<string, Uint8Array>): void {
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
  const h = readFields(r, HEADER_FIELDS, encoding);
  return Object.assign(h, { useZCoords: (h.flags & FLAG_USE_Z) !== 0, compressed: (h.flags & FLAG_COMPRESSED) !== 0 });
}

export function writeHeader(w: ByteWriter, h: RawHeader, texts: ReadonlyMap<string, Uint8Array>): void {
  writeFields(w, HEADER_FIELDS, h, texts);
}

/** The header part of a plane (no grid, names or objects yet). */
export type PlaneHeader = Omit<WwdPlane, 'tiles' | 'imageSetNames' | 'objects' | 'stats'>;

export function readPlaneHeader(r: ByteReader, encoding: string): PlaneHeader {
  const p = readFields(r, PLANE_FIELDS, encoding);
  const f = p.flags;
  return Object.assign(p, {
    flagBits: { main: (f & 1) !== 0, noDraw: (f & 2) !== 0, wrapX: (f & 4) !== 0, wrapY: (f & 8) !== 0, autoTileSize: (f & 16) !== 0 },
  });
}

export function writePlaneHeader(w: ByteWriter, p: PlaneHeader, texts: ReadonlyMap<string, Uint8Array>): void {
  writeFields(w, PLANE_FIELDS, p, texts);
}
