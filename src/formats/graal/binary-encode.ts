// Writes a Graal level as a binary .graal: GR-V1.03 by default, GR-V1.04 when it has heights,
// GR-V1.05 when it has overlay layers, or any version of the table on request. Tiles go through
// a run-length encoder (single runs, and double runs where they save codes). See README.md.
import { BINARY_LAYOUTS, CHEST_ITEMS, NO_TILE, TILE_COUNT } from './level.js';
import { encodeSign } from './signs.js';
import { textBytes } from './text.js';
import type { GraalLevel } from './types.js';

/** Longest run the original editor wrote (a run code could say 255; 64 keeps files familiar). */
export const MAX_RUN = 64;

export interface BinaryEncodeOptions {
  /** Header to write (`Z3-V1.03` … `GR-V1.05`); sections that version lacks are left out. */
  version?: string;
}

/** The header encodeBinary() picks for `level` when none is requested. */
export function binaryVersionFor(level: GraalLevel): string {
  if (level.layers.some((l) => l.index !== 0)) return 'GR-V1.05';
  return level.heights ? 'GR-V1.04' : 'GR-V1.03';
}

/**
 * Encodes `level` as a binary level. Throws RangeError for an unknown version, a tile id the
 * code width cannot hold (≥ 2048 in 12-bit versions), a value outside −32..223 where a byte
 * holds value + 32, an NPC, chest or sign x or y of −22 (see `recordCoord`), or a baddy value
 * outside −128..127 or at −1, −1 of type −1 (the list's end mark), a chest item that is
 * neither a known name nor a number, and text the records cannot frame (see `framed`).
 */
export function encodeBinary(level: GraalLevel, opts: BinaryEncodeOptions = {}): Uint8Array {
  const version = opts.version ?? binaryVersionFor(level);
  const layout = BINARY_LAYOUTS[version];
  if (!layout) throw new RangeError(`levelkit graal: unknown binary version ${version}`);
  const out: number[] = [...textBytes(version)];
  const push = (b: Uint8Array | number[]) => { for (const v of b) out.push(v); };
  const line = (b: Uint8Array | number[]) => { push(b); out.push(0x0a); };
  const gchar = (v: number, what: string) => {
    const b = Math.round(v) + 32;
    if (b < 0 || b > 255) throw new RangeError(`levelkit graal: ${what} ${v} does not fit a +32 byte`);
    return b;
  };
  // NPC, chest and sign records are newline-framed and begin with x, y: a coordinate of −22 is
  // byte 0x0A, which the decoder (and the game) reads as an empty line ending the section, or as
  // `#` + LF (x = 3), or as a sign cut short. No file can hold it, so refuse it here rather than
  // write a level that reads back truncated or different.
  const recordCoord = (v: number, what: string) => {
    const b = gchar(v, what);
    if (b === 0x0a) throw new RangeError(`levelkit graal: ${what} ${v} would be written as a newline byte (0x0A), which ends the record`);
    return b;
  };

  // Links, verses and NPCs are lines with separators of their own: text holding a line break or
  // its record's separator would read back as other records (or cut them), so it is refused.
  const framed = (text: string, what: string, forbidden: readonly string[]) => {
    const bad = forbidden.find((c) => text.includes(c));
    if (bad !== undefined) throw new RangeError(`levelkit graal: ${what} ${JSON.stringify(text)} holds ${JSON.stringify(bad)}, which a binary level cannot frame there`);
    return textBytes(text);
  };

  const layers = [...level.layers].sort((a, b) => a.index - b.index);
  const written = layout.layers ? layers : layers.filter((l) => l.index === 0);
  if (layout.layers) out.push(gchar(written.length, 'layer count'));
  for (const layer of written) push(encodeTileStream(layer.tiles, layout.codeBits, layer.index > 0));

  for (const l of level.links) {
    // The last six words split at single spaces are the numbers and destinations (the name keeps
    // its spaces); a link whose destY is empty or whose numbers do not parse is skipped on reading.
    framed(l.destX, 'link destX', ['\n', ' ']);
    framed(l.destY, 'link destY', ['\n', ' ']);
    if (l.destY === '') throw new RangeError('levelkit graal: link destY is empty');
    for (const [v, what] of [[l.x, 'x'], [l.y, 'y'], [l.width, 'width'], [l.height, 'height']] as const) {
      if (!Number.isFinite(v)) throw new RangeError(`levelkit graal: link ${what} ${v} is not a finite number`);
    }
    framed(l.level, 'link level', ['\n']);
    line(textBytes(`${l.level} ${l.x} ${l.y} ${l.width} ${l.height} ${l.destX} ${l.destY}`));
  }
  line([0x23]);
  // Baddies are three raw signed bytes; FF FF FF is the end of the list, and a value outside
  // −128..127 would wrap: either way the level would read back different.
  const sbyte = (v: number, what: string) => {
    if (!(v >= -128 && v <= 127)) throw new RangeError(`levelkit graal: ${what} ${v} does not fit a signed byte`);
    return v & 0xff;
  };
  for (const b of level.baddies) {
    const bytes = [sbyte(b.x, 'baddy x'), sbyte(b.y, 'baddy y'), sbyte(b.type, 'baddy type')];
    if (bytes.every((v) => v === 0xff)) throw new RangeError('levelkit graal: a baddy at -1, -1 of type -1 would be read as the end of the baddy list');
    push(bytes);
    if (layout.verses) {
      if (b.verses.some((v) => v.includes('\\'))) throw new RangeError('levelkit graal: a baddy verse holds "\\", which separates verses');
      line(framed(b.verses.join('\\'), 'baddy verses', ['\n']));
    }
  }
  line([0xff, 0xff, 0xff]);
  if (layout.npcs) {
    for (const n of level.npcs) {
      // Script line breaks are written as '§' (0xA7), so a '§' of its own would read back as one.
      const script = framed(n.script, 'NPC script', ['§']).map((c) => (c === 0x0a ? 0xa7 : c));
      line([recordCoord(n.x, 'NPC x'), recordCoord(n.y, 'NPC y'), ...framed(n.image, 'NPC image', ['\n', '#']), 0x23, ...script]);
    }
    line([0x23]);
  }
  if (layout.chests) {
    for (const c of level.chests) {
      const index = CHEST_ITEMS.indexOf(c.item);
      // Decoding names the known items and keeps other values as their number.
      const item = index >= 0 ? index : /^-?\d+$/.test(c.item) ? Number(c.item) : Number.NaN;
      if (Number.isNaN(item)) throw new RangeError(`levelkit graal: chest item ${JSON.stringify(c.item)} is neither a known item nor a number`);
      line([recordCoord(c.x, 'chest x'), recordCoord(c.y, 'chest y'), gchar(item, 'chest item'), gchar(c.signIndex, 'chest sign index')]);
    }
    line([0x23]);
  }
  for (const s of level.signs) line([recordCoord(s.x, 'sign x'), recordCoord(s.y, 'sign y'), ...encodeSign(s.text)]);
  if (layout.heights && level.heights) {
    out.push(0x0a); // an empty line ends the signs
    line(textBytes('HEIGHTS'));
    for (let i = 0; i < level.heights.length; i += 9) line(textBytes(level.heights.slice(i, i + 9).join(',')));
    line(textBytes('HEIGHTSEND'));
  }
  return Uint8Array.from(out);
}

