// The picture the page shows for a level, made in Node the way the page's worker makes it (the
// bundled pictures the level names, every layer when some have real tiles): what the browser
// suites compare the page's canvas with.
import { existsSync } from 'node:fs';
import { type AnyDecoded, decodePng, ENTITY_ASSETS, type Preview, type RenderResources, render, resourcesNeeded } from '../../src/index.js';
import { ROOT, readBytes } from './paths.js';

/** The bundled pictures a level names (assets/teeworlds/), as the page's worker fetches them. */
export function bundledResources(value: AnyDecoded): RenderResources {
  const need = resourcesNeeded(value);
  const read = (rel: string) => decodePng(readBytes(`${ROOT}/assets/teeworlds/${rel}`));
  // Names not bundled are drawn as colours, as on the page.
  const bundled = need.images.filter((n) => existsSync(`${ROOT}/assets/teeworlds/mapres/${n}.png`));
  return {
    images: new Map(bundled.map((n) => [n, read(`mapres/${n}.png`)] as const)),
    entities: Object.fromEntries(need.entities.map((k) => [k, read(ENTITY_ASSETS[k])])),
  };
}

/** The picture the page shows when it opens `value`: with the bundled pictures, every layer when some have real tiles. */
export function pagePreview(value: AnyDecoded): Preview {
  const resources = bundledResources(value);
  const p = render(value, { resources });
  return p.layers.some((l) => l.tileset) ? render(value, { layer: 'all', resources }) : p;
}
