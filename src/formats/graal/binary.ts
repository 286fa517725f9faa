// Binary Graal levels (.zelda Z3-V1.03/1.04, .graal GR-V1.00–1.05): header, tile stream(s)
// through the graalTileStream kernel, then newline-framed sections whose presence the version
// table (level.ts BINARY_LAYOUTS) decides. See README.md § "Binary levels".
import type { DecodeContext } from '../../core/context.js';
import { kernelError } from '../../core/kernel-status.js';
import type { DecodeOptions } from '../../core/limits.js';
import { ByteReader } from '../../core/reader.js';
import type { Text } from '../../core/text.js';
import { startDecode } from '../decode-context.js';
import { BINARY_LAYOUTS, type BinaryLayout, blankLevel, CHEST_ITEMS, NO_TILE, TILE_COUNT } from './level.js';
import { ObjectBudget } from './object-budget.js';
import { decodeSign } from './signs.js';
import { ascii, byteString, FieldTexts, fieldText, LF, num, numAt, SPACE, splitTrailing } from './text.js';
import type { GraalBaddy, GraalChest, GraalLayer, GraalLevel, GraalLink, GraalNpc, GraalSign, GraalWarningCode } from './types.js';

type Ctx = DecodeContext<GraalWarningCode>;

const HASH = 0x23;
const HEIGHTS = 'HEIGHTS';
const BACKSLASH = 0x5c;
const NPC_NEWLINE = 0xa7; // '§' stands for a line break inside binary NPC scripts
// A tile stream of 4,096 tiles needs at least ~41 bytes (nine 255-pair runs); a bound for layer counts.
const MIN_STREAM_BYTES = 40;
const MAX_LAYERS = 223;

/** Decodes a binary level. Throws DecodeError (BAD_MAGIC, UNSUPPORTED_VERSION, TRUNCATED, CORRUPT…). */
export function decodeBinary(input: Uint8Array, opts?: DecodeOptions): GraalLevel {
  const start = startDecode<GraalWarningCode>('graal', input, opts);
  const ctx = start.ctx;
  // One copy of the file, owned by the level: every text field's raw is a view of it (no copy
  // per field), and NPC scripts get their line breaks rewritten in it, in place.
  const bytes = start.bytes.slice();
  const texts = new FieldTexts(ctx.encoding);
  const r = new ByteReader(bytes, 'graal');
  r.need(8, 'header');
  const version = ascii(bytes.subarray(0, 8));
  const layout = Object.hasOwn(BINARY_LAYOUTS, version) ? BINARY_LAYOUTS[version] : undefined;
  if (!layout) {
    throw r.fail(/^(GR|Z3)-V/.test(version) ? 'UNSUPPORTED_VERSION' : 'BAD_MAGIC', {
      path: 'version',
      at: 0,
      expected: 'Z3-V1.03 … GR-V1.05',
      actual: JSON.stringify(version),
    });
  }
  r.pos = 8;
  const level = blankLevel(
    'graal',
    version,
    r.within('layers', () => readLayers(r, ctx, layout)),
  );
  level.encoding = ctx.encoding;
  const budget = new ObjectBudget('graal', ctx.limits.maxLevelObjects);
  level.links = r.within('links', () => readLinks(r, ctx, texts, budget));
  level.baddies = r.within('baddies', () => readBaddies(r, layout, texts, budget));
  if (layout.npcs) level.npcs = r.within('npcs', () => readNpcs(r, ctx, texts, budget));
  if (layout.chests) level.chests = r.within('chests', () => readChests(r, ctx, budget));
  level.signs = r.within('signs', () => readSigns(r, ctx, budget));
  texts.finish();
  if (r.remaining > 0) {
    const heights = layout.heights ? r.within('heights', () => readHeights(r, ctx)) : undefined;
    if (heights) level.heights = heights;
    if (r.remaining > 0) ctx.warnings.warn('TRAILING_BYTES', `${r.remaining} bytes after the last section ignored`, r.offset);
  }
  level.warnings = ctx.warnings.list;
  return level;
}

