// indexRows() for Graal: each board layer with its tile histogram; links, baddies, NPCs, chests
// and signs as objects (in tiles); sign texts, NPC scripts and baddy verses as texts. A .gmap is
// one grid whose cells are the levels it names.
import type { LevelRows, ObjectRow, TextRow } from '../define.js';
import { levelRow, notIndexable, objectRow, tileHistogram } from '../rows.js';
import { BADDY_NAMES, LEVEL_SIZE } from './level.js';
import type { GraalGmap, GraalLevel } from './types.js';

export function indexRows(value: GraalLevel | GraalGmap): LevelRows {
  if (value.format === 'graal-gmap') return gmapRows(value);
  if (value.sections === 'summary') throw notIndexable('graal');
  const tileset = value.tileset?.text || value.tilesetImage?.text || null;
  const objects: ObjectRow[] = [];
  const texts: TextRow[] = [];
  const add = (o: Omit<Parameters<typeof objectRow>[0], 'index'>) => objects.push(objectRow({ index: objects.length, ...o }));
  for (const l of value.links)
    add({ kind: 'link', x: l.x, y: l.y, width: l.width, height: l.height, target: l.level.text, fields: { destX: l.destX.text, destY: l.destY.text } });
  for (const b of value.baddies) {
    add({ kind: 'baddy', name: BADDY_NAMES[b.type] ?? String(b.type), x: b.x, y: b.y, fields: { type: b.type } });
    for (const v of b.verses) if (v.text) texts.push({ source: 'baddy-verse', text: v.text });
  }
  for (const n of value.npcs) {
    add({ kind: 'npc', image: n.image.text || null, x: n.x, y: n.y, fields: { scriptLines: n.script.text === '' ? 0 : n.script.text.split('\n').length } });
    if (n.script.text) texts.push({ source: 'npc', text: n.script.text });
  }
  for (const c of value.chests) add({ kind: 'chest', x: c.x, y: c.y, target: c.item, fields: { signIndex: c.signIndex } });
  for (const s of value.signs) {
    add({ kind: 'sign', x: s.x, y: s.y });
    texts.push({ source: 'sign', text: s.text });
  }
  for (const line of value.unknownLines) texts.push({ source: 'unknown-line', text: line.text });
  return {
    level: levelRow({ flavour: value.format === 'graal-nw' ? 'nw' : 'binary', game: 'graal', width: LEVEL_SIZE, height: LEVEL_SIZE }),
    layers: value.layers.map((_, layer) => ({ layer, group: null, kind: 'board', name: null, width: LEVEL_SIZE, height: LEVEL_SIZE, image: tileset })),
    tiles: value.layers.flatMap((l, layer) => tileHistogram(l.tiles, layer, 'board')),
    objects,
    texts,
    images: tileset ? [{ index: 0, name: tileset, width: null, height: null, external: true, pixels: null }] : [],
  };
}

function gmapRows(map: GraalGmap): LevelRows {
  const objects: ObjectRow[] = [];
  map.levels.forEach((row, y) =>
    row.forEach((name, x) => {
      if (name.text) objects.push(objectRow({ kind: 'gmap-level', index: objects.length, layer: 0, x, y, target: name.text }));
    }),
  );
  return {
    level: levelRow({ flavour: 'gmap', game: 'graal', width: map.width, height: map.height }),
    layers: [{ layer: 0, group: null, kind: 'gmap', name: null, width: map.width, height: map.height, image: null }],
    tiles: [],
    objects,
    texts: map.options.map((o) => ({ source: 'gmap-option', text: o.text })),
    images: [],
  };
}
