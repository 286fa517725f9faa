// A level's index rows as columnar batches (parquet/columns.ts), built where the level was
// decoded — in the scan's workers — so rows cross to the main thread as a few buffers per message
// that no JavaScript reads again: the main thread concatenates them into Parquet pages.
// Host-independent (the hash function is given).
import type { ImageRow, LevelRow, RowSink } from '../formats/define.js';
import { DigestCache, newDigestBuffer } from './digest-cache.js';
import { type Cell, type TableBatch, TableBuilder, type TableMark } from './parquet/columns.js';
import { type TableName, tableOf } from './schema.js';

/**
 * The tables a worker writes, in IndexBatch order: a level's rows, and `warnings` for a level whose
 * rows could not be made or that a format's rows warned of (RowSink.warning); files and the
 * decoders' warnings come from the records, on the main thread.
 */
export const WORKER_TABLES = ['levels', 'layers', 'tiles', 'objects', 'texts', 'images', 'warnings'] as const satisfies readonly TableName[];

/** A batch per table of WORKER_TABLES, in that order (null where there are no rows). */
export type IndexBatch = (TableBatch | null)[];

/** Longest text stored whole (UTF-16 units); a longer one is cut there and ends with `…`, so no one file can swell the index. */
export const MAX_TEXT = 1 << 20;

export type { Cell };

/** Gathers the rows of the levels a worker answers in one message. */
export class LevelRowsBuilder {
  private readonly tables = WORKER_TABLES.map((t) => new TableBuilder(tableOf(t)));
  /** A histogram's cells shared by its rows (id, layer, kind), filled in place for each: tiles rows are the commonest by far. */
  private readonly tileCells: Cell[] = [null, null, null];
  /** Where the tables stood before the level whose levels row is still to come. */
  private open: TableMark[] | null = null;

  /** `hash`: hex SHA-256, as the files row's sha256. `digests`: pixel digests by pixelsKey, shared by a scan's workers. */
  constructor(
    private readonly hash: (b: Uint8Array) => string,
    private readonly digests: DigestCache = new DigestCache(newDigestBuffer(256)),
  ) {}

  /**
   * Writes a level's rows as `write` (a format's writeRows) gives them, straight into the columns;
   * the function returned adds its `levels` row once the record's summary (and the grid's
   * signature, core/signature.ts) is known. A level gets
   * all its rows or none: what `write` wrote is dropped when it throws (an image's pixels read from
   * a lazy map: a damaged stream), and a level left unfinished is dropped by the next addLevel() or take().
   */
  addLevel(id: string, format: string, write: (sink: RowSink) => void): (summary: object, signature?: string | null) => void {
    this.dropOpen();
    const [levels, layers, tiles, objects, texts, images, warnings] = this.tables as [
      TableBuilder,
      TableBuilder,
      TableBuilder,
      TableBuilder,
      TableBuilder,
      TableBuilder,
      TableBuilder,
    ];
    const marks = this.tables.map((t) => t.mark());
    this.open = marks;
    const count = { layers: 0, objects: 0, texts: 0, images: 0 };
    let level: LevelRow | undefined;
    const tile = this.tileCells;
    tile[0] = id;
    const sink: RowSink = {
      layer: (r) => {
        count.layers++;
        layers.row([id, r.layer, r.group, r.kind, r.name, r.width, r.height, r.image]);
      },
      tiles: (layer, kind, values, counts) => {
        tile[1] = layer;
        tile[2] = kind;
        tiles.rowsWith(tile, [values, counts], values.length);
      },
      object: (r, fieldsJson) => {
        count.objects++;
        const fields = fieldsJson ?? (r.fields ? JSON.stringify(r.fields) : null);
        objects.row([id, r.kind, r.index, r.layer, r.name, r.logic, r.image, r.x, r.y, r.width, r.height, r.target, fields]);
      },
      text: (source, text, object) => {
        count.texts++;
        texts.row([id, source, text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text, object ?? null]);
      },
      image: (r) => {
        count.images++;
        images.row([id, r.index, r.name, r.width, r.height, r.external, this.pixelsDigest(r), r.data ? this.hash(r.data) : null]);
      },
      // Part of the level's rows: dropped with them when the level fails.
      warning: (code, message, offset) => warnings.row([id, code, message, offset]),
      level: (r) => {
        level = r;
      },
    };
    try {
      write(sink);
      if (!level) throw new Error(`levelkit: ${format} writeRows() wrote no level row`);
    } catch (e) {
      this.dropOpen();
      throw e;
    }
    const l = level;
    return (summary, signature = null) => {
      // Dropped meanwhile (another level was begun): nothing of this level is left to finish.
      if (this.open !== marks) return;
      levels.row([
        id,
        format,
        l.name,
        l.title,
        l.author,
        l.flavour,
        l.game,
        l.width,
        l.height,
        count.layers,
        count.objects,
        count.texts,
        count.images,
        JSON.stringify(summary),
        signature,
      ]);
      this.open = null;
    };
  }

  private dropOpen(): void {
    const marks = this.open;
    if (!marks) return;
    this.tables.forEach((t, i) => t.rollback(marks[i]!));
    this.open = null;
  }

  /** The digest of an image's RGBA pixels; with a `pixelsKey`, looked up first, so `pixels` (which may inflate them) is read only when it is new. */
  private pixelsDigest(r: ImageRow): string | null {
    if (!r.pixelsKey) return r.pixels ? this.hash(r.pixels) : null;
    const k = this.hash(r.pixelsKey);
    let digest = this.digests.get(k);
    if (digest === undefined) {
      if (r.withPixels) digest = r.withPixels(this.hash);
      else {
        const pixels = r.pixels;
        if (!pixels) return null;
        digest = this.hash(pixels);
      }
      this.digests.set(k, digest);
    }
    return digest;
  }

  /** A warnings row of a level whose rows could not be made (what it wrote of them is dropped first). */
  addFailure(id: string, code: string, message: string): void {
    this.dropOpen();
    this.tables[WORKER_TABLES.indexOf('warnings')]!.row([id, code, message, null]);
  }

  /** The rows so far (null when there are none); the builder starts over. */
  take(): IndexBatch | null {
    this.dropOpen();
    if (this.tables.every((t) => t.rows === 0)) return null;
    const bytes = this.tables.reduce((n, t) => n + (t.rows ? t.pending : 0), 0);
    const arena = { bytes: new Uint8Array(bytes), at: 0 };
    return this.tables.map((t) => t.take(arena));
  }
}

/**
 * The id of a file's rows: the first 16 hex digits of SHA-256 over the run and the file's path and
 * member, computed the same way by the worker (level rows) and the main thread (the files row).
 * 64 bits: a collision in an index of a billion files has odds of about 1 in 30 million.
 */
export function fileId(run: string, path: string, member: string | null, hash: (b: Uint8Array) => string): string {
  return hash(utf8.encode(`${run}\0${path}\0${member ?? ''}`)).slice(0, 16);
}

const utf8 = new TextEncoder();
