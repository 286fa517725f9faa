// Writes a Graal level as .nw text (GLEVNW01). The output is a fixed function of the level, so
// a file levelkit wrote decodes and re-encodes byte for byte. See README.md § ".nw levels".
import { LEVEL_SIZE, NO_TILE, NW_MAGIC } from './level.js';
import { textBytes } from './text.js';
import type { GraalLevel } from './types.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
// All 4,096 two-letter codes, so a row is 64 table look-ups.
const PAIRS: readonly string[] = Array.from({ length: 4096 }, (_, t) => ALPHABET[t >> 6]! + ALPHABET[t & 63]!);

/**
 * Encodes `level` as .nw. Layer 0 is written as 64 full rows; overlay layers as partial rows
 * covering only their non-empty (≠ NO_TILE) cells. Sections follow in a fixed order, unknown
 * lines last. Text is written as Windows-1252 (characters without a byte become '?').
 */
export function encodeNw(level: GraalLevel): Uint8Array {
  const out: string[] = [NW_MAGIC];
  if (level.tileset !== undefined) out.push(`TILESET ${level.tileset}`);
  if (level.tilesetImage !== undefined) out.push(`TILESETIMAGE ${level.tilesetImage}`);
  for (const layer of [...level.layers].sort((a, b) => a.index - b.index)) {
    const t = layer.tiles;
    for (let y = 0; y < LEVEL_SIZE; y++) {
      for (let x = 0; x < LEVEL_SIZE;) {
        const empty = (i: number) => layer.index !== 0 && t[y * LEVEL_SIZE + i] === NO_TILE;
        if (empty(x)) { x++; continue; }
        let end = x;
        let data = '';
        while (end < LEVEL_SIZE && !empty(end)) data += PAIRS[t[y * LEVEL_SIZE + end++]! & 0xfff];
        out.push(`BOARD ${x} ${y} ${end - x} ${layer.index} ${data}`);
        x = end;
      }
    }
  }
  for (const l of level.links) out.push(`LINK ${l.level} ${l.x} ${l.y} ${l.width} ${l.height} ${l.destX} ${l.destY}`);
  for (const s of level.signs) out.push(`SIGN ${s.x} ${s.y}`, ...s.text.split('\n'), 'SIGNEND');
  for (const n of level.npcs) out.push(`NPC ${n.image === '' ? '-' : n.image} ${n.x} ${n.y}`, ...n.script.split('\n'), 'NPCEND');
  for (const c of level.chests) out.push(`CHEST ${c.x} ${c.y} ${c.item} ${c.signIndex}`);
  for (const b of level.baddies) out.push(`BADDY ${b.x} ${b.y} ${b.type}`, ...b.verses, 'BADDYEND');
  if (level.heights) {
    out.push('HEIGHTS');
    for (let i = 0; i < level.heights.length; i += 9) out.push(level.heights.slice(i, i + 9).join(','));
    out.push('HEIGHTSEND');
  }
  out.push(...level.unknownLines);
  const eol = level.lineEnding === '\r\n' ? '\r\n' : '\n';
  return textBytes(out.join(eol) + eol);
}
