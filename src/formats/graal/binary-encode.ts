// Writes a Graal level as a binary .graal: GR-V1.03 by default, GR-V1.04 when it has heights,
// GR-V1.05 when it has overlay layers, or any version of the table on request. The whole level is
// checked first (encode-check.ts): what the version cannot hold is refused, never dropped. Tiles
// go through a run-length encoder (single runs, and double runs where they save codes). See README.md.
import { concatBytes } from '../../core/bytes.js';
import type { FormatId } from '../../core/errors.js';
import { Checker } from './encode-check.js';
import { join } from './gmap.js';
import { BINARY_LAYOUTS, type BinaryLayout, CHEST_ITEMS, NO_TILE, TILE_COUNT } from './level.js';
import { decodeSign, encodeSign, unencodableSignChar } from './signs.js';
import { LF, num, numText, stringBytes } from './text.js';
import type { GraalLayer, GraalLevel } from './types.js';

/** Longest run the original editor wrote (a run code could say 255; 64 keeps files familiar). */
export const MAX_RUN = 64;
/** Most layers GR-V1.05 can count (one byte holding count + 32). */
export const MAX_BINARY_LAYERS = 223;

const HASH = 0x23,
  SPACE = 0x20,
  BACKSLASH = 0x5c,
  NPC_NEWLINE = 0xa7;

export interface BinaryEncodeOptions {
  /** Header to write (`Z3-V1.03` … `GR-V1.05`); RangeError for any other. */
  version?: string;
}

/** The header encodeBinary() picks for `level` when none is requested. */
export function binaryVersionFor(level: GraalLevel): string {
  if (level.layers.some((l) => l.index !== 0)) return 'GR-V1.05';
  return level.heights ? 'GR-V1.04' : 'GR-V1.03';
}

/** The layout of a requested header; RangeError naming the allowed ones (an option, not the model). */
export function binaryLayout(version: unknown): BinaryLayout {
  const layout = typeof version === 'string' && Object.hasOwn(BINARY_LAYOUTS, version) ? BINARY_LAYOUTS[version] : undefined;
  if (!layout) throw new RangeError(`levelkit graal: version must be one of ${Object.keys(BINARY_LAYOUTS).join(', ')} (got ${JSON.stringify(version)})`);
  return layout;
}

/** The format id encode errors name: the value's own, when it is a Graal level id. */
export function errorFormat(level: { format?: unknown }, fallback: FormatId): FormatId {
  return level?.format === 'graal' || level?.format === 'graal-nw' ? level.format : fallback;
}

/**
 * Encodes `level` as a binary level. RangeError for an unknown `opts.version`; EncodeError (with
 * the model path) for anything the version cannot hold so that it reads back the same: see
 * README.md § Encoders for the list.
 */
