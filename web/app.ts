// The levelkit page: files in (input, drop, zip, bundled examples), a table when there are
// several, and per file its format, summary, warnings, a zoomable preview with markers, and
// paged tables. Decoding and drawing run in web/worker.ts; this module only drives the DOM.

import { type FileRow, fileTable, size } from './file-table.js';
import { graphicsNote, imageToRgba, isTilesetImage, showThumbnails } from './graphics.js';
import { openProgress } from './progress.js';
import type { BenchRow, DecodedFile, DecodeSettings, ProgressNote, Reply, Request } from './protocol.js';
import { thumbnails } from './thumbnails.js';
import { regionLayer } from './viewport.js';

type Preview = NonNullable<DecodedFile['preview']>;
interface LoadedFile {
  name: string;
  bytes: Uint8Array;
  /** Not read out of its zip (over the inflate budget): this is its result whatever the settings. */
  refused?: { code: string; message: string };
  result?: { decoded: DecodedFile } | { error: Extract<Reply, { ok: false }>['error'] };
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | number, cls?: string): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
};

// ---- the worker, as promises --------------------------------------------------------------
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
let nextId = 1;
const pending = new Map<number, (r: Reply) => void>();
/** Requests whose stages are shown as they arrive (a file being opened). */
const listeners = new Map<number, (p: ProgressNote['progress']) => void>();
worker.onmessage = (e: MessageEvent<Reply | ProgressNote>) => {
  if ('progress' in e.data) {
    listeners.get(e.data.id)?.(e.data.progress);
    return;
  }
  pending.get(e.data.id)?.(e.data);
  pending.delete(e.data.id);
  listeners.delete(e.data.id);
};
type Ask = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;
function ask(req: Ask, onProgress?: (p: ProgressNote['progress']) => void): Promise<Reply> {
  const id = nextId++;
  return new Promise((ok) => {
    pending.set(id, ok);
    if (onProgress) listeners.set(id, onProgress);
    // The worker gets its own copy of the bytes: the page keeps them to open the file again.
    worker.postMessage({ ...req, id } as Request);
  });
}

const settings = (): DecodeSettings => ({
  backend: $<HTMLSelectElement>('backend').value as DecodeSettings['backend'],
  inflater: $<HTMLSelectElement>('inflater').value as DecodeSettings['inflater'],
});

// ---- state ----------------------------------------------------------------------------
let files: LoadedFile[] = [];
let open = -1;
let view = { zoom: 1, x: 0, y: 0 };
let preview: Preview | undefined;
/** The open file's stage while it opens. */
const progress = openProgress($('open-progress'));
/** The tiles in sight at full resolution when zoomed in. */
const regions = regionLayer($('viewport'), ask);
/** The row the inspector shows (and its marker, highlighted on the picture). */
let selected: { table: string; row: number } | undefined;
/** Per table on show: turn to the page holding `row` and mark it (empty when no table is shown). */
const tablePagers = new Map<string, (row: number | undefined) => void>();
/** Counts opens and loads: a reply that arrives after a newer open or load began is dropped. */
let openToken = 0;
let loadToken = 0;

const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 3 && b[3] === 4;

/** Replaces the loaded files with `incoming` (zips unpacked) and shows them. */
async function load(incoming: { name: string; bytes: Uint8Array }[]): Promise<void> {
  const token = ++loadToken;
  const list: LoadedFile[] = [];
  for (const f of incoming) {
    // A .gwz is a zip too, but a level in itself (Wherigo source): opened, not unpacked.
    if (!/\.gwz$/i.test(f.name) && (/\.zip$/i.test(f.name) || isZip(f.bytes))) {
      const r = await ask({ type: 'unzip', name: f.name, bytes: f.bytes });
      if (r.ok && 'files' in r) {
        if (r.files.length) list.push(...r.files.map((x) => ({ name: `${f.name}/${x.name}`, bytes: x.bytes, ...(x.refused ? { refused: x.refused } : {}) })));
        // No level inside: the zip may itself be one (a GWZ under another name); decoding says.
        else list.push({ name: f.name, bytes: f.bytes });
      } else if (!r.ok) list.push({ name: f.name, bytes: f.bytes, result: { error: r.error } });
    } else list.push({ name: f.name, bytes: f.bytes });
  }
  if (token !== loadToken) return;
  files = list;
  open = -1;
  document.body.dataset.files = String(files.length);
  if (files.length === 1) {
    $('list').hidden = true;
    await openFile(0);
  } else {
    $('detail').hidden = true;
    await listFiles();
  }
}

