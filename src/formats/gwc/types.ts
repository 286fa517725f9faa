// Wherigo GWC cartridges (and GWZ source zips): the decoded model. Field names follow
// ../../shared/specs/gwc.txt; README.md here says which fields encode() recomputes.

import type { DecodeWarning } from '../../core/errors.js';
import type { Text } from '../../core/text.js';

/** Warning codes of a GWC/GWZ decode (`strict: true` turns each into DecodeError STRICT). */
export type GwcWarningCode =
  /** HeaderLength disagrees with the header as parsed field by field. */
  | 'HEADER_LENGTH'
  /** The Lua object does not start where the header ends (it is read at its table offset). */
  | 'LUA_OFFSET'
  /** Objects overlap or are not in ascending order in the table: encode() re-lays them out back to back. */
  | 'LAYOUT'
  /** Bytes no table row points at, between objects (kept in the next row's `gapBefore`) or after the last one (kept in `trailing`). */
  | 'ORPHAN_BYTES'
  /** A media object's first bytes are not those of its declared type. */
  | 'MEDIA_TYPE_MISMATCH'
  /** A media type number with no known meaning (kept as found). */
  | 'UNKNOWN_MEDIA_TYPE'
  /** The completion-code length field is not strlen + 1 (kept as found). */
  | 'COMPLETION_LENGTH'
  /** The splash or icon id names no object, or a deleted one. */
  | 'MEDIA_REFERENCE'
  /** GWZ: members that are not at the root or are neither the Lua file nor media (listed in `others`). */
  | 'GWZ_EXTRA_MEMBERS';

/** One object-table row as stored: the object id and the absolute offset of its record. */
export interface GwcTableRow {
  id: number;
  /** Absolute offset of the object in the file (recomputed by encode()). */
  offset: number;
  /**
   * Bytes no row points at between the end of the previous object in table order (or of the
   * header) and this object: a copy, written back by encode(). Empty in most files; Urwigo left
   * headless media records (i32 type, i32 length, data) there in two corpus files.
   */
  gapBefore: Uint8Array;
}

/** The 12-byte Lua 5.1 chunk header (validated: only little-endian 5.1 with 4/4-or-8/4/8 sizes is accepted). */
export interface LuaHeader {
  /** 0x51 for Lua 5.1. */
  version: number;
  /** 0 = the official format. */
  format: number;
  littleEndian: boolean;
  intSize: number;
  sizeTSize: number;
  instructionSize: number;
  numberSize: number;
  /** False: lua_Number is a floating-point type (the only kind accepted). */
  integral: boolean;
}

/** Object 0: the compiled Lua 5.1 chunk. */
export interface GwcLua {
  /** Absolute offset of the object's length field (recomputed by encode()). */
  offset: number;
  /** The bytecode (a copy owned by the result). */
  bytes: Uint8Array;
  header: LuaHeader;
  /**
   * The main function's source name (`@C:/…/urwigo-src-<uuid>.lua` for Urwigo builds,
   * `@E:/webtempfiles/<uuid>/….enc` for wherigo.com ones); null when the chunk stores none.
   */
  sourceName: Text | null;
}

/** A media object (id ≥ 1). */
export interface GwcMedia {
  id: number;
  /** Absolute offset of the object's valid byte (recomputed by encode()). */
  offset: number;
  /** The stored valid byte: 0 = deleted (nothing follows), any other value = present (2 occurs in Urwigo files). */
  valid: number;
  /** The stored type number (1 bmp, 2 png, 3 jpg, 4 gif, 17 wav, 18 mp3, 19 fdl, 20 snd, 21 ogg, 33 swf, 49 txt, others kept); null when deleted. */
  type: number | null;
  /** The media bytes (a copy owned by the result). Empty when deleted, and in a `sections: 'summary'` decode. */
  data: Uint8Array;
  /** The stored length (equals `data.length` in a full decode; 0 when deleted). */
  length: number;
  /**
   * The entries after the first when the valid byte n is above 1 and n − 1 further `i32 type, i32
   * length, data` records follow the first before the next object (Urwigo: an fdl Garmin tone after
   * an mp3; README §Media). Players read the first entry only. Absent when there are none.
   */
  extraEntries?: GwcMediaEntry[];
}

