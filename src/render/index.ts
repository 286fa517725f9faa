// Previews of levels: one drawing module (draw.ts) with two targets, a plain RGBA buffer
// (`levelkit render` encodes it as PNG) and a canvas (the web page); format knowledge lives in
// adapters.ts (which gathers preview-layers.ts, markers.ts, media.ts, preview-tables.ts), and for
// .wdata (boxes in 3-D, plotted from above) in wdata.ts. Teeworlds groups are placed as the game's
// camera shows them (tee-camera.ts, placed-tiles.ts) at an envelope time (envelopes.ts); pictures
// from outside a level come from tilesources.ts (what is needed), bundled.ts (the package's own,
// loaded for embedders) and the user (bmp-decode.ts, png-decode.ts).
// A Graal .gmap is drawn as one picture of its levels by world.ts.

export {
  layersOf,
  type Marker,
  markersOf,
  mediaOf,
  type PreviewLayer,
  type PreviewMedia,
  type PreviewRecord,
  type PreviewTable,
  type PreviewText,
  str,
  type Tileset,
  tablesOf,
  textsOf,
} from './adapters.js';
export { decodeBmp } from './bmp-decode.js';
export { type AssetReader, type BundledResourceOptions, type DrawLevelOptions, loadBundledResources } from './bundled.js';
export { type Canvas2D, paintPreview } from './canvas.js';
export {
  BACKGROUND,
  MARKER_COLOURS,
  MAX_PREVIEW_PIXELS,
  markerColour,
  type Preview,
  type RenderOptions,
  type RenderProgress,
  renderPreview,
  type TileRect,
  tileColour,
} from './draw.js';
export { decodePng, type PngDecodeOptions, type RgbaImage } from './png-decode.js';
export type { PreviewQuads } from './quads.js';
export { type ImageThumbnail, imageThumbnails, shrinkPicture } from './thumbnails.js';
export { ENTITY_ASSETS, type EntityLayerKind, graalTileset, MAPRES_NAME, type NeededResources, type RenderResources, resourcesNeeded } from './tilesources.js';
export { drawWorld, levelNameMatcher, WORLD_MARKS, WORLD_MAX_CELLS, WORLD_MAX_SIDE, type World, type WorldCell, type WorldOptions } from './world.js';
