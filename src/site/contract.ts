// What `levelkit site` writes and what the site's pages read: the one contract between the
// builder (Node, src/site/) and the pages (browser, web/site/). Both sides import these types;
// README.md in this folder shows the folder the builder writes. A change here is a change to both.
//
// Every page opens from file:// as well as from a static host, so the pages are classic scripts
// (no ES modules, no workers, no fetch: Chromium refuses all three on file://) and every data file
// is a script that queues its value on a global (`dataScript` below). Nothing a page loads is
// outside the site's folder.

/** Version of the data files below; the pages refuse data of another version in one clear line. */
export const SITE_DATA_VERSION = 1;

/** The global the data scripts call (window.levelkitSite). */
export const SITE_GLOBAL = 'levelkitSite';

/**
 * data/catalogue.js: every level of the index, one entry per column (struct of arrays), so 50,000
 * levels are one compact script the index page reads in one parse. Strings repeated across
 * levels (format, version, author, tile/logic/image tokens) are interned: the column holds an index
 * into `strings`. Row i of every column is level i; rows are in path order.
 */
export interface Catalogue {
  version: typeof SITE_DATA_VERSION;
  /** When the site was built (ISO 8601) and from which index (its folder name only, not a path). */
  built: string;
  index: string;
  /** Interned strings. */
  strings: string[];
  levels: {
    /** The level page's key: levels/<key>.html. Unique per (path, member). */
    key: string[];
    /** Display name (the level's own name, else the file name). */
    name: string[];
    /** Path below the scanned folder (with `zip::member` for zip members), for display and search. */
    path: string[];
    format: number[]; // → strings
    version: number[]; // → strings
    author: number[]; // → strings, -1 = none
    bytes: number[];
    width: number[];
    height: number[];
    layers: number[];
    objects: number[];
    warnings: number[];
    findings: number[];
    /** Index into `families`, -1 = in no family. */
    family: number[];
    /** thumbs/<thumb>-s.png (small) and thumbs/<thumb>-l.png (preview); '' = no picture (no grid, error). */
    thumb: string[];
    /** Tokens the "uses" filter matches: `tile:<kind>:<n>`, `logic:<name>`, `image:<name>` (→ strings). */
    uses: number[][];
    /** Lower-cased text searched by the text filter: name, path, author and the level's texts, cut to 4 KiB. */
    text: string[];
    /** Error code when the file did not decode ('' when it did). */
    error: string[];
    /** Why the file has no picture though the index has it: gone or changed since the scan ('' when it is as indexed). Added by the builder. */
    stale: string[];
  };
  /** Families: versions of one level, each a chain of row numbers ordered by date or version. */
  families: { key: string; rows: number[]; exact: boolean }[];
  /** Graal worlds (gmaps) with a page: worlds/<key>.html. */
  worlds: { key: string; name: string; row: number }[];
}

/** levels/<key>.js: what one level's page shows, from the index (and the file, when still there). */
export interface LevelPageData {
  version: typeof SITE_DATA_VERSION;
  key: string;
  name: string;
  path: string;
  format: string;
  formatVersion: string;
  /** The index's summary JSON, parsed. */
  summary: Record<string, unknown>;
  layers: { layer: number; group: number | null; kind: string; name: string; width: number; height: number; image: string | null }[];
  /** Tile histogram per layer: [tile, count] pairs, most frequent first, at most 256 per layer. */
  tiles: { layer: number; kind: string; counts: [number, number][] }[];
  objects: { object: number; kind: string; name: string | null; x: number | null; y: number | null }[];
  texts: { object: number | null; kind: string; text: string; x: number | null; y: number | null }[];
  images: { name: string; width: number | null; height: number | null; external: boolean | null }[];
  warnings: { code: string; message: string }[];
  findings: { rule: string; severity: string; message: string }[];
  /** Levels this one points to (Graal links, gmap cells, zip siblings): page keys, or null when not in the site. */
  links: { kind: 'link' | 'gmap' | 'sibling'; name: string; key: string | null }[];
  family: number;
  /** files/<sha256>.js (dataScript('bytes', { sha256, base64 })) for the page's own drawing with layer toggles; null when the file was gone at build time. */
  bytes: string | null;
  thumb: string;
  /** As Catalogue.levels.stale: why the file on disk is not the one indexed (null when it is). Added by the builder. */
  stale: string | null;
}

/** families/<key>.js: levelkitSite.family(FamilyPageData), a family as a chain, oldest first. */
export interface FamilyPageData {
  version: typeof SITE_DATA_VERSION;
  key: string;
  /** True when every member has the same grid (exact re-saves). */
  exact: boolean;
  steps: {
    /** The level page's key, its name and path, and what orders the chain (file date, else version). */
    key: string;
    name: string;
    path: string;
    date: string | null;
    formatVersion: string;
    thumb: string;
    /** Change from the previous step (null for the first): its diff picture (diffs/<a>-<b>.png, null when none could be drawn) and counts in words ("142 cells changed, 1 image added"). */
    diff: { picture: string | null; counts: string; same: boolean } | null;
  }[];
}

/** worlds/<key>.js: levelkitSite.world(WorldPageData), a Graal gmap drawn as one picture (worlds/<key>.png). */
export interface WorldPageData {
  version: typeof SITE_DATA_VERSION;
  key: string;
  name: string;
  picture: string | null;
  /** Picture size in pixels, and the grid of levels it is cut into. */
  width: number;
  height: number;
  columns: number;
  rows: number;
  /** Row-major, columns × rows: each cell's level name, its page key (null when not in the site), and whether it was drawn. */
  cells: { name: string; key: string | null; state: 'drawn' | 'missing' | 'error' }[];
}

/**
 * Every HTML page the builder writes is the same shell, so the pages' code owns the DOM:
 *
 *   <!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escaped title}</title>
 *   <link rel="stylesheet" href="{root}assets/site.css"></head>
 *   <body data-page="{index|level|family|world}" data-key="{key}" data-root="{root}">
 *   <script src="{root}data/catalogue.js"></script>          (every page: names and links)
 *   <script src="{root}{levels|families|worlds}/{key}.js"></script>   (level, family, world pages)
 *   <script src="{root}assets/site.js"></script></body></html>
 *
 * `root` is '' for index.html and '../' for the others. site.js (web/site/, built by rollup to
 * dist/site/site.js with dist/site/site.css; the builder copies both into assets/) runs last:
 * the data scripts before it push `[kind, value]` onto `window.levelkitSite.queue` (dataScript),
 * and site.js reads the queue when it starts.
 */
export const DATA_SCRIPT_PREFIX = `(window.${SITE_GLOBAL}=window.${SITE_GLOBAL}||{queue:[]}).queue.push(`;

/** The body of a data script: `DATA_SCRIPT_PREFIX["level",{...}]);` with `<` escaped so no text closes the script. */
export function dataScript(kind: 'catalogue' | 'level' | 'family' | 'world' | 'bytes', value: unknown): string {
  return `${DATA_SCRIPT_PREFIX}${JSON.stringify([kind, value])
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')});\n`;
}
