// indexRows() for Wherigo: the cartridge's header texts and the string constants of its Lua
// bytecode; each media object as an object row (images among them as images, by their bytes);
// the starting location as an object at (longitude, latitude). A GWZ: its Lua source and media members.
import type { ImageRow, LevelRows, ObjectRow, TextRow } from '../define.js';
import { levelRow, notIndexable, objectRow } from '../rows.js';
import { autoText } from './lua.js';
import { luaStrings } from './lua-strings.js';
import { mediaTypeName, sniffMedia } from './media.js';
import type { GwcCartridge, GwcDecoded, GwzArchive } from './types.js';

/** Media type numbers that are pictures (bmp, png, jpg, gif). */
const IMAGE_TYPES = new Set([1, 2, 3, 4]);

export function indexRows(value: GwcDecoded): LevelRows {
  if (value.sections === 'summary') throw notIndexable('gwc');
  return value.format === 'gwz' ? gwzRows(value) : gwcRows(value);
}

function gwcRows(c: GwcCartridge): LevelRows {
  const h = c.header;
  const texts: TextRow[] = [];
  for (const [source, t] of [
    ['name', h.name],
    ['description', h.description],
    ['author', h.author],
    ['company', h.company],
    ['player', h.player],
    ['starting-location', h.startingLocation],
    ['recommended-device', h.recommendedDevice],
  ] as const)
    if (t.text) texts.push({ source, text: t.text });
  for (const s of luaStrings(c.lua.bytes, c.lua.header, autoText)) texts.push({ source: 'lua-string', text: s });
  const objects: ObjectRow[] = [
    {
      kind: 'start',
      index: 0,
      layer: null,
      name: h.name.text,
      logic: null,
      image: null,
      x: h.longitude,
      y: h.latitude,
      width: null,
      height: null,
      target: null,
      fields: { altitude: h.altitude },
    },
  ];
  const images: ImageRow[] = [];
  for (const m of c.media) {
    const type = m.type === null ? null : mediaTypeName(m.type);
    objects.push(
      objectRow({
        kind: 'media',
        index: objects.length,
        name: `media-${m.id}`,
        target: type,
        fields: { id: m.id, type: m.type, length: m.length, valid: m.valid, content: m.data.length ? sniffMedia(m.data) : null },
      }),
    );
    if (m.type !== null && IMAGE_TYPES.has(m.type))
      images.push({ index: m.id, name: `media-${m.id}.${type}`, width: null, height: null, external: false, pixels: null, data: m.data });
  }
  return {
    level: levelRow({ name: h.name.text, author: h.author.text, flavour: h.type.text || null, game: 'wherigo' }),
    layers: [],
    tiles: [],
    objects,
    texts,
    images,
  };
}

function gwzRows(z: GwzArchive): LevelRows {
  const texts: TextRow[] = [];
  if (z.lua.text) texts.push({ source: 'lua-source', text: z.lua.text });
  const objects: ObjectRow[] = [];
  const images: ImageRow[] = [];
  for (const m of z.media) {
    texts.push({ source: 'media-name', text: m.name });
    const content = sniffMedia(m.data);
    objects.push(objectRow({ kind: 'media', index: objects.length, name: m.name, target: content, fields: { size: m.size } }));
    if (content === 'png' || content === 'jpg' || content === 'gif' || content === 'bmp')
      images.push({ index: images.length, name: m.name, width: null, height: null, external: false, pixels: null, data: m.data });
  }
  return { level: levelRow({ flavour: 'gwz', game: 'wherigo' }), layers: [], tiles: [], objects, texts, images };
}
