// A Graal .gmap opened on the page: its world, drawn by the worker (world-draw.ts) from the files
// loaded beside it (the gmap's folder in a dropped zip, or the files dropped with it), with the
// cells not drawn listed under it: levels missing, and levels that did not decode with why.

import { ask } from './ask.js';
import { $, el } from './dom.js';
import type { Reply, WorldPicture } from './protocol.js';
import { state } from './state.js';

const folderOf = (name: string) => name.slice(0, name.lastIndexOf('/') + 1);

/** Shows the world of loaded file `i` (a .gmap), or hides the world section (undefined). `token`: the open this belongs to. */
export async function showWorld(i: number | undefined, token: number): Promise<void> {
  const section = $('world');
  section.hidden = i === undefined;
  if (i === undefined) {
    delete section.dataset.state;
    return;
  }
  section.dataset.state = 'busy';
  const gmap = state.files[i]!;
  const folder = folderOf(gmap.name);
  const files = state.files
    .filter((f) => !f.refused && f.bytes.length && folderOf(f.name) === folder)
    .map((f) => ({ name: f.name.slice(folder.length), bytes: f.bytes }));
  const r = await ask({ type: 'world', bytes: gmap.bytes, files });
  if (token !== state.openToken) return; // another file was opened meanwhile
  if (!r.ok) {
    $('world-summary').textContent = `not drawn: ${r.error.code}: ${r.error.message}`;
    $('world-missing').replaceChildren();
    $<HTMLCanvasElement>('world-picture').hidden = true;
  } else showPicture((r as Extract<Reply, { world: unknown }>).world);
  section.dataset.state = 'done';
}

function showPicture(w: WorldPicture & { bitmap: ImageBitmap | null }): void {
  const canvas = $<HTMLCanvasElement>('world-picture');
  canvas.hidden = !w.bitmap;
  canvas.width = w.width;
  canvas.height = w.height;
  if (w.bitmap) canvas.getContext('2d')!.drawImage(w.bitmap, 0, 0);
  canvas.dataset.columns = String(w.columns);
  canvas.dataset.rows = String(w.rows);
  canvas.dataset.cellSize = String(w.cellSize);
  const named = w.cells.filter((c) => c.name.trim() !== '');
  const missing = named.filter((c) => c.state === 'missing');
  const failed = named.filter((c) => c.state === 'error');
  $('world-summary').textContent =
    `${w.columns} × ${w.rows} levels: ${named.length - missing.length - failed.length} drawn, ${missing.length} missing (crossed in red), ${failed.length} not decoded (crossed in amber)`;
  // Every name is set as text: a gmap's names are never markup.
  $('world-missing').replaceChildren(
    ...[...missing, ...failed].map((c) => {
      const li = el(
        'li',
        `${c.state === 'missing' ? 'missing' : 'not decoded'}: ${c.name} (column ${c.column}, row ${c.row})${c.error ? ` — ${c.error}` : ''}`,
      );
      li.dataset.state = c.state;
      li.dataset.name = c.name;
      return li;
    }),
  );
}
