// levels/<key>.js: what one level's page shows (contract.ts, LevelPageData), from the index's
// rows of that level (index-rows.ts) and the links resolved to page keys (names.ts).
import { type LevelPageData, SITE_DATA_VERSION } from './contract.js';
import type { FileEntry, LevelDetails } from './index-rows.js';

/** Tile values listed per layer (contract: at most 256, most frequent first: the rows come so ordered). */
const MAX_TILES_PER_LAYER = 256;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export interface PageContext {
  key: string;
  name: string;
  path: string;
  family: number;
  thumb: string;
  bytes: string | null;
  stale: string | null;
  links: LevelPageData['links'];
}

function parsedSummary(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string') return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function levelPageData(f: FileEntry, d: LevelDetails, c: PageContext): LevelPageData {
  const tiles = new Map<number, { layer: number; kind: string; counts: [number, number][] }>();
  for (const [layer, kind, tile, count] of d.tiles) {
    const at = Number(layer);
    let entry = tiles.get(at);
    if (!entry) {
      entry = { layer: at, kind: String(kind), counts: [] };
      tiles.set(at, entry);
    }
    if (entry.counts.length < MAX_TILES_PER_LAYER) entry.counts.push([Number(tile), Number(count)]);
  }
  const objectAt = new Map<number, { x: number | null; y: number | null }>();
  for (const o of d.objects) objectAt.set(Number(o[0]), { x: num(o[5]), y: num(o[6]) });
  return {
    version: SITE_DATA_VERSION,
    key: c.key,
    name: c.name,
    path: c.path,
    format: f.format ?? '',
    formatVersion: f.version ?? '',
    summary: parsedSummary(d.levels[0]?.[0]),
    layers: d.layers.map(([layer, group, kind, name, width, height, image]) => ({
      layer: Number(layer),
      group: num(group),
      kind: String(kind),
      name: String(name ?? ''),
      width: Number(width ?? 0),
      height: Number(height ?? 0),
      image: str(image),
    })),
    tiles: [...tiles.values()],
    objects: d.objects.map(([object, kind, name, , , x, y]) => ({ object: Number(object), kind: String(kind), name: str(name), x: num(x), y: num(y) })),
    // A text of an object is where its object is (texts.object = objects.object).
    texts: d.texts.map(([object, source, text]) => {
      const at = object === null ? undefined : objectAt.get(Number(object));
      return { object: num(object), kind: String(source), text: String(text ?? ''), x: at?.x ?? null, y: at?.y ?? null };
    }),
    images: d.images.map(([, name, width, height, external]) => ({
      name: String(name ?? ''),
      width: num(width),
      height: num(height),
      external: external === null || external === undefined ? null : Boolean(external),
    })),
    warnings: d.warnings.map(([code, message]) => ({ code: String(code), message: String(message ?? '') })),
    findings: d.findings.map(([rule, severity, message]) => ({ rule: String(rule), severity: String(severity), message: String(message ?? '') })),
    links: c.links,
    family: c.family,
    bytes: c.bytes,
    thumb: c.thumb,
    stale: c.stale,
  };
}
