// Messages between the page (web/app.ts) and its decode worker (web/worker.ts). Everything here
// survives structuredClone; pixel buffers are transferred, not copied.

import type { Backend, DecodeWarning, Marker, PreviewMedia, PreviewTable, PreviewText } from '../src/index.js';
import type { ImageThumbnail } from '../src/render/thumbnails.js';
import type { CellInfo, EnvelopeCurve, GroupNode, Place } from './inspect/types.js';
import type { WherigoShown } from './panels/wherigo.js';
import type { ResourceReport } from './resources.js';

/** How the page asks for zlib blocks to be inflated: the WASM inflater, the browser's DecompressionStream (decodeAsync) or pako. */
export type PageInflater = 'wasm' | 'stream' | 'pako';

export interface DecodeSettings {
  backend: Backend;
  inflater: PageInflater;
}

export type Request =
  /** Decode one file; `preview` adds the picture, markers and tables. */
  | { type: 'decode'; id: number; name: string; bytes: Uint8Array; settings: DecodeSettings; preview: boolean; layer?: 'main' | 'all' | number }
  /** Unpack a zip: the level files in it come back as files (none when it holds none: a GWZ is opened as one file). */
  | { type: 'unzip'; id: number; name: string; bytes: Uint8Array }
  /** Time decoding `bytes` with every kernel set and inflater. */
  | { type: 'bench'; id: number; bytes: Uint8Array }
  /**
   * Draw a rectangle of tiles of the picture decode request `of` drew, at `scale` pixels per tile
   * (the worker keeps that decode's value while no other preview is asked for).
   */
  | { type: 'region'; id: number; of: number; scale: number; x: number; y: number; width: number; height: number }
  /** Decode `bytes` and draw a small picture of them, at most `maxSide` pixels wide and high (a row's thumbnail). */
  | { type: 'thumb'; id: number; name: string; bytes: Uint8Array; settings: DecodeSettings; maxSide: number }
  /** Keep this Graal tileset (RGBA) for the session, or forget it (null); the worker keeps it for later decodes. */
  | { type: 'tileset'; id: number; image: { width: number; height: number; pixels: Uint8Array } | null }
  /** Draw the picture of decode request `of` again with only `layers` (indexes into its layers, in order) and markers or not; later regions use the same choice. */
  | { type: 'redraw'; id: number; of: number; layers: number[]; markers: boolean; opacity: Record<number, number> }
  /** What cell (x, y) of decode request `of`'s level holds in each layer. */
  | { type: 'cell'; id: number; of: number; x: number; y: number }
  /** The pixels of embedded image `index` of decode request `of`'s level (a Teeworlds map's), for download. */
  | { type: 'image'; id: number; of: number; index: number }
  /** Draw the Graal world of .gmap `bytes` from `files`, the files beside it (their names without the folder). */
  | { type: 'world'; id: number; bytes: Uint8Array; files: { name: string; bytes: Uint8Array }[] };

/** Stages of opening a file, in order: the page reads it; the worker inflates and decodes it, then draws it. */
export type Stage = 'read' | 'decode' | 'inflate' | 'draw';

/** A stage a request has reached, posted by the worker (any number of times before its reply) with how far it is when known. */
export interface ProgressNote {
  id: number;
  progress: { stage: Stage; done?: number; total?: number };
}

/** A drawn rectangle of tiles (region) or a thumbnail, as a bitmap the page puts on a canvas without copying. */
export interface Drawn {
  bitmap: ImageBitmap;
  /** The tiles drawn (region requests; a thumbnail's are the whole grid). */
  x: number;
  y: number;
  width: number;
  height: number;
  scale: number;
}

export interface DecodedFile {
  format: string;
  version: string | number;
  summary: object;
  warnings: DecodeWarning[];
  /** Warning codes whose checks a summary-depth decode did not run (Teeworlds NONZERO_TILE_SKIP), as a scan record's `unchecked`. */
  unchecked?: string[];
  ms: number;
  preview?: {
    width: number;
    height: number;
    rgba: Uint8ClampedArray;
    scale: number;
    tilesWide: number;
    tilesHigh: number;
    layers: { name: string; width: number; height: number; main: boolean; tileset: boolean }[];
    drawn: number[];
    empty?: string;
    markers: Marker[];
    /** Marker kinds with their colours and counts. */
    legend: { kind: string; rgb: [number, number, number]; count: number }[];
    tables: PreviewTable[];
    /** Images and sounds (GWC media, GWZ media files), shown as thumbnails and players. */
    media: PreviewMedia[];
    /** Texts shown whole (a GWZ's Lua source). */
    texts: PreviewText[];
    /** Thumbnails of the level's embedded images (index into its images table). */
    thumbnails: ImageThumbnail[];
    /** External images not bundled, and whether a Graal tileset drew (or would draw) the level. */
    resources: ResourceReport;
    /** Groups and layers for the layers panel. */
    tree: GroupNode[];
    /** Where table rows' objects are, in tiles (the objects panel centres on them). */
    places: Place[];
    /** Teeworlds envelopes' points. */
    envelopes: EnvelopeCurve[];
    /** A GWC's or GWZ's object model (or why it could not be made); absent for other formats. */
    wherigo?: WherigoShown;
  };
}

/**
 * A member of an unpacked zip: its bytes, or why it was not read (`refused`: LIMIT_EXCEEDED past the
 * archive's inflate budget, as `levelkit scan` reports it; `bytes` is then empty).
 */
export interface ZipMember {
  name: string;
  bytes: Uint8Array;
  refused?: { code: string; message: string };
}

/** A Graal world as drawWorld() drew it: its size, grid and cells (row-major: drawn, missing or not decoded). */
export interface WorldPicture {
  width: number;
  height: number;
  columns: number;
  rows: number;
  cellSize: number;
  cells: { name: string; column: number; row: number; state: 'drawn' | 'missing' | 'error'; error?: string }[];
}

export interface BenchRow {
  label: string;
  ms: number | null;
  note?: string;
}

export type Reply =
  | { id: number; ok: true; decoded: DecodedFile }
  | { id: number; ok: true; files: ZipMember[] }
  | { id: number; ok: true; bench: BenchRow[] }
  /** A region or a thumbnail; `drawn` is null when there is nothing to draw. */
  | { id: number; ok: true; drawn: Drawn | null }
  | { id: number; ok: true; tileset: boolean }
  | { id: number; ok: true; picture: { width: number; height: number; bitmap: ImageBitmap | null; scale: number; tilesWide: number; tilesHigh: number } }
  | { id: number; ok: true; cell: CellInfo | null }
  | { id: number; ok: true; image: { name: string; width: number; height: number; rgba: Uint8ClampedArray } | null }
  | { id: number; ok: true; world: WorldPicture & { bitmap: ImageBitmap | null } }
  | { id: number; ok: false; error: { code: string; message: string; offset?: number | null; path?: string | null } };
