// indexRows() for Teeworlds/DDNet maps: every layer in file order (its group beside it), the tile
// histogram of each tile layer (the physics layers by their tile type), quads, sound sources and
// the game layer's entities as objects, the info item and settings as texts, images with pixels.
import type { ImageRow, LayerRow, LevelRows, ObjectRow, TextRow, TileRow } from '../define.js';
import { pixelSourceOf } from '../pixel-source.js';
import { levelRow, notIndexable, tileHistogram } from '../rows.js';
import type { MapLayer, QuadsLayer, SoundsLayer, TeeworldsMap } from './types.js';

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
  if (map.blocksNotInflated !== undefined) throw notIndexable('teeworlds');
  const imageName = (i: number) => (i >= 0 && i < map.images.length ? map.images[i]!.name.text : null);
  const layers: LayerRow[] = [];
  const tiles: TileRow[] = [];
  const objects: ObjectRow[] = [];
  const texts: TextRow[] = [];
  let game: { width: number; height: number } | null = null;
  map.groups.forEach((g, group) => {
    if (g.name.text) texts.push({ source: 'group-name', text: g.name.text });
    for (const l of g.layers) {
      const layer = layers.length;
      if (l.name.text) texts.push({ source: 'layer-name', text: l.name.text });
      layers.push(layerRow(l, layer, group, imageName));
      const cells = cellsOf(l);
      if (cells) tiles.push(...tileHistogram(cells, layer, l.kind));
      if (l.kind === 'game' && l.tiles) {
        game ??= { width: l.width, height: l.height };
        entities(l.tiles.index, l.width, layer, objects);
      }
      if (l.kind === 'quads') quads(l, layer, imageName, objects);
      if (l.kind === 'sounds') sources(l, layer, map, objects);
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
      if (t?.text) texts.push({ source, text: t.text });
    for (const s of info.settings ?? []) texts.push({ source: 'settings', text: s.text });
  }
  const images: ImageRow[] = map.images.map((img, index) => {
    texts.push({ source: 'image-name', text: img.name.text });
    return {
      index,
      name: img.name.text,
      width: img.width,
      height: img.height,
      external: img.external,
      pixels: img.pixels ? rgba(img.pixels, img.width * img.height) : null,
      ...(img.pixels ? pixelsKey(img.pixels, img.width, img.height) : {}),
    };
  });
  for (const e of map.envelopes) if (e.name.text) texts.push({ source: 'envelope-name', text: e.name.text });
  for (const s of map.sounds) texts.push({ source: 'sound-name', text: s.name.text });
  const g = game as { width: number; height: number } | null;
  return {
    level: levelRow({ author: info?.author?.text ?? null, flavour: map.flavour, game: 'teeworlds', width: g?.width ?? null, height: g?.height ?? null }),
    layers,
    tiles,
    objects,
    texts,
    images,
  };
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

/** The values a layer's histogram counts: tile indices, or for the physics layers their tile type. */
function cellsOf(l: MapLayer): Uint8Array | undefined {
  switch (l.kind) {
    case 'tiles':
    case 'game':
    case 'front':
    case 'infclassEntities':
    case 'infclassZones':
      return l.tiles?.index;
    case 'tele':
      return l.tele?.type;
    case 'speedup':
      return l.speedup?.type;
    case 'switch':
      return l.switch?.type;
    case 'tune':
      return l.tune?.type;
    default:
      return undefined;
  }
}

function entities(index: Uint8Array, width: number, layer: number, out: ObjectRow[]): void {
  for (let i = 0; i < index.length; i++) {
    const t = index[i]!;
    if (t < ENTITY_FIRST) continue;
    out.push({
      kind: 'entity',
      index: out.length,
      layer,
      name: ENTITY_NAMES[t] ?? `entity-${t - ENTITY_FIRST + 1}`,
      logic: null,
      image: null,
      x: i % width,
      y: Math.floor(i / width),
      width: null,
      height: null,
      target: null,
      fields: { tile: t },
    });
  }
}

function quads(l: QuadsLayer, layer: number, imageName: (i: number) => string | null, out: ObjectRow[]): void {
  const q = l.quads;
  if (!q) return;
  for (let i = 0; i < q.count; i++) {
    const p = q.points.subarray(i * 10, i * 10 + 10);
    const xs = [p[0]!, p[2]!, p[4]!, p[6]!];
    const ys = [p[1]!, p[3]!, p[5]!, p[7]!];
    out.push({
      kind: 'quad',
      index: out.length,
      layer,
      name: null,
      logic: null,
      image: imageName(l.image),
      // The pivot (fifth point), in pixels.
      x: p[8]! / FIXED,
      y: p[9]! / FIXED,
      width: (Math.max(...xs) - Math.min(...xs)) / FIXED,
      height: (Math.max(...ys) - Math.min(...ys)) / FIXED,
      target: null,
      fields: { posEnv: q.posEnv[i]!, posEnvOffset: q.posEnvOffset[i]!, colorEnv: q.colorEnv[i]!, colorEnvOffset: q.colorEnvOffset[i]! },
    });
  }
}

function sources(l: SoundsLayer, layer: number, map: TeeworldsMap, out: ObjectRow[]): void {
  const s = l.sources;
  if (!s) return;
  const sound = l.sound >= 0 && l.sound < map.sounds.length ? map.sounds[l.sound]!.name.text : null;
  for (let i = 0; i < s.count; i++)
    out.push({
      kind: 'sound-source',
      index: out.length,
      layer,
      name: sound,
      logic: null,
      image: null,
      x: s.position[i * 2]! / FIXED,
      y: s.position[i * 2 + 1]! / FIXED,
      width: null,
      height: null,
      target: null,
      fields: { loop: s.loop[i]!, pan: s.pan[i]!, delay: s.delay[i]!, falloff: s.falloff[i]!, posEnv: s.posEnv[i]!, soundEnv: s.soundEnv[i]! },
    });
}

/** The stored block the pixels came from and their shape (formats/pixel-source.ts), where the decoder noted it. */
function pixelsKey(pixels: Uint8Array, width: number, height: number): { pixelsKey: Uint8Array } | undefined {
  const src = pixelSourceOf(pixels);
  if (!src) return undefined;
  const key = new Uint8Array(src.stored.length + 12);
  key.set(src.stored);
  const shape = new DataView(key.buffer, src.stored.length);
  shape.setUint32(0, width, true);
  shape.setUint32(4, height, true);
  shape.setUint32(8, src.channels, true);
  return { pixelsKey: key };
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
