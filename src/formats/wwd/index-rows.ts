// indexRows() for WWD: each plane is a layer (its image sets joined as its image), its tile
// values a histogram, its objects rows with their logic and every fixed field; the header's texts.
import type { LevelRows, ObjectRow } from '../define.js';
import { levelRow, notIndexable, tileHistogram } from '../rows.js';
import { OBJECT_FIELDS } from './objects.js';
import type { WwdLevel } from './types.js';

/** The stored string lengths are the file's framing, not facts about the object. */
const FIELD_NAMES = OBJECT_FIELDS.map(([name]) => name).filter((n) => !n.endsWith('Length'));

export function indexRows(level: WwdLevel): LevelRows {
  if (level.sections === 'summary') throw notIndexable('wwd');
  const main = level.planes[level.mainPlane];
  const objects: ObjectRow[] = [];
  const layers = level.planes.map((p, layer) => {
    const t = p.objects;
    for (let i = 0; i < t.count; i++) {
      // Most of an object's 46 numbers are 0: only the others are kept (README: absent means 0).
      const fields: Record<string, number | string> = {};
      if (t.animation[i]!.text) fields.animation = t.animation[i]!.text;
      for (const f of FIELD_NAMES) {
        const v = t[f][i]!;
        if (v !== 0) fields[f] = v;
      }
      objects.push({
        kind: 'object',
        index: objects.length,
        layer,
        name: t.name[i]!.text,
        logic: t.logic[i]!.text,
        image: t.imageSet[i]!.text,
        x: t.x[i]!,
        y: t.y[i]!,
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
