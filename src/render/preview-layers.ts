// The layers a preview can draw of each format: WWD planes, Teeworlds tile, physics, quads and
// opaque layers (placed as the game's camera shows them), Graal layers, a .wdata plot; and how
// drawing reads a lazy grid without keeping it (previewGrid).

import { defineLazy, isPending, readUncached } from '../core/lazy.js';
import type { MainGrid } from '../formats/define.js';
import { type Any, isGraal, isTee, isWdata, isWwd, type PreviewLayer, str } from './preview-types.js';
import { quadLayerOf } from './quads.js';
import { groupView, isIdentityView, isScreenOverlay } from './tee-camera.js';
import { gameGroupIndex, hasTeeGrid, opaqueCells, teeFields, teeGrid, teeGridKey, teeImage, teeMapSize, teeTint } from './tee-layers.js';
import { entityColumns, isEntityLayerKind, type RenderResources, wwdTileImage } from './tilesources.js';
import { wdataPlot } from './wdata.js';

/**
 * How drawing reads each preview layer's grid when it can do so without keeping it (a lazy
 * Teeworlds grid): the drawing code asks previewGrid(), which falls back to the layer's fields.
 */
const uncachedGrids = new WeakMap<PreviewLayer, () => { cells: MainGrid['cells']; flags?: Uint8Array | undefined }>();

/** The grid of a preview layer for drawing: read without keeping it in the level when it is lazy (then each call reads it again). */
export function previewGrid(layer: PreviewLayer): { cells: MainGrid['cells']; flags?: Uint8Array | undefined } {
  return uncachedGrids.get(layer)?.() ?? { cells: layer.cells, flags: layer.flags };
}

/**
 * Every tile grid (and Teeworlds quads layer) of `value` a preview can show, the main grid flagged.
 * Empty for formats without grids. `resources`: pictures from outside the level (bundled Teeworlds
 * map resources and entities atlas, a Graal tileset) that layers are drawn with when given.
 * `timeMs`: the moment Teeworlds envelopes (moving quads, pulsing colours) are drawn at.
 */
export function layersOf(value: Any, main: MainGrid | undefined, resources?: RenderResources, timeMs = 0): PreviewLayer[] {
  const out: PreviewLayer[] = [];
  if (isWwd(value)) {
    value.planes.forEach((p, i) => {
      if (p.tiles.length === p.tilesWide * p.tilesHigh && p.tiles.length > 0) {
        const layer: PreviewLayer = {
          name: str(p.name) || `plane ${i}`,
          width: p.tilesWide,
          height: p.tilesHigh,
          cells: p.tiles,
          main: p.tiles === main?.cells,
        };
        const names = p.imageSetNames.map((n) => n.text.toUpperCase());
        if (resources?.wwdTiles?.size) layer.tileImage = (v) => wwdTileImage(resources.wwdTiles, names, v);
        out.push(layer);
      }
    });
  } else if (isTee(value)) {
    let mainSeen = false;
    const size = teeMapSize(value);
    const game = gameGroupIndex(value);
    value.groups.forEach((g, gi) => {
      const view = groupView(g, size);
      const placed = isIdentityView(view) ? {} : { view };
      const overlay = isScreenOverlay(g, game >= 0 && gi > game) ? { overlay: true } : {};
      g.layers.forEach((l, li) => {
        if (l.kind === 'quads') {
          if (!l.quads?.count && !isPending(l, 'quads')) return;
          // Not spread: that would read the lazy quads now.
          const layer: PreviewLayer = quadLayerOf(value, gi, li, teeImage(value, l.image, resources), size, timeMs);
          if (overlay.overlay) layer.overlay = true;
          out.push(layer);
          return;
        }
        if (l.kind === 'sounds' || l.kind === 'unknown') return;
        if (l.kind === 'opaque') {
          // Opaque layers are rare: whether one has a drawable block is found by reading its blocks (not kept).
          if (!opaqueCells(l)) return;
          const layer = { name: `${gi}.${li} opaque${str(l.name) ? ` ${str(l.name)}` : ''}`, width: l.width, height: l.height, main: false } as PreviewLayer;
          defineLazy(layer, 'cells', () => opaqueCells(l, true)!);
          uncachedGrids.set(layer, () => ({ cells: opaqueCells(l)! }));
          out.push(layer);
          return;
        }
        if (!hasTeeGrid(l)) return;
        const entities = isEntityLayerKind(l.kind) ? resources?.entities?.[l.kind] : undefined;
        const tileset = l.kind === 'tiles' ? teeImage(value, l.image, resources) : entities;
        const name = `${gi}.${li} ${l.kind}${str(l.name) ? ` ${str(l.name)}` : ''}`;
        // mainGrid() is the first game layer's tiles: that layer, found without reading any grid.
        const isMain = main !== undefined && l.kind === 'game' && !mainSeen;
        if (l.kind === 'game') mainSeen = true;
        // The grid fields read the level's own (a lazy grid is kept once read through them); drawing reads through previewGrid.
        const physics = isEntityLayerKind(l.kind) ? { physics: true } : {};
        const layer = { name, width: l.width, height: l.height, main: isMain, ...placed, ...overlay, ...physics } as PreviewLayer;
        if (entities) {
          // Drawn as DDNet's editor draws them: the entity tile ids (a tele's type, not its number) from the kind's atlas.
          const columns = (keep: boolean) => entityColumns(l, keep ? teeFields(l)[teeGridKey(l)] : readUncached(teeFields(l), teeGridKey(l)))!;
          defineLazy(layer, 'cells', () => columns(true).cells);
          defineLazy(layer, 'flags', () => columns(true).flags);
          layer.tileset = entities;
          uncachedGrids.set(layer, () => columns(false));
          out.push(layer);
          return;
        }
        defineLazy(layer, 'cells', () => teeGrid(l, true)!.cells);
        if (tileset) {
          layer.tileset = tileset;
          if (teeGridKey(l) === 'tiles') defineLazy(layer, 'flags', () => teeGrid(l, true)!.flags);
          layer.tint = teeTint(value, l, timeMs);
        }
        uncachedGrids.set(layer, () => {
          const grid = teeGrid(l, false)!;
          return tileset ? grid : { cells: grid.cells };
        });
        out.push(layer);
      });
    });
  } else if (isWdata(value)) {
    // No tile grid: a blank plot the box markers are drawn on.
    const plot = wdataPlot(value);
    if (plot) out.push(plot.layer);
  } else if (isGraal(value) && value.format !== 'graal-gmap') {
    const tileset = resources?.graalTileset;
    for (const l of value.layers)
      out.push({ name: `layer ${l.index}`, width: 64, height: 64, cells: l.tiles, main: l.tiles === main?.cells, ...(tileset ? { tileset } : {}) });
  } else if (main) {
    out.push({ name: 'main', ...main, main: true });
  }
  if (main && !out.some((l) => l.main)) out.unshift({ name: 'main', ...main, main: true });
  return out;
}
