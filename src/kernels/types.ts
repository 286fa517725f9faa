// The one contract both kernel sets implement: plain TS (js/, the reference and test oracle) and
// AssemblyScript compiled to WASM (wasm/). Kernels take typed arrays and numbers, return a count
// or a negative Status, never throw on bad data, and never keep references to their arguments.
// Formats call kernels only through this interface. Sections are grouped by kernel family.

/** Which kernel set runs the hot loops: `auto` is WASM when it instantiates here, else TypeScript. */
export type Backend = 'auto' | 'wasm' | 'js';

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
   * bytes. Word w of record r goes to columns[w][r]; the tails are packed back to back into
   * `strings` (record order), and starts[r] is where record r's tail begins in it. The tails'
   * total is (return value − offset − count × 4 × fixedWords).
   * Returns the offset in `src` just past the last record; Status.TRUNCATED when a record or its
   * tail does not fit in `src` (or `offset` is not a whole number in 0..src.length),
   * Status.OVERFLOW when the tails do not fit in `strings` or `columns` (fewer than fixedWords
   * arrays, or one shorter than count) or `starts` (shorter than count) cannot hold the table,
   * Status.CORRUPT when the length words do not lie inside the fixed part. The outputs' contents
   * are unspecified after a failure.
   */
  gatherRecords(
    src: Uint8Array,
    offset: number,
    count: number,
    layout: RecordLayout,
    columns: readonly Int32Array[],
    strings: Uint8Array,
    starts: Uint32Array,
  ): number;

  /**
   * Walks `count` records starting at `offset` in `src`, each described by `program`: triples
   * (op, a, b), one column per op. Ops: 0 WORD — the LE i32 at the cursor; 1 WSTRING — a u16
   * code-unit count and that many UTF-16 units, the column gets the offset of the count; 2 ARRAY
   * — `b` bytes per element, element count = column `a` (an earlier op) of the same record read
   * as u32, the column gets the offset of the first element. Op o of record r goes to
   * columns[o * count + r] (offsets are into `src`); `columns` must hold ops × count.
   * Returns the offset just past the last record; Status.TRUNCATED when an op passes the end of
   * `src` (or `offset` is not a whole number in 0..src.length), Status.CORRUPT for a bad program
   * (length not a multiple of 3, unknown op, ARRAY naming a later column or a negative size).
   */
  walkRecords(src: Uint8Array, offset: number, count: number, program: Int32Array, columns: Int32Array): number;

  // ── bitstream (Graal binary levels) ───────────────────────────────────────
  /**
   * Decodes one Graal tile stream starting at `src[offset]`: LSB-first codes of `codeBits` bits
   * (12 or 13; 10..16 accepted); a code with the top bit set is a run code (count = low 8 bits,
   * bit 8 = the next two codes alternate), otherwise a tile repeated by the pending count. Fills
   * exactly `dst.length` tiles (runs are cut at the end, a pair needs two free slots).
   * Returns the offset in `src` of the first byte after the stream (the last byte is shared with
   * padding bits), Status.TRUNCATED when `src` ends first (or `offset` is not a whole number in
   * 0..src.length), Status.CORRUPT for a bad width.
   */
  graalTileStream(src: Uint8Array, offset: number, codeBits: number, dst: Uint16Array): number;

  // ── board (Graal .nw text levels) ─────────────────────────────────────────
  /**
   * Decodes BOARD row data: row r is rows[3r..3r+3) = (offset in `text`, tile count, index in
   * `dst`); its 2·count characters (alphabet A–Z a–z 0–9 + /, high six bits first) become
   * dst[index .. index+count). A character outside the alphabet reads as 0.
   * Returns how many such characters there were, Status.TRUNCATED when a row passes the end of
   * `text`, Status.OVERFLOW when it passes the end of `dst`.
   */
  decodeBoardRows(text: Uint8Array, rows: Int32Array, rowCount: number, dst: Uint16Array): number;
  /**
   * The line table of a .nw level: `src` split at LF, line k is [starts[k], ends[k]) (capacity:
   * the shorter of the two). With `trust`, a line that is a BOARD header the servers accept
   * (`BOARD x y w layer ` — each number 1–6 digits before one space, x, y < 64, w ≥ 1,
   * x + w ≤ 64, layer ≤ 255) followed by exactly 2w bytes and LF (or CR LF) is taken whole, its
   * data never searched for LF, and recorded as boards[5b..5b+5) = (line index, data offset, w,
   * layer, y·64 + x) (capacity: floor(boards.length / 5) rows). When the first line ends in CR,
   * every line ending in CR loses it. Sets out[0] = board rows, out[1] = 1 for CRLF (else 0).
   * Returns the line count, or Status.OVERFLOW when a table is full (the caller grows it: a
   * level has at most src.length + 1 lines and src.length / 16 + 1 BOARD rows). Table entries
   * past the counts are unspecified.
   */
  splitNwLines(src: Uint8Array, trust: boolean, starts: Int32Array, ends: Int32Array, boards: Int32Array, out: Int32Array): number;

  // ── bytes ─────────────────────────────────────────────────────────────────
  /**
   * Replaces every byte equal to `from` in `buf` by `to` (stored as a byte, i.e. `to & 0xFF`),
   * in place. Returns how many bytes were replaced (0 when `from` is not a byte value).
   */
  replaceByte(buf: Uint8Array, from: number, to: number): number;
  // ── tilemap (Teeworlds/DDNet tile layers) ─────────────────────────────────
  /**
   * Expands 0.7 tile-skip records: `src` is a list of 4-byte {index, flags, skip, reserved}
   * records, each standing for skip+1 copies of (index, flags), written to the `index` and
   * `flags` columns (capacity = the shorter of the two, checked before every run).
   * Returns the tiles written, or TRUNCATED (src length not a multiple of 4), CORRUPT (a
   * non-zero reserved byte), OVERFLOW (a run would pass the capacity).
   */
  expandTileSkip(src: Uint8Array, index: Uint8Array, flags: Uint8Array): number;
  /**
   * Splits `count` interleaved records of `stride` bytes into `keep` byte columns: byte c of
   * record r goes to dst[c * count + r] (c < keep). Returns how many records have a non-zero
   * byte in the dropped columns keep..stride-1 (e.g. the skip/reserved bytes of a CTile), or
   * TRUNCATED (src shorter than count × stride), OVERFLOW (dst shorter than keep × count),
   * CORRUPT (keep > stride or stride < 1). `dstZeroed`: the caller promises dst[0 .. keep × count)
   * is all zero (a fresh typed array), so an implementation may skip writing zeros; the result is
   * the same either way.
   */
  splitColumns(src: Uint8Array, stride: number, keep: number, count: number, dst: Uint8Array, dstZeroed?: boolean): number;
  /**
   * The CTile case of splitColumns done in place: the `count` 4-byte records {index, flags, skip,
   * reserved} at the start of `buf` become the index column buf[0 .. count) and the flags column
   * buf[count .. 2 × count); bytes 2 × count .. 4 × count are unspecified afterwards, later ones
   * untouched. Saves the caller a second buffer for the commonest grid (the records are 4 bytes,
   * the columns 2).
   * Returns how many records have non-zero skip/reserved bytes, or TRUNCATED (buf shorter than
   * 4 × count, or count not a whole number ≥ 0).
   */
  splitTilesInPlace(buf: Uint8Array, count: number): number;

  // ── inflate (zlib blocks of every format) ─────────────────────────────────
  /**
   * Inflates the zlib stream (RFC 1950 wrapper around RFC 1951 DEFLATE) at the start of `src`
   * into `dst`, which it must fill exactly: the caller knows the inflated size. The Adler-32 after
   * the stream is checked. Returns how many bytes of `src` the stream occupies (header to
   * Adler-32; what follows is the caller's), or TRUNCATED (`src` ends inside the stream),
   * OVERFLOW (it inflates to more than `dst.length`), SHORT_OUTPUT (to fewer), BAD_ZLIB_HEADER,
   * BAD_HUFFMAN_CODE, BAD_DEFLATE_DATA, BAD_CHECKSUM (the JS set, pako, may also say CORRUPT).
   * `dst` holds unspecified bytes after a failure. js: pako; wasm: assembly/inflate.ts.
   */
  inflateZlib(src: Uint8Array, dst: Uint8Array): number;
  /**
   * inflateZlib and splitTilesInPlace in one trip: `src` must inflate to exactly 4 × `cells`
   * bytes of {index, flags, skip, reserved} records, whose index column goes to dst[0 .. cells)
   * and flags column to dst[cells .. 2 × cells) (`dst` is that long; every byte of it is written
   * on success, so it may be uninitialized memory).
   * The WASM set inflates and splits inside its arena and copies out only the columns.
   * Returns how many records have non-zero skip/reserved bytes, or inflateZlib's statuses.
   */
  inflateTiles(src: Uint8Array, dst: Uint8Array, cells: number): number;
  /**
   * One trip into memory for a zlib block that several kernels then read: inflates `src` (as
   * inflateZlib) to exactly `size` bytes and calls `use(block, consumed)` with them. Returns
   * `consumed` (what inflateZlib returns) after `use` returned, or inflateZlib's status without
   * calling it; what `use` throws passes through. The WASM set inflates into its arena and
   * `block` is a view of it, valid only during `use` (copy what you keep), which memory does not
   * grow under: its scanTileGrid and gatherRecords read ranges of `block` where they lie, with no
   * copy in. The JS set (pako) passes a fresh array.
   */
  inflateResident(src: Uint8Array, size: number, use: (block: Uint8Array, consumed: number) => void): number;

  // ── resident bytes (one copy in for several kernel calls) ────────────────
  /**
   * Calls `use(held)` with `src`'s bytes and returns what it returns (what it throws passes
   * through). The WASM set copies `src` into its arena once and `held` is a view of it, valid only
   * during `use` (copy what you keep): the kernels called inside read `held`, or views of it, where
   * it lies, with no copy in. Inside, those calls may reserve at most `scratch` bytes of arena
   * (their tables and outputs), and memory does not grow: a call that would need it to is a bug
   * and throws. The JS set passes `src` itself. `src` is never written.
   */
  holdBytes<T>(src: Uint8Array, scratch: number, use: (held: Uint8Array) => T): T;

  // ── snappy (the index's Parquet pages) ────────────────────────────────────
  /**
   * Compresses `src` as one Snappy raw block (the uncompressed length as a varint, then literals
   * and copies) into `dst`, which must hold `snappyBound(src.length)` bytes (32 + n + n/6, from
   * src/kernels/js/snappy.ts). Returns the bytes written, or OVERFLOW when `dst` is shorter than
   * that bound or `src` is 4 GiB or more. Both sets write the same bytes. `src` is never written.
   */
  snappyCompress(src: Uint8Array, dst: Uint8Array): number;
}