// ---- many files: the table ------------------------------------------------------------
let table: ReturnType<typeof fileTable> | undefined;

/** sha256 (hex) of a file's bytes, as `levelkit scan` records it; undefined where the browser has no SubtleCrypto (not a secure context). */
async function contentDigest(bytes: Uint8Array): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
  return Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function listFiles(): Promise<void> {
  const token = loadToken;
  const section = $('list');
  section.hidden = false;
  section.dataset.state = 'busy';
  table ??= fileTable(
    (i) => openFile(i),
    thumbnails(ask, (i) => {
      const f = files[i];
      return f && !f.refused && f.bytes.length ? { name: f.name, bytes: f.bytes, settings: settings() } : undefined;
    }),
  );
  const rows: FileRow[] = files.map((f, index) => ({ index, name: f.name, size: f.bytes.length }));
  table.reset(rows);
  $('list-title').textContent = `${files.length} files`;
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    if (!f.result && f.refused) f.result = { error: f.refused };
    if (!f.result) {
      const r = await ask({ type: 'decode', name: f.name, bytes: f.bytes, settings: settings(), preview: false });
      f.result = r.ok && 'decoded' in r ? { decoded: r.decoded } : { error: (r as Extract<Reply, { ok: false }>).error };
    }
    const digest = await contentDigest(f.bytes);
    if (token !== loadToken) return; // other files were loaded meanwhile
    const row = rows[i]!;
    if (digest) row.contentDigest = digest;
    if ('decoded' in f.result) {
      const d = f.result.decoded;
      row.format = d.format;
      row.version = String(d.version);
      row.warnings = d.warnings.map((w) => w.code);
      if (d.unchecked) row.unchecked = d.unchecked;
      row.ms = d.ms;
      const grid = (d.summary as { gridDigest?: unknown }).gridDigest;
      row.gridDigest = typeof grid === 'string' ? grid : null;
    } else row.error = { code: f.result.error.code, message: f.result.error.message };
    table.updated(i + 1);
  }
  section.dataset.state = 'done';
}

// ---- one file: the detail view ----------------------------------------------------------
async function openFile(i: number, layer?: 'main' | 'all' | number): Promise<void> {
  const f = files[i]!;
  const token = ++openToken;
  open = i;
  table?.markOpen(i);
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
        if (token === openToken) progress.stage(p.stage, p.done, p.total);
      });
  if (token !== openToken) return; // another file (or layer) was opened meanwhile
  progress.finish();
  if (!r.ok) {
    clearDetail();
    $('format').textContent = 'not decoded';
    $('version').textContent = '—';
    $('error').hidden = false;
    $('error').textContent = `${r.error.code}: ${r.error.message}`;
    detail.dataset.state = 'done';
    return;
  }
  const d = (r as Extract<Reply, { decoded: DecodedFile }>).decoded;
  $('format').textContent = d.format;
  $('version').textContent = String(d.version);
  $('decode-ms').textContent = `decoded in ${d.ms.toFixed(1)} ms`;
  $('object-count').textContent = `${d.preview?.markers.length ?? 0} markers`;
  $('object-count').dataset.count = String(d.preview?.markers.length ?? 0);
  showSummary(d.summary);
  showWarnings(d);
  showPreview(d.preview, layer === undefined, r.id);
  showTables(d.preview?.tables ?? []);
  showGraphics(d.format, d.preview);
  showMedia(d.preview?.media ?? []);
  showTexts(d.preview?.texts ?? []);
  if ($<HTMLInputElement>('compare').checked) await showBench(f.bytes);
  else $('bench').hidden = true;
  detail.dataset.state = 'done';
}

