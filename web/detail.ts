// One file: the detail view. Opening a file asks the worker for its decode and picture (with the
// stages shown as they come) and hands each part to its panel; an error or a file with nothing
// to draw leaves nothing of the file before.

import { ask } from './ask.js';
import { $, el } from './dom.js';
import { graphicsNote, showThumbnails } from './graphics.js';
import { showBench } from './panels/bench.js';
import { showEnvelopes } from './panels/envelopes.js';
import { clearHover } from './panels/hover.js';
import { select } from './panels/inspector.js';
import { showLayers } from './panels/layers.js';
import { showMedia, showTexts } from './panels/media.js';
import { showSummary, showWarnings } from './panels/summary.js';
import { showTables } from './panels/tables.js';
import { showWherigo } from './panels/wherigo.js';
import { openProgress } from './progress.js';
import type { DecodedFile, Reply } from './protocol.js';
import { type Preview, settings, state } from './state.js';
import { showPicture } from './view.js';
import { showWorld } from './world.js';

/** The open file's stage while it opens (one bar for the page: reading files in, then opening one). */
let bar: ReturnType<typeof openProgress> | undefined;
export const opening = () => {
  bar ??= openProgress($('open-progress'));
  return bar;
};

/** Opens file `i` (`layer`: draw that layer choice of the same file, keeping the view's facts). */
export async function openFile(i: number, layer?: 'main' | 'all' | number): Promise<void> {
  const f = state.files[i]!;
  const token = ++state.openToken;
  state.open = i;
  state.table?.markOpen(i);
  const progress = opening();
  const detail = $('detail');
  detail.hidden = false;
  detail.dataset.state = 'busy';
  // Another file starts from nothing: no facts, layers, zoom or tables of the one before.
  if (layer === undefined) clearDetail();
  $('name').textContent = f.name;
  progress.start(f.bytes.length);
  // The file goes to the worker (a copy): still reading, as far as the person is concerned.
  progress.stage('read', f.bytes.length, f.bytes.length);
  const r: Reply = f.refused
    ? { id: -1, ok: false, error: f.refused }
    : await ask({ type: 'decode', name: f.name, bytes: f.bytes, settings: settings(), preview: true, ...(layer !== undefined ? { layer } : {}) }, (p) => {
        if (token === state.openToken) progress.stage(p.stage, p.done, p.total);
      });
  if (token !== state.openToken) return; // another file (or layer) was opened meanwhile
  progress.finish();
  if (!r.ok) {
    clearDetail();
    $('format').textContent = 'not decoded';
    $('version').textContent = '—';
    $('error').hidden = false;
    $('error').textContent = `${r.error.code}: ${r.error.message}`;
    $('facts-panel').hidden = true;
    detail.dataset.state = 'done';
    return;
  }
  const d = (r as Extract<Reply, { decoded: DecodedFile }>).decoded;
  $('facts-panel').hidden = false;
  $('format').textContent = d.format;
  $('version').textContent = String(d.version);
  $('decode-ms').textContent = `decoded in ${d.ms.toFixed(1)} ms`;
  $('object-count').textContent = `${d.preview?.markers.length ?? 0} markers`;
  $('object-count').dataset.count = String(d.preview?.markers.length ?? 0);
  showSummary(d.summary);
  showWarnings(d);
  showPicture(d.preview, r.id);
  if (layer === undefined) showLayerChoice(d.preview);
  showLayers(d.preview);
  clearHover();
  showEnvelopes(d.preview?.envelopes ?? []);
  showTables(d.preview?.tables ?? []);
  showGraphics(d.format, d.preview);
  showMedia(d.preview?.media ?? []);
  showTexts(d.preview?.texts ?? []);
  showWherigo(d.preview?.wherigo);
  const world = d.format === 'graal-gmap' ? showWorld(i, token) : undefined;
  // Opened from the files table: the detail is below it, out of sight.
  if (state.files.length > 1 && layer === undefined) detail.scrollIntoView({ block: 'start' });
  if ($<HTMLInputElement>('compare').checked) await showBench(f.bytes);
  else $('bench').hidden = true;
  await world;
  detail.dataset.state = 'done';
}

/** Empties the detail view: facts, error, summary, warnings, picture, layers, zoom, tables, media, timing. */
export function clearDetail(): void {
  for (const id of ['format', 'version', 'decode-ms', 'object-count', 'warning-count']) $(id).textContent = '';
  delete $('object-count').dataset.count;
  $('error').hidden = true;
  $('error').textContent = '';
  $('summary').replaceChildren();
  $('warnings').replaceChildren();
  $('tables').replaceChildren();
  $('bench').hidden = true;
  state.tablePagers.clear();
  select(undefined);
  showMedia([]);
  showTexts([]);
  showWherigo(undefined);
  showPicture(undefined);
  showLayerChoice(undefined);
  showLayers(undefined);
  showEnvelopes([]);
  showGraphics(undefined, undefined);
  showWorld(undefined, state.openToken);
}

/** The layer picker: the main grid, every layer, or one; set to what the picture drew. */
function showLayerChoice(p: Preview | undefined): void {
  const sel = $<HTMLSelectElement>('layer');
  if (!p || p.empty) {
    sel.replaceChildren();
    return;
  }
  sel.replaceChildren(
    el('option', 'main grid'),
    ...(p.layers.length > 1 ? [el('option', 'all layers')] : []),
    ...p.layers.map((l, i) => el('option', `${i}: ${l.name} (${l.width}×${l.height}${l.tileset ? ', tileset' : ''})`)),
  );
  (sel.options[0] as HTMLOptionElement).value = 'main';
  if (p.layers.length > 1) (sel.options[1] as HTMLOptionElement).value = 'all';
  for (let i = 0; i < p.layers.length; i++) (sel.options[sel.options.length - p.layers.length + i] as HTMLOptionElement).value = String(i);
  sel.value = p.drawn.length > 1 ? 'all' : p.layers[p.drawn[0]!]?.main ? 'main' : String(p.drawn[0]);
}

/** The line under the picture about what drew it, and the images table's thumbnails. */
function showGraphics(format: string | undefined, p: Preview | undefined): void {
  const note = graphicsNote(format, p);
  $('graphics-note').hidden = !note;
  $('graphics-note').textContent = note;
  if (p) showThumbnails($('tables'), p.thumbnails);
}