/**
 * The Lua 5.1 chunk walk (Wherigo cartridges), a kernel pair of its own: only gwc's Lua decoder
 * loads it (src/kernels/lua.ts picks the twin of the Kernels set a decode runs with), so the
 * one-format bundles of the other formats do not carry it. The WASM twin is in the one kernel
 * module (assembly/lua.ts).
 */
export interface LuaKernels {
  readonly name: 'js' | 'wasm';
  /**
   * Walks the function prototypes of a Lua 5.1 chunk as lundump.c lays them out, from `start`
   * (the main function's source field) with size_t `sizeT` bytes (4 or 8), and returns the offset
   * just past the main function. `limits` = [most items of each kind in the whole chunk
   * (prototypes, constants, strings, instructions, line-info entries, locals, upvalue names),
   * deepest nesting]. Every count is checked against those and against the bytes left (times the
   * fewest bytes one item takes) before its items are read. With `tables` null it only checks and
   * counts; given tables it fills them (slot layouts in src/kernels/js/lua.ts: LUA_PROTO_FIELDS,
   * LUA_CONSTANT_FIELDS, LUA_STRING_FIELDS, LUA_LOCVAR_FIELDS), checking each capacity before it
   * writes. `info` (at least LuaInfo.PATH + limits[1] slots) gets the totals, and on failure the
   * field, offset, item, value found and path of child ordinals (LuaInfo). Returns TRUNCATED (a
   * field or count runs past `src`), CORRUPT (a negative count, an opcode above 37, a constant
   * type other than nil/boolean/number/string, a boolean byte above 1, a string whose last byte is
   * not NUL, a null string constant; or bad arguments), OVERFLOW (a limit, or a table too small).
   * Prototypes come in file order (pre-order); strings are transcoded into `text` back to back as
   * UTF-16 (UTF-8 when well-formed, else Windows-1252: gwc's autoText rule).
   */
  walkLuaChunk(src: Uint8Array, start: number, sizeT: number, limits: Int32Array, tables: LuaChunkTables | null, info: Int32Array): number;
  /**
   * The walk with tables of exactly the totals (`text` of the UTF-16 units written), made by the
   * kernel set: `{ end, tables }`, or
   * walkLuaChunk's status (and `info`) for a chunk it refuses. The TS set walks twice (count,
   * then fill tables of the totals); the WASM set once, into arena tables as large as the
   * chunk's size allows, and copies out the totals. `keepChunk` adds `tables.chunk`, a copy of
   * `src` in the tables' buffer (one allocation for a decode's copy and its tables).
   */
  walkTables(
    src: Uint8Array,
    start: number,
    sizeT: number,
    limits: Int32Array,
    info: Int32Array,
    keepChunk?: boolean,
  ): { end: number; tables: LuaChunkTables } | number;
}

