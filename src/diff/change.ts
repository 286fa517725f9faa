// The record every format's diff() gives: one Change per difference, in the level's own terms
// (a rectangle of cells of a layer, an object by id, a field of the header …). See README.md here.

/** A value a change carries: JSON-ready (texts as strings, bigints as decimal strings, arrays plain). */
export type DiffValue = string | number | boolean | null | DiffValue[] | { [key: string]: DiffValue };

/** One run of an NPC script (or any text) that changed: lines removed from `a` and added in `b`, 1-based line numbers. */
export interface LineHunk {
  /** First line of `removed` in the old text (or where the lines were added, when none were removed). */
  fromLine: number;
  /** First line of `added` in the new text (or where the lines were removed, when none were added). */
  toLine: number;
  removed: string[];
  added: string[];
  /**
   * Set when the texts were too different to align line by line within the line diff's bounds
   * (src/diff/sequence.ts: MAX_EDITS edits, MAX_STEPS steps): every line between the common first
   * and last lines is `removed` and `added` here, lines the two still share not looked for.
   */
  coarse?: true;
}

/**
 * One difference between two levels of a format. `kind` is a stable string (`tile`, `layer-added`,
 * `object-changed`, `image-changed` …: each format's README lists its kinds); the rest says where
 * (layer or plane index and kind; `x`, `y`, `w`, `h` for a rectangle of cells; `id` for an object,
 * image, envelope or row) and what (`field`, `from` → `to`). Missing members do not apply.
 */
export interface Change {
  kind: string;
  /** The section of a level without layers (a .wdata table: `event:trigger`, `aniBGs`, `scenes` …). */
  section?: string;
  /** Index of the layer, plane or board in the new level (in the old one for a removed layer). */
  layer?: number;
  /** The layer's kind (`game`, `tele`, `tiles`, `plane`, `board` …). */
  layerKind?: string;
  /**
   * The layer's name as the level's editor shows it: a Teeworlds layer's name (its type, `Game`,
   * `Tiles`, `Tele` …, when it has none), a WWD plane's (`Action`, `Front`), a Graal board's
   * (`LAYERNAME`'s, else `base` or `overlay n`).
   */
  layerName?: string;
  /** Teeworlds: the group of the layer (or the group that changed), by index as `layer` is counted, and its name as the editor lists it. */
  group?: number;
  groupName?: string;
  /** A rectangle of cells (tile units), or an object's position. */
  x?: number;
  y?: number;
  w?: number;
  h?: number;
  /** Cells of the rectangle that changed (the rest of it did not). */
  cells?: number;
  /** The object, image, envelope, quad or row: its id, name or index, as the format keys it. */
  id?: DiffValue;
  /** The field that changed, dotted for nested ones (`color.r`, `clipping.x`). */
  field?: string;
  from?: DiffValue;
  to?: DiffValue;
  /**
   * A `tile` change on a DDNet physics layer (game, front, tele, speedup, switch, tune) whose
   * meaningful column changed (`index`; a tele, speedup, switch or tune layer's `type`): what the
   * tiles mean (`air`, `unhookable`, `freeze`, `tele in`, `spawn` …), one name or one per cell in
   * the shape of that column's `from`/`to`. Added by `levelkit diff` (`withTileMeaning` from `levelkit`,
   * src/formats/teeworlds/tile-names.ts), not by teeworlds.diff, whose bundle stays without the table.
   */
  fromMeaning?: string | string[];
  toMeaning?: string | string[];
  /**
   * A `tile` change whose cells held too many different values to list (more than one value in a
   * rectangle of more than INLINE_ARRAY_MAX cells): for each such column, how many different values
   * the changed cells had on that side (`{ "index": { "from": 2, "to": 17 } }`). That side's value
   * leaves the column out (a one-column grid's `from` or `to` is absent): never null, which would
   * read as "removed".
   */
  tooMany?: Record<string, TooMany>;
  /** For a changed text (an NPC script): the runs of lines that differ. */
  hunks?: LineHunk[];
}

/** How many different values a side had, where they were too many to list. */
export interface TooMany {
  from?: number;
  to?: number;
}

/** Typed arrays up to this length are carried in changes as number arrays; longer ones by length and digest. */
export const INLINE_ARRAY_MAX = 64;

/**
 * Appends `items` to `out` one at a time. `out.push(...items)` passes every item as an argument on
 * the call stack, and the changes of a big map (a 600 × 600 checkerboard is 180,000 rectangles)
 * overflow it: "Maximum call stack size exceeded".
 */
export function appendAll<T>(out: T[], items: readonly T[]): T[] {
  for (const x of items) out.push(x);
  return out;
}