export function encodeBinary(level: GraalLevel, opts: BinaryEncodeOptions = {}): Uint8Array {
  const c = new Checker(errorFormat(level, 'graal'));
  c.object(level, 'level');
  c.wholeLevel(level);
  c.array(level.layers, 'layers').forEach((l, i) => {
    c.object(l, `layers[${i}]`);
  }); // binaryVersionFor reads them
  const version = opts.version ?? binaryVersionFor(level);
  const layout = binaryLayout(version);
  c.encoding(level.encoding, 'encoding');
  const lines: Uint8Array[] = [];
  const head: number[] = Array.from(version, (ch) => ch.charCodeAt(0));

  // Fields a binary level has no place for: refused rather than dropped.
  c.array(level.unknownLines, 'unknownLines');
  if (level.unknownLines.length) c.fail('LIMIT_EXCEEDED', 'unknownLines', 'none (binary levels have no unknown lines)', level.unknownLines.length);
  if (level.tileset !== undefined) c.fail('BAD_VALUE', 'tileset', 'undefined (binary levels have no TILESET)', level.tileset?.text);
  if (level.tilesetImage !== undefined) c.fail('BAD_VALUE', 'tilesetImage', 'undefined (binary levels have no TILESETIMAGE)', level.tilesetImage?.text);

  // A +32 byte: v in −32..223. NPC, chest and sign records are newline-framed and begin with x, y:
  // −22 is byte 0x0A, read as an empty line ending the section (or `#` + LF with x = 3), so no file can hold it.
  const gchar = (v: number, path: string) => c.int(v, -32, 223, path) + 32;
  const recordCoord = (v: number, path: string) => {
    const b = gchar(v, path);
    if (b === LF) c.fail('OUT_OF_RANGE', path, '−32..223 except −22 (byte 0x0A ends the record)', v);
    return b;
  };

  const layers = checkLayers(c, level.layers, layout);
  if (layout.layers) {
    if (layers.length > MAX_BINARY_LAYERS) c.fail('LIMIT_EXCEEDED', 'layers', `≤ ${MAX_BINARY_LAYERS} layers`, layers.length);
    head.push(layers.length + 32);
  }
  const streams = layers.map((layer, i) => encodeTileStream(layer.tiles, layout.codeBits, layer.index > 0, c, `layers[${i}].tiles`));

  c.array(level.links, 'links').forEach((l, i) => {
    const p = `links[${i}]`;
    c.object(l, p);
    // Read back as: the last six space-separated words are the numbers and destinations, the
    // rest the name (spaces kept); a link whose destY is empty is skipped on reading.
    const name = c.without(c.text(l.level, `${p}.level`), [LF], `${p}.level`, 'a name without a line break');
    const nums = (['x', 'y', 'width', 'height'] as const).map((k) => numText(c.finite(l[k], `${p}.${k}`)));
    const destX = c.without(c.text(l.destX, `${p}.destX`), [LF, SPACE], `${p}.destX`, 'one word (no space or line break)');
    const destY = c.without(c.text(l.destY, `${p}.destY`), [LF, SPACE], `${p}.destY`, 'one word (no space or line break)');
    if (destY.length === 0) c.fail('BAD_VALUE', `${p}.destY`, 'not empty (a link without destY is skipped on reading)', '');
    lines.push(Uint8Array.from([...name, ...stringBytes(` ${nums.join(' ')} `), ...destX, SPACE, ...destY]));
  });
  lines.push(Uint8Array.of(HASH));

  // Baddies are three raw signed bytes and a verse line (Z3-V1.03: always empty, so `x y type 0A`);
  // FF FF FF + an empty line ends the list.
  const baddies: number[] = [];
  c.array(level.baddies, 'baddies').forEach((b, i) => {
    const p = `baddies[${i}]`;
    c.object(b, p);
    const bytes = [c.int(b.x, -128, 127, `${p}.x`), c.int(b.y, -128, 127, `${p}.y`), c.int(b.type, -128, 127, `${p}.type`)].map((v) => v & 0xff);
    if (bytes.every((v) => v === 0xff)) c.fail('BAD_VALUE', p, 'not −1, −1 of type −1 (FF FF FF ends the baddy list)', '-1, -1, -1');
    // Z3-V1.03's own loader ends the list at the first negative x.
    if (!layout.verses && b.x < 0) c.fail('OUT_OF_RANGE', `${p}.x`, `0..127 (${version} ends the baddy list at a negative x)`, b.x);
    baddies.push(...bytes);
    const verses = c.array(b.verses, `${p}.verses`);
    if (!layout.verses) {
      if (verses.length) c.fail('LIMIT_EXCEEDED', `${p}.verses`, `none (${version} stores no verses)`, verses.length);
    } else {
      // One line split on `\`: zero verses cannot be written (an empty line reads as one).
      if (verses.length === 0) c.fail('BAD_LENGTH', `${p}.verses`, `≥ 1 verse (${version} stores a verse line)`, 0);
      verses.forEach((v, k) => {
        const vp = `${p}.verses[${k}]`;
        if (k > 0) baddies.push(BACKSLASH);
        baddies.push(...c.without(c.text(v, vp), [LF, BACKSLASH], vp, 'a verse without a line break or `\\` (it separates verses)'));
      });
    }
    baddies.push(LF);
  });
  baddies.push(0xff, 0xff, 0xff);
  lines.push(Uint8Array.from(baddies));

  const npcs = c.array(level.npcs, 'npcs');
  if (!layout.npcs && npcs.length) c.fail('LIMIT_EXCEEDED', 'npcs', `none (${version} stores no NPCs)`, npcs.length);
  if (layout.npcs) {
    npcs.forEach((n, i) => {
      const p = `npcs[${i}]`;
      c.object(n, p);
      const image = c.without(c.text(n.image, `${p}.image`), [LF, HASH], `${p}.image`, 'an image name without `#` or a line break (`#` starts the script)');
      // Line breaks are written as 0xA7 ('§'), so a 0xA7 of its own would read back as one.
      const script = c.without(
        c.text(n.script, `${p}.script`),
        [NPC_NEWLINE],
        `${p}.script`,
        'a script without byte 0xA7 (§), which binary scripts use for a line break',
      );
      lines.push(Uint8Array.from([recordCoord(n.x, `${p}.x`), recordCoord(n.y, `${p}.y`), ...image, HASH, ...script.map((b) => (b === LF ? NPC_NEWLINE : b))]));
    });
    lines.push(Uint8Array.of(HASH));
  }

  const chests = c.array(level.chests, 'chests');
  if (!layout.chests && chests.length) c.fail('LIMIT_EXCEEDED', 'chests', `none (${version} stores no chests)`, chests.length);
  if (layout.chests) {
    chests.forEach((ch, i) => {
      const p = `chests[${i}]`;
      c.object(ch, p);
      lines.push(
        Uint8Array.of(
          recordCoord(ch.x, `${p}.x`),
          recordCoord(ch.y, `${p}.y`),
          gchar(chestItemIndex(c, ch.item, `${p}.item`), `${p}.item`),
          gchar(ch.signIndex, `${p}.signIndex`),
        ),
      );
    });
    lines.push(Uint8Array.of(HASH));
  }

  c.array(level.signs, 'signs').forEach((s, i) => {
    const p = `signs[${i}]`;
    c.object(s, p);
    lines.push(Uint8Array.from([recordCoord(s.x, `${p}.x`), recordCoord(s.y, `${p}.y`), ...signBytes(c, s.text, `${p}.text`)]));
  });

  if (level.heights !== undefined) {
    c.array(level.heights, 'heights');
    if (!layout.heights) c.fail('LIMIT_EXCEEDED', 'heights', `none (${version} stores no HEIGHTS)`, level.heights.length);
    const heights = level.heights.map((h, i) => numText(c.finite(h, `heights[${i}]`)));
    lines.push(new Uint8Array(0)); // an empty line ends the signs
    lines.push(stringBytes('HEIGHTS'));
    for (let i = 0; i < heights.length; i += 9) lines.push(stringBytes(heights.slice(i, i + 9).join(',')));
    lines.push(stringBytes('HEIGHTSEND'));
  }
  return concatBytes([Uint8Array.from(head), ...streams, join(lines, Uint8Array.of(LF))]);
}