/** Empties the detail view: facts, error, summary, warnings, picture, layers, zoom, tables, media, timing. */
function clearDetail(): void {
  for (const id of ['format', 'version', 'decode-ms', 'object-count', 'warning-count']) $(id).textContent = '';
  delete $('object-count').dataset.count;
  $('error').hidden = true;
  $('error').textContent = '';
  $('summary').replaceChildren();
  $('warnings').replaceChildren();
  $('tables').replaceChildren();
  $('bench').hidden = true;
  tablePagers.clear();
  select(undefined);
  showMedia([]);
  showTexts([]);
  showPreview(undefined);
  showGraphics(undefined, undefined);
}

/** The line under the picture about what drew it, and the images table's thumbnails. */
function showGraphics(format: string | undefined, p: Preview | undefined): void {
  const note = graphicsNote(format, p);
  $('graphics-note').hidden = !note;
  $('graphics-note').textContent = note;
  if (p) showThumbnails($('tables'), p.thumbnails);
}

/** Gives the worker a Graal tileset for the session (from the picker, or an image dropped with levels) and says so. */
async function useTileset(name: string, bytes: Uint8Array): Promise<void> {
  const image = await imageToRgba(bytes);
  $('tileset-state').textContent = image ? `tileset: ${name} (${image.width}×${image.height})` : `${name}: not an image this browser can read`;
  if (!image) return;
  await ask({ type: 'tileset', image });
}

function showSummary(summary: object): void {
  const dl = $('summary');
  dl.replaceChildren();
  for (const [k, v] of Object.entries(summary)) {
    // A group of fields (a Teeworlds map's info) reads as its own list.
    if (v && typeof v === 'object' && !Array.isArray(v) && !('text' in v) && Object.keys(v).length) {
      const inner = el('dl');
      for (const [ik, iv] of Object.entries(v)) inner.append(el('dt', ik), el('dd', iv === null ? '—' : readable(iv)));
      const dd = el('dd');
      dd.append(inner);
      dl.append(el('dt', k), dd);
    } else dl.append(el('dt', k), el('dd', readable(v)));
  }
}

function readable(v: unknown): string {
  if (v && typeof v === 'object' && 'text' in v) return String((v as { text: unknown }).text);
  if (Array.isArray(v)) return v.map(readable).join(', ');
  if (v && typeof v === 'object')
    return Object.entries(v)
      .map(([k, x]) => `${k}: ${readable(x)}`)
      .join('; ');
  return String(v);
}

function showWarnings(d: DecodedFile): void {
  const ul = $('warnings');
  ul.replaceChildren(
    ...d.warnings.map((w) => {
      const li = el('li');
      li.append(el('code', w.code), ` ${w.message}${w.offset !== undefined && w.offset !== null ? ` (at byte ${w.offset})` : ''}`);
      return li;
    }),
  );
  $('warning-count').textContent = `(${d.warnings.length})`;
  if (!d.warnings.length) ul.append(el('li', 'none'));
}

