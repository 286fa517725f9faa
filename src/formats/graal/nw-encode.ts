// Writes a Graal level as .nw text (GLEVNW01). The output is a fixed function of the level, so
// a file levelkit wrote decodes and re-encodes byte for byte. Every field is checked against the
// line grammar first: text that would end its block early, start a new record or lose a CR is
// refused (.nw has no escapes). See README.md § ".nw levels" and § Encoders.

import { concatBytes } from '../../core/bytes.js';
import { checkTiles, errorFormat } from './binary-encode.js';
import { Checker } from './encode-check.js';
import { join } from './gmap.js';
import { CHEST_ITEMS, LEVEL_SIZE, NO_TILE, NW_MAGIC } from './level.js';
import { decodeNw, MAX_NW_LAYER } from './nw.js';
import { byteString, LF, num, numText, stringBytes } from './text.js';
import type { GraalLevel } from './types.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
// The two letters of every tile id, so a row is 64 table look-ups.
const PAIR_BYTES = new Uint8Array(8192);
for (let t = 0; t < 4096; t++) {
  PAIR_BYTES[2 * t] = ALPHABET.charCodeAt(t >> 6);
  PAIR_BYTES[2 * t + 1] = ALPHABET.charCodeAt(t & 63);
}
const SPACE = 0x20;

/**
 * Encodes `level` as .nw. Layer 0 is written as 64 full rows; overlay layers as partial rows
 * covering only their non-empty (≠ NO_TILE) cells. Sections follow in a fixed order, unknown
 * lines last. EncodeError (with the model path) for what would not read back the same.
 */