function readLayers(r: ByteReader, ctx: Ctx, layout: BinaryLayout): GraalLayer[] {
  // GR-V1.05 stores the layer count as one byte + 32.
  const count = layout.layers ? r.count(r.u8() - 32, MAX_LAYERS, MIN_STREAM_BYTES, 'layers') : 1;
  if (count < 1) throw r.fail('CORRUPT', { expected: 'at least one layer', actual: count, at: r.pos - 1 });
  const layers: GraalLayer[] = [];
  for (let index = 0; index < count; index++) {
    const tiles = new Uint16Array(TILE_COUNT);
    const end = ctx.kernels.graalTileStream(r.bytes, r.pos, layout.codeBits, tiles);
    if (end < 0) throw kernelError('graal', end, { offset: r.offset, path: `${r.path}[${index}].tiles`, detail: 'tile stream' });
    // QUIRK: in overlay layers (GR-V1.05) tile 0xFFF means "no tile".
    if (index > 0) for (let i = 0; i < TILE_COUNT; i++) if (tiles[i] === 0xfff) tiles[i] = NO_TILE;
    layers.push({ index, tiles });
    r.pos = end;
  }
  return layers;
}

/** The bytes up to the next LF (the cursor moves past it); TRUNCATED when there is none. */
function line(r: ByteReader, what: string): Uint8Array {
  const end = r.bytes.indexOf(LF, r.pos);
  if (end < 0) throw r.fail('TRUNCATED', { expected: `${what} ending in a newline` });
  const out = r.bytes.subarray(r.pos, end);
  r.pos = end + 1;
  return out;
}

/** True (and consumes it) when the cursor is at a section end: an empty line or `#` + LF. */
function sectionEnd(r: ByteReader): boolean {
  r.need(1, 'section end');
  const b = r.bytes[r.pos];
  if (b === LF) {
    r.pos++;
    return true;
  }
  if (b === HASH && r.bytes[r.pos + 1] === LF) {
    r.pos += 2;
    return true;
  }
  return false;
}

function readLinks(r: ByteReader, ctx: Ctx, texts: FieldTexts, budget: ObjectBudget): GraalLink[] {
  const links: GraalLink[] = [];
  while (!sectionEnd(r)) {
    const at = r.offset;
    const bytes = line(r, 'link');
    const link = linkOf(bytes, 0, bytes.length, (start, end) => texts.of(bytes.subarray(start, end))) ?? parseLink(byteString(bytes), ctx.encoding);
    if (link) {
      budget.take(at, 'links', links.length);
      links.push(link);
    } else ctx.warnings.warn('BAD_LINK', `link line ${JSON.stringify(byteString(bytes))} skipped`, at, `links[${links.length}]`);
  }
  return links;
}

/**
 * parseLink's first reading (tokens split on single spaces) of bytes[start, end), the fields made
 * by `field` from their bounds: no string and no view per line. Undefined when that reading
 * fails; parseLink then tries both readings on the byte string, as before.
 */
export function linkOf(bytes: Uint8Array, start: number, end: number, field: (start: number, end: number) => Text): GraalLink | undefined {
  const starts = TOKEN_STARTS,
    ends = TOKEN_ENDS;
  for (let k = 5; k >= 0; k--) {
    const space = end > start ? bytes.lastIndexOf(SPACE, end - 1) : -1;
    if (space < start) return undefined;
    starts[k] = space + 1;
    ends[k] = end;
    end = space;
  }
  if (ends[5] === starts[5]) return undefined;
  const x = numAt(bytes, starts[0]!, ends[0]!),
    y = numAt(bytes, starts[1]!, ends[1]!),
    width = numAt(bytes, starts[2]!, ends[2]!),
    height = numAt(bytes, starts[3]!, ends[3]!);
  if (x === undefined || y === undefined || width === undefined || height === undefined) return undefined;
  return {
    level: field(start, end),
    x,
    y,
    width,
    height,
    destX: field(starts[4]!, ends[4]!),
    destY: field(starts[5]!, ends[5]!),
  };
}
// linkOf's token bounds, reused: one pair of arrays per line was garbage a 6 M-link file paid for.
const TOKEN_STARTS = new Int32Array(6),
  TOKEN_ENDS = new Int32Array(6);

/**
 * `level x y w h destX destY` from a byte string (text.ts); the level name may contain spaces
 * (all tokens but the last six). Text fields keep their stored bytes, decoded with `encoding`.
 */
