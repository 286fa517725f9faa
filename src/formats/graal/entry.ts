// Registry adapter for Graal levels: one entry, three format ids (graal, graal-nw, graal-gmap).
import type { FormatEntry } from '../registry.js';
import { decode, encode, sniff, type GraalDecoded } from './index.js';
import { LEVEL_SIZE, gridDigest } from './level.js';

export const entry: FormatEntry = {
  ids: ['graal', 'graal-nw', 'graal-gmap'],
  sniff,
  // Levels are a few KB and each section is needed to find the next, so `sections: 'summary'`
  // decodes everything too.
  decode: (bytes, opts) => decode(bytes, opts),
  summarize(value) {
    const v = value as GraalDecoded;
    if (v.format === 'graal-gmap') {
      return { version: v.version, summary: { width: v.width, height: v.height, levels: v.levels.flat().filter((n) => n !== '').length } };
    }
    return {
      version: v.version,
      summary: {
        header: v.version, layers: v.layers.length, links: v.links.length, baddies: v.baddies.length,
        npcs: v.npcs.length, chests: v.chests.length, signs: v.signs.length, gridDigest: gridDigest(v),
      },
    };
  },
  encode: (value) => encode(value as GraalDecoded),
  mainGrid(value) {
    const v = value as GraalDecoded;
    if (v.format === 'graal-gmap') return undefined;
    const base = v.layers.find((l) => l.index === 0);
    return base ? { width: LEVEL_SIZE, height: LEVEL_SIZE, cells: base.tiles } : undefined;
  },
};
