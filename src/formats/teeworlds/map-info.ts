// The INFO item of a Teeworlds map (author, version, credits, license, DDNet's settings): a bad
// field costs the field, never the map. README.md §Map (issue 28).

import { DecodeError } from '../../core/errors.js';
import type { Text } from '../../core/text.js';
import { INFO, ITEM, MAX_SETTINGS_BYTES, MAX_STRING_BYTES } from './items.js';
import { type Reader, readBlock, stringOf, text } from './map-reader.js';
import type { MapInfo } from './types.js';

export function decodeInfo(rd: Reader): MapInfo | null {
  const infos = rd.ofType(ITEM.INFO);
  if (infos.num === 0) return null;
  const d = rd.data(infos.start);
  const itemOffset = rd.df.itemOffsets[infos.start]!;
  const s = (k: number, what: string): Text | null => {
    const path = `info.${what}`;
    const raw = readInfoBlock(rd, d[k] ?? -1, path, MAX_STRING_BYTES, itemOffset);
    return raw ? stringOf(rd, raw, d[k]!, path) : null;
  };
  const author = s(INFO.author, 'author'),
    mapVersion = s(INFO.mapVersion, 'mapVersion'),
    credits = s(INFO.credits, 'credits'),
    license = s(INFO.license, 'license');
  // null: a 5-int INFO without DDNet's settings field; []: the field is −1, which is how DDNet
  // writes a map without commands (it never writes an empty block, which it could not read back).
  let settings: Text[] | null = d.length > INFO.settings ? [] : null;
  const raw = readInfoBlock(rd, d[INFO.settings] ?? -1, 'info.settings', MAX_SETTINGS_BYTES, itemOffset);
  if (raw === undefined) settings = null;
  else if (raw) {
    settings = [];
    // One block of consecutive NUL-terminated commands.
    for (let p = 0; p < raw.length; ) {
      let e = raw.indexOf(0, p);
      if (e < 0) e = raw.length;
      settings.push(text(raw.slice(p, e)));
      p = e + 1;
    }
  }
  return { version: d[INFO.version] ?? 1, author, mapVersion, credits, license, settings };
}

/**
 * The block an info field names: null for −1; undefined, with warning BAD_INFO_FIELD, when the
 * field names what cannot be its block (no such block, more than the field may hold, a block
 * another section reads, an empty v4 block, a broken stream). The map plays without its info item
 * (real maps point `author` at a tileset's pixels), so a bad field costs the field, not the map.
 * The size cap is checked before anything is inflated; the per-file limits still fail the map.
 */
function readInfoBlock(rd: Reader, dataIndex: number, path: string, maxBytes: number, itemOffset: number): Uint8Array | null | undefined {
  if (dataIndex === -1) return null;
  const bad = (why: string, offset: number | undefined) => {
    rd.ctx.warnings.warn('BAD_INFO_FIELD', `${why}; read as null`, offset, path);
    return undefined;
  };
  const block = Number.isInteger(dataIndex) ? rd.df.blocks[dataIndex] : undefined;
  if (!block) return bad(`data index ${dataIndex} names no block (${rd.df.blocks.length} blocks)`, itemOffset);
  if (block.byteLength > maxBytes)
    return bad(`data block ${dataIndex} declares ${block.byteLength} bytes, more than the field holds (≤ ${maxBytes})`, block.offset);
  const owner = rd.claimedBy.get(dataIndex);
  if (owner !== undefined) return bad(`data block ${dataIndex} is already used by ${owner}`, block.offset);
  if (rd.df.version === 4 && block.byteLength <= 0) return bad(`data block ${dataIndex} declares an inflated size of 0`, block.offset);
  try {
    return readBlock(rd, dataIndex, path, maxBytes);
  } catch (e) {
    if (e instanceof DecodeError && e.code === 'CORRUPT_COMPRESSED') return bad(e.message, e.offset);
    throw e;
  }
}
