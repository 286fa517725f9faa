// GWC/GWZ cheap facts for `levelkit info` and bulk scans (the fields are fixed by issue 12).

import { sha256Hex } from '../../core/digest.js';
import { countKey, dictionary } from '../../core/record.js';
import { boundSummary, type Summary } from '../define.js';
import { mediaTypeName } from './media.js';
import type { GwcCartridge, GwcDecoded, GwzArchive } from './types.js';

/** The `summary` fields of a `.gwc`. */
export interface GwcSummaryFields {
  name: string;
  guid: string;
  author: string;
  company: string;
  version: string;
  /** The cartridge type ("TourGuide", "Geocache"…). */
  type: string;
  /** ISO 8601 creation date, or null when the file stores 0. */
  created: string | null;
  latitude: number;
  longitude: number;
  altitude: number;
  /** Latitude and longitude both 360. */
  playAnywhere: boolean;
  /** Table rows, the Lua object included. */
  objects: number;
  /** Media objects whose valid byte is 0. */
  deleted: number;
  /** Present media objects by type name: `{ jpg: 3, mp3: 2 }` (`unknown-<n>` for unknown numbers). */
  mediaByType: Record<string, number>;
  /** Length of the Lua bytecode. */
  luaBytes: number;
  /** The main function's source name, or null. */
  luaSource: string | null;
  /** sha256 (hex) of the Lua bytecode: equal for the same compiled cartridge, for duplicate detection. */
  contentDigest: string;
}

/** The `summary` fields of a `.gwz`. */
export interface GwzSummaryFields {
  /** The Lua source's member name. */
  luaFile: string;
  /** Number of media members. */
  media: number;
  /** Size of the zip in bytes. */
  bytes: number;
}

/** What summarize() gives for a `.gwc`: `version` is the signature's second byte (0x0A = 10). */
export type GwcSummary = Summary<number, GwcSummaryFields>;
/** What summarize() gives for a `.gwz`: `version` is 0 (a zip has none of its own). */
export type GwzSummary = Summary<number, GwzSummaryFields>;

export function summarize(v: GwcCartridge): GwcSummary;
export function summarize(v: GwzArchive): GwzSummary;
export function summarize(v: GwcDecoded): GwcSummary | GwzSummary;
export function summarize(v: GwcDecoded): GwcSummary | GwzSummary {
  if (v.format === 'gwz') return boundSummary({ version: 0, summary: { luaFile: v.luaFile, media: v.media.length, bytes: v.bytes } });
  const h = v.header;
  const mediaByType = dictionary<number>();
  let deleted = 0;
  for (const m of v.media) {
    if (m.valid === 0) {
      deleted++;
      continue;
    }
    countKey(mediaByType, mediaTypeName(m.type!));
  }
  return boundSummary({
    version: v.signatureVersion,
    summary: {
      name: h.name.text,
      guid: h.guid.text,
      author: h.author.text,
      company: h.company.text,
      version: h.version.text,
      type: h.type.text,
      created: h.created ? h.created.toISOString() : null,
      latitude: h.latitude,
      longitude: h.longitude,
      altitude: h.altitude,
      playAnywhere: h.latitude === 360 && h.longitude === 360,
      objects: v.table.length,
      deleted,
      mediaByType,
      luaBytes: v.lua.bytes.length,
      luaSource: v.lua.sourceName ? v.lua.sourceName.text : null,
      contentDigest: sha256Hex(v.lua.bytes),
    },
  });
}

/** Cartridges have no tile grid. */
export function mainGrid(_v: GwcDecoded): undefined {
  return undefined;
}
