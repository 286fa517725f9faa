// The pages' code (web/site/, built by `npm run build` to dist/site/site.js and site.css), copied
// into <out>/assets/. Found beside the installed package as the bundled Teeworlds pictures are
// (cli/assets.ts): dist/*.mjs and src/site/*.ts both have dist/site/ a few folders up.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SiteFolder } from './out-folder.js';

/** The files the pages need. */
export const SITE_ASSETS = ['site.js', 'site.css'] as const;

/** The pages' code is not built (a checkout without `npm run build`). */
export class AssetsMissing extends Error {
  override name = 'AssetsMissing';
}

/** dist/site/ of this package, when built. */
export function siteAssetsFolder(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    const candidate = join(dir, 'dist', 'site');
    if (SITE_ASSETS.every((f) => existsSync(join(candidate, f)))) return candidate;
  }
  return undefined;
}

/** Reads the assets from `folder` (checked before anything is written); AssetsMissing names what is absent. */
export function readSiteAssets(folder: string | undefined): Map<string, Uint8Array> {
  const missing = folder === undefined ? [...SITE_ASSETS] : SITE_ASSETS.filter((f) => !existsSync(join(folder, f)));
  if (folder === undefined || missing.length)
    throw new AssetsMissing(`the site's pages are not built (${missing.map((f) => `dist/site/${f}`).join(', ')} missing): run npm run build`);
  return new Map(SITE_ASSETS.map((f) => [f, readFileSync(join(folder, f))]));
}

export function writeSiteAssets(out: SiteFolder, assets: Map<string, Uint8Array>): void {
  for (const [name, bytes] of assets) out.write(`assets/${name}`, bytes);
}