export function encodeNw(level: GraalLevel): Uint8Array {
  const c = new Checker(errorFormat(level, 'graal-nw'));
  c.object(level, 'level');
  c.wholeLevel(level);
  if (level.format === 'graal-nw' && level.version !== NW_MAGIC) c.fail('BAD_VALUE', 'version', NW_MAGIC, level.version);
  if (level.lineEnding !== '\n' && level.lineEnding !== '\r\n') c.fail('BAD_VALUE', 'lineEnding', '"\\n" or "\\r\\n"', level.lineEnding);
  const crlf = level.lineEnding === '\r\n';
  const encoding = c.encoding(level.encoding, 'encoding');
  const lines: Uint8Array[] = [stringBytes(NW_MAGIC)];
  const words = (...parts: (string | Uint8Array)[]) =>
    concatBytes(parts.flatMap((p, i) => [...(i ? [Uint8Array.of(SPACE)] : []), typeof p === 'string' ? stringBytes(p) : p]));
  const number = (v: number, path: string) => numText(c.finite(v, path));
  // Keyword lines lose one trailing CR on reading; block lines only in CRLF files.
  const endOfLine = (bytes: Uint8Array, path: string) => c.line(bytes, path, true);
  const blockLine = (bytes: Uint8Array, path: string, end: string) => {
    c.line(bytes, path, crlf);
    if (byteString(bytes).trim() === end) c.fail('BAD_VALUE', path, `a line other than ${end} (it would end the block; .nw has no escape)`, end);
    return bytes;
  };
  const blockLines = (bytes: Uint8Array, path: string, end: string) => {
    const out: Uint8Array[] = [];
    let start = 0;
    for (let i = 0; i <= bytes.length; i++)
      if (i === bytes.length || bytes[i] === LF) {
        out.push(blockLine(bytes.subarray(start, i), path, end));
        start = i + 1;
      }
    return out;
  };

  if (level.tileset !== undefined) lines.push(words('TILESET', endOfLine(c.text(level.tileset, 'tileset'), 'tileset')));
  if (level.tilesetImage !== undefined) lines.push(words('TILESETIMAGE', endOfLine(c.text(level.tilesetImage, 'tilesetImage'), 'tilesetImage')));

  const layers = c.array(level.layers, 'layers');
  // The reader always has layer 0 and sorts layers by index; an overlay with no tile writes no row.
  layers.forEach((layer, i) => {
    const p = `layers[${i}]`;
    c.object(layer, p);
    c.int(layer.index, i === 0 ? 0 : 1, i === 0 ? 0 : MAX_NW_LAYER, `${p}.index`);
    if (i > 0 && layer.index <= layers[i - 1]!.index) c.fail('BAD_VALUE', `${p}.index`, `> ${layers[i - 1]!.index} (layers in index order)`, layer.index);
    const t = checkTiles(c, layer.tiles, `${p}.tiles`);
    let any = false;
    const none = i === 0 ? -1 : NO_TILE;
    for (let k = 0; k < t.length; k++) {
      if (t[k]! <= 0xfff) any = true;
      else if (t[k] !== none) c.fail('OUT_OF_RANGE', `${p}.tiles[${k}]`, i === 0 ? '0..4095' : '0..4095 or NO_TILE', t[k]);
    }
    if (i > 0 && !any) c.fail('BAD_VALUE', p, 'an overlay layer with a tile (.nw writes no row for an empty one)', 'only NO_TILE');
  });
  if (layers.length === 0) c.fail('BAD_LENGTH', 'layers', '≥ 1 layer (layer 0 always exists)', 0);
  const size = LEVEL_SIZE; // locals: the imported bindings are slower to read in this loop
  for (const layer of layers) {
    const t = layer.tiles;
    const none = layer.index === 0 ? -1 : NO_TILE; // layer 0 has no empty cell
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; ) {
        if (t[y * size + x] === none) {
          x++;
          continue;
        }
        let end = x;
        while (end < size && t[y * size + end] !== none) end++;
        const head = stringBytes(`BOARD ${x} ${y} ${end - x} ${layer.index} `);
        const row = new Uint8Array(head.length + 2 * (end - x));
        row.set(head);
        for (let k = x, p = head.length; k < end; k++, p += 2) {
          const id = t[y * size + k]!;
          row[p] = PAIR_BYTES[2 * id]!;
          row[p + 1] = PAIR_BYTES[2 * id + 1]!;
        }
        lines.push(row);
        x = end;
      }
    }
  }

  c.array(level.links, 'links').forEach((l, i) => {
    const p = `links[${i}]`;
    c.object(l, p);
    const name = c.line(c.text(l.level, `${p}.level`), `${p}.level`, false);
    const nums = (['x', 'y', 'width', 'height'] as const).map((k) => number(l[k], `${p}.${k}`));
    const destX = c.without(c.text(l.destX, `${p}.destX`), [LF, SPACE], `${p}.destX`, 'one word (no space or line break)');
    const destY = endOfLine(c.without(c.text(l.destY, `${p}.destY`), [LF, SPACE], `${p}.destY`, 'one word (no space or line break)'), `${p}.destY`);
    if (destY.length === 0) c.fail('BAD_VALUE', `${p}.destY`, 'not empty (a LINK without destY is not a link)', '');
    lines.push(words('LINK', name, ...nums, destX, destY));
  });
  c.array(level.signs, 'signs').forEach((s, i) => {
    const p = `signs[${i}]`;
    c.object(s, p);
    lines.push(words('SIGN', number(s.x, `${p}.x`), number(s.y, `${p}.y`)));
    // One line at a time: a spread of a 400 KB script's lines overflows the call stack.
    for (const line of blockLines(c.pageBytes(s.text, encoding, `${p}.text`), `${p}.text`, 'SIGNEND')) lines.push(line);
    lines.push(stringBytes('SIGNEND'));
  });
  c.array(level.npcs, 'npcs').forEach((n, i) => {
    const p = `npcs[${i}]`;
    c.object(n, p);
    const image = c.line(c.text(n.image, `${p}.image`), `${p}.image`, false);
    // `-` is how .nw spells "no image"; an image really named `-` would read back as none.
    if (image.length === 1 && image[0] === 0x2d) c.fail('BAD_VALUE', `${p}.image`, 'not "-" (.nw writes "-" for no image)', '-');
    lines.push(words('NPC', image.length ? image : '-', number(n.x, `${p}.x`), number(n.y, `${p}.y`)));
    for (const line of blockLines(c.text(n.script, `${p}.script`), `${p}.script`, 'NPCEND')) lines.push(line);
    lines.push(stringBytes('NPCEND'));
  });
  c.array(level.chests, 'chests').forEach((ch, i) => {
    const p = `chests[${i}]`;
    c.object(ch, p);
    const item = c.string(ch.item, `${p}.item`);
    const n = num(item);
    // One token; an integer that indexes CHEST_ITEMS reads back as that item's name.
    if (!/^\S+$/.test(item) || (n !== undefined && Number.isInteger(n) && n >= 0 && n < CHEST_ITEMS.length && CHEST_ITEMS[n] !== item)) {
      c.fail('BAD_VALUE', `${p}.item`, 'one word that is not the number of a known item', item);
    }
    lines.push(
      words('CHEST', number(ch.x, `${p}.x`), number(ch.y, `${p}.y`), c.pageBytes(item, encoding, `${p}.item`), number(ch.signIndex, `${p}.signIndex`)),
    );
  });
  c.array(level.baddies, 'baddies').forEach((b, i) => {
    const p = `baddies[${i}]`;
    c.object(b, p);
    lines.push(words('BADDY', number(b.x, `${p}.x`), number(b.y, `${p}.y`), number(b.type, `${p}.type`)));
    c.array(b.verses, `${p}.verses`).forEach((v, k) => {
      lines.push(blockLine(c.text(v, `${p}.verses[${k}]`), `${p}.verses[${k}]`, 'BADDYEND'));
    });
    lines.push(stringBytes('BADDYEND'));
  });
  if (level.heights !== undefined) {
    const heights = c.array(level.heights, 'heights').map((h, i) => number(h, `heights[${i}]`));
    lines.push(stringBytes('HEIGHTS'));
    for (let i = 0; i < heights.length; i += 9) lines.push(stringBytes(heights.slice(i, i + 9).join(',')));
    lines.push(stringBytes('HEIGHTSEND'));
  }
  const eol = stringBytes(level.lineEnding);
  c.array(level.unknownLines, 'unknownLines').forEach((u, i) => {
    lines.push(unknownLine(c, c.text(u, `unknownLines[${i}]`), `unknownLines[${i}]`, eol, encoding));
  });
  return join(lines, eol);
}

/**
 * An unknown line is written only when the reader keeps it as one: read alone, it must give that
 * one unknown line and nothing else (not a BOARD, LINK, SIGN… record, not blank, no lost CR).
 */
function unknownLine(c: Checker, bytes: Uint8Array, path: string, eol: Uint8Array, encoding: string): Uint8Array {
  c.line(bytes, path, eol.length === 2);
  const alone = decodeNw(concatBytes([stringBytes(NW_MAGIC), eol, bytes, eol]), { encoding });
  const base = alone.layers.length === 1 && alone.layers[0]!.tiles.every((t) => t === 0);
  const kept =
    alone.unknownLines.length === 1 && alone.unknownLines[0]!.raw.length === bytes.length && alone.unknownLines[0]!.raw.every((b, i) => b === bytes[i]);
  const nothingElse =
    base &&
    !alone.links.length &&
    !alone.signs.length &&
    !alone.npcs.length &&
    !alone.chests.length &&
    !alone.baddies.length &&
    alone.heights === undefined &&
    alone.tileset === undefined &&
    alone.tilesetImage === undefined;
  if (!kept || !nothingElse) c.fail('BAD_VALUE', path, 'a line the reader keeps as an unknown line (not a record, not blank)', byteString(bytes));
  return bytes;
}
