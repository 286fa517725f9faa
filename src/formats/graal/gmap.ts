// Graal .gmap (GRMAP001): WIDTH, HEIGHT and a LEVELNAMES grid of quoted, comma-separated level
// names; every other line is kept as an option line in order. See README.md § ".gmap".

import { decodeError } from '../../core/errors.js';
import type { DecodeOptions } from '../../core/limits.js';
import { makeText, type Text } from '../../core/text.js';
import { startDecode } from '../decode-context.js';
import { Checker } from './encode-check.js';
import { GMAP_MAGIC } from './level.js';
import { isWord, splitLines } from './nw.js';
import { ObjectBudget } from './object-budget.js';
import { ascii, byteString, CR, FieldTexts, num } from './text.js';
import type { GraalGmap, GraalWarningCode } from './types.js';

const QUOTE = 0x22,
  COMMA = 0x2c,
  SPACE = 0x20;

/** Decodes a .gmap. Throws DecodeError (BAD_MAGIC, CORRUPT for a size that is not a number, LIMIT_EXCEEDED). */
export function decodeGmap(input: Uint8Array, opts?: DecodeOptions): GraalGmap {
  const { bytes, ctx } = startDecode<GraalWarningCode>('graal-gmap', input, opts);
  const { count, starts, ends, crlf } = splitLines(bytes, false, ctx.kernels);
  // Byte strings (text.ts), made one at a time as the loop reaches them (a string per line of a huge file is not kept).
  const lineText = (i: number) => byteString(bytes.subarray(starts[i]!, ends[i]!)).replace(/\r$/, '');
  if (count === 0 || lineText(0).trim() !== GMAP_MAGIC) {
    throw decodeError('graal-gmap', 'BAD_MAGIC', { offset: 0, expected: GMAP_MAGIC, actual: JSON.stringify(ascii(bytes.subarray(0, 8))) });
  }
  const map: GraalGmap = {
    format: 'graal-gmap',
    version: GMAP_MAGIC,
    width: 0,
    height: 0,
    levels: [],
    options: [],
    lineEnding: crlf ? '\r\n' : '\n',
    warnings: [],
  };
  let gridAt: number | undefined;
  // Cells are read from the bytes into one FieldTexts: a string per row and per cell, and a
  // buffer per name, made a big map cost ~10× its size in heap.
  const texts = new FieldTexts(ctx.encoding);
  const budget = new ObjectBudget('graal-gmap', ctx.limits.maxLevelObjects);
  for (let i = 1; i < count; i++) {
    if (starts[i] === ends[i]) continue; // empty lines hold nothing
    const t = lineText(i);
    const [word, value] = t.trim().split(/\s+/, 2);
    if (word === 'WIDTH' || word === 'HEIGHT') {
      const v = num(value);
      if (v === undefined || !Number.isInteger(v) || v < 0)
        throw decodeError('graal-gmap', 'CORRUPT', { offset: starts[i]!, path: word, actual: String(value) });
      if (v > ctx.limits.maxRecords)
        throw decodeError('graal-gmap', 'LIMIT_EXCEEDED', { offset: starts[i]!, path: word, expected: `≤ ${ctx.limits.maxRecords}`, actual: v });
      if (word === 'WIDTH') map.width = v;
      else map.height = v;
    } else if (word === 'LEVELNAMES') {
      gridAt = starts[i]!;
      for (i++; i < count; i++) {
        if (isWord(bytes, starts[i]!, ends[i]!, 'LEVELNAMESEND')) break;
        map.levels.push(parseRow(bytes, starts[i]!, ends[i]!, texts, budget, map.levels.length));
      }
      if (i >= count) ctx.warnings.warn('MISSING_END', 'no LEVELNAMESEND: names read to the end of the file', gridAt, 'LEVELNAMES');
    } else if (t.trim() !== '') {
      const end = bytes[ends[i]! - 1] === CR ? ends[i]! - 1 : ends[i]!; // as lineText: without a final CR
      map.options.push(makeText(bytes.slice(starts[i]!, end), ctx.encoding));
    }
  }
  texts.finish();
  // A generated map (GENERATED, HEIGHTMAP) names no levels: written back without the block.
  if (gridAt === undefined) map.withoutLevelNames = true;
  else if (map.levels.length !== map.height || map.levels.some((r) => r.length !== map.width)) {
    ctx.warnings.warn('GRID_SIZE', `LEVELNAMES is not ${map.width}×${map.height}`, gridAt, 'LEVELNAMES');
  }
  map.warnings = ctx.warnings.list;
  return map;
}

/** True for the bytes String.trim removes from a byte string (0x09–0x0D, space, 0xA0). */
const isSpace = (b: number | undefined) => b === 0x20 || (b !== undefined && b >= 0x09 && b <= 0x0d) || b === 0xa0;

/**
 * One LEVELNAMES row, bytes[start, end): comma-separated, optionally double-quoted names (a quoted
 * name is taken as it stands, an unquoted one trimmed); blanks stay in place. Each cell takes
 * one object from `budget`.
 */
