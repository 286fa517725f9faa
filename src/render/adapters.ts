// What a preview reads from each format, in one place: the layers it can draw (preview-layers.ts,
// Teeworlds specifics in tee-layers.ts), the markers it puts on them (markers.ts), the media it
// shows (media.ts) and the tables and texts it lists (preview-tables.ts), over the shapes and
// format tests of preview-types.ts. Each adapter reads a few documented fields of the decoded
// value; everything else about drawing is format-agnostic (draw.ts).

export { MAX_MARKERS, markersOf } from './markers.js';
export { mediaOf, type PreviewMedia } from './media.js';
export { layersOf, previewGrid } from './preview-layers.js';
export { type PreviewText, tablesOf, textsOf } from './preview-tables.js';
export { type Marker, type PreviewLayer, type PreviewRecord, type PreviewTable, str } from './preview-types.js';
export type { Tileset } from './tilesources.js';
