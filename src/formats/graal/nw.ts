// Text Graal levels (.nw, GLEVNW01): keyword lines, BOARD rows decoded in one
// decodeBoardRows kernel call per level, text blocks ending in <KEYWORD>END, and every line no
// keyword explains kept in order. See README.md § ".nw levels".
import type { DecodeContext } from '../../core/context.js';
import { decodeError } from '../../core/errors.js';
import { kernelError } from '../../core/kernel-status.js';
import type { DecodeOptions } from '../../core/limits.js';
import type { Text } from '../../core/text.js';
import { jsKernels } from '../../kernels/js/index.js';
import { boardHeader, HEADER } from '../../kernels/js/nwlines.js';
import { Status } from '../../kernels/status.js';
import type { Kernels } from '../../kernels/types.js';
import { startDecode } from '../decode-context.js';
import { linkOf, parseHeights, parseLink } from './binary.js';
import { BADDY_NAMES, blankLevel, CHEST_ITEMS, LEVEL_SIZE, NO_TILE, NW_MAGIC, TILE_COUNT } from './level.js';
import { ObjectBudget } from './object-budget.js';
import { ascii, byteString, CR, FieldTexts, fieldText, LF, MAX_KEYWORD, num, numAt, SPACE, splitTrailing, stringBytes } from './text.js';
import type { GraalLevel, GraalWarningCode } from './types.js';

/** Highest BOARD layer index accepted (bounds the memory a small file can ask for). */
export const MAX_NW_LAYER = 255;
/** The keywords the decoder reads (BOARD is read before, straight from the bytes). */
const KEYWORDS = new Set(['LINK', 'SIGN', 'NPC', 'CHEST', 'BADDY', 'TILESET', 'TILESETIMAGE', 'HEIGHTS']);
/** Words keywordOf recognises: the keywords, and BOARD (a malformed BOARD line is warned about). */
const KNOWN_WORDS = [...KEYWORDS, 'BOARD'];

/** True when bytes[start, end) are all whitespace as String.trim sees it in a byte string (0x09–0x0D, space, 0xA0). */
function blank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let p = start; p < end; p++) {
    const b = bytes[p]!;
    if (!(b === 0x20 || (b >= 0x09 && b <= 0x0d) || b === 0xa0)) return false;
  }
  return true;
}