function showPreview(p: Preview | undefined, resetLayers = true, of = -1): void {
  preview = p;
  regions.reset(p && !p.empty ? { of, tilesWide: p.tilesWide, tilesHigh: p.tilesHigh, scale: p.scale } : undefined);
  const canvas = $<HTMLCanvasElement>('preview');
  const ctx = canvas.getContext('2d')!;
  $('empty').hidden = !p?.empty;
  $('empty').textContent = p?.empty ? `Nothing to draw: ${p.empty}.` : '';
  const drawable = !!p && !p.empty;
  $('viewport').hidden = !drawable;
  $('view-controls').hidden = !drawable;
  $('tooltip').hidden = true;
  showLegend(drawable ? p.legend : []);
  if (!p || p.empty) {
    // Nothing of the last picture stays: its pixels, its layer list, its zoom.
    canvas.width = 0;
    canvas.height = 0;
    $<HTMLSelectElement>('layer').replaceChildren();
    view = { zoom: 1, x: 0, y: 0 };
    applyView();
    return;
  }
  canvas.width = p.width;
  canvas.height = p.height;
  const img = ctx.createImageData(p.width, p.height);
  img.data.set(p.rgba);
  ctx.putImageData(img, 0, 0);
  if (resetLayers) {
    const sel = $<HTMLSelectElement>('layer');
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
  fitView();
}

// ---- zoom and pan -----------------------------------------------------------------------
function applyView(): void {
  $('preview').style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.zoom})`;
  $('zoom-label').textContent = `${Math.round(view.zoom * 100)}%`;
  regions.update(view);
  placeHighlight();
}

/** The legend of marker kinds: a colour swatch, the kind and how many. */
function showLegend(legend: Preview['legend']): void {
  const ul = $('legend');
  ul.hidden = legend.length === 0;
  ul.replaceChildren(
    ...legend.map((l) => {
      const li = el('li');
      li.dataset.kind = l.kind;
      const swatch = el('span', undefined, 'swatch');
      swatch.style.backgroundColor = `rgb(${l.rgb[0]}, ${l.rgb[1]}, ${l.rgb[2]})`;
      li.append(swatch, `${l.kind} (${l.count})`);
      return li;
    }),
  );
}

/** The marker standing for the selected row, if it is on the picture. */
function selectedMarker(): Preview['markers'][number] | undefined {
  if (!selected || !preview || preview.empty) return undefined;
  const { table, row } = selected;
  return preview.markers.find((m) => m.ref?.table === table && m.ref.row === row);
}

/** Puts the highlight ring round the selected row's marker, in screen pixels at the current zoom. */
function placeHighlight(): void {
  const ring = $('highlight');
  const m = selectedMarker();
  if (!m || !preview) {
    ring.hidden = true;
    return;
  }
  // Areas get a ring round their outline, points one centred on them.
  const perTile = preview.scale * view.zoom;
  const pad = 6;
  const w = m.w * perTile;
  const h = m.h * perTile;
  ring.style.left = `${view.x + m.x * perTile - pad}px`;
  ring.style.top = `${view.y + m.y * perTile - pad}px`;
  ring.style.width = `${w + 2 * pad}px`;
  ring.style.height = `${h + 2 * pad}px`;
  ring.hidden = false;
}

/**
 * Selects a row (from a click on it or on its marker): the inspector lists all its fields, the
 * row is marked on its table's page, and its marker ringed on the picture. undefined clears it.
 */
function select(ref: { table: string; row: number } | undefined): void {
  selected = ref;
  for (const [name, pager] of tablePagers) pager(ref?.table === name ? ref.row : undefined);
  placeHighlight();
  const panel = $('inspector');
  const t = ref && currentTables.find((x) => x.name === ref.table);
  if (!ref || !t) {
    panel.hidden = true;
    $('inspector-fields').replaceChildren();
    return;
  }
  $('inspector-title').textContent = `${t.name} #${ref.row}`;
  const record: Record<string, unknown> = t.records?.[ref.row] ?? Object.fromEntries(t.columns.map((c, i) => [c, t.rows[ref.row]?.[i]]));
  const dl = $('inspector-fields');
  dl.replaceChildren();
  for (const [k, v] of Object.entries(record)) {
    const dd = el('dd');
    if (v !== null && typeof v === 'object' && !(Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')))
      dd.append(el('pre', JSON.stringify(v, null, 1)));
    else dd.textContent = Array.isArray(v) ? v.join(', ') : v === null || v === undefined ? '—' : String(v);
    dl.append(el('dt', k), dd);
  }
  panel.hidden = false;
}

function fitView(): void {
  if (!preview) return;
  const vp = $('viewport').getBoundingClientRect();
  const zoom = Math.min(vp.width / preview.width, vp.height / preview.height, 8);
  view = { zoom, x: (vp.width - preview.width * zoom) / 2, y: (vp.height - preview.height * zoom) / 2 };
  applyView();
}

function zoomAt(factor: number, cx: number, cy: number): void {
  const zoom = Math.min(64, Math.max(0.05, view.zoom * factor));
  view = { zoom, x: cx - ((cx - view.x) * zoom) / view.zoom, y: cy - ((cy - view.y) * zoom) / view.zoom };
  applyView();
}

function setUpViewport(): void {
  const vp = $('viewport');
  vp.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const r = vp.getBoundingClientRect();
      zoomAt(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - r.left, e.clientY - r.top);
    },
    { passive: false },
  );
  let drag: { x: number; y: number } | undefined;
  let pressedAt: { x: number; y: number } | undefined;
  vp.addEventListener('pointerdown', (e) => {
    pressedAt = { x: e.clientX, y: e.clientY };
    drag = { x: e.clientX - view.x, y: e.clientY - view.y };
    vp.setPointerCapture(e.pointerId);
    vp.classList.add('dragging');
  });
  vp.addEventListener('pointerup', (e) => {
    drag = undefined;
    vp.classList.remove('dragging');
    // A click (not a drag) on a marker opens its row in the inspector.
    if (pressedAt && Math.hypot(e.clientX - pressedAt.x, e.clientY - pressedAt.y) < 4) {
      const hit = markersAt(e).find((m) => m.ref);
      if (hit?.ref) select(hit.ref);
    }
    pressedAt = undefined;
  });
  vp.addEventListener('pointermove', (e) => {
    if (drag) {
      view.x = e.clientX - drag.x;
      view.y = e.clientY - drag.y;
      applyView();
    }
    tooltipAt(e);
  });
  vp.addEventListener('pointerleave', () => {
    $('tooltip').hidden = true;
  });
  const centre = () => {
    const r = vp.getBoundingClientRect();
    return [r.width / 2, r.height / 2] as const;
  };
  $('zoom-in').addEventListener('click', () => zoomAt(1.5, ...centre()));
  $('zoom-out').addEventListener('click', () => zoomAt(1 / 1.5, ...centre()));
  $('zoom-fit').addEventListener('click', fitView);
  $('inspector-close').addEventListener('click', () => select(undefined));
}

