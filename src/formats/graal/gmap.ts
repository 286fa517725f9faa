// Graal .gmap (GRMAP001): WIDTH, HEIGHT and a LEVELNAMES grid of quoted, comma-separated level
// names; every other line is kept as an option line in order. See README.md § ".gmap".

import { decodeError } from '../../core/errors.js';
import type { DecodeOptions } from '../../core/limits.js';
import { makeText } from '../../core/text.js';
import { startDecode } from '../decode-context.js';
import { Checker } from './encode-check.js';
import { GMAP_MAGIC } from './level.js';
import { splitLines } from './nw.js';
import { ascii, byteString, CR, fieldText, num } from './text.js';
import type { GraalGmap, GraalWarningCode } from './types.js';

const QUOTE = 0x22;

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
        const row = lineText(i);
        if (row.trim() === 'LEVELNAMESEND') break;
        map.levels.push(parseRow(row).map((cell) => fieldText(cell, ctx.encoding)));
      }
      if (i >= count) ctx.warnings.warn('MISSING_END', 'no LEVELNAMESEND: names read to the end of the file', gridAt, 'LEVELNAMES');
    } else if (t.trim() !== '') {
      const end = bytes[ends[i]! - 1] === CR ? ends[i]! - 1 : ends[i]!; // as lineText: without a final CR
      map.options.push(makeText(bytes.slice(starts[i]!, end), ctx.encoding));
    }
  }
  if (map.levels.length !== map.height || map.levels.some((r) => r.length !== map.width)) {
    ctx.warnings.warn('GRID_SIZE', `LEVELNAMES is not ${map.width}×${map.height}`, gridAt, 'LEVELNAMES');
  }
  map.warnings = ctx.warnings.list;
  return map;
}

/** One LEVELNAMES row (a byte string): comma-separated, optionally double-quoted names; blanks stay in place. */
function parseRow(row: string): string[] {
  const cells: string[] = [];
  let i = 0;
  const s = row.trim();
  if (s === '') return cells;
  for (;;) {
    let cell = '';
    while (s[i] === ' ') i++;
    if (s[i] === '"') {
      const close = s.indexOf('"', i + 1);
      cell = s.slice(i + 1, close < 0 ? s.length : close);
      i = close < 0 ? s.length : close + 1;
      while (i < s.length && s[i] !== ',') i++;
    } else {
      const comma = s.indexOf(',', i);
      cell = s.slice(i, comma < 0 ? s.length : comma).trim();
      i = comma < 0 ? s.length : comma;
    }
    cells.push(cell);
    if (i >= s.length) break;
    i++; // the comma
    if (i >= s.length) break; // QUIRK: some writers end rows with a comma; it adds no cell
  }
  return cells;
}

const enc = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/**
 * Encodes a .gmap: header, WIDTH, HEIGHT, the names grid (every name quoted), then the option
 * lines. EncodeError when the grid is not `height` rows of `width` names (BAD_LENGTH), a name
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
  if (levels.length !== height) c.fail('BAD_LENGTH', 'levels', `${height} rows (height)`, levels.length);
  const eol = enc(map.lineEnding);
  const lines: Uint8Array[] = [enc(GMAP_MAGIC), enc(`WIDTH ${width}`), enc(`HEIGHT ${height}`), enc('LEVELNAMES')];
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
  lines.push(enc('LEVELNAMESEND'));
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
