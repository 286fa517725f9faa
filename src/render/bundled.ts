// The pictures the package ships (assets/teeworlds/: Teeworlds map resources and DDNet's editor
// atlases, CC-BY-SA 3.0, licence beside them), loaded for an embedder in one call, and the picture
// `levelkit render` draws: every layer when some have real tiles. Works in browsers (fetch) and
// Node (node:fs through process.getBuiltinModule, never a static `node:` import).

import { nodeBuiltin } from '../core/host.js';
import type { MainGrid } from '../formats/define.js';
import { type Canvas2D, paintPreview } from './canvas.js';
import { type Preview, type RenderOptions, renderPreview } from './draw.js';
import { decodePng } from './png-decode.js';
import { ENTITY_ASSETS, MAPRES_NAME, type RenderResources, resourcesNeeded, type Tileset } from './tilesources.js';

/** Reads a file below assets/teeworlds/ (`mapres/grass_main.png`); undefined when it is not there. */
export type AssetReader = (path: string) => Promise<Uint8Array | undefined>;

export interface BundledResourceOptions {
  /**
   * Where the package's assets/teeworlds/ folder is: its URL (http(s): or file:), or a function
   * reading a path below it. Default: the package's own copy, found beside the levelkit module
   * (up to three folders up from it: dist/levelkit.browser.mjs, dist/esm/…, dist/index.mjs);
   * a bundler that moves levelkit elsewhere needs the URL where the folder is served.
   */
  assets?: string | URL | AssetReader;
}

interface NodeFs {
  readFileSync(path: string): Uint8Array;
  existsSync(path: string): boolean;
}
interface NodeUrl {
  fileURLToPath(url: URL): string;
}

/** A reader of files below `base` (a folder URL ending in '/'). */
function urlReader(base: URL): AssetReader {
  if (base.protocol === 'file:') {
    const fs = nodeBuiltin<NodeFs>('node:fs');
    const url = nodeBuiltin<NodeUrl>('node:url');
    return async (path) => {
      if (!fs || !url) return undefined;
      try {
        return fs.readFileSync(url.fileURLToPath(new URL(path, base)));
      } catch {
        return undefined;
      }
    };
  }
  return async (path) => {
    try {
      const r = await fetch(new URL(path, base));
      return r.ok ? new Uint8Array(await r.arrayBuffer()) : undefined;
    } catch {
      return undefined;
    }
  };
}

/** The package's own assets/teeworlds/: the first of up to three parent folders of this module holding its LICENSE. */
async function packageAssets(): Promise<AssetReader | undefined> {
  for (const up of ['../', '../../', '../../../']) {
    const reader = urlReader(new URL(`${up}assets/teeworlds/`, import.meta.url));
    if (await reader('LICENSE')) return reader;
  }
  return undefined;
}

/** Decoded pictures per reader and path, so a page drawing many maps fetches each once. */
const cache = new WeakMap<AssetReader, Map<string, Promise<Tileset | undefined>>>();
let defaultReader: Promise<AssetReader | undefined> | undefined;

function readerOf(assets: BundledResourceOptions['assets']): Promise<AssetReader | undefined> {
  if (typeof assets === 'function') return Promise.resolve(assets);
  if (assets !== undefined) {
    const base = new URL(String(assets));
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    return Promise.resolve(urlReader(base));
  }
  defaultReader ??= packageAssets();
  return defaultReader;
}

/** A picture below assets/teeworlds/, decoded once per reader; undefined when missing or unreadable (its tiles keep their colours). */
function picture(reader: AssetReader, path: string): Promise<Tileset | undefined> {
  const mine = cache.get(reader) ?? new Map<string, Promise<Tileset | undefined>>();
  cache.set(reader, mine);
  let p = mine.get(path);
  if (!p) {
    p = reader(path)
      .then((bytes) => (bytes ? decodePng(bytes) : undefined))
      .catch(() => undefined);
    mine.set(path, p);
  }
  return p;
}

/**
 * Loads the bundled pictures `level` draws with (only those resourcesNeeded() names: the map
 * resources of its external images, the atlases of its physics layers), as render()'s `resources`.
 * A picture not found leaves its tiles drawn as colours. TypeError for a bad `assets`.
 */
export async function loadBundledResources(level: { format: string }, opts: BundledResourceOptions = {}): Promise<RenderResources> {
  const assets = opts.assets;
  if (assets !== undefined && typeof assets !== 'string' && typeof assets !== 'function' && !(assets instanceof URL))
    throw new TypeError('levelkit: loadBundledResources: assets must be a URL (string or URL) of assets/teeworlds/, or a function reading a path below it');
  const need = resourcesNeeded(level);
  if (need.images.length === 0 && need.entities.length === 0) return {};
  const reader = await readerOf(assets);
  if (!reader) return {};
  const images = new Map<string, Tileset>();
  const entities: NonNullable<RenderResources['entities']> = {};
  await Promise.all([
    ...need.images.map(async (name) => {
      const t = MAPRES_NAME.test(name) ? await picture(reader, `mapres/${name}.png`) : undefined;
      if (t) images.set(name, t);
    }),
    ...need.entities.map(async (kind) => {
      const t = await picture(reader, ENTITY_ASSETS[kind]);
      if (t) entities[kind] = t;
    }),
  ]);
  return { images, entities };
}

/**
 * The picture `levelkit render` draws, from `value` and `resources`: the layer asked for, else
 * the main grid — or every layer, as players see the level, when some layer has real tiles.
 */
export function renderAsCommand(value: { format: string }, main: MainGrid | undefined, opts: RenderOptions): Preview {
  const preview = renderPreview(value, main, opts);
  if (opts.layer === undefined && preview.layers.some((l) => l.tileset)) return renderPreview(value, main, { ...opts, layer: 'all' });
  return preview;
}

/** drawLevel()'s options: render()'s, where to find the bundled pictures, and a canvas to paint on. */
export interface DrawLevelOptions extends RenderOptions, BundledResourceOptions {
  /** A 2D context (`canvas.getContext('2d')`) the picture is painted on, sized to it. */
  canvas?: Canvas2D;
}

/**
 * What `levelkit render` draws, in one call: loads the bundled pictures the level needs (added
 * to any `resources` given, which win), draws, and paints on `canvas` when given.
 */
export async function drawLevel(value: { format: string }, main: MainGrid | undefined, opts: DrawLevelOptions = {}): Promise<Preview> {
  const { canvas, assets, ...render } = opts;
  const bundled = await loadBundledResources(value, assets === undefined ? {} : { assets });
  const resources: RenderResources = { ...bundled, ...render.resources };
  const preview = renderAsCommand(value, main, { ...render, resources });
  if (canvas) paintPreview(canvas, preview);
  return preview;
}
