// WWD cheap facts for `levelkit info` and bulk scans (the summary fields are fixed by issue 2).

import { littleEndianBytes, sha256Hex } from '../../core/digest.js';
import type { Summary } from '../registry.js';
import { TILE_TABLE_COUNT_WORD } from './tile-properties.js';
import type { WwdLevel } from './types.js';

/**
 * `{ version, summary: { name, author, game, compressed, planes, objects, tileProperties,
 * checksum, gridDigest } }`. Counts come from the stored headers, so a `sections: 'summary'`
 * decode gives the same values as a full one. gridDigest: sha256 of the main plane's grid as LE
 * u32 (of an empty grid when no plane is main). `version` is the header signature (0x5F4 = 1524).
 */
export function summarize(level: WwdLevel): Summary {
  const main = level.planes[level.mainPlane];
  return {
    version: level.header.signature,
    summary: {
      name: level.header.name.text,
      author: level.header.author.text,
      game: level.game,
      compressed: level.header.compressed,
      planes: level.planes.length,
      objects: level.planes.reduce((n, p) => n + p.objectCount, 0),
      tileProperties: level.tilePropertiesHeader[TILE_TABLE_COUNT_WORD] ?? 0,
      checksum: level.container.checksum.class,
      gridDigest: sha256Hex(littleEndianBytes(main?.tiles ?? new Uint32Array(0))),
    },
  };
}