/** Where the pointer is on the picture, in tiles, and the markers under it (points first, then the areas containing it). */
function markersAt(e: PointerEvent): Preview['markers'] {
  return pointerOnPicture(e)?.hits ?? [];
}

function pointerOnPicture(e: PointerEvent) {
  if (!preview || preview.empty) return undefined;
  const r = $('viewport').getBoundingClientRect();
  const sx = e.clientX - r.left;
  const sy = e.clientY - r.top;
  const perTile = preview.scale * view.zoom;
  const tx = (sx - view.x) / perTile;
  const ty = (sy - view.y) / perTile;
  const near = Math.max(0.5, 8 / perTile);
  const points = preview.markers.filter((m) => !(m.w > 0 && m.h > 0) && Math.abs(m.x - tx) <= near && Math.abs(m.y - ty) <= near);
  const areas = preview.markers.filter((m) => m.w > 0 && m.h > 0 && tx >= m.x && tx < m.x + m.w && ty >= m.y && ty < m.y + m.h);
  return { sx, sy, tx, ty, hits: [...points, ...areas] };
}

/** The marker under the pointer (areas contain it; points are within a few screen pixels), as a tooltip. */
function tooltipAt(e: PointerEvent): void {
  const tip = $('tooltip');
  const at = pointerOnPicture(e);
  if (!at || !preview) {
    tip.hidden = true;
    return;
  }
  const { sx, sy, tx, ty, hits } = at;
  const tile = `tile ${Math.floor(tx)}, ${Math.floor(ty)}`;
  if (!hits.length && (tx < 0 || ty < 0 || tx >= preview.tilesWide || ty >= preview.tilesHigh)) {
    tip.hidden = true;
    return;
  }
  tip.textContent = hits.length
    ? `${hits
        .slice(0, 6)
        .map((m) => m.label)
        .join('\n')}${hits.length > 6 ? `\n… ${hits.length - 6} more` : ''}\n(${tile})`
    : tile;
  tip.style.left = `${sx + 14}px`;
  tip.style.top = `${sy + 14}px`;
  tip.hidden = false;
}

// ---- media: images shown, sounds playable ---------------------------------------------------
let mediaUrls: string[] = [];

