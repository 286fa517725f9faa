// Graal .gmap (GRMAP001): WIDTH, HEIGHT and a LEVELNAMES grid of quoted, comma-separated level
// names; every other line is kept as an option line in order. See README.md § ".gmap".
import { startDecode } from '../decode-context.js';
import { DecodeError } from '../../core/errors.js';
import type { DecodeOptions } from '../../core/limits.js';
import { decodeText } from '../../core/text.js';
import { GMAP_MAGIC } from './level.js';
import { splitLines } from './nw.js';
import { ascii, num, textBytes } from './text.js';
import type { GraalGmap } from './types.js';

/** Decodes a .gmap. Throws DecodeError (BAD_MAGIC, CORRUPT for a size that is not a number, LIMIT_EXCEEDED). */
export function decodeGmap(input: Uint8Array, opts?: DecodeOptions): GraalGmap {
  const { bytes, ctx } = startDecode('graal-gmap', input, opts);
  const { count, starts, ends, crlf } = splitLines(bytes);
  // Decoded one at a time as the loop reaches them (a string per line of a huge file is not kept).
  const lineText = (i: number) => decodeText(bytes.subarray(starts[i]!, ends[i]!), ctx.encoding).replace(/\r$/, '');
  if (count === 0 || lineText(0).trim() !== GMAP_MAGIC) {
    throw new DecodeError('graal-gmap', 'BAD_MAGIC', { offset: 0, expected: GMAP_MAGIC, actual: JSON.stringify(ascii(bytes.subarray(0, 8))) });
  }
  const map: GraalGmap = { format: 'graal-gmap', version: GMAP_MAGIC, width: 0, height: 0, levels: [], options: [], lineEnding: crlf ? '\r\n' : '\n', warnings: [] };
  for (let i = 1; i < count; i++) {
    if (starts[i] === ends[i]) continue; // empty lines hold nothing
    const t = lineText(i);
    const [word, value] = t.trim().split(/\s+/, 2);
    if (word === 'WIDTH' || word === 'HEIGHT') {
      const v = num(value);
      if (v === undefined || !Number.isInteger(v) || v < 0) throw new DecodeError('graal-gmap', 'CORRUPT', { offset: starts[i]!, path: word, actual: String(value) });
      if (v > ctx.limits.maxRecords) throw new DecodeError('graal-gmap', 'LIMIT_EXCEEDED', { offset: starts[i]!, path: word, expected: `≤ ${ctx.limits.maxRecords}`, actual: v });
      if (word === 'WIDTH') map.width = v; else map.height = v;
    } else if (word === 'LEVELNAMES') {
      for (i++; i < count; i++) {
        const row = lineText(i);
        if (row.trim() === 'LEVELNAMESEND') break;
        map.levels.push(parseRow(row));
      }
      if (i >= count) ctx.warnings.warn('MISSING_END', 'no LEVELNAMESEND: names read to the end of the file', bytes.length, 'LEVELNAMES');
    } else if (t.trim() !== '') map.options.push(t);
  }
  if (map.levels.length !== map.height || map.levels.some((r) => r.length !== map.width)) {
    ctx.warnings.warn('GRID_SIZE', `LEVELNAMES is not ${map.width}×${map.height}`, 0, 'LEVELNAMES');
  }
  map.warnings = ctx.warnings.list;
  return map;
}

/** One LEVELNAMES row: comma-separated, optionally double-quoted names; blanks stay in place. */
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

/** Encodes a .gmap: header, WIDTH, HEIGHT, the names grid (every name quoted), then the option lines. */
export function encodeGmap(map: GraalGmap): Uint8Array {
  const out = [GMAP_MAGIC, `WIDTH ${map.width}`, `HEIGHT ${map.height}`, 'LEVELNAMES'];
  for (const row of map.levels) out.push(row.map((n) => `"${n}"`).join(','));
  out.push('LEVELNAMESEND', ...map.options);
  const eol = map.lineEnding === '\r\n' ? '\r\n' : '\n';
  return textBytes(out.join(eol) + eol);
}
