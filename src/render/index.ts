// Previews of levels: one drawing module (draw.ts) with two targets, a plain RGBA buffer
// (`levelkit render` encodes it as PNG) and a canvas (the web page); format knowledge lives in
// adapters.ts only.

export { renderPreview, tileColour, BACKGROUND, MARKER_COLOURS, type Preview, type RenderOptions } from './draw.js';
export { paintPreview, type Canvas2D } from './canvas.js';
export { layersOf, markersOf, mediaOf, tablesOf, str, type Marker, type PreviewLayer, type PreviewMedia, type PreviewTable, type Tileset } from './adapters.js';
