// The bundled Teeworlds pictures (assets/teeworlds/: map resources and DDNet's editor atlases,
// CC-BY-SA, outside the library bundle), and the user's own graphics (user-graphics.ts), for `levelkit render`: found beside the installed package,
// read only when a level needs them (resourcesNeeded), decoded once per run and kept for the
// next level. A missing or damaged asset leaves its tiles drawn as a colour per id, said once.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePng, ENTITY_ASSETS, MAPRES_NAME, type RenderResources, resourcesNeeded, type Tileset } from '../index.js';
import { readFileSafe } from '../scan/read.js';
import { loadTileset, WwdGraphics } from './user-graphics.js';

/** Largest asset read (the biggest bundled one is under 400 KB). */
const MAX_ASSET_BYTES = 8 * 1024 * 1024;

/** assets/teeworlds/ of this package: dist/cli.mjs and src/cli/assets.ts both have it a few folders up. */
function assetsFolder(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    const candidate = join(dir, 'assets', 'teeworlds');
    if (existsSync(join(candidate, 'LICENSE'))) return candidate;
  }
  return undefined;
}

/** Graphics the user gave: --tileset (a Graal tileset file) and --graphics (a folder of WWD tile images). */
export interface UserGraphics {
  tileset?: string;
  graphics?: string;
}

/** Loads each bundled picture on first need and keeps it (null: missing or unreadable, not tried again), and the user's graphics. */
export class BundledAssets {
  private readonly folder = assetsFolder();
  private readonly cache = new Map<string, Tileset | null>();
  private readonly wwd: WwdGraphics | undefined;
  private graal: Tileset | undefined;

  constructor(
    private readonly warn: (message: string) => void,
    private readonly user: UserGraphics = {},
  ) {
    this.wwd = user.graphics === undefined ? undefined : new WwdGraphics(user.graphics, warn);
  }

  /** The resources `value` draws with, as far as they are bundled or the user gave them. */
  resourcesFor(value: { format: string }): RenderResources | undefined {
    const need = resourcesNeeded(value);
    if (need.graalTileset && this.user.tileset !== undefined) {
      this.graal ??= loadTileset(this.user.tileset);
      return { graalTileset: this.graal };
    }
    if (need.wwdTiles.length && this.wwd) return { wwdTiles: this.wwd.tilesFor(need.wwdTiles) };
    if (need.entities.length === 0 && need.images.length === 0) return undefined;
    const images = new Map<string, Tileset>();
    for (const name of need.images) {
      const t = MAPRES_NAME.test(name) ? this.load(`mapres/${name}.png`) : undefined;
      if (t) images.set(name, t);
    }
    const entities: NonNullable<RenderResources['entities']> = {};
    for (const kind of need.entities) {
      const t = this.load(ENTITY_ASSETS[kind]);
      if (t) entities[kind] = t;
    }
    return { images, entities };
  }

  private load(rel: string): Tileset | undefined {
    const cached = this.cache.get(rel);
    if (cached !== undefined) return cached ?? undefined;
    let result: Tileset | null = null;
    if (!this.folder) this.warnOnce('assets/teeworlds/ not found beside levelkit: external images and game layers are drawn as a colour per tile id');
    else {
      const read = readFileSafe(Buffer.from(join(this.folder, rel)), { maxBytes: MAX_ASSET_BYTES });
      // A map naming a resource that is not bundled is normal (custom mapres): its tiles get colours, silently.
      if ('bytes' in read) {
        try {
          result = decodePng(read.bytes);
        } catch (e) {
          this.warn(`bundled ${rel} could not be read (${(e as Error).message}); its tiles are drawn as a colour per id`);
        }
      }
    }
    this.cache.set(rel, result);
    return result ?? undefined;
  }

  private warned = false;
  private warnOnce(message: string): void {
    if (!this.warned) this.warn(message);
    this.warned = true;
  }
}
