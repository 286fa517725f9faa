// The worker's pictures from outside a level: the bundled Teeworlds map resources and DDNet's
// editor atlases (dist/web/assets/teeworlds/, CC-BY-SA), fetched by name only when an opened map needs
// them and kept for the session, and the Graal tileset the user gave (kept until replaced).

import {
  decodePng,
  ENTITY_ASSETS,
  MAPRES_NAME,
  type NeededResources,
  type RenderResources,
  resourcesNeeded,
  type Tileset,
  graalTileset as toGraalTileset,
} from '../src/index.js';

const fetched = new Map<string, Promise<Tileset | undefined>>();
let graalTileset: Tileset | undefined;

/** Sets (or clears) the session's Graal tileset (RGBA, pics1.png layout). */
export function setGraalTileset(image: { width: number; height: number; pixels: Uint8Array } | undefined): void {
  graalTileset = image && toGraalTileset(image);
}

/** The session's Graal tileset, if the user gave one (worlds draw every level with it). */
export const sessionGraalTileset = (): Tileset | undefined => graalTileset;

/** A bundled picture by its path below assets/teeworlds/: undefined when missing or unreadable (its tiles then get colours). */
function bundled(rel: string): Promise<Tileset | undefined> {
  let p = fetched.get(rel);
  if (!p) {
    p = fetch(new URL(`assets/teeworlds/${rel}`, self.location.href))
      .then(async (r) => (r.ok ? decodePng(new Uint8Array(await r.arrayBuffer())) : undefined))
      .catch(() => undefined);
    fetched.set(rel, p);
  }
  return p;
}

/** What the page says about a level's pictures: the external images not bundled, and whether a Graal tileset would draw it. */
export interface ResourceReport {
  missing: string[];
  graalTileset: 'used' | 'wanted' | 'none';
}

/** The resources `value` draws with (fetching only what it names; a map without external images or game layers fetches nothing). */
export async function resourcesFor(value: { format: string }): Promise<{ resources: RenderResources; report: ResourceReport }> {
  const need: NeededResources = resourcesNeeded(value);
  const images = new Map<string, Tileset>();
  const missing: string[] = [];
  await Promise.all(
    need.images.map(async (name) => {
      const t = MAPRES_NAME.test(name) ? await bundled(`mapres/${name}.png`) : undefined;
      if (t) images.set(name, t);
      else missing.push(name);
    }),
  );
  const entities: NonNullable<RenderResources['entities']> = {};
  await Promise.all(
    need.entities.map(async (kind) => {
      const t = await bundled(ENTITY_ASSETS[kind]);
      if (t) entities[kind] = t;
    }),
  );
  const graal = need.graalTileset ? graalTileset : undefined;
  return {
    resources: { images, entities, ...(graal ? { graalTileset: graal } : {}) },
    report: { missing: missing.sort(), graalTileset: need.graalTileset ? (graal ? 'used' : 'wanted') : 'none' },
  };
}
