// Graphics the user gives `levelkit render` from their own copy of a game (nothing of the kind is
// bundled): a Graal tileset (--tileset pics1.png) and a folder of WWD tile images (--graphics):
// each image set's tiles in a folder named like the set (any case, anywhere up to 4 levels below,
// e.g. LEVEL1/TILES/ACTION/), one image per tile named by its number (`012.png`, `12.BMP`).
// Read only when a level needs them, decoded once per run; an unreadable image is said once and
// its tile keeps its colour.
import { type Dirent, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { decodeBmp, decodePng, graalTileset, type RenderResources, type Tileset } from '../index.js';
import { printable } from '../scan/names.js';
import { readFileSafe } from '../scan/read.js';
import { UsageError } from './options.js';

/** Largest tileset or tile image read (pics1.png is well under 1 MB). */
const MAX_IMAGE_BYTES = 32 * 1024 * 1024;
/** How deep below --graphics image-set folders are looked for. */
const MAX_DEPTH = 4;
/** Most folders looked at below --graphics (a whole disk given by mistake is not walked). */
const MAX_FOLDERS = 20_000;
/** A tile image's name: its number (leading zeros allowed) and .png or .bmp, any case. */
const TILE_FILE = /^(\d{1,5})\.(png|bmp)$/i;

/** The picture in `path` (PNG or BMP, by content): DecodeError when damaged, a message when unreadable. */
function readImage(path: string): Tileset | string {
  const read = readFileSafe(Buffer.from(path), { maxBytes: MAX_IMAGE_BYTES });
  if (!('bytes' in read)) return 'failure' in read ? read.failure.message : 'not read';
  const b = read.bytes;
  return b[0] === 0x42 && b[1] === 0x4d ? decodeBmp(b) : decodePng(b);
}

/** --tileset: the Graal tileset, read and checked before any level is drawn (a UsageError naming the option otherwise). */
export function loadTileset(path: string): Tileset {
  let image: Tileset | string;
  try {
    image = readImage(path);
  } catch (e) {
    throw new UsageError(`--tileset ${printable(path)}: ${(e as Error).message}`);
  }
  if (typeof image === 'string') throw new UsageError(`--tileset ${printable(path)}: ${image}`);
  if (image.width < 16 || image.height < 16)
    throw new UsageError(`--tileset ${printable(path)}: ${image.width} × ${image.height} px is smaller than one 16 × 16 tile`);
  return graalTileset(image);
}

/** --graphics: checked to be a folder before any level is drawn. */
export function checkGraphicsFolder(path: string): void {
  let folder = false;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    folder = false;
  }
  if (!folder) throw new UsageError(`--graphics must name a folder of tile images; ${printable(path)} is not one`);
}

/** The WWD tile images of one --graphics folder: image-set folders found once, each tile decoded on first need and kept. */
export class WwdGraphics {
  private folders?: Map<string, string>;
  private readonly files = new Map<string, Map<number, string>>();
  private readonly images = new Map<string, Tileset | null>();

  constructor(
    private readonly root: string,
    private readonly warn: (message: string) => void,
  ) {}

  /** The tiles of `need` (resourcesNeeded's wwdTiles) found in the folder. */
  tilesFor(need: { imageSet: string; ids: number[] }[]): RenderResources['wwdTiles'] {
    const out = new Map<string, Map<number, Tileset>>();
    for (const { imageSet, ids } of need) {
      const files = this.filesOf(imageSet);
      const tiles = new Map<number, Tileset>();
      for (const id of ids) {
        const path = files?.get(id);
        const image = path === undefined ? undefined : this.image(path);
        if (image) tiles.set(id, image);
      }
      if (tiles.size) out.set(imageSet, tiles);
    }
    if (need.length && out.size === 0) this.warn(`--graphics: no tile images for the image sets ${need.map((n) => n.imageSet).join(', ')} below ${this.root}`);
    return out;
  }

  /** Tile files by id in the folder named like `imageSet` (the shallowest, then first by name). */
  private filesOf(imageSet: string): Map<number, string> | undefined {
    this.folders ??= this.findFolders();
    const dir = this.folders.get(imageSet.toUpperCase());
    if (dir === undefined) return undefined;
    let files = this.files.get(dir);
    if (!files) {
      files = new Map();
      for (const name of safeList(dir).sort()) {
        const m = TILE_FILE.exec(name.name);
        if (m && name.isFile() && !files.has(Number(m[1]))) files.set(Number(m[1]), join(dir, name.name));
      }
      this.files.set(dir, files);
    }
    return files;
  }

  /** Every folder up to MAX_DEPTH below the root (the root too), by upper-case name; links are not followed. */
  private findFolders(): Map<string, string> {
    const found = new Map<string, string>();
    let level = [this.root];
    let seen = 0;
    for (let depth = 0; depth <= MAX_DEPTH && level.length && seen < MAX_FOLDERS; depth++) {
      seen += level.length;
      const next: string[] = [];
      for (const dir of level) {
        const key = basename(dir).toUpperCase();
        if (!found.has(key)) found.set(key, dir);
        for (const e of safeList(dir).sort((a, b) => (a.name < b.name ? -1 : 1))) if (e.isDirectory()) next.push(join(dir, e.name));
      }
      level = next;
    }
    return found;
  }

  private image(path: string): Tileset | undefined {
    const cached = this.images.get(path);
    if (cached !== undefined) return cached ?? undefined;
    let image: Tileset | null = null;
    try {
      const read = readImage(path);
      if (typeof read === 'string') this.warn(`--graphics: ${path}: ${read}`);
      else image = read;
    } catch (e) {
      this.warn(`--graphics: ${path}: ${(e as Error).message}; its tile is drawn as a colour`);
    }
    this.images.set(path, image);
    return image ?? undefined;
  }
}

function safeList(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
