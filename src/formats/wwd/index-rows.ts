// indexRows() for WWD: each plane is a layer (its image sets joined as its image), its tile
// values a histogram, its objects rows with their logic and every fixed field; the header's texts.
import type { LevelRows, ObjectRow } from '../define.js';
import { levelRow, notIndexable, tileHistogram } from '../rows.js';
import { OBJECT_FIELDS, objectAt } from './objects.js';
import type { WwdLevel } from './types.js';

/** The stored string lengths are the file's framing, not facts about the object. */
const FIELD_NAMES = OBJECT_FIELDS.map(([name]) => name).filter((n) => !n.endsWith('Length'));

export function indexRows(level: WwdLevel): LevelRows {
  if (level.sections === 'summary') throw notIndexable('wwd');
  const main = level.planes[level.mainPlane];
  const objects: ObjectRow[] = [];
  const layers = level.planes.map((p, layer) => {
    for (let i = 0; i < p.objects.count; i++) {
      const o = objectAt(p.objects, i);
      const fields: Record<string, number | string> = { animation: o.animation.text };
      for (const f of FIELD_NAMES) fields[f] = o[f];
      objects.push({
        kind: 'object',
        index: objects.length,
        layer,
        name: o.name.text,
        logic: o.logic.text,
        image: o.imageSet.text,
        x: o.x,
        y: o.y,
        width: null,
        height: null,
        target: null,
        fields,
      });
    }
    return {
      layer,
      group: null,
      kind: p.flagBits.main ? 'main' : 'plane',
      name: p.name.text,
      width: p.tilesWide,
      height: p.tilesHigh,
      image: p.imageSetNames.map((t) => t.text).join(',') || null,
    };
  });
  const h = level.header;
  return {
    level: levelRow({ name: h.name.text, author: h.author.text, game: level.game, width: main?.tilesWide ?? null, height: main?.tilesHigh ?? null }),
    layers,
    tiles: level.planes.flatMap((p, layer) => tileHistogram(p.tiles, layer, p.flagBits.main ? 'main' : 'plane')),
    objects,
    texts: [
      { source: 'name', text: h.name.text },
      { source: 'author', text: h.author.text },
      { source: 'birth', text: h.birth.text },
      { source: 'launch-app', text: h.launchApp.text },
    ].filter((t) => t.text !== ''),
    // The image sets the header names (Claw's REZ folders): external, by name.
    images: h.imageSets.map((s, i) => ({ index: i, name: s.text, width: null, height: null, external: true, pixels: null })).filter((img) => img.name !== ''),
  };
}