/** One further (type, data) entry of a media object. */
export interface GwcMediaEntry {
  /** The stored type number (as `GwcMedia.type`). */
  type: number;
  /** The bytes (a copy owned by the result); empty in a `sections: 'summary'` decode. */
  data: Uint8Array;
  /** The stored length. */
  length: number;
}

/** The header block between the object table and object 0. */
export interface GwcHeader {
  /** Degrees, N+/S−; 360 together with longitude 360 = play anywhere. */
  latitude: number;
  /** Degrees, E+/W−. */
  longitude: number;
  /** Metres. */
  altitude: number;
  /** Creation date as stored: seconds since 2004-02-10 01:00:00 (UTC assumed), an i64. */
  createdSeconds: bigint;
  /** `createdSeconds` as a Date; null when 0 (writers that leave it unset) or outside Date's range. */
  created: Date | null;
  /** Object id of the splash screen; −1 = none. */
  splashId: number;
  /** Object id of the icon; −1 = none. */
  iconId: number;
  /** "TourGuide", "Geocache", "Puzzle"… */
  type: Text;
  /** The downloading player's name ("Mr. Smith" for local Urwigo compiles). */
  player: Text;
  /** Groundspeak user id (−1 for local compiles), an i64. */
  playerId: bigint;
  name: Text;
  guid: Text;
  description: Text;
  startingLocation: Text;
  version: Text;
  author: Text;
  company: Text;
  recommendedDevice: Text;
  /** The stored completion-code length field (strlen + 1 in every known file; written as found). */
  completionCodeLength: number;
  completionCode: Text;
}

/** A decoded `.gwc` cartridge. */
export interface GwcCartridge {
  format: 'gwc';
  warnings: DecodeWarning<GwcWarningCode>[];
  /** `summary`: media bytes were not read (`data` is empty); such a value cannot be encoded. */
  sections: 'all' | 'summary';
  /** The signature's second byte: 0x0A in every known file (GCWizard also accepts 0x0B). */
  signatureVersion: number;
  /** The object table in file order (ids are not always ascending). */
  table: GwcTableRow[];
  /** The stored HeaderLength field (recomputed by encode()). */
  headerLength: number;
  header: GwcHeader;
  lua: GwcLua;
  /** Media objects by id: `media[i].id === i + 1`. */
  media: GwcMedia[];
  /** Bytes after the last object no table row points at (a copy; written back by encode()). */
  trailing: Uint8Array;
}

/** One member of a GWZ zip. */
export interface GwzMember {
  /** The member's name (path) inside the zip. */
  name: string;
  /** Uncompressed size in bytes (the local header's, zip64 extra included; the inflated length once inflated). */
  size: number;
  /** The uncompressed bytes (a copy). Empty in a `sections: 'summary'` decode. */
  data: Uint8Array;
}

/** A decoded `.gwz` (the builders' zip of Lua source and media). */
export interface GwzArchive {
  format: 'gwz';
  warnings: DecodeWarning<GwcWarningCode>[];
  sections: 'all' | 'summary';
  /** Size of the zip in bytes. */
  bytes: number;
  /** Name of the Lua source at the zip's root (conventionally `_cartridge.lua`). */
  luaFile: string;
  /** The Lua source: UTF-8 when valid, else Windows-1252 (`encoding` says which). Empty text in a summary decode. */
  lua: Text;
  /** Media members (root files other than the Lua source), in central-directory order. */
  media: GwzMember[];
  /** Other members: folders, files below the root, further `.lua` files. */
  others: GwzMember[];
}

/** What gwc.decode() returns. */
export type GwcDecoded = GwcCartridge | GwzArchive;

/** Options of gwc.encode() (none yet; kept for the shared shape). */
export type GwcEncodeOptions = Record<string, never>;