function showMedia(media: Preview['media']): void {
  for (const u of mediaUrls) URL.revokeObjectURL(u);
  mediaUrls = [];
  const box = $('media');
  box.replaceChildren();
  box.hidden = media.length === 0;
  if (!media.length) return;
  box.append(el('h3', `media (${media.length})`));
  const grid = el('div', undefined, 'media-grid');
  for (const m of media) {
    const url = URL.createObjectURL(new Blob([m.bytes as BlobPart], { type: m.mime }));
    mediaUrls.push(url);
    const fig = el('figure');
    if (m.mime.startsWith('image/')) {
      const img = el('img');
      img.src = url;
      img.alt = `media ${m.id}`;
      fig.append(img);
    } else {
      const audio = el('audio');
      audio.controls = true;
      audio.src = url;
      fig.append(audio);
    }
    fig.append(el('figcaption', `${m.name ?? `#${m.id}`} ${m.mime}, ${size(m.bytes.length)}`));
    grid.append(fig);
  }
  box.append(grid);
}

// ---- texts shown whole (a GWZ's Lua source) -------------------------------------------------
function showTexts(texts: Preview['texts']): void {
  const box = $('texts');
  box.hidden = texts.length === 0;
  box.replaceChildren(
    ...texts.map((t) => {
      const lines = t.text ? t.text.split('\n').length : 0;
      const details = el('details');
      details.open = true;
      details.append(el('summary', `${t.name} (${lines} line${lines === 1 ? '' : 's'})`), el('pre', t.text, 'source'));
      return details;
    }),
  );
}

// ---- paged tables -------------------------------------------------------------------------
const PAGE = 25;
/** The tables on show (what the inspector reads rows from). */
let currentTables: Preview['tables'] = [];

function showTables(tables: Preview['tables']): void {
  const box = $('tables');
  box.replaceChildren();
  currentTables = tables;
  tablePagers.clear();
  for (const t of tables) {
    if (!t.rows.length) continue;
    const section = el('section', undefined, 'paged');
    section.dataset.table = t.name;
    const head = el('h3', `${t.name} (${t.rows.length})`);
    const table = el('table');
    const thead = el('thead');
    const hr = el('tr');
    for (const c of t.columns) hr.append(el('th', c));
    thead.append(hr);
    const tbody = el('tbody');
    table.append(thead, tbody);
    const nav = el('div', undefined, 'row');
    const prev = el('button', '‹ previous');
    const next = el('button', 'next ›');
    const label = el('span');
    nav.append(prev, label, next);
    let page = 0;
    let marked: number | undefined;
    const pages = Math.ceil(t.rows.length / PAGE);
    // Rows open the inspector when they hold more than they show, or stand for a marker.
    const inspectable = !!t.records || !!preview?.markers.some((m) => m.ref?.table === t.name);
    const draw = () => {
      tbody.replaceChildren(
        ...t.rows.slice(page * PAGE, (page + 1) * PAGE).map((row, k) => {
          const index = page * PAGE + k;
          const tr = el('tr');
          tr.dataset.row = String(index);
          for (const v of row) tr.append(el('td', v));
          if (inspectable) {
            tr.classList.add('inspectable');
            tr.addEventListener('click', () => select({ table: t.name, row: index }));
          }
          if (index === marked) tr.classList.add('selected');
          return tr;
        }),
      );
      label.textContent = `page ${page + 1} of ${pages}`;
      prev.disabled = page === 0;
      next.disabled = page >= pages - 1;
    };
    prev.addEventListener('click', () => {
      page--;
      draw();
    });
    next.addEventListener('click', () => {
      page++;
      draw();
    });
    tablePagers.set(t.name, (row) => {
      marked = row;
      if (row !== undefined) page = Math.floor(row / PAGE);
      draw();
    });
    draw();
    section.append(head, table, ...(pages > 1 ? [nav] : []));
    box.append(section);
  }
}

// ---- kernels and inflaters side by side --------------------------------------------------
async function showBench(bytes: Uint8Array): Promise<void> {
  const box = $('bench');
  box.hidden = false;
  const body = box.querySelector('tbody')!;
  body.replaceChildren(el('tr', 'timing…'));
  const r = await ask({ type: 'bench', bytes });
  const rows: BenchRow[] = r.ok && 'bench' in r ? r.bench : [];
  const best = Math.min(...rows.map((x) => x.ms ?? Infinity));
  body.replaceChildren(
    ...rows.map((x) => {
      const tr = el('tr');
      tr.append(
        el('td', x.label + (x.note ? ` (${x.note})` : '')),
        el('td', x.ms === null ? '—' : `${x.ms.toFixed(3)}${x.ms === best ? ' ★' : ` (${(x.ms / best).toFixed(1)}×)`}`),
      );
      return tr;
    }),
  );
}

// ---- inputs ---------------------------------------------------------------------------
async function fromFileList(list: FileList | null | undefined): Promise<void> {
  if (!list?.length) return;
  // Reading is the first stage: a bar for big files, the share of bytes read so far.
  const total = [...list].reduce((n, f) => n + f.size, 0);
  let read = 0;
  progress.start(total);
  progress.stage('read', 0, total);
  const all = await Promise.all(
    [...list].map(async (f) => {
      const bytes = new Uint8Array(await f.arrayBuffer());
      read += f.size;
      progress.stage('read', read, total);
      return { name: f.name, bytes };
    }),
  );
  progress.finish();
  // An image given with levels is a Graal tileset for the session, not a level.
  for (const f of all.filter((x) => isTilesetImage(x.name))) await useTileset(f.name, f.bytes);
  const levels = all.filter((x) => !isTilesetImage(x.name));
  if (levels.length) await load(levels);
  else if (open >= 0) await openFile(open);
}

async function setUp(): Promise<void> {
  const wasm = typeof WebAssembly === 'object';
  const stream = typeof (globalThis as { DecompressionStream?: unknown }).DecompressionStream === 'function';
  $('env').textContent =
    `${wasm ? 'WebAssembly kernels available' : 'no WebAssembly: TypeScript kernels'} · ${wasm ? 'WebAssembly inflate' : stream ? 'native inflate (DecompressionStream)' : 'no DecompressionStream: pako'}`;
  if (!wasm) $<HTMLSelectElement>('inflater').value = stream ? 'stream' : 'pako';
  $<HTMLInputElement>('file').addEventListener('change', (e) => fromFileList((e.target as HTMLInputElement).files));
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    fromFileList(e.dataTransfer?.files);
  });
  $<HTMLSelectElement>('layer').addEventListener('change', (e) => {
    const v = (e.target as HTMLSelectElement).value;
    if (open >= 0) openFile(open, v === 'main' || v === 'all' ? v : Number(v));
  });
  for (const id of ['backend', 'inflater'])
    $(id).addEventListener('change', () => {
      for (const f of files) delete f.result;
      if (files.length > 1) listFiles();
      if (open >= 0) openFile(open);
    });
  $('compare').addEventListener('change', () => {
    if (open >= 0 && $<HTMLInputElement>('compare').checked) showBench(files[open]!.bytes);
    else $('bench').hidden = true;
  });
  $<HTMLInputElement>('graal-tileset').addEventListener('change', async (e) => {
    const file = (e.target as HTMLInputElement).files?.[0];
    if (!file) return;
    await useTileset(file.name, new Uint8Array(await file.arrayBuffer()));
    if (open >= 0) await openFile(open);
  });
  setUpViewport();
  const examples: { name: string; format: string; file: string }[] = await (await fetch('examples/index.json')).json();
  const sel = $<HTMLSelectElement>('fixture');
  for (const x of examples) {
    const o = el('option', `${x.format}: ${x.name}`);
    o.value = x.file;
    sel.append(o);
  }
  $('load-fixture').addEventListener('click', async () => {
    const file = sel.value;
    const bytes = new Uint8Array(await (await fetch(`examples/${file}`)).arrayBuffer());
    await load([{ name: file, bytes }]);
  });
  document.body.dataset.ready = '1';
}

setUp();
