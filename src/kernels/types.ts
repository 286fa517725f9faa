// The one contract both kernel sets implement: plain TS (js/, the reference and test oracle) and
// AssemblyScript compiled to WASM (wasm/). Kernels take typed arrays and numbers, return a count
// or a negative Status, never throw on bad data, and never keep references to their arguments.
// Formats call kernels only through this interface. Sections are grouped by kernel family.

export interface Kernels {
  readonly name: 'js' | 'wasm';

  // ── checksum ──────────────────────────────────────────────────────────────
  /** Σ src[i] mod 2^32, as an unsigned number. */
  sumBytes(src: Uint8Array): number;

  // ── tile grids ────────────────────────────────────────────────────────────
  /**
   * Scans u32 cells packed as (set << 16 | id), with 0xFFFFFFFF and 0xEEEEEEEE as sentinels.
   * Fills `counts` [invisible, filled, used, used with set ≥ maxIds.length] and sets
   * `maxIds[set]` to the highest id seen (the caller initialises it, usually to -1).
   * Returns 0.
   */
  scanTileGrid(cells: Uint32Array, counts: Uint32Array, maxIds: Int32Array): number;

  // ── record tables ─────────────────────────────────────────────────────────
  /**
   * Struct-of-arrays extraction of `count` records starting at `offset` in `src`: each record is
   * `layout.fixedWords` LE u32 words followed by a tail of Σ words[lenIndex .. lenIndex+lenCount)
   * bytes. Word w of record r goes to columns[w * count + r]; the offset of record r's tail to
   * tails[r]. `columns` must hold fixedWords × count, `tails` count.
   * Returns the offset just past the last record, or Status.TRUNCATED.
   */
  gatherRecords(src: Uint8Array, offset: number, count: number, layout: RecordLayout, columns: Int32Array, tails: Uint32Array): number;
}

export interface RecordLayout {
  fixedWords: number;
  lenIndex: number;
  lenCount: number;
}
