// The worker's half of a Graal world (web/world.ts asks): a .gmap and the files loaded beside it
// (its folder in a dropped zip, or the files dropped with it), drawn by the library's drawWorld
// with the session's Graal tileset, names matched as `levelkit render` and Graal servers match them.

import { drawWorld, graal, levelNameMatcher } from '../src/index.js';
import type { WorldPicture } from './protocol.js';
import { sessionGraalTileset } from './resources.js';

/** Draws the world of `gmap` from `files` (names as the files table has them, without their folder); the picture as RGBA, transferred. */
export function worldOf(gmap: Uint8Array, files: { name: string; bytes: Uint8Array }[]): WorldPicture & { rgba: Uint8ClampedArray } {
  const byName = new Map(files.map((f) => [f.name, f.bytes]));
  const match = levelNameMatcher(byName.keys());
  const tileset = sessionGraalTileset();
  const w = drawWorld(
    graal.decodeGmap(gmap),
    (name) => {
      const file = match(name);
      return file === undefined ? undefined : byName.get(file);
    },
    tileset ? { tileset } : {},
  );
  return { width: w.width, height: w.height, rgba: w.rgba, columns: w.columns, rows: w.rows, cellSize: w.cellSize, cells: w.cells };
}