/** The layers a version writes, checked: indices 0, 1, … in order (binary layers are positional). */
function checkLayers(c: Checker, layers: readonly GraalLayer[], layout: BinaryLayout): readonly GraalLayer[] {
  c.array(layers, 'layers');
  if (layers.length === 0) c.fail('BAD_LENGTH', 'layers', '≥ 1 layer (layer 0 always exists)', 0);
  layers.forEach((l, i) => {
    c.object(l, `layers[${i}]`);
    if (!Object.is(l.index, i)) c.fail('BAD_VALUE', `layers[${i}].index`, `${i} (binary layers are numbered by position)`, l.index);
    checkTiles(c, l.tiles, `layers[${i}].tiles`);
  });
  if (!layout.layers && layers.length > 1) c.fail('LIMIT_EXCEEDED', 'layers', '1 layer (only GR-V1.05 stores overlay layers)', layers.length);
  return layers;
}

/** A Uint16Array of exactly 4,096 tiles. */
export function checkTiles(c: Checker, tiles: Uint16Array, path: string): Uint16Array {
  if (!(tiles instanceof Uint16Array)) c.fail('BAD_VALUE', path, 'a Uint16Array', tiles);
  if (tiles.length !== TILE_COUNT) c.fail('BAD_LENGTH', path, `${TILE_COUNT} tiles (64 × 64)`, tiles.length);
  return tiles;
}

