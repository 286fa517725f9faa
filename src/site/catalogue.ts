// data/catalogue.js: every level of the site as columns (contract.ts, Catalogue), filled a level
// at a time in path order. Strings repeated across levels (format, version, author, the "uses"
// tokens) are interned, so 50,000 levels cost one number per cell, not one string.
import { type Catalogue, SITE_DATA_VERSION } from './contract.js';

/** Longest lower-cased search text kept per level (contract: 4 KiB). */
export const MAX_SEARCH_TEXT = 4096;

/** Distinct tile values of one kind listed as "uses" tokens per level (the rest are too many to filter by usefully). */
const MAX_TILE_TOKENS = 256;

export interface CatalogueLevel {
  key: string;
  name: string;
  path: string;
  format: string;
  version: string;
  author: string | null;
  bytes: number;
  width: number;
  height: number;
  layers: number;
  objects: number;
  warnings: number;
  findings: number;
  family: number;
  thumb: string;
  uses: Iterable<string>;
  text: string;
  error: string;
  stale: string;
}

export class CatalogueBuilder {
  private readonly strings: string[] = [];
  private readonly interned = new Map<string, number>();
  readonly levels: Catalogue['levels'] = {
    key: [],
    name: [],
    path: [],
    format: [],
    version: [],
    author: [],
    bytes: [],
    width: [],
    height: [],
    layers: [],
    objects: [],
    warnings: [],
    findings: [],
    family: [],
    thumb: [],
    uses: [],
    text: [],
    error: [],
    stale: [],
  };

  get size(): number {
    return this.levels.key.length;
  }

  /** Adds a level; returns its row. */
  add(l: CatalogueLevel): number {
    const c = this.levels;
    const row = c.key.length;
    c.key.push(l.key);
    c.name.push(l.name);
    c.path.push(l.path);
    c.format.push(this.intern(l.format));
    c.version.push(this.intern(l.version));
    c.author.push(l.author === null ? -1 : this.intern(l.author));
    c.bytes.push(l.bytes);
    c.width.push(l.width);
    c.height.push(l.height);
    c.layers.push(l.layers);
    c.objects.push(l.objects);
    c.warnings.push(l.warnings);
    c.findings.push(l.findings);
    c.family.push(l.family);
    c.thumb.push(l.thumb);
    c.uses.push([...new Set(l.uses)].map((u) => this.intern(u)));
    c.text.push(l.text.toLowerCase().slice(0, MAX_SEARCH_TEXT));
    c.error.push(l.error);
    c.stale.push(l.stale);
    return row;
  }

  /** Sets a row's thumb once it is drawn. */
  setThumb(row: number, thumb: string): void {
    this.levels.thumb[row] = thumb;
  }

  finish(built: string, index: string, families: Catalogue['families'], worlds: Catalogue['worlds']): Catalogue {
    return { version: SITE_DATA_VERSION, built, index, strings: this.strings, levels: this.levels, families, worlds };
  }

  private intern(s: string): number {
    let n = this.interned.get(s);
    if (n === undefined) {
      n = this.strings.length;
      this.strings.push(s);
      this.interned.set(s, n);
    }
    return n;
  }
}

/** The "uses" tokens of a level's rows: `tile:<kind>:<n>` (tiles), `logic:<name>` (objects), `image:<name>` (images). */
export function usesTokens(tiles: unknown[][], objects: unknown[][], images: unknown[][]): string[] {
  const out: string[] = [];
  const perKind = new Map<string, number>();
  for (const [, kind, tile] of tiles) {
    const k = String(kind);
    const n = perKind.get(k) ?? 0;
    if (n >= MAX_TILE_TOKENS) continue;
    perKind.set(k, n + 1);
    out.push(`tile:${k}:${Number(tile)}`);
  }
  for (const o of objects) if (o[3] !== null && o[3] !== undefined && o[3] !== '') out.push(`logic:${String(o[3])}`);
  for (const i of images) if (i[1] !== null && i[1] !== undefined && i[1] !== '') out.push(`image:${String(i[1])}`);
  return out;
}
