// writeRows() for Wherigo: the cartridge's header texts and the string constants of its Lua
// bytecode; each media object as an object row (images among them as images, by their bytes);
// the starting location as an object at (longitude, latitude), its description a text of that
// object; the Wherigo objects of its object model (analysis-rows.ts) after the media. A GWZ: its
// Lua source and media members (each member's name a text of its object), then its model's objects.
import { DecodeError } from '../../core/errors.js';
import type { LevelRows, RowSink } from '../define.js';
import { collectRows, levelRow, notIndexable, objectRow } from '../rows.js';
import { objectModel } from './analysis/index.js';
import { wherigoRows } from './analysis-rows.js';
import { autoText } from './lua.js';
import { luaStrings } from './lua-strings.js';
import { mediaTypeName, sniffMedia } from './media.js';
import type { GwcCartridge, GwcDecoded, GwzArchive } from './types.js';

/** The start object's number: the first object of a cartridge. */
const START = 0;
/** Media type numbers that are pictures (bmp, png, jpg, gif). */
const IMAGE_TYPES = new Set([1, 2, 3, 4]);

export function indexRows(value: GwcDecoded): LevelRows {
  return collectRows((sink) => writeRows(value, sink));
}

export function writeRows(value: GwcDecoded, sink: RowSink): void {
  if (value.sections === 'summary') throw notIndexable('gwc');
  if (value.format === 'gwz') gwzRows(value, sink);
  else gwcRows(value, sink);
}

function gwcRows(c: GwcCartridge, sink: RowSink): void {
  const h = c.header;
  for (const [source, t] of [
    ['name', h.name],
    ['description', h.description],
    ['author', h.author],
    ['company', h.company],
    ['player', h.player],
    ['recommended-device', h.recommendedDevice],
  ] as const)
    if (t.text) sink.text(source, t.text);
  // The starting location's description belongs to the start object (number START).
  if (h.startingLocation.text) sink.text('starting-location', h.startingLocation.text, START);
  for (const s of luaStrings(c.lua.bytes, c.lua.header, autoText)) sink.text('lua-string', s);
  sink.object({
    kind: 'start',
    index: START,
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
  });
  let index = START + 1;
  for (const m of c.media) {
    const type = m.type === null ? null : mediaTypeName(m.type);
    sink.object(
      objectRow({
        kind: 'media',
        index: index++,
        name: `media-${m.id}`,
        target: type,
        fields: { id: m.id, type: m.type, length: m.length, valid: m.valid, content: m.data.length ? sniffMedia(m.data) : null },
      }),
    );
    if (m.type !== null && IMAGE_TYPES.has(m.type))
      sink.image({ index: m.id, name: `media-${m.id}.${type}`, width: null, height: null, external: false, pixels: null, data: m.data });
  }
  modelRows(c, index, sink);
  sink.level(levelRow({ name: h.name.text, author: h.author.text, flavour: h.type.text || null, game: 'wherigo' }));
}

/**
 * The object model's rows, numbered from `first`. A model that cannot be made (a chunk the
 * analysis refuses, a limit passed, a bug) is one warnings row of the level, ANALYSIS_FAILED for
 * a bug, else the DecodeError's code and offset: the header, media and strings above stand.
 */
function modelRows(c: GwcDecoded, first: number, sink: RowSink): void {
  let model: ReturnType<typeof objectModel>;
  try {
    model = objectModel(c);
  } catch (e) {
    if (e instanceof DecodeError) sink.warning?.(e.code, `object model: ${e.message}`, e.offset ?? null);
    else sink.warning?.('ANALYSIS_FAILED', `object model: levelkit bug: ${String((e as Error)?.message ?? e)}`, null);
    return;
  }
  wherigoRows(model, first, sink);
}

function gwzRows(z: GwzArchive, sink: RowSink): void {
  if (z.lua.text) sink.text('lua-source', z.lua.text);
  let images = 0;
  z.media.forEach((m, index) => {
    sink.text('media-name', m.name, index);
    const content = sniffMedia(m.data);
    sink.object(objectRow({ kind: 'media', index, name: m.name, target: content, fields: { size: m.size } }));
    if (content === 'png' || content === 'jpg' || content === 'gif' || content === 'bmp')
      sink.image({ index: images++, name: m.name, width: null, height: null, external: false, pixels: null, data: m.data });
  });
  modelRows(z, z.media.length, sink);
  sink.level(levelRow({ flavour: 'gwz', game: 'wherigo' }));
}