function parseRow(bytes: Uint8Array, start: number, end: number, texts: FieldTexts, budget: ObjectBudget, y: number): Text[] {
  const cells: Text[] = [];
  if (bytes[end - 1] === CR) end--;
  while (start < end && isSpace(bytes[start])) start++;
  while (end > start && isSpace(bytes[end - 1])) end--;
  if (start === end) return cells;
  const row = `levels[${y}]`;
  const cell = (from: number, to: number) => cells.push(texts.spanAt(bytes, from, to));
  for (let i = start; ; ) {
    while (bytes[i] === SPACE && i < end) i++;
    budget.take(i, row, cells.length); // each turn reads one cell
    if (i < end && bytes[i] === QUOTE) {
      const found = bytes.indexOf(QUOTE, i + 1);
      const close = found < 0 || found >= end ? end : found;
      cell(i + 1, close);
      i = close < end ? close + 1 : end;
      while (i < end && bytes[i] !== COMMA) i++;
    } else {
      const found = bytes.indexOf(COMMA, i);
      const comma = found < 0 || found >= end ? end : found;
      let from = i,
        to = comma;
      while (from < to && isSpace(bytes[from])) from++;
      while (to > from && isSpace(bytes[to - 1])) to--;
      cell(from, to);
      i = comma;
    }
    if (i >= end) break;
    i++; // the comma
    if (i >= end) break; // QUIRK: some writers end rows with a comma; it adds no cell
  }
  return cells;
}

const enc = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/**
 * Encodes a .gmap: header, WIDTH, HEIGHT, the names grid (every name quoted), then the option
 * lines (no names block for a map `withoutLevelNames`, which must then have no rows). EncodeError
 * when the grid is not `height` rows of `width` names (BAD_LENGTH), a name
 * holds `"` or a line break, or an option line would read back as something else (BAD_VALUE).
 */
export function encodeGmap(map: GraalGmap): Uint8Array {
  const c = new Checker('graal-gmap');
  c.object(map, 'map');
  if (map.version !== GMAP_MAGIC) c.fail('BAD_VALUE', 'version', GMAP_MAGIC, map.version);
  if (map.lineEnding !== '\n' && map.lineEnding !== '\r\n') c.fail('BAD_VALUE', 'lineEnding', '"\\n" or "\\r\\n"', map.lineEnding);
  const width = c.int(map.width, 0, Number.MAX_SAFE_INTEGER, 'width');
  const height = c.int(map.height, 0, Number.MAX_SAFE_INTEGER, 'height');
  const levels = c.array(map.levels, 'levels');
  const withoutNames = map.withoutLevelNames === true;
  if (map.withoutLevelNames !== undefined && !withoutNames) c.fail('BAD_VALUE', 'withoutLevelNames', 'true or absent', map.withoutLevelNames);
  // Without the LEVELNAMES block the grid reads back empty, whatever the size says.
  if (withoutNames && levels.length > 0) c.fail('BAD_LENGTH', 'levels', 'no rows (withoutLevelNames: the map names no levels)', levels.length);
  if (!withoutNames && levels.length !== height) c.fail('BAD_LENGTH', 'levels', `${height} rows (height)`, levels.length);
  const eol = enc(map.lineEnding);
  const lines: Uint8Array[] = [enc(GMAP_MAGIC), enc(`WIDTH ${width}`), enc(`HEIGHT ${height}`)];
  if (!withoutNames) lines.push(enc('LEVELNAMES'));
  levels.forEach((row, y) => {
    c.array(row, `levels[${y}]`);
    if (row.length !== width) c.fail('BAD_LENGTH', `levels[${y}]`, `${width} names (width)`, row.length);
    const parts: number[] = [];
    row.forEach((name, x) => {
      const path = `levels[${y}][${x}]`;
      // Names are always quoted; there is no escape for a quote inside one.
      const bytes = c.without(c.line(c.text(name, path), path, false), [QUOTE], path, 'a name without `"` (names are quoted, with no escape)');
      if (x > 0) parts.push(0x2c);
      parts.push(QUOTE, ...bytes, QUOTE);
    });
    lines.push(Uint8Array.from(parts));
  });
  if (!withoutNames) lines.push(enc('LEVELNAMESEND'));
  c.array(map.options, 'options').forEach((o, i) => {
    const path = `options[${i}]`;
    const bytes = c.line(c.text(o, path), path, true);
    const [word] = byteString(bytes).trim().split(/\s+/, 1);
    // A blank line is skipped on reading; these words are read as the map's own fields.
    if (word === '' || word === 'WIDTH' || word === 'HEIGHT' || word === 'LEVELNAMES') {
      c.fail('BAD_VALUE', path, 'an option line (not blank, not WIDTH, HEIGHT or LEVELNAMES)', o.text);
    }
    lines.push(bytes);
  });
  return join(lines, eol);
}

/** `lines`, each followed by `eol`, as one array. */
export function join(lines: readonly Uint8Array[], eol: Uint8Array): Uint8Array {
  const out = new Uint8Array(lines.reduce((n, l) => n + l.length + eol.length, 0));
  let p = 0;
  for (const l of lines) {
    out.set(l, p);
    p += l.length;
    out.set(eol, p);
    p += eol.length;
  }
  return out;
}
