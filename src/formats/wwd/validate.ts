// WWD encoder, first pass: checks the whole model against what the file can hold and what the
// decoder will read back, and turns every text field into the bytes to store, before a byte is
// written (round trip or refuse). See README.md § What the encoder refuses.

import { type EncodeErrorCode, encodeError } from '../../core/errors.js';
import { recordOf } from '../../core/record.js';
import { type Field, FLAG_COMPRESSED, FLAG_USE_Z, fieldValue, HEADER_BYTES, HEADER_FIELDS, PLANE_FIELDS, PLANE_HEADER_BYTES, SIGNATURE } from './header.js';
import { LENGTH_FIELDS, OBJECT_FIELDS, OBJECT_FIXED_BYTES, OBJECT_STRINGS } from './objects.js';
import { type CodePage, countedBytes, fixedFieldBytes, terminatedBytes } from './text.js';
import { TILE_PROPERTY_FIELDS, TILE_TABLE_COUNT_WORD, TILE_TABLE_HEADER_WORDS } from './tile-properties.js';
import type { WwdEncodeOptions, WwdTileProperty } from './types.js';

/** Header fields the encoder computes (counts, offsets, the stored block's size and checksum): never read from the model. */
const HEADER_RECOMPUTED = new Set(['planeCount', 'planesOffset', 'tilePropertiesOffset', 'mainBlockSizeField', 'checksum']);
/** Plane-header fields the encoder computes from the plane's lists and the layout. */
const PLANE_RECOMPUTED = new Set(['imageSetCount', 'objectCount', 'tilesOffset', 'imageSetsOffset', 'objectsOffset']);
/** Fields the decoder rejects when negative (CORRUPT), so the encoder does not write them. */
const NON_NEGATIVE = new Set(['tilesWide', 'tilesHigh']);
const PLANE_FLAG_BITS = [
  ['main', 1],
  ['noDraw', 2],
  ['wrapX', 4],
  ['wrapY', 8],
  ['autoTileSize', 16],
] as const;
const MAX_FILE_BYTES = 0xffffffff;

type IntKind = 'u8' | 'u32' | 'i32';
const RANGE: Record<IntKind, readonly [number, number]> = { u8: [0, 0xff], u32: [0, 0xffffffff], i32: [-0x80000000, 0x7fffffff] };

/** What the writer needs, every value checked: text fields as the bytes to store. */
export interface Prepared {
  compress: boolean;
  headerTexts: Map<string, Uint8Array>;
  planes: PreparedPlane[];
  tileProperties: { record: WwdTileProperty; mask: Uint8Array | undefined }[];
  tileTableHeader: ArrayLike<number>;
  tail: Uint8Array;
  trailing: Uint8Array;
  /** Bytes of the uncompressed main block. */
  blockBytes: number;
}

export interface PreparedPlane {
  texts: Map<string, Uint8Array>;
  tiles: ArrayLike<number>;
  imageSetNames: Uint8Array[];
  objectCount: number;
  /** One column per OBJECT_FIELDS entry (length columns are left to the writer). */
  columns: ArrayLike<number>[];
  /** The stored bytes of each object string, `[string][object]` in OBJECT_STRINGS order. */
  strings: Uint8Array[][];
  gridBytes: number;
  imageSetBytes: number;
  objectBytes: number;
}

/** `actual`: a value from the model (described) or, as a string, already a description. */
function fail(code: EncodeErrorCode, path: string, expected: string | number, actual: unknown, detail?: string): never {
  throw encodeError('wwd', code, { path, expected, actual: typeof actual === 'string' ? actual : describe(actual), detail });
}