/** What walkLuaChunk fills (sized from the totals of a walk without tables). */
export interface LuaChunkTables {
  /** LUA_PROTO_FIELDS Int32 slots per prototype, in file order. */
  protos: Int32Array;
  /** LUA_CONSTANT_FIELDS per constant: type tag, value (the boolean; a number's offset in `src`; a string's index). */
  constants: Int32Array;
  /** LUA_STRING_FIELDS per string: offset of its bytes in `src`, length without the NUL, its end in `text`, 1 when read as UTF-8. */
  strings: Int32Array;
  /** LUA_LOCVAR_FIELDS per local: name (string index, -1 for none), startpc, endpc. */
  locVars: Int32Array;
  /** One string index per upvalue name (-1 for none). */
  upvalues: Int32Array;
  lineInfo: Int32Array;
  /** Every instruction as stored, and its fields: opcode (bits 0–5), A (6–13), C (14–22), B (23–31). */
  code: Uint32Array;
  op: Uint8Array;
  a: Uint8Array;
  b: Uint16Array;
  c: Uint16Array;
  /** Every string's UTF-16 code units, back to back (at most the strings' bytes). */
  text: Uint16Array;
  /** A copy of the walked bytes, when walkTables was asked to keep it (string and number offsets count in it). */
  chunk?: Uint8Array;
}

export interface RecordLayout {
  fixedWords: number;
  lenIndex: number;
  lenCount: number;
}
