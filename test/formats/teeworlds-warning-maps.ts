// Maps whose warnings come from reading tile data (issue 28 §2), built through the encoder and
// then altered block by block: CTile grids (game, tiles, front) with non-zero skip/reserved bytes
// (NONZERO_TILE_SKIP, known only once a grid's stream is inflated) and a speedup grid cut to 4-byte
// records (UNDERSIZED_TILES, known from the declared size alone).

import { base, group, tileLayer } from '../../fixtures/generators/teeworlds.js';
import { textFrom } from '../../src/core/text.js';
import type { MapImage, TeeworldsMap } from '../../src/formats/teeworlds/types.js';
import { teeworlds } from '../../src/index.js';
import { Prng } from '../helpers/prng.js';

const W = 8,
  H = 6,
  CELLS = W * H;

/**
 * `flavour` 'ddnet': game, tiles, front (v3, dirty) and speedup (v3, undersized). 'teeworlds07':
 * an RGBA v2 image and a v4 (tile-skip) game layer beside the same v3 tiles layer, dirty too.
 */
export function tileWarningMap(flavour: 'ddnet' | 'teeworlds07'): Uint8Array {
  const rng = new Prng(28);
  const m: TeeworldsMap = base(flavour);
  if (flavour === 'ddnet') {
    m.groups = [
      group(3, 'Game', [
        tileLayer(rng, 'game', 3, W, H, 'Game'),
        tileLayer(rng, 'tiles', 3, W, H, 'Tiles'),
        tileLayer(rng, 'front', 3, W, H, 'Front'),
        tileLayer(rng, 'speedup', 3, W, H, 'Speedup'),
      ]),
    ];
  } else {
    const img: MapImage = { version: 2, format: 1, width: 2, height: 2, name: textFrom('rgba', 'utf-8'), external: false, pixels: rng.bytes(16) };
    m.images = [img];
    m.groups = [group(3, 'Game', [tileLayer(rng, 'game', 4, W, H, 'Game'), tileLayer(rng, 'tiles', 3, W, H, 'Tiles')])];
  }
  const df = teeworlds.openDatafile(teeworlds.encode(m));
  const blocks = df.blocks.map((_, i) => df.readData(i, `data[${i}]`));
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (b.length === CELLS * 4) {
      // A CTile grid (or a physics layer's dummy, which is never read): skip and reserved set.
      for (let k = 0; k < CELLS; k += 5) b[k * 4 + 2] = 1;
      b[3] = 9;
    } else if (b.length === CELLS * 6) {
      blocks[i] = b.slice(0, CELLS * 4); // 2010 DDRace's 4-byte speedup records
    }
  }
  return teeworlds.writeDatafile(df.items, blocks);
}