export function parseLink(text: string, encoding: string): GraalLink | undefined {
  // Single spaces first (keeps a name's own spacing), then any run of whitespace.
  for (const candidate of [text, text.trim().replace(/\s+/g, ' ')]) {
    const parts = splitTrailing(candidate, 6);
    if (!parts || parts.tail[5] === '') continue;
    const [x, y, width, height] = parts.tail.slice(0, 4).map(num);
    if (x === undefined || y === undefined || width === undefined || height === undefined) continue;
    return {
      level: fieldText(parts.head, encoding),
      x,
      y,
      width,
      height,
      destX: fieldText(parts.tail[4]!, encoding),
      destY: fieldText(parts.tail[5]!, encoding),
    };
  }
  return undefined;
}

function readBaddies(r: ByteReader, layout: BinaryLayout, texts: FieldTexts, budget: ObjectBudget): GraalBaddy[] {
  const baddies: GraalBaddy[] = [];
  for (;;) {
    const next = `[${baddies.length}]`,
      at = r.offset;
    // Three raw bytes first: a coordinate equal to 0x0A must not split the record.
    r.within(next, () => r.need(3, 'baddy'));
    const [x, y, type] = [r.i8(), r.i8(), r.i8()];
    // Z3-V1.03's loader (the game's own) ends the list at a negative first byte, so only
    // FF FF FF can stand there; every version ends the mark with an empty line.
    if ((x === -1 && y === -1 && type === -1) || (x < 0 && !layout.verses)) {
      r.within(next, () => endOfLine(r, r.pos - 3, 'FF FF FF 0A (the end of the baddy list)', x === -1 && y === -1 && type === -1));
      return baddies;
    }
    // Z3-V1.03 stores no verses, but its records keep the verse line's LF: `x y type 0A`.
    // Checked, so that a list in another framing (3-byte records) fails instead of reading as
    // other baddies whenever the byte counts happen to meet.
    const verses = layout.verses ? splitVerses(line(r, 'baddy verses'), texts) : [];
    if (!layout.verses) r.within(next, () => endOfLine(r, r.pos - 3, 'x y type 0A (a Z3-V1.03 baddy)', true));
    budget.take(at, 'baddies', baddies.length);
    baddies.push({ x, y, type, verses });
  }
}

/** Consumes the LF that must follow a fixed-size record; CORRUPT (or TRUNCATED) at the record when it is not there. */
function endOfLine(r: ByteReader, recordAt: number, expected: string, valid: boolean): void {
  r.need(1, expected);
  if (!valid || r.bytes[r.pos] !== LF) {
    throw r.fail('CORRUPT', { at: recordAt, expected, actual: hex(r.bytes.subarray(recordAt, Math.min(r.pos + 1, r.length))) });
  }
  r.pos++;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
}

/** A verse line split on `\` (0x5C in every code page levelkit reads), each verse a view of its bytes. */
function splitVerses(bytes: Uint8Array, texts: FieldTexts): Text[] {
  const verses: Text[] = [];
  let start = 0;
  for (let i = bytes.indexOf(BACKSLASH); i >= 0; i = bytes.indexOf(BACKSLASH, start)) {
    verses.push(texts.of(bytes.subarray(start, i)));
    start = i + 1;
  }
  verses.push(texts.of(bytes.subarray(start)));
  return verses;
}

function readNpcs(r: ByteReader, ctx: Ctx, texts: FieldTexts, budget: ObjectBudget): GraalNpc[] {
  const npcs: GraalNpc[] = [];
  const images: Uint8Array[] = [];
  const first = r.pos;
  let last = first; // end of the last NPC line
  while (!sectionEnd(r)) {
    const at = r.offset;
    r.need(2, 'NPC position');
    // A line too short for its two position bytes would take the next record's bytes.
    if (r.bytes[r.pos + 1] === LF)
      throw r.fail('CORRUPT', { path: `${r.path}[${npcs.length}]`, expected: 'two position bytes before the line break', actual: 1 });
    const x = r.u8() - 32,
      y = r.u8() - 32;
    const rest = line(r, 'NPC');
    last = r.pos - 1;
    const hash = rest.indexOf(HASH);
    if (hash < 0) ctx.warnings.warn('NPC_NO_SCRIPT', 'NPC line without "#": read as an image name only', at, `npcs[${npcs.length}]`);
    const image = hash < 0 ? rest : rest.subarray(0, hash);
    images.push(image);
    const script = hash < 0 ? rest.subarray(rest.length) : rest.subarray(hash + 1);
    budget.take(at, 'npcs', npcs.length);
    npcs.push({ x, y, image: texts.of(image), script: texts.of(script) });
  }
  // Scripts write line breaks as 0xA7; the model's script (raw too) uses LF, as 0xA7 is only
  // the binary framing of one. Rewritten in the level's own copy by one kernel call over the
  // whole section (one trip into WASM per level, not one per NPC); the few other bytes it
  // touched go back: images (which hold no LF, lines end there, so an LF in one was an 0xA7).
  // The two position bytes of a line may change too; they were read already and no Text views them.
  if (npcs.length > 0 && ctx.kernels.replaceByte(r.bytes.subarray(first, last), NPC_NEWLINE, LF) > 0) {
    for (const image of images) for (let p = image.indexOf(LF); p >= 0; p = image.indexOf(LF, p + 1)) image[p] = NPC_NEWLINE;
  }
  return npcs;
}