/** The item byte of a chest: a known name's index, or a number the decoder keeps as its decimal text. */
function chestItemIndex(c: Checker, item: string, path: string): number {
  c.string(item, path);
  const index = CHEST_ITEMS.indexOf(item);
  if (index >= 0) return index;
  const n = num(item);
  // The decoder names indices 0..24 and writes others as String(n): only that spelling reads back.
  if (n === undefined || !Number.isInteger(n) || String(n) !== item || (n >= 0 && n < CHEST_ITEMS.length)) {
    c.fail('BAD_VALUE', path, `one of ${CHEST_ITEMS.length} item names, or an integer outside 0..${CHEST_ITEMS.length - 1} written plainly`, item);
  }
  return n;
}

/** Sign glyph bytes that decode to exactly `text` (UNENCODABLE_TEXT for a character the font lacks). */
export function signBytes(c: Checker, text: string, path: string): Uint8Array {
  c.string(text, path);
  const missing = unencodableSignChar(text);
  if (missing !== undefined) c.fail('UNENCODABLE_TEXT', path, 'characters of the sign font (or its # escapes)', missing);
  const bytes = encodeSign(text);
  if (decodeSign(bytes) !== text)
    c.fail('BAD_VALUE', path, 'sign text that reads back the same (a raw glyph U+E00A, or raw codes that read back as an escape)', text);
  return bytes;
}

/**
 * Run-length encodes 4,096 tiles as LSB-first codes of `codeBits` bits. Greedy: a run of ≥ 2
 * equal tiles becomes a single run (2 codes); else ≥ 2 repeats of a pair become a double run
 * (3 codes for ≥ 4 tiles); else a literal. `overlay` maps NO_TILE to 0xFFF. Tile ids the code
 * width cannot hold are EncodeError OUT_OF_RANGE (path `tiles` unless given).
 */
export function encodeTileStream(tiles: Uint16Array, codeBits: 12 | 13, overlay: boolean, checker?: Checker, path = 'tiles'): Uint8Array {
  const c = checker ?? new Checker('graal');
  checkTiles(c, tiles, path);
  const flag = 1 << (codeBits - 1);
  // QUIRK (GR-V1.05): 0xFFF is "no tile" in overlays, so a real tile 4095 there cannot be written.
  const max = overlay ? Math.min(flag, 0xfff) - 1 : flag - 1;
  // Locals: the imported bindings are slower to read in these loops.
  const count = TILE_COUNT,
    maxRun = MAX_RUN,
    none = overlay ? NO_TILE : -1;
  for (let i = 0; i < count; i++) {
    const t = tiles[i]!;
    if (t > max && t !== none) c.fail('OUT_OF_RANGE', `${path}[${i}]`, `0..${max}${overlay ? ' or NO_TILE' : ''} (${codeBits}-bit codes)`, t);
  }
  const codes: number[] = [];
  const tile = (i: number) => (tiles[i] === none ? 0xfff : tiles[i]!);
  for (let i = 0; i < count; ) {
    const a = tile(i);
    let single = 1;
    while (single < maxRun && i + single < count && tile(i + single) === a) single++;
    // QUIRK: like the original editor, no run starts in the last three tiles (they are literals).
    if (single >= 2 && i + 3 < count) {
      codes.push(flag | single, a);
      i += single;
      continue;
    }
    if (i + 3 < count) {
      const b = tile(i + 1);
      let pairs = 1;
      while (pairs < maxRun && i + 2 * pairs + 1 < count && tile(i + 2 * pairs) === a && tile(i + 2 * pairs + 1) === b) pairs++;
      if (pairs >= 2) {
        codes.push(flag | 0x100 | pairs, a, b);
        i += 2 * pairs;
        continue;
      }
    }
    codes.push(a);
    i++;
  }
  return packCodes(codes, codeBits);
}

/** Packs codes of `codeBits` bits LSB-first (the tile-stream bit order); the last byte is zero-padded. */
export function packCodes(codes: readonly number[], codeBits: number): Uint8Array {
  const out = new Uint8Array(Math.ceil((codes.length * codeBits) / 8));
  let acc = 0,
    have = 0,
    p = 0;
  for (const c of codes) {
    acc |= c << have;
    have += codeBits;
    while (have >= 8) {
      out[p++] = acc & 0xff;
      acc >>>= 8;
      have -= 8;
    }
  }
  if (have > 0) out[p] = acc & 0xff;
  return out;
}
