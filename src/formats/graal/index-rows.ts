// writeRows() for Graal: each board layer with its tile histogram; links, baddies, NPCs, chests
// and signs as objects (in tiles); sign texts, NPC scripts and baddy verses as texts, each with the
// number of the object it belongs to. A .gmap is one grid whose cells are the levels it names.
import type { LevelRows, ObjectRow, RowSink } from '../define.js';
import { collectRows, levelRow, notIndexable, objectRow, tileCounts } from '../rows.js';
import { BADDY_NAMES, LEVEL_SIZE } from './level.js';
import type { GraalGmap, GraalLevel } from './types.js';

export function indexRows(value: GraalLevel | GraalGmap): LevelRows {
  return collectRows((sink) => writeRows(value, sink));
}

export function writeRows(value: GraalLevel | GraalGmap, sink: RowSink): void {
  if (value.format === 'graal-gmap') {
    gmapRows(value, sink);
    return;
  }
  if (value.sections === 'summary') throw notIndexable('graal');
  const tileset = value.tileset?.text || value.tilesetImage?.text || null;
  value.layers.forEach((l, layer) => {
    sink.layer({ layer, group: null, kind: 'board', name: null, width: LEVEL_SIZE, height: LEVEL_SIZE, image: tileset });
    tileCounts(l.tiles, layer, 'board', sink);
  });
  let index = 0;
  /** Writes the object row and gives its number, for the texts that belong to it (texts.object). */
  const add = (o: Omit<Parameters<typeof objectRow>[0], 'index'>): number => {
    sink.object(objectRow({ index, ...o }));
    return index++;
  };
  for (const l of value.links)
    add({ kind: 'link', x: l.x, y: l.y, width: l.width, height: l.height, target: l.level.text, fields: { destX: l.destX.text, destY: l.destY.text } });
  for (const b of value.baddies) {
    const baddy = add({ kind: 'baddy', name: BADDY_NAMES[b.type] ?? String(b.type), x: b.x, y: b.y, fields: { type: b.type } });
    for (const v of b.verses) if (v.text) sink.text('baddy-verse', v.text, baddy);
  }
  for (const n of value.npcs) {
    const npc = add({ kind: 'npc', image: n.image.text || null, x: n.x, y: n.y, fields: { scriptLines: n.script.text === '' ? 0 : lineCount(n.script.text) } });
    if (n.script.text) sink.text('npc', n.script.text, npc);
  }
  for (const c of value.chests) add({ kind: 'chest', x: c.x, y: c.y, target: c.item, fields: { signIndex: c.signIndex } });
  for (const s of value.signs) sink.text('sign', s.text, add({ kind: 'sign', x: s.x, y: s.y }));
  for (const line of value.unknownLines) sink.text('unknown-line', line.text);
  if (tileset) sink.image({ index: 0, name: tileset, width: null, height: null, external: true, pixels: null });
  sink.level(levelRow({ flavour: value.format === 'graal-nw' ? 'nw' : 'binary', game: 'graal', width: LEVEL_SIZE, height: LEVEL_SIZE }));
}

/** Lines of a script (one more than its line breaks), without splitting it. */
function lineCount(s: string): number {
  let n = 1;
  for (let at = s.indexOf('\n'); at >= 0; at = s.indexOf('\n', at + 1)) n++;
  return n;
}

function gmapRows(map: GraalGmap, sink: RowSink): void {
  sink.layer({ layer: 0, group: null, kind: 'gmap', name: null, width: map.width, height: map.height, image: null });
  let index = 0;
  const row: ObjectRow = objectRow({ kind: 'gmap-level', index: 0, layer: 0 });
  map.levels.forEach((cells, y) =>
    cells.forEach((name, x) => {
      if (!name.text) return;
      row.index = index++;
      row.x = x;
      row.y = y;
      row.target = name.text;
      sink.object(row);
    }),
  );
  for (const o of map.options) sink.text('gmap-option', o.text);
  sink.level(levelRow({ flavour: 'gmap', game: 'graal', width: map.width, height: map.height }));
}
