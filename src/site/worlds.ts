// worlds/<key>.html/.js/.png: a Graal gmap drawn as the world it describes (contract.ts,
// WorldPageData), by the world drawer (src/render/world.ts: drawWorld, given to buildSite). The
// levels a gmap names are looked for beside it (same folder, or same folder of its zip) among the
// index's files, read and checked against the index like every other file.
import type { PngEncode } from '../cli/png.js';
import { pngOf } from '../cli/render-level.js';
import { type AnyDecoded, type DecodeOptions, decode } from '../index.js';
import { dataScript, SITE_DATA_VERSION, type WorldPageData } from './contract.js';
import { pageShell } from './html.js';
import type { IndexedFile, LevelFiles } from './level-files.js';
import type { NameIndex } from './names.js';
import type { SiteFolder } from './out-folder.js';
import type { DrawingOptions } from './thumbs.js';

/** What the world drawer gives (src/render/world.ts). */
export interface WorldPicture {
  width: number;
  height: number;
  rgba: Uint8Array | Uint8ClampedArray;
  columns: number;
  rows: number;
  cells: { name: string; column: number; row: number; state: 'drawn' | 'missing' | 'error'; error?: string }[];
}

/** The world drawer: the gmap as decoded, its levels' bytes by name (the names as the gmap spells them), the drawing options. */
export type DrawWorld = (
  gmap: Extract<AnyDecoded, { format: 'graal-gmap' }>,
  find: (levelName: string) => Uint8Array | undefined,
  options: DrawingOptions,
) => WorldPicture;

export interface WorldContext {
  out: SiteFolder;
  files: LevelFiles;
  names: NameIndex;
  decode: DecodeOptions;
  drawing: DrawingOptions;
  encodePng: PngEncode;
  drawWorld: DrawWorld;
}

/** Writes the world of the gmap `file` (bytes as indexed) under `key`; returns false when its bytes do not decode as a gmap. */
export async function writeWorld(key: string, title: string, file: IndexedFile, bytes: Uint8Array, c: WorldContext): Promise<boolean> {
  const gmap = decode(bytes, c.decode);
  if (gmap.format !== 'graal-gmap') return false;
  // Read before drawing (the drawer asks synchronously): each level the gmap names, once.
  const found = new Map<string, Uint8Array>();
  const keys = new Map<string, string | null>();
  for (const row of gmap.levels)
    for (const cell of row) {
      const name = cell.text;
      if (!name || keys.has(name)) continue;
      const named = c.names.find(file.path, file.member, name);
      keys.set(name, named?.key ?? null);
      if (!named) continue;
      const got = await c.files.read(named.file);
      if ('bytes' in got) found.set(name, got.bytes);
    }
  const world = c.drawWorld(gmap, (name) => found.get(name), c.drawing);
  // Relative to the site's folder, as every path in the page data (contract.ts).
  const picture = world.width > 0 && world.height > 0 ? `worlds/${key}.png` : null;
  if (picture)
    c.out.write(
      picture,
      pngOf(
        { width: world.width, height: world.height, rgba: new Uint8ClampedArray(world.rgba.buffer, world.rgba.byteOffset, world.rgba.byteLength) },
        c.encodePng,
      ),
    );
  const data: WorldPageData = {
    version: SITE_DATA_VERSION,
    key,
    name: title,
    picture,
    width: world.width,
    height: world.height,
    columns: world.columns,
    rows: world.rows,
    cells: world.cells.map((cell) => ({ name: cell.name, key: keys.get(cell.name) ?? null, state: cell.state })),
  };
  c.out.write(`worlds/${key}.js`, dataScript('world', data));
  c.out.write(`worlds/${key}.html`, pageShell('world', key, `world ${title}`));
  return true;
}
