// Graal Online levels: the one level model shared by binary .graal/.zelda and text .nw, and
// the .gmap model. See README.md in this folder for the byte layouts behind each field.
import type { DecodeWarning } from '../../core/errors.js';
import type { Text } from '../../core/text.js';

/** Every warning code the Graal decoders emit (binary, .nw and .gmap). */
export type GraalWarningCode =
  | 'TRAILING_BYTES' // binary: bytes after the last section
  | 'BAD_LINK' // binary: a link line that does not parse (skipped)
  | 'NPC_NO_SCRIPT' // binary: an NPC line without `#` (read as an image only)
  | 'CHEST_EXTRA' // binary: bytes after a chest's four
  | 'NO_FINAL_NEWLINE' // binary: the last sign has no closing LF
  | 'BAD_HEIGHTS' // binary and .nw: a HEIGHTS line that is not numbers (ignored)
  | 'MISSING_END' // .nw and .gmap: a block without its END line (read to the end of the file)
  | 'BAD_LINE' // .nw: a malformed keyword line (kept in unknownLines)
  | 'BOARD_CHARACTER' // .nw: BOARD letters outside the alphabet (read as 0)
  | 'GRID_SIZE'; // .gmap: LEVELNAMES is not WIDTH × HEIGHT

/** One 64×64 tile layer. */
export interface GraalLayer {
  /** Layer index: 0 is the base layer; ≥ 1 are overlay layers (GR-V1.05, .nw `BOARD … layer`). */
  index: number;
  /**
   * 4,096 tile ids, row-major (index = y·64 + x), owned by the result. Ids are 0..4095
   * (0..2047 in 12-bit files); NO_TILE (0xFFFF) marks an empty cell of an overlay layer.
   */
  tiles: Uint16Array;
}

/** A warp rectangle to another level. */
export interface GraalLink {
  /** Destination level file name (may contain spaces). */
  level: Text;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Destination x/y as written: a number, `playerx`/`playery`, or an expression such as `playerx+9`. */
  destX: Text;
  destY: Text;
}

export interface GraalBaddy {
  x: number;
  y: number;
  /** Baddy type (0 graysoldier … 9 dragon; see BADDY_NAMES). */
  type: number;
  /** Verses (attack, hurt, win), as many as the file gives; empty in Z3-V1.03. */
  verses: Text[];
}

export interface GraalNpc {
  /** Tile coordinates; may be negative, and fractional in .nw files. */
  x: number;
  y: number;
  /** Image file name, '' for none (written `-` in .nw). */
  image: Text;
  /**
   * GScript source, lines separated by '\n'. `raw` uses LF for line breaks too (binary files
   * store 0xA7, .nw files one line per line: that is framing, done by the codecs).
   */
  script: Text;
}

export interface GraalChest {
  x: number;
  y: number;
  /**
   * Item name from CHEST_ITEMS, or the decimal index when it is outside that list. A fixed
   * vocabulary, not code-page text, so a plain string.
   */
  item: string;
  /** Index of the sign shown on opening; -1 for none. */
  signIndex: number;
}

export interface GraalSign {
  x: number;
  y: number;
  /**
   * Text with '\n' line breaks and `#` escapes for glyphs (`#A`, `#u`, `#h`…, see signs.ts);
   * a glyph code no table entry explains appears as U+E000 + its byte. Glyph-coded in binary
   * files (not a code page), so a plain string; .nw files write it in the level's `encoding`.
   */
  text: string;
}

/** A .zelda/.graal (binary) or .nw (text) level. */
export interface GraalLevel {
  format: 'graal' | 'graal-nw';
  /** The 8-byte header: `Z3-V1.03` … `GR-V1.05`, or `GLEVNW01`. */
  version: string;
  /** Tile layers in index order; layer 0 always exists. */
  layers: GraalLayer[];
  links: GraalLink[];
  baddies: GraalBaddy[];
  npcs: GraalNpc[];
  chests: GraalChest[];
  signs: GraalSign[];
  /** HEIGHTS values (GR-V1.04+, .nw), in file order; absent when the file has none. */
  heights?: number[];
  /** .nw `TILESET name`. */
  tileset?: Text;
  /** .nw `TILESETIMAGE file`. */
  tilesetImage?: Text;
  /** .nw lines no keyword explains, in file order (written back after the known sections). */
  unknownLines: Text[];
  /** .nw line ending of the file (`\n` unless the file used CRLF; always `\n` for binary levels). */
  lineEnding: '\n' | '\r\n';
  /**
   * The code page the level was decoded with (WHATWG name). The string fields that are not
   * `Text` (sign text, chest items) are written in it in .nw files.
   */
  encoding: string;
  /**
   * `'summary'` on a .nw level decoded with `sections: 'summary'`: NPC scripts, sign texts, baddy
   * verses and unknown lines were not read (left empty), nor link names and destinations, NPC
   * images and TILESET (one shared frozen empty Text), so the level cannot be encoded. Absent on
   * a full decode.
   */
  sections?: 'summary';
  warnings: DecodeWarning<GraalWarningCode>[];
}

/** A .gmap (GRMAP001): a grid of level names. */
export interface GraalGmap {
  format: 'graal-gmap';
  version: string;
  width: number;
  height: number;
  /** `height` rows of `width` level names; '' for a blank cell (positional blanks kept). */
  levels: Text[][];
  /** Every other line (MAPIMG, NOAUTOMAPPING, LOADATSTART blocks…), in file order. */
  options: Text[];
  /**
   * True when the file has no LEVELNAMES block: a generated map (`GENERATED`, `HEIGHTMAP` …
   * `HEIGHTMAPEND`), whose levels the server makes. `levels` is then empty (no GRID_SIZE: there
   * is no grid to be the wrong size) and the encoder writes no names block. Absent otherwise.
   */
  withoutLevelNames?: true;
  lineEnding: '\n' | '\r\n';
  warnings: DecodeWarning<GraalWarningCode>[];
}
