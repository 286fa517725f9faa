// writeRows() for Teeworlds/DDNet maps: every layer in file order (its group beside it), the tile
// histogram of each tile layer (the physics layers by their tile type), quads, sound sources and
// the game layer's entities as objects, the info item and settings as texts, images with pixels.
// A map decoded with `layers: 'lazy'` is read one deflated block at a time and keeps none of them
// (readUncached), so indexing the largest maps holds one grid, not the whole map.
import { isPending, readUncached } from '../../core/lazy.js';
import type { ImageRow, LayerRow, LevelRows, ObjectRow, RowSink } from '../define.js';
import { type PixelSource, pixelSourceOf } from '../pixel-source.js';
import { collectRows, histogramOf, levelRow, notIndexable, objectRow, tileCounts } from '../rows.js';
import { checkDeferredBlocks } from './deferred-blocks.js';
import { gridCountsOf } from './grid-counts.js';
import type { MapImage, MapLayer, QuadsLayer, SoundsLayer, TeeworldsMap } from './types.js';

/** Game-layer indices from 192 up are entities (the 0.6 entity offset is 191). */
const ENTITY_FIRST = 192;
const ENTITY_NAMES: Record<number, string> = {
  192: 'spawn',
  193: 'spawn-red',
  194: 'spawn-blue',
  195: 'flagstand-red',
  196: 'flagstand-blue',
  197: 'armor',
  198: 'health',
  199: 'weapon-shotgun',
  200: 'weapon-grenade',
  201: 'powerup-ninja',
  202: 'weapon-laser',
};
/** Quad and sound positions are 22.10 fixed point, in pixels. */
const FIXED = 1024;

export function indexRows(map: TeeworldsMap): LevelRows {
  return collectRows((sink) => writeRows(map, sink));
}

export function writeRows(map: TeeworldsMap, sink: RowSink): void {
  if (map.blocksNotInflated !== undefined) throw notIndexable('teeworlds');
  const imageName = (i: number) => (i >= 0 && i < map.images.length ? map.images[i]!.name.text : null);
  const objects = new Objects(sink);
  let game: { width: number; height: number } | null = null;
  let layer = 0;
  // A 2007 map's data have no rows; inflated (and dropped) so that a damaged one refuses the map.
  if (map.legacy) checkDeferredBlocks(map.legacy, 'data');
  map.groups.forEach((g, group) => {
    if (g.name.text) sink.text('group-name', g.name.text);
    for (const l of g.layers) {
      if (l.name.text) sink.text('layer-name', l.name.text);
      sink.layer(layerRow(l, layer, group, imageName));
      const counted = l.kind === 'game' ? undefined : gridCountsOf(l);
      const cells = counted ? undefined : cellsOf(l);
      if (counted) histogramOf(counted, layer, l.kind, sink);
      else if (cells) tileCounts(cells, layer, l.kind, sink);
      if (l.kind === 'game' && cells) {
        game ??= { width: l.width, height: l.height };
        entities(cells, l.width, layer, objects);
      }
      if (l.kind === 'opaque') checkDeferredBlocks(l, 'blocks');
      if (l.kind === 'quads') quads(l, layer, imageName, objects);
      if (l.kind === 'sounds') sources(l, layer, map, objects);
      layer++;
    }
  });
  const info = map.info;
  if (info) {
    for (const [source, t] of [
      ['info.author', info.author],
      ['info.version', info.mapVersion],
      ['info.credits', info.credits],
      ['info.license', info.license],
    ] as const)
      if (t?.text) sink.text(source, t.text);
    for (const s of info.settings ?? []) sink.text('settings', s.text);
  }
  map.images.forEach((img, index) => {
    sink.text('image-name', img.name.text);
    sink.image(imageRow(img, index));
  });
  for (const e of map.envelopes) if (e.name.text) sink.text('envelope-name', e.name.text);
  for (const s of map.sounds) sink.text('sound-name', s.name.text);
  const g = game as { width: number; height: number } | null;
  sink.level(levelRow({ author: info?.author?.text ?? null, flavour: map.flavour, game: 'teeworlds', width: g?.width ?? null, height: g?.height ?? null }));
}

/** The level's objects as they are written: each numbered in the order written, in one reused row. */
class Objects {
  private readonly row = objectRow({ kind: '', index: 0 });
  private next = 0;
  constructor(private readonly sink: RowSink) {}

  add(
    kind: string,
    layer: number,
    name: string | null,
    image: string | null,
    x: number,
    y: number,
    width: number | null,
    height: number | null,
    fields: ObjectRow['fields'],
  ): void {
    const r = this.row;
    r.kind = kind;
    r.index = this.next++;
    r.layer = layer;
    r.name = name;
    r.image = image;
    r.x = x;
    r.y = y;
    r.width = width;
    r.height = height;
    r.fields = fields;
    this.sink.object(r);
  }
}

function layerRow(l: MapLayer, layer: number, group: number, imageName: (i: number) => string | null): LayerRow {
  const sized = 'width' in l;
  return {
    layer,
    group,
    kind: l.kind,
    name: l.name.text,
    width: sized ? l.width : null,
    height: sized ? l.height : null,
    image: 'image' in l ? imageName(l.image) : null,
  };
}

