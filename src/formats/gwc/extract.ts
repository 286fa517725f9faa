// `extract` for GWC and GWZ: the files `levelkit extract` writes. A GWC gives its Lua bytecode,
// every present media object and a JSON description; a GWZ its Lua source, media and a JSON list.
// See README.md § Extract.

import { sha256Hex } from '../../core/digest.js';
import { DecodeError } from '../../core/errors.js';
import type { Text } from '../../core/text.js';
import type { ExtractedFile } from '../define.js';
import { decodeLua } from './lua-chunk.js';
import { luaListing } from './lua-listing.js';
import { MEDIA_TYPES, mediaTypeName } from './media.js';
import { modelOrWhy, objectFiles } from './objects-files.js';
import type { GwcCartridge, GwcDecoded, GwzArchive } from './types.js';

/**
 * The files of a decoded cartridge or GWZ, with relative paths:
 * - GWC: `cartridge.luac` (the bytecode), `lua.txt` (its disassembly: each function's constants,
 *   locals, upvalue names and instructions by opcode name), `media/<id>.<ext>` for each present media object (`ext`
 *   from the declared type; `bin` for unknown numbers), `cartridge.json` (header, table, objects,
 *   Lua header, warnings; bigints as decimal strings, text as `{ text, encoding }`).
 * - Both: the objects the analysis recovers from the Lua (objects-files.ts): `objects.json`,
 *   `zones.geojson`, `zones.gpx`, `messages.txt`; when the analysis fails, `objects.json` and
 *   `messages.txt` say why and the rest is written as ever.
 * - GWZ: the Lua source under its own name, `media/<name>` for each media member, `gwz.json`
 *   (members, warnings). Member names are made safe for a file system (`/ \ : * ? " < > |`,
 *   control characters, `.` and `..` replaced); other members are listed in the JSON only.
 * TypeError for a `sections: 'summary'` decode (it holds no media bytes).
 */
export function extract(v: GwcDecoded): ExtractedFile[] {
  if (v.sections !== 'all')
    throw new TypeError(`gwc.extract: this ${v.format} was decoded with sections: 'summary', which leaves out the media bytes; decode with sections: 'all'`);
  return v.format === 'gwz' ? extractGwz(v) : extractGwc(v);
}

function extractGwc(c: GwcCartridge): ExtractedFile[] {
  const files: ExtractedFile[] = [
    { path: 'cartridge.luac', bytes: c.lua.bytes.slice() },
    { path: 'lua.txt', bytes: new TextEncoder().encode(listing(c)) },
  ];
  const fileOf = new Map<number, string>();
  for (const m of c.media) {
    if (m.valid === 0) continue;
    const path = `media/${m.id}.${m.type! in MEDIA_TYPES ? mediaTypeName(m.type!) : 'bin'}`;
    fileOf.set(m.id, path);
    files.push({ path, bytes: m.data.slice() });
  }
  const h = c.header;
  const json = {
    format: 'gwc',
    signatureVersion: c.signatureVersion,
    headerLength: c.headerLength,
    header: {
      latitude: h.latitude,
      longitude: h.longitude,
      altitude: h.altitude,
      playAnywhere: h.latitude === 360 && h.longitude === 360,
      createdSeconds: h.createdSeconds.toString(),
      created: h.created ? h.created.toISOString() : null,
      splashId: h.splashId,
      iconId: h.iconId,
      type: jsonText(h.type),
      player: jsonText(h.player),
      playerId: h.playerId.toString(),
      name: jsonText(h.name),
      guid: jsonText(h.guid),
      description: jsonText(h.description),
      startingLocation: jsonText(h.startingLocation),
      version: jsonText(h.version),
      author: jsonText(h.author),
      company: jsonText(h.company),
      recommendedDevice: jsonText(h.recommendedDevice),
      completionCodeLength: h.completionCodeLength,
      completionCode: jsonText(h.completionCode),
    },
    lua: {
      offset: c.lua.offset,
      bytes: c.lua.bytes.length,
      sha256: sha256Hex(c.lua.bytes),
      header: c.lua.header,
      sourceName: c.lua.sourceName ? jsonText(c.lua.sourceName) : null,
      file: 'cartridge.luac',
    },
    table: c.table,
    objects: c.media.map((m) => ({
      id: m.id,
      offset: m.offset,
      valid: m.valid,
      deleted: m.valid === 0,
      type: m.type,
      typeName: m.type === null ? null : mediaTypeName(m.type),
      length: m.length,
      sha256: m.valid === 0 ? null : sha256Hex(m.data),
      file: fileOf.get(m.id) ?? null,
    })),
    trailingBytes: c.trailing.length,
    warnings: c.warnings,
  };
  files.push({ path: 'cartridge.json', bytes: new TextEncoder().encode(`${JSON.stringify(json, null, 2)}\n`) });
  files.push(...objectFiles(modelOrWhy(c), h.name.text));
  return files;
}

function extractGwz(z: GwzArchive): ExtractedFile[] {
  const files: ExtractedFile[] = [{ path: safeName(z.luaFile), bytes: z.lua.raw.slice() }];
  const used = new Set<string>();
  const media = z.media.map((m) => {
    let path = `media/${safeName(m.name)}`;
    // Names made safe could collide ("a:b" and "a_b"): number the later ones.
    for (let n = 2; used.has(path.toLowerCase()); n++) path = `media/${n}-${safeName(m.name)}`;
    used.add(path.toLowerCase());
    files.push({ path, bytes: m.data.slice() });
    return { name: m.name, size: m.size, sha256: sha256Hex(m.data), file: path };
  });
  const json = {
    format: 'gwz',
    bytes: z.bytes,
    luaFile: z.luaFile,
    luaEncoding: z.lua.encoding,
    luaBytes: z.lua.raw.length,
    luaSha256: sha256Hex(z.lua.raw),
    media,
    others: z.others.map((m) => ({ name: m.name, size: m.size })),
    warnings: z.warnings,
  };
  files.push({ path: 'gwz.json', bytes: new TextEncoder().encode(`${JSON.stringify(json, null, 2)}\n`) });
  files.push(...objectFiles(modelOrWhy(z), z.luaFile));
  return files;
}

/** The chunk's disassembly; for a chunk that does not decode, the one line saying why. */
function listing(c: GwcCartridge): string {
  try {
    return luaListing(decodeLua(c));
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return `; the Lua chunk could not be decoded: ${e.message}\n`;
  }
}

function jsonText(t: Text): { text: string; encoding: string } {
  return { text: t.text, encoding: t.encoding };
}

/** A member name usable as one file name on any system (no separators, no `.`/`..`). */
export function safeName(name: string): string {
  // eslint-disable-next-line no-control-regex
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a safe file name must not hold
  const s = name.replace(/[\\/:*?"<>|\x00-\x1f]/g, '_');
  return s === '' || s === '.' || s === '..' ? `_${s}` : s;
}