/**
 * Run-length encodes 4,096 tiles as LSB-first codes of `codeBits` bits. Greedy: a run of ≥ 2
 * equal tiles becomes a single run (2 codes); else ≥ 2 repeats of a pair become a double run
 * (3 codes for ≥ 4 tiles); else a literal. `overlay` maps NO_TILE to 0xFFF.
 */
export function encodeTileStream(tiles: Uint16Array, codeBits: 12 | 13, overlay: boolean): Uint8Array {
  const flag = 1 << (codeBits - 1);
  const codes: number[] = [];
  const tile = (i: number) => {
    const t = tiles[i]!;
    const v = overlay && t === NO_TILE ? 0xfff : t;
    if (v >= flag) throw new RangeError(`levelkit graal: tile ${t} at ${i} needs more than ${codeBits - 1} bits`);
    return v;
  };
  for (let i = 0; i < TILE_COUNT;) {
    const a = tile(i);
    let single = 1;
    while (single < MAX_RUN && i + single < TILE_COUNT && tile(i + single) === a) single++;
    // QUIRK: like the original editor, no run starts in the last three tiles (they are literals).
    if (single >= 2 && i + 3 < TILE_COUNT) {
      codes.push(flag | single, a);
      i += single;
      continue;
    }
    if (i + 3 < TILE_COUNT) {
      const b = tile(i + 1);
      let pairs = 1;
      while (pairs < MAX_RUN && i + 2 * pairs + 1 < TILE_COUNT && tile(i + 2 * pairs) === a && tile(i + 2 * pairs + 1) === b) pairs++;
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
  let acc = 0, have = 0, p = 0;
  for (const c of codes) {
    acc |= c << have;
    have += codeBits;
    while (have >= 8) { out[p++] = acc & 0xff; acc >>>= 8; have -= 8; }
  }
  if (have > 0) out[p] = acc & 0xff;
  return out;
}
