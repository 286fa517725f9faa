// writeRows() for WWD: each plane is a layer (its image sets joined as its image), its tile
// values a histogram, its objects rows with their logic and every fixed field; the header's texts.
import type { LevelRows, RowSink } from '../define.js';
import { collectRows, histogramRows, levelRow, notIndexable, objectRow, tileCounts } from '../rows.js';
import { OBJECT_FIELDS, objectStrings } from './objects.js';
import { planeCountsOf } from './plane-counts.js';
import type { WwdLevel } from './types.js';

/** The stored string lengths are the file's framing, not facts about the object. */
const FIELD_NAMES = OBJECT_FIELDS.map(([name]) => name).filter((n) => !n.endsWith('Length'));
/** Each field's `"name":` as it starts in the fields' JSON text. */
const FIELD_KEYS = FIELD_NAMES.map((n) => `${JSON.stringify(n)}:`);

export function indexRows(level: WwdLevel): LevelRows {
  return collectRows((sink) => writeRows(level, sink));
}

export function writeRows(level: WwdLevel, sink: RowSink): void {
  if (level.sections === 'summary') throw notIndexable('wwd');
  const main = level.planes[level.mainPlane];
  // One row object for every object of the level: the sink copies what it keeps.
  const row = objectRow({ kind: 'object', index: 0 });
  level.planes.forEach((p, layer) => {
    const kind = p.flagBits.main ? 'main' : 'plane';
    sink.layer({
      layer,
      group: null,
      kind,
      name: p.name.text,
      width: p.tilesWide,
      height: p.tilesHigh,
      image: p.imageSetNames.map((t) => t.text).join(',') || null,
    });
    // A lazy plane's histogram was counted by the decode: its tiles stay unread.
    const counted = planeCountsOf(p);
    if (counted) histogramRows(counted, layer, kind, sink);
    else tileCounts(p.tiles, layer, kind, sink);
    const t = p.objects;
    // The columns looked up once per plane: a lookup by a varying key per field and object cost
    // more than everything else here.
    const columns = FIELD_NAMES.map((f) => t[f]);
    // Most columns are 0 for every object of a plane: only those holding another value are read
    // object by object (the fields of the corpus' 162,214 objects: 176 → 148 ms of CPU).
    const live = nonZeroColumns(columns, t.count);
    const [name, logic, imageSet, animation] = objectStrings(t) as [string[], string[], string[], string[]];
    const { x, y } = t;
    row.layer = layer;
    for (let i = 0; i < t.count; i++) {
      // Most of an object's 46 numbers are 0: only the others are kept (README: absent means 0).
      // The fields' JSON is written as text: every value is an integer (or the animation's string).
      let json = animation[i] ? `{"animation":${JSON.stringify(animation[i])}` : '';
      for (const f of live) {
        const v = columns[f]![i]!;
        if (v !== 0) json += (json ? ',' : '{') + FIELD_KEYS[f]! + v;
      }
      row.name = name[i]!;
      row.logic = logic[i]!;
      row.image = imageSet[i]!;
      row.x = x[i]!;
      row.y = y[i]!;
      sink.object(row, json ? `${json}}` : '{}');
      row.index++;
    }
  });
  const h = level.header;
  for (const [source, t] of [
    ['name', h.name],
    ['author', h.author],
    ['birth', h.birth],
    ['launch-app', h.launchApp],
  ] as const)
    if (t.text !== '') sink.text(source, t.text);
  // The image sets the header names (Claw's REZ folders): external, by name.
  h.imageSets.forEach((s, index) => {
    if (s.text !== '') sink.image({ index, name: s.text, width: null, height: null, external: true, pixels: null });
  });
  sink.level(levelRow({ name: h.name.text, author: h.author.text, game: level.game, width: main?.tilesWide ?? null, height: main?.tilesHigh ?? null }));
}

/** The indices of the columns with a value other than 0 among their first `count`, ascending. */
function nonZeroColumns(columns: readonly ArrayLike<number>[], count: number): number[] {
  const out: number[] = [];
  for (let f = 0; f < columns.length; f++) {
    const c = columns[f]!;
    for (let i = 0; i < count; i++)
      if (c[i] !== 0) {
        out.push(f);
        break;
      }
  }
  return out;
}