function describe(v: unknown): string | number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}`;
  return typeof v;
}

/** An integer of `kind`'s range (from `min` up when given). BAD_VALUE for a non-number, OUT_OF_RANGE for NaN, fractions and values outside. */
function int(v: unknown, kind: IntKind, path: string, min?: number): number {
  if (typeof v !== 'number') fail('BAD_VALUE', path, `a number (${kind})`, describe(v));
  const lo = min ?? RANGE[kind][0],
    hi = RANGE[kind][1];
  if (!Number.isInteger(v) || v < lo || v > hi) fail('OUT_OF_RANGE', path, `an integer in ${lo}..${hi}`, v);
  return v;
}

function record(v: unknown, path: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || ArrayBuffer.isView(v)) fail('BAD_VALUE', path, 'an object', v);
  return v as Record<string, unknown>;
}

/** A dense copy of an array (a hole reads as undefined, which the element's own check refuses; map() would skip it). */
function list(v: unknown, path: string, length?: number): unknown[] {
  if (!Array.isArray(v)) fail('BAD_VALUE', path, 'an array', v);
  if (length !== undefined && v.length !== length) fail('BAD_LENGTH', path, length, v.length);
  return Array.from(v);
}

function bool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') fail('BAD_VALUE', path, 'true or false', describe(v));
  return v;
}

function bytes(v: unknown, path: string): Uint8Array {
  if (!(v instanceof Uint8Array)) fail('BAD_VALUE', path, 'a Uint8Array', v);
  return v;
}

/**
 * `length` integers of `kind`: a typed array of the field's own kind holds nothing else; any
 * other array of numbers (a plain array, another typed array) is checked value by value.
 */
function ints(v: unknown, kind: IntKind, length: number, path: string): ArrayLike<number> {
  if (!Array.isArray(v) && !(ArrayBuffer.isView(v) && !(v instanceof DataView))) fail('BAD_VALUE', path, `an array of ${kind}`, v);
  const a = v as ArrayLike<unknown>;
  if (a.length !== length) fail('BAD_LENGTH', path, length, a.length);
  const exact = kind === 'u32' ? v instanceof Uint32Array : kind === 'i32' ? v instanceof Int32Array : v instanceof Uint8Array;
  if (!exact) for (let i = 0; i < a.length; i++) int(a[i], kind, `${path}[${i}]`);
  return a as ArrayLike<number>;
}

/** Checks the numeric fields of a header table and returns its text fields as stored bytes. */
function fields(src: Record<string, unknown>, table: readonly Field[], path: string, recomputed: ReadonlySet<string>, page: CodePage): Map<string, Uint8Array> {
  const texts = new Map<string, Uint8Array>();
  for (const [name, kind] of table) {
    if (recomputed.has(name)) continue;
    const dot = name.indexOf('.');
    if (dot >= 0 && name.endsWith('.0')) list(src[name.slice(0, dot)], `${path}.${name.slice(0, dot)}`, 4);
    const at = `${path}.${dot < 0 ? name : `${name.slice(0, dot)}[${name.slice(dot + 1)}]`}`;
    const v = fieldValue(src, name);
    if (typeof kind === 'number') texts.set(name, fixedFieldBytes(v, kind, at, page));
    else int(v, kind, at, NON_NEGATIVE.has(name) ? 0 : undefined);
  }
  return texts;
}

/** Options of wwd.encode, checked like decode options: TypeError/RangeError naming the option. */
function checkOptions(opts: WwdEncodeOptions): void {
  if (opts === null || typeof opts !== 'object') throw new TypeError('wwd.encode: options must be an object');
  for (const key of ['compress', 'trailing'] as const) {
    if (opts[key] !== undefined && typeof opts[key] !== 'boolean') throw new TypeError(`wwd.encode: option '${key}' must be true or false`);
  }
  if (opts.level !== undefined && !(Number.isInteger(opts.level) && opts.level >= 0 && opts.level <= 9))
    throw new RangeError(`wwd.encode: option 'level' must be an integer 0..9, got ${String(opts.level)}`);
  if (opts.deflate !== undefined && !['auto', 'native', 'pako'].includes(opts.deflate))
    throw new RangeError(`wwd.encode: option 'deflate' must be 'auto', 'native' or 'pako', got ${String(opts.deflate)}`);
}

/**
 * Checks `value` as a whole and returns what the writer needs. EncodeError (format `wwd`, `path`
 * into the model): OUT_OF_RANGE, BAD_LENGTH, BAD_VALUE, UNENCODABLE_TEXT, LIMIT_EXCEEDED.
 */
export function prepare(value: unknown, opts: WwdEncodeOptions): Prepared {
  checkOptions(opts);
  const level = record(value, '');
  if (level.format !== 'wwd') fail('BAD_VALUE', 'format', "'wwd'", describe(level.format));
  if (level.sections !== 'all') {
    fail(
      'BAD_VALUE',
      'sections',
      "'all'",
      describe(level.sections),
      "a sections: 'summary' decode leaves out non-main grids, objects and tile properties; decode with sections: 'all' to encode",
    );
  }
  const header = record(level.header, 'header');
  const page: CodePage = {};
  const headerTexts = fields(header, HEADER_FIELDS, 'header', HEADER_RECOMPUTED, page);
  if (header.signature !== SIGNATURE) fail('OUT_OF_RANGE', 'header.signature', '0x5f4 (the only value any tool reads)', describe(header.signature));
  const flags = header.flags as number;
  const compressed = bool(header.compressed, 'header.compressed');
  if (compressed !== ((flags & FLAG_COMPRESSED) !== 0))
    fail('BAD_VALUE', 'header.compressed', `${(flags & FLAG_COMPRESSED) !== 0} (flag bit 1 of header.flags)`, String(compressed));
  const useZ = bool(header.useZCoords, 'header.useZCoords');
  if (useZ !== ((flags & FLAG_USE_Z) !== 0)) fail('BAD_VALUE', 'header.useZCoords', `${(flags & FLAG_USE_Z) !== 0} (flag bit 0 of header.flags)`, String(useZ));

  const planes = list(level.planes, 'planes').map((p, i) => preparePlane(record(p, `planes[${i}]`), `planes[${i}]`, page));
  const firstMain = planes.findIndex((_, i) => ((level.planes as { flags: number }[])[i]!.flags & 1) !== 0);
  if (level.mainPlane !== firstMain) fail('BAD_VALUE', 'mainPlane', `${firstMain} (the first plane flagged main)`, describe(level.mainPlane));

  const words = level.tilePropertiesHeader;
  if (!Array.isArray(words) && !(ArrayBuffer.isView(words) && !(words instanceof DataView)))
    fail('BAD_VALUE', 'tilePropertiesHeader', 'an array of 8 u32', words);
  const w = words as ArrayLike<unknown>;
  if (w.length !== TILE_TABLE_HEADER_WORDS) fail('BAD_LENGTH', 'tilePropertiesHeader', TILE_TABLE_HEADER_WORDS, w.length);
  for (let i = 0; i < w.length; i++) if (i !== TILE_TABLE_COUNT_WORD) int(w[i], 'u32', `tilePropertiesHeader[${i}]`);
  const tileProperties = list(level.tileProperties, 'tileProperties').map((t, i) => prepareTileProperty(t, `tileProperties[${i}]`));

  const tail = bytes(level.tail, 'tail');
  const container = record(level.container, 'container');
  const trailing = bytes(container.trailing, 'container.trailing');
  const compress = opts.compress ?? compressed;
  const keepTrailing = opts.trailing !== false;
  if (!compress && keepTrailing && trailing.length) {
    fail(
      'BAD_VALUE',
      'container.trailing',
      "no bytes (an uncompressed file has no stream for them to follow; they would read back as the block's tail)",
      `${trailing.length} bytes`,
    );
  }

  let blockBytes = planes.length * PLANE_HEADER_BYTES + TILE_TABLE_HEADER_WORDS * 4 + tail.length;
  for (const p of planes) blockBytes += p.gridBytes + p.imageSetBytes + p.objectBytes;
  for (const t of tileProperties) blockBytes += 16 + (t.mask ? t.mask.length : TILE_PROPERTY_FIELDS[t.record.type].length * 4);
  // Every offset in the file is a u32 from its start.
  if (HEADER_BYTES + blockBytes > MAX_FILE_BYTES)
    fail('LIMIT_EXCEEDED', 'planes', `a main block of at most ${MAX_FILE_BYTES - HEADER_BYTES} bytes`, blockBytes);
  return {
    compress,
    headerTexts,
    planes,
    tileProperties,
    tileTableHeader: w as ArrayLike<number>,
    tail,
    trailing: compress && keepTrailing ? trailing : new Uint8Array(0),
    blockBytes,
  };
}

function preparePlane(p: Record<string, unknown>, path: string, page: CodePage): PreparedPlane {
  const texts = fields(p, PLANE_FIELDS, path, PLANE_RECOMPUTED, page);
  const flags = p.flags as number;
  const bits = record(p.flagBits, `${path}.flagBits`);
  for (const [name, bit] of PLANE_FLAG_BITS) {
    if (bits[name] !== ((flags & bit) !== 0))
      fail('BAD_VALUE', `${path}.flagBits.${name}`, `${(flags & bit) !== 0} (bit ${bit} of flags)`, describe(bits[name]));
  }
  const cells = (p.tilesWide as number) * (p.tilesHigh as number);
  const tiles = ints(p.tiles, 'u32', cells, `${path}.tiles`);
  const imageSetNames = list(p.imageSetNames, `${path}.imageSetNames`).map((t, i) => terminatedBytes(t, `${path}.imageSetNames[${i}]`, page));
  const objects = record(p.objects, `${path}.objects`);
  const count = int(objects.count, 'u32', `${path}.objects.count`);
  const columns = OBJECT_FIELDS.map(([name, kind], f) => (LENGTH_FIELDS.has(f) ? [] : ints(objects[name], kind, count, `${path}.objects.${name}`)));
  const strings = OBJECT_STRINGS.map((s) => list(objects[s], `${path}.objects.${s}`, count).map((t, k) => countedBytes(t, `${path}.objects.${s}[${k}]`, page)));
  let objectBytes = count * OBJECT_FIXED_BYTES;
  for (const column of strings) for (const b of column) objectBytes += b.length;
  return {
    texts,
    tiles,
    imageSetNames,
    objectCount: count,
    columns,
    strings,
    gridBytes: cells * 4,
    imageSetBytes: imageSetNames.reduce((n, b) => n + b.length + 1, 0),
    objectBytes,
  };
}

function prepareTileProperty(v: unknown, path: string): Prepared['tileProperties'][number] {
  const t = record(v, path);
  const type = int(t.type, 'u32', `${path}.type`);
  if (type !== 1 && type !== 2 && type !== 3) fail('OUT_OF_RANGE', `${path}.type`, '1, 2 or 3 (the record kinds the format has)', type);
  const base = {
    unknown: int(t.unknown, 'u32', `${path}.unknown`),
    width: int(t.width, 'u32', `${path}.width`),
    height: int(t.height, 'u32', `${path}.height`),
  };
  const i32 = <K extends string>(names: readonly K[]) => recordOf(names, (name) => int(t[name], 'i32', `${path}.${name}`));
  if (type === 1) return { record: { type, ...base, ...i32(TILE_PROPERTY_FIELDS[1]) }, mask: undefined };
  if (type === 2) return { record: { type, ...base, ...i32(TILE_PROPERTY_FIELDS[2]) }, mask: undefined };
  const m = ints(t.mask, 'u8', base.width * base.height, `${path}.mask`);
  const mask = m instanceof Uint8Array ? m : Uint8Array.from(m);
  return { record: { type, ...base, mask }, mask };
}
