// Which WAP32 game a WWD belongs to. The paths name the game's folders (Claw: LEVELn, Gruntz:
// AREAn, Get Medieval: DUNGEONn, as WapMap reads them); tile size (Claw 64, Gruntz 32) breaks
// ties. See README.md § Game detection.

import type { WwdGame, WwdHeader } from './types.js';

const PATTERNS: readonly [WwdGame, RegExp][] = [
  ['claw', /(^|[\\/_])LEVEL\d+/i],
  ['gruntz', /(^|[\\/_])AREA\d+/i],
  ['get-medieval', /(^|[\\/_])DUNGEON\d+/i],
];

const TILE_SIZE: Partial<Record<number, WwdGame>> = { 64: 'claw', 32: 'gruntz' };

/**
 * `claw` | `gruntz` | `get-medieval` | `unknown`: the game whose folder pattern the path fields
 * (tile dir, image-set dirs, palette, REZ file) name; when they name none or several, the main
 * plane's tile size decides between the candidates (or alone when no path names a game).
 * `unknown` when nothing fits.
 */
export function detectGame(h: WwdHeader, tileWidth: number | undefined, tileHeight: number | undefined): WwdGame {
  const paths = [h.imageDir, ...h.imageSets, h.palRez, h.rezFile].map((t) => t.text);
  const named = new Set<WwdGame>();
  for (const [game, re] of PATTERNS) if (paths.some((p) => re.test(p))) named.add(game);
  const bySize = tileWidth === tileHeight && tileWidth !== undefined ? TILE_SIZE[tileWidth] : undefined;
  if (named.size === 1) return [...named][0]!;
  if (named.size > 1) return bySize && named.has(bySize) ? bySize : 'unknown';
  return bySize ?? 'unknown';
}