function readChests(r: ByteReader, ctx: Ctx, budget: ObjectBudget): GraalChest[] {
  const chests: GraalChest[] = [];
  while (!sectionEnd(r)) {
    budget.take(r.offset, 'chests', chests.length);
    r.need(4, 'chest');
    const short = r.bytes.subarray(r.pos, r.pos + 4).indexOf(LF);
    if (short >= 0) throw r.fail('CORRUPT', { path: `${r.path}[${chests.length}]`, expected: 'four chest bytes before the line break', actual: short });
    const [x, y, item, sign] = [r.u8() - 32, r.u8() - 32, r.u8() - 32, r.u8() - 32];
    const extraAt = r.offset;
    const extra = line(r, 'chest');
    if (extra.length) ctx.warnings.warn('CHEST_EXTRA', `${extra.length} extra bytes after a chest ignored`, extraAt, `chests[${chests.length}]`);
    chests.push({ x, y, item: CHEST_ITEMS[item] ?? String(item), signIndex: sign });
  }
  return chests;
}

function readSigns(r: ByteReader, ctx: Ctx, budget: ObjectBudget): GraalSign[] {
  const signs: GraalSign[] = [];
  while (r.remaining > 0) {
    if (r.bytes[r.pos] === LF) {
      r.pos++;
      break;
    } // an empty line ends the signs (HEIGHTS may follow)
    if (r.remaining < 2 || r.bytes[r.pos + 1] === LF) throw r.fail('TRUNCATED', { expected: 'two sign coordinate bytes', path: `${r.path}[${signs.length}]` });
    budget.take(r.offset, 'signs', signs.length);
    const x = r.u8() - 32,
      y = r.u8() - 32;
    let end = r.bytes.indexOf(LF, r.pos);
    if (end < 0) {
      ctx.warnings.warn('NO_FINAL_NEWLINE', 'the last sign has no closing newline', r.offset, `signs[${signs.length}]`);
      end = r.length;
    }
    signs.push({ x, y, text: decodeSign(r.bytes.subarray(r.pos, end)) });
    r.pos = Math.min(end + 1, r.length);
  }
  return signs;
}

/** `HEIGHTS` LF, lines of comma-separated numbers, `HEIGHTSEND` LF; undefined (cursor kept) when absent. */
function readHeights(r: ByteReader, ctx: Ctx): number[] | undefined {
  const start = r.pos;
  const found = r.bytes.indexOf(LF, r.pos);
  const end = found < 0 ? r.length : found;
  // Length first: whatever trails the signs may be one huge line, not worth decoding.
  if (end - start !== HEIGHTS.length || ascii(r.bytes.subarray(start, end)) !== HEIGHTS) return undefined;
  r.pos = Math.min(end + 1, r.length); // a bare `HEIGHTS` at the end fails as TRUNCATED below
  const values: number[] = [];
  for (;;) {
    if (r.remaining === 0) throw r.fail('TRUNCATED', { expected: 'HEIGHTSEND', at: start });
    const at = r.offset;
    const text = ascii(line(r, 'heights')).trim();
    if (text === 'HEIGHTSEND') return values;
    if (!parseHeights(text, values)) ctx.warnings.warn('BAD_HEIGHTS', `heights line ${JSON.stringify(text)} ignored`, at);
  }
}

/** Appends the comma-separated numbers of one HEIGHTS line; false when one is not a number. */
export function parseHeights(text: string, into: number[]): boolean {
  const vals = text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map(num);
  if (vals.some((v) => v === undefined)) return false;
  into.push(...(vals as number[]));
  return true;
}
