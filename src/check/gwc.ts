// GWC rules (Wherigo cartridges): what a player would choke on or a reviewer would reject —
// two objects under one id, media a player cannot show, a start point off the globe.
import { gwc } from '../index.js';
import { ruleMaker } from './rule.js';

type GwcDecoded = gwc.GwcCartridge | gwc.GwzArchive;

/** Media kinds with a fixed signature a player checks (fdl, snd and txt have none). */
const SIGNED = new Set(['bmp', 'png', 'jpg', 'gif', 'wav', 'mp3', 'ogg', 'swf']);

const rule = ruleMaker<GwcDecoded, gwc.GwcCartridge>('gwc', 'gwc', (c): c is gwc.GwcCartridge => c.format === 'gwc');

export const GWC_RULES = [
  rule('duplicate-object-id', 'error', 'levelkit', 'two table rows with one object id: players load one of them and lose the other', (c, report) => {
    const seen = new Set<number>();
    for (const row of c.table) {
      if (seen.has(row.id)) report(`object id ${row.id} appears twice in the object table`, { object: row.id, offset: row.offset });
      seen.add(row.id);
    }
  }),
  rule(
    'media-type',
    'warning',
    'levelkit',
    'a media object of no known type, or whose bytes do not start as its type says, is not shown by players',
    (c, report) => {
      for (const m of c.media) {
        if (m.type === null) continue;
        const name = gwc.MEDIA_TYPES[m.type];
        if (name === undefined) report(`media ${m.id} has type ${m.type}, which no player knows`, { object: m.id, offset: m.offset });
        else if (SIGNED.has(name) && m.data.length > 0 && gwc.sniffMedia(m.data) !== name)
          report(
            `media ${m.id} is declared ${name} but its bytes ${m.data.length < 4 ? 'are too few' : `look like ${gwc.sniffMedia(m.data) ?? 'no known kind'}`}`,
            {
              object: m.id,
              offset: m.offset,
            },
          );
      }
    },
  ),
  rule(
    'coordinates',
    'error',
    'levelkit',
    'a starting point off the globe (latitude beyond ±90°, longitude beyond ±180°) cannot be shown or reached',
    (c, report) => {
      const { latitude, longitude } = c.header;
      // 360/360 is the builders' "play anywhere".
      if (latitude === 360 && longitude === 360) return;
      if (!(Math.abs(latitude) <= 90) || !(Math.abs(longitude) <= 180))
        report(`starting point (${latitude}, ${longitude}) is off the globe`, { x: longitude, y: latitude });
    },
  ),
];