/** True when bytes[start, end), without the whitespace `blank` skips at either end, are the ASCII `word` (String.trim, on bytes). */
export function isWord(bytes: Uint8Array, start: number, end: number, word: string): boolean {
  const space = (b: number) => b === 0x20 || (b >= 0x09 && b <= 0x0d) || b === 0xa0;
  while (start < end && space(bytes[start]!)) start++;
  while (end > start && space(bytes[end - 1]!)) end--;
  if (end - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (bytes[start + k] !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * Every line's [start, end) in two typed arrays: one object per line cost ~30× the bytes of an
 * empty line (a 16 MB file of newlines took ~1 GB), so Line objects are made only while a line
 * is being read.
 */
export interface Lines {
  count: number;
  starts: Int32Array;
  ends: Int32Array;
  crlf: boolean;
  /**
   * With `trustBoardRows`: the BOARD rows taken whole, 5 numbers each (line index, data offset,
   * w, layer, y·64 + x), in line order, so the decoder does not parse their headers again.
   */
  boards: Int32Array;
}

/**
 * Splits into lines at LF. When the first line ends in CRLF the file counts as CRLF and every
 * line loses a trailing CR; otherwise CRs stay in the text (binary NPC scripts can hold CR
 * bytes, and a level converted from one must keep them).
 *
 * `trustBoardRows`: a BOARD line whose header is valid and whose data ends in a line break at
 * exactly 2·w bytes is taken as one line without searching its data for LF (the data is most of a
 * level's bytes). An LF inside that data would split the line differently; it is also outside the
 * BOARD alphabet, so the BOARD kernel counts it, and decodeNw then splits again with this off.
 *
 * `reuseTables`: the tables are views of one buffer the next such call overwrites (lineTables);
 * for a caller that is done with them before it splits again.
 */
export function splitLines(bytes: Uint8Array, trustBoardRows = false, kernels: Kernels = jsKernels, reuseTables = false): Lines {
  const n = bytes.length;
  // Sized for a line per 32 bytes (levels are mostly 130-byte BOARD rows and short script lines),
  // then, if that is not enough, for the most the input can hold: n + 1 lines, and a BOARD row
  // per 16 bytes (the shortest valid one is 17). Sizes follow the input's length, never a count.
  let lineCap = Math.max(64, n >>> 5),
    boardCap = trustBoardRows ? Math.max(64, n >>> 7) : 0;
  const out = new Int32Array(2);
  for (let grown = false; ; grown = true) {
    const words = 2 * lineCap + 5 * boardCap;
    const tables = reuseTables ? lineTables(words) : new Int32Array(words);
    const starts = tables.subarray(0, lineCap),
      ends = tables.subarray(lineCap, 2 * lineCap),
      boards = tables.subarray(2 * lineCap);
    const count = kernels.splitNwLines(bytes, trustBoardRows, starts, ends, boards, out);
    if (count >= 0) {
      return { count, starts: starts.subarray(0, count), ends: ends.subarray(0, count), crlf: out[1] === 1, boards: boards.subarray(0, out[0]! * 5) };
    }
    if (count !== Status.OVERFLOW || grown) throw kernelError('graal-nw', count, { path: 'lines', detail: 'line table' });
    lineCap = n + 1;
    if (trustBoardRows) boardCap = (n >>> 4) + 1;
  }
}

/** Int32s of line tables kept for the next decode (256 KiB: a level of up to ~4 MB). */
const REUSED_TABLE_WORDS = 1 << 16;
let reusedTables = new Int32Array(0);

/**
 * Room for one decode's line tables (starts, ends, BOARD rows). Allocating them was splitLines'
 * largest cost in profiles (each typed array past 64 bytes is its own off-heap buffer), so up to
 * REUSED_TABLE_WORDS are reused from one decode to the next: tables live only while decodeLines
 * runs (no level keeps them), and a decode never starts another (splitLines' `reuseTables`).
 * Bigger tables are allocated.
 */
function lineTables(words: number): Int32Array {
  if (words > REUSED_TABLE_WORDS) return new Int32Array(words);
  if (reusedTables.length < words) reusedTables = new Int32Array(Math.min(REUSED_TABLE_WORDS, Math.max(words, 2 * reusedTables.length)));
  return reusedTables.subarray(0, words);
}

/** Decodes a .nw level. Throws DecodeError (BAD_MAGIC, CORRUPT…); odd lines become warnings. */
export function decodeNw(input: Uint8Array, opts?: DecodeOptions): GraalLevel {
  const start = startDecode<GraalWarningCode>('graal-nw', input, opts);
  // One copy into the kernels' memory for both kernel calls (the WASM set reads the held bytes
  // where they lie); `bytes` is never written and nothing the level keeps is a view of it: text
  // fields get their bytes copied (FieldTexts.finish), tiles are fresh arrays.
  const decode = (bytes: Uint8Array): GraalLevel => {
    // A strict decode stops at the first warning, which must be the one an exact split meets: no shortcut.
    const level = decodeLines(bytes, start.ctx, !start.ctx.strict);
    if (level) return level;
    // An LF inside trusted BOARD data: split again exactly, with a fresh warning list.
    const again = startDecode<GraalWarningCode>('graal-nw', input, opts);
    return decodeLines(bytes, again.ctx, false)!;
  };
  const n = start.bytes.length;
  // Held only while level and scratch fit the arena's usual size (ARENA_CAP_BYTES): a bigger
  // file's calls reserve what they need one at a time instead of ~13× its size up front.
  return n <= MAX_HELD_LEVEL ? start.ctx.kernels.holdBytes(start.bytes, kernelScratch(n), decode) : decode(start.bytes);
}

/** Largest level held in kernel memory across both kernel calls (1 MiB: with kernelScratch, 15 MiB). */
const MAX_HELD_LEVEL = 1 << 20;

/**
 * Arena bytes the kernel calls of one decode may reserve beside the held level of n bytes (each
 * call's regions are rounded to 16 bytes; calls do not overlap): splitLines' tables at their
 * grown size (n + 1 lines of two Int32s, n/16 + 1 BOARD rows of five, two Int32s out), or
 * decodeBoardRows' row table (three Int32s per row, at most a row per line) and its output (up
 * to MAX_NW_LAYER + 1 layers of tiles).
 */
function kernelScratch(n: number): number {
  const split = 8 * (n + 1) + 20 * ((n >>> 4) + 1) + 8;
  const board = 12 * (n + 1) + (MAX_NW_LAYER + 1) * TILE_COUNT * 2;
  return Math.max(split, board) + 4 * 16;
}

/** The level, or undefined when `trustBoardRows` met a BOARD character outside the alphabet (see splitLines). */
function decodeLines(bytes: Uint8Array, ctx: DecodeContext<GraalWarningCode>, trustBoardRows: boolean): GraalLevel | undefined {
  const { count, starts, ends, crlf, boards } = splitLines(bytes, trustBoardRows, ctx.kernels, true);
  if (count === 0 || ascii(bytes.subarray(starts[0]!, Math.min(ends[0]!, starts[0]! + 9))).trimEnd() !== NW_MAGIC) {
    throw decodeError('graal-nw', 'BAD_MAGIC', { offset: 0, expected: NW_MAGIC, actual: JSON.stringify(ascii(bytes.subarray(0, 8))) });
  }
  const level = blankLevel('graal-nw', NW_MAGIC, []);
  // A summary decode leaves out what no summary field reads: block bodies and unknown lines.
  const summaryOnly = ctx.summaryOnly;
  if (summaryOnly) level.sections = 'summary';
  if (crlf) level.lineEnding = '\r\n';
  level.encoding = ctx.encoding;
  const texts = new FieldTexts(ctx.encoding);
  const budget = new ObjectBudget('graal-nw', ctx.limits.maxLevelObjects);
  // Keyword lines are parsed as byte strings (text.ts); fields become Texts of their stored bytes,
  // taken by bounds (no view per field). A summary reads none of them: one frozen empty Text
  // stands for all, so a record costs its numbers only.
  const text = (start: number, end: number) => byteString(bytes.subarray(start, end));
  const noText: Text = Object.freeze({ text: '', raw: new Uint8Array(0), encoding: texts.encoding });
  const field = summaryOnly ? () => noText : (start: number, end: number) => texts.spanAt(bytes, start, end);
  const decoded = (s: string) => texts.decode(stringBytes(s));
  const rows: number[] = []; // (data offset, count, layer, y·64 + x) per BOARD row
  const layerIds = new Set<number>([0]);
  let nextBoard = 0; // the next trusted BOARD row (boards) the walk has not reached

  // Lines up to `<keyword>END` (exclusive): the body is lines [first, end); a missing end reads
  // to the end of the file. The end word is compared on the bytes: no string per body line.
  const block = (i: number, endWord: string): { first: number; end: number; next: number } => {
    for (let j = i + 1; j < count; j++) if (isWord(bytes, starts[j]!, ends[j]!, endWord)) return { first: i + 1, end: j, next: j + 1 };
    ctx.warnings.warn('MISSING_END', `no ${endWord}: block read to the end of the file`, starts[i]!, `line ${i + 1}`);
    return { first: i + 1, end: count, next: count };
  };
  /** The body's lines joined with LF, as stored bytes (a CRLF file's CRs already dropped). */
  const bodyBytes = (first: number, end: number): Uint8Array => {
    if (end <= first) return bytes.subarray(0, 0);
    // Without CRLF, consecutive lines are separated by exactly one LF: the body is one view.
    if (!crlf) return bytes.subarray(starts[first]!, ends[end - 1]!);
    let size = Math.max(0, end - first - 1);
    for (let j = first; j < end; j++) size += ends[j]! - starts[j]!;
    const out = new Uint8Array(size);
    for (let j = first, at = 0; j < end; j++) {
      if (j > first) out[at++] = LF;
      out.set(bytes.subarray(starts[j]!, ends[j]!), at);
      at += ends[j]! - starts[j]!;
    }
    return out;
  };

  /** The body as a Text (a CRLF body is joined first; its raw is then copied with the others). */
  const body = (first: number, end: number): Text =>
    summaryOnly ? noText : crlf || end <= first ? texts.span(bodyBytes(first, end)) : field(starts[first]!, ends[end - 1]!);

  // Lines no keyword explains keep their exact bytes (a CR of a mixed-ending file included).
  let unknownCount = 0;
  const unknown = (keyword: string, start: number, end: number, at: string) => {
    if (keyword === 'BOARD' || keyword === 'LINK' || keyword === 'SIGN' || keyword === 'NPC' || keyword === 'CHEST' || keyword === 'BADDY') {
      ctx.warnings.warn('BAD_LINE', `malformed ${keyword} line kept as an unknown line`, start, at);
    }
    // Counted at both depths, so that a summary and a full decode agree on the limit.
    budget.take(start, 'unknownLines', unknownCount++);
    if (!summaryOnly) level.unknownLines.push(field(start, end));
  };

  for (let i = 1; i < count; ) {
    const lineStart = starts[i]!,
      lineEnd = ends[i]!;
    if (lineStart === lineEnd) {
      i++;
      continue;
    } // empty: nothing to keep, and files can be all newlines
    // BOARD rows are most lines: those splitLines took whole are already parsed; others are tried
    // on the bytes before any string is made.
    while (nextBoard < boards.length && boards[nextBoard]! < i) nextBoard += 5; // rows inside blocks are text
    if (nextBoard < boards.length && boards[nextBoard] === i) {
      rows.push(boards[nextBoard + 1]!, boards[nextBoard + 2]!, boards[nextBoard + 3]!, boards[nextBoard + 4]!);
      layerIds.add(boards[nextBoard + 3]!);
      nextBoard += 5;
      i++;
      continue;
    }
    if (boardRow(bytes, lineStart, lineEnd, rows, layerIds)) {
      i++;
      continue;
    }
    const keyword = keywordOf(bytes, lineStart, lineEnd);
    const at = `line ${i + 1}`;
    // A keyword line of a mixed-ending file loses its CR; unknown lines keep it (and are cut
    // straight from the bytes: they may be megabytes long and need no parsing).
    const end = bytes[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
    const argsStart = Math.min(lineStart + keyword.length + 1, end);
    if (!KEYWORDS.has(keyword)) {
      if (!blank(bytes, lineStart, end)) unknown(keyword, lineStart, lineEnd, at);
      i++;
      continue;
    }
    let handled = true;
    switch (keyword) {
      case 'LINK': {
        const link = linkOf(bytes, argsStart, end, field) ?? parseLink(byteString(bytes.subarray(argsStart, end)), ctx.encoding);
        if (link) {
          budget.take(lineStart, 'links', level.links.length);
          level.links.push(link);
        } else handled = false;
        break;
      }
      case 'SIGN': {
        const t = text(argsStart, end).trim().split(/\s+/).map(num);
        if (t.length < 2 || t[0] === undefined || t[1] === undefined) {
          handled = false;
          break;
        }
        const { first, end: bodyEnd, next } = block(i, 'SIGNEND');
        budget.take(lineStart, 'signs', level.signs.length);
        level.signs.push({ x: t[0], y: t[1], text: summaryOnly ? '' : texts.decode(bodyBytes(first, bodyEnd)) });
        i = next;
        continue;
      }
      case 'NPC': {
        const npc = npcHeader(bytes, argsStart, end, field, texts.encoding);
        if (!npc) {
          handled = false;
          break;
        }
        const { first, end: bodyEnd, next } = block(i, 'NPCEND');
        budget.take(lineStart, 'npcs', level.npcs.length);
        level.npcs.push({ x: npc.x, y: npc.y, image: npc.image, script: body(first, bodyEnd) });
        i = next;
        continue;
      }
      case 'CHEST': {
        const t = text(argsStart, end).trim().split(/\s+/);
        const [x, y, sign] = [num(t[0]), num(t[1]), num(t[3])];
        if (t.length !== 4 || x === undefined || y === undefined || sign === undefined) {
          handled = false;
          break;
        }
        const byIndex = num(t[2]);
        budget.take(lineStart, 'chests', level.chests.length);
        level.chests.push({
          x,
          y,
          item: byIndex !== undefined && Number.isInteger(byIndex) ? (CHEST_ITEMS[byIndex] ?? decoded(t[2]!)) : decoded(t[2]!),
          signIndex: sign,
        });
        break;
      }
      case 'BADDY': {
        const t = text(argsStart, end).trim().split(/\s+/);
        const [x, y] = [num(t[0]), num(t[1])];
        const type = num(t[2]) ?? (t[2] !== undefined && BADDY_NAMES.includes(t[2].toLowerCase()) ? BADDY_NAMES.indexOf(t[2].toLowerCase()) : undefined);
        if (t.length < 3 || x === undefined || y === undefined || type === undefined) {
          handled = false;
          break;
        }
        const { first, end: bodyEnd, next } = block(i, 'BADDYEND');
        const verses: Text[] = [];
        if (!summaryOnly) for (let j = first; j < bodyEnd; j++) verses.push(field(starts[j]!, ends[j]!));
        budget.take(lineStart, 'baddies', level.baddies.length);
        level.baddies.push({ x, y, type, verses });
        i = next;
        continue;
      }
      case 'TILESET':
        level.tileset = field(argsStart, end);
        break;
      case 'TILESETIMAGE':
        level.tilesetImage = field(argsStart, end);
        break;
      case 'HEIGHTS': {
        const { first, end: bodyEnd, next } = block(i, 'HEIGHTSEND');
        const values: number[] = [];
        for (let j = first; j < bodyEnd; j++) {
          const b = text(starts[j]!, ends[j]!);
          if (!parseHeights(b, values)) ctx.warnings.warn('BAD_HEIGHTS', `heights line ${JSON.stringify(b)} ignored`, lineStart, at);
        }
        level.heights = values;
        i = next;
        continue;
      }
      default:
        handled = false;
    }
    if (!handled && !blank(bytes, lineStart, end)) unknown(keyword, lineStart, lineEnd, at);
    i++;
  }
  const layers = boardLayers(ctx, bytes, rows, layerIds, trustBoardRows);
  if (!layers) return undefined;
  texts.finish();
  level.layers = layers;
  level.warnings = ctx.warnings.list;
  return level;
}

/**
 * `NPC image x y`: x, y are the last two tokens, so the image may contain spaces. Read from the
 * bytes when the line is split by single spaces (nearly always); else as before, on its byte
 * string, trying the trimmed line too. Undefined when the line is malformed.
 */
function npcHeader(
  bytes: Uint8Array,
  start: number,
  end: number,
  field: (start: number, end: number) => Text,
  encoding: string,
): { x: number; y: number; image: Text } | undefined {
  const ySpace = end > start ? bytes.lastIndexOf(SPACE, end - 1) : -1;
  const xSpace = ySpace > start ? bytes.lastIndexOf(SPACE, ySpace - 1) : -1;
  if (xSpace >= start) {
    const x = numAt(bytes, xSpace + 1, ySpace),
      y = numAt(bytes, ySpace + 1, end);
    if (x !== undefined && y !== undefined && xSpace > start) {
      const none = xSpace - start === 1 && bytes[start] === 0x2d; /* - */
      return { x, y, image: none ? field(start, start) : field(start, xSpace) };
    }
  }
  const args = byteString(bytes.subarray(start, end));
  let parts = splitTrailing(args, 2);
  if (num(parts?.tail[0]) === undefined || num(parts?.tail[1]) === undefined) parts = splitTrailing(args.trim(), 2);
  const x = num(parts?.tail[0]),
    y = num(parts?.tail[1]);
  if (!parts || parts.head === '' || x === undefined || y === undefined) return undefined;
  return { x, y, image: fieldText(parts.head === '-' ? '' : parts.head, encoding) };
}

/**
 * The line's first space-separated token, or '' when it is longer than any keyword. The search
 * stops at the line end and after MAX_KEYWORD + 1 bytes: an unbounded search for the next space
 * made a file of short lines quadratic, and decoding a megabyte-long token was wasted work.
 */
function keywordOf(bytes: Uint8Array, start: number, end: number): string {
  const limit = Math.min(end, start + MAX_KEYWORD + 1);
  let p = start;
  while (p < limit && bytes[p] !== SPACE) p++;
  if (p - start > MAX_KEYWORD) return '';
  // Compared on the bytes: a string per line was garbage on every line of a big file.
  for (const word of KNOWN_WORDS) if (isWordAt(bytes, start, p, word)) return word;
  return p === start ? '' : OTHER_WORD;
}

/** What keywordOf answers for a first token that is no word the decoder knows. */
const OTHER_WORD = '?';

function isWordAt(bytes: Uint8Array, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (bytes[start + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** Parses a BOARD line straight from bytes into `rows`; false when the line is malformed. */
function boardRow(bytes: Uint8Array, start: number, lineEnd: number, rows: number[], layerIds: Set<number>): boolean {
  if (!boardHeader(bytes, start, lineEnd)) return false;
  // The data must hold exactly w pairs.
  const end = bytes[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
  if (end - HEADER[0]! !== 2 * HEADER[3]!) return false;
  rows.push(HEADER[0]!, HEADER[3]!, HEADER[4]!, HEADER[2]! * LEVEL_SIZE + HEADER[1]!);
  layerIds.add(HEADER[4]!);
  return true;
}

/** One kernel call for every row of every layer; layer 0 starts as tile 0, overlays as NO_TILE. */
function boardLayers(ctx: DecodeContext<GraalWarningCode>, bytes: Uint8Array, rows: number[], layerIds: Set<number>, trusted: boolean) {
  const ids = [...layerIds].sort((a, b) => a - b);
  const slot = new Map(ids.map((id, i) => [id, i]));
  const dst = new Uint16Array(ids.length * TILE_COUNT).fill(NO_TILE, TILE_COUNT);
  const n = rows.length / 4;
  const table = new Int32Array(n * 3);
  for (let r = 0; r < n; r++) {
    table[r * 3] = rows[r * 4]!;
    table[r * 3 + 1] = rows[r * 4 + 1]!;
    table[r * 3 + 2] = slot.get(rows[r * 4 + 2]!)! * TILE_COUNT + rows[r * 4 + 3]!;
  }
  const bad = ctx.kernels.decodeBoardRows(bytes, table, n, dst);
  // The rows span the whole file: a kernel failure has no single offset.
  if (bad < 0) throw kernelError('graal-nw', bad, { path: 'BOARD', detail: 'BOARD rows' });
  if (bad > 0 && trusted) return undefined; // maybe an LF taken for data: the caller splits again
  if (bad > 0)
    ctx.warnings.warn('BOARD_CHARACTER', `${bad} BOARD characters outside A–Z a–z 0–9 + / read as 0`, firstBadBoardCharacter(bytes, table, n), 'BOARD');
  // One layer (most levels): the buffer is exactly its tiles. More: each layer gets its own copy.
  if (ids.length === 1) return [{ index: ids[0]!, tiles: dst }];
  return ids.map((index, i) => ({ index, tiles: dst.slice(i * TILE_COUNT, (i + 1) * TILE_COUNT) }));
}

const BOARD_LETTER = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BOARD_LETTER[c.charCodeAt(0)] = 1;

/** Offset of the first BOARD letter outside the alphabet (the kernel only counts them). */
function firstBadBoardCharacter(bytes: Uint8Array, table: Int32Array, n: number): number | undefined {
  let first: number | undefined;
  for (let r = 0; r < n; r++) {
    const start = table[r * 3]!,
      end = start + 2 * table[r * 3 + 1]!;
    for (let p = start; p < end && (first === undefined || p < first); p++)
      if (!BOARD_LETTER[bytes[p]!]) {
        first = p;
        break;
      }
  }
  return first;
}