/** The values a layer's histogram counts: tile indices, or for the physics layers their tile type (a lazy grid read, not kept). */
function cellsOf(l: MapLayer): Uint8Array | undefined {
  switch (l.kind) {
    case 'game':
      // Kept: the summary and mainGrid() read it too.
      return l.tiles?.index;
    case 'tiles':
    case 'front':
    case 'infclassEntities':
    case 'infclassZones':
      return readUncached(l, 'tiles')?.index;
    case 'tele':
      return readUncached(l, 'tele')?.type;
    case 'speedup':
      return readUncached(l, 'speedup')?.type;
    case 'switch':
      return readUncached(l, 'switch')?.type;
    case 'tune':
      return readUncached(l, 'tune')?.type;
    default:
      return undefined;
  }
}

/**
 * An image's row. Pixels still deflated (a lazy map) are inflated only when the row's `pixels`
 * is read, anew on each read: the index reads them only when the digest under `pixelsKey` is not
 * known yet, so an image embedded in many maps is inflated about once.
 */
function imageRow(img: MapImage, index: number): ImageRow {
  const row: ImageRow = { index, name: img.name.text, width: img.width, height: img.height, external: img.external, pixels: null };
  const count = img.width * img.height;
  if (isPending(img, 'pixels')) {
    Object.defineProperty(row, 'pixels', { enumerable: true, get: () => rgba(readUncached(img, 'pixels')!, count) });
    const src = pixelSourceOf(img);
    if (src) row.pixelsKey = pixelsKey(src, img.width, img.height);
    if (src?.withPixels) row.withPixels = src.withPixels;
  } else if (img.pixels) {
    row.pixels = rgba(img.pixels, count);
    const src = pixelSourceOf(img.pixels);
    if (src) row.pixelsKey = pixelsKey(src, img.width, img.height);
  }
  return row;
}

function entities(index: Uint8Array, width: number, layer: number, out: Objects): void {
  for (const i of entityCells(index)) {
    const t = index[i]!;
    out.add('entity', layer, ENTITY_NAMES[t] ?? `entity-${t - ENTITY_FIRST + 1}`, null, i % width, Math.floor(i / width), null, null, { tile: t });
  }
}

/**
 * Where the entities are in the game grid. A loop of its own: with the rows written inside the
 * grid's loop, V8 compiled the whole row path into it and threw that code away again and again
 * (its optimized code depends on objects each full collection may free): 40–50 compilations of
 * the loop per corpus pass, ~1 s of the compiler threads' CPU.
 */
function entityCells(index: Uint8Array): number[] {
  const cells: number[] = [];
  for (let i = 0; i < index.length; i++) if (index[i]! >= ENTITY_FIRST) cells.push(i);
  return cells;
}

function quads(l: QuadsLayer, layer: number, imageName: (i: number) => string | null, out: Objects): void {
  const q = l.quads;
  if (!q) return;
  const image = imageName(l.image);
  for (let i = 0; i < q.count; i++) {
    const p = q.points.subarray(i * 10, i * 10 + 10);
    const xs = [p[0]!, p[2]!, p[4]!, p[6]!];
    const ys = [p[1]!, p[3]!, p[5]!, p[7]!];
    out.add(
      'quad',
      layer,
      null,
      image,
      // The pivot (fifth point), in pixels.
      p[8]! / FIXED,
      p[9]! / FIXED,
      (Math.max(...xs) - Math.min(...xs)) / FIXED,
      (Math.max(...ys) - Math.min(...ys)) / FIXED,
      { posEnv: q.posEnv[i]!, posEnvOffset: q.posEnvOffset[i]!, colorEnv: q.colorEnv[i]!, colorEnvOffset: q.colorEnvOffset[i]! },
    );
  }
}

function sources(l: SoundsLayer, layer: number, map: TeeworldsMap, out: Objects): void {
  const s = l.sources;
  if (!s) return;
  const sound = l.sound >= 0 && l.sound < map.sounds.length ? map.sounds[l.sound]!.name.text : null;
  for (let i = 0; i < s.count; i++)
    out.add('sound-source', layer, sound, null, s.position[i * 2]! / FIXED, s.position[i * 2 + 1]! / FIXED, null, null, {
      loop: s.loop[i]!,
      pan: s.pan[i]!,
      delay: s.delay[i]!,
      falloff: s.falloff[i]!,
      posEnv: s.posEnv[i]!,
      soundEnv: s.soundEnv[i]!,
    });
}

/**
 * The stored block the pixels came from, with their shape and the block's declared inflated size
 * (formats/pixel-source.ts), where the decoder noted it: everything inflating them depends on, so
 * equal keys mean equal pixels and the same outcome of inflating them.
 */
function pixelsKey(src: PixelSource, width: number, height: number): Uint8Array {
  const key = new Uint8Array(src.stored.length + 16);
  key.set(src.stored);
  const shape = new DataView(key.buffer, src.stored.length);
  shape.setUint32(0, width, true);
  shape.setUint32(4, height, true);
  shape.setUint32(8, src.channels, true);
  shape.setUint32(12, src.declared, true);
  return key;
}

/** RGBA pixels of an embedded image: 0.7's RGB images get an opaque alpha, so the same picture hashes the same whatever its storage. */
function rgba(pixels: Uint8Array, count: number): Uint8Array {
  if (pixels.length !== count * 3) return pixels;
  const out = new Uint8Array(count * 4);
  for (let i = 0, j = 0; i < count * 3; i += 3, j += 4) {
    out[j] = pixels[i]!;
    out[j + 1] = pixels[i + 1]!;
    out[j + 2] = pixels[i + 2]!;
    out[j + 3] = 255;
  }
  return out;
}
