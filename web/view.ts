// The picture and its input: the canvas with the open file's picture, zoom (wheel, buttons, fit)
// and pan (drag), the full-resolution chunks when zoomed in (viewport.ts), the highlight ring of
// the selected row's marker, and what the pointer is over (the tooltip of markers). A click on
// the picture is handed to whoever set the view up.

import { ask } from './ask.js';
import { $, el, putPicture } from './dom.js';
import { type Preview, state } from './state.js';
import { regionLayer } from './viewport.js';
import { wheelZoom } from './wheel-zoom.js';

/** The tiles in sight at full resolution when zoomed in. */
let regions: ReturnType<typeof regionLayer> | undefined;
const regionsLayer = () => {
  regions ??= regionLayer($('viewport'), ask);
  return regions;
};

/** Where a pointer is on the picture: screen pixels in the viewport, tiles, and the markers under it (points first, then areas containing it). */
export interface PicturePoint {
  sx: number;
  sy: number;
  tx: number;
  ty: number;
  hits: Preview['markers'];
}

/** The picture's pixels changed (layers hidden or shown): the zoomed-in chunks are drawn again. */
export function resetRegions(): void {
  const p = state.preview;
  regionsLayer().reset(p && !p.empty ? { of: state.shownId, tilesWide: p.tilesWide, tilesHigh: p.tilesHigh, scale: p.scale } : undefined);
  regionsLayer().update(state.view);
}

/** Puts tile (x, y) (a point, or an area's corner with its size) in the middle of the viewport, zoomed in to at least 16 screen pixels a tile. */
export function centreOn(at: { x: number; y: number; w: number; h: number }): void {
  const { preview } = state;
  if (!preview || preview.empty) return;
  const vp = $('viewport').getBoundingClientRect();
  const zoom = Math.min(64, Math.max(state.view.zoom, 16 / preview.scale));
  const perTile = preview.scale * zoom;
  state.view = { zoom, x: vp.width / 2 - (at.x + at.w / 2) * perTile, y: vp.height / 2 - (at.y + at.h / 2) * perTile };
  applyView();
}

/** Shows picture `p` of decode request `of` (or none), fitted to the viewport. */
export function showPicture(p: Preview | undefined, of = -1): void {
  state.preview = p;
  state.shownId = of;
  regionsLayer().reset(p && !p.empty ? { of, tilesWide: p.tilesWide, tilesHigh: p.tilesHigh, scale: p.scale } : undefined);
  const canvas = $<HTMLCanvasElement>('preview');
  $('empty').hidden = !p?.empty;
  $('empty').textContent = p?.empty ? `Nothing to draw: ${p.empty}.` : '';
  const drawable = !!p && !p.empty;
  $('viewport').hidden = !drawable;
  $('view-controls').hidden = !drawable;
  $('tooltip').hidden = true;
  showLegend(drawable ? p.legend : []);
  if (!p || p.empty) {
    // Nothing of the last picture stays: its pixels, its zoom.
    canvas.width = 0;
    canvas.height = 0;
    state.view = { zoom: 1, x: 0, y: 0 };
    applyView();
    return;
  }
  putPicture(canvas, p);
  fitView();
}

export function applyView(): void {
  const { view } = state;
  $('preview').style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.zoom})`;
  $('zoom-label').textContent = `${Math.round(view.zoom * 100)}%`;
  regionsLayer().update(view);
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
  const { selected, preview } = state;
  if (!selected || !preview || preview.empty) return undefined;
  return preview.markers.find((m) => m.ref?.table === selected.table && m.ref.row === selected.row);
}

/** Puts the highlight ring round the selected row's marker, in screen pixels at the current zoom. */
export function placeHighlight(): void {
  const ring = $('highlight');
  const m = selectedMarker();
  const { preview, view } = state;
  if (!m || !preview) {
    ring.hidden = true;
    return;
  }
  // Areas get a ring round their outline, points one centred on them.
  const perTile = preview.scale * view.zoom;
  const pad = 6;
  ring.style.left = `${view.x + m.x * perTile - pad}px`;
  ring.style.top = `${view.y + m.y * perTile - pad}px`;
  ring.style.width = `${m.w * perTile + 2 * pad}px`;
  ring.style.height = `${m.h * perTile + 2 * pad}px`;
  ring.hidden = false;
}

export function fitView(): void {
  const { preview } = state;
  if (!preview) return;
  const vp = $('viewport').getBoundingClientRect();
  const zoom = Math.min(vp.width / preview.width, vp.height / preview.height, 8);
  state.view = { zoom, x: (vp.width - preview.width * zoom) / 2, y: (vp.height - preview.height * zoom) / 2 };
  applyView();
}

function zoomAt(factor: number, cx: number, cy: number): void {
  const { view } = state;
  const zoom = Math.min(64, Math.max(0.05, view.zoom * factor));
  state.view = { zoom, x: cx - ((cx - view.x) * zoom) / view.zoom, y: cy - ((cy - view.y) * zoom) / view.zoom };
  applyView();
}

/** Wires wheel, drag, buttons and pointer; `onClick` gets a click (not a drag) on the picture. */
export function setUpViewport(onClick: (at: PicturePoint) => void, onMove: (at: PicturePoint | undefined) => void): void {
  const vp = $('viewport');
  wheelZoom(vp, zoomAt);
  let drag: { x: number; y: number } | undefined;
  let pressedAt: { x: number; y: number } | undefined;
  vp.addEventListener('pointerdown', (e) => {
    pressedAt = { x: e.clientX, y: e.clientY };
    drag = { x: e.clientX - state.view.x, y: e.clientY - state.view.y };
    vp.setPointerCapture(e.pointerId);
    vp.classList.add('dragging');
  });
  vp.addEventListener('pointerup', (e) => {
    drag = undefined;
    vp.classList.remove('dragging');
    if (pressedAt && Math.hypot(e.clientX - pressedAt.x, e.clientY - pressedAt.y) < 4) {
      const at = pointerOnPicture(e);
      if (at) onClick(at);
    }
    pressedAt = undefined;
  });
  vp.addEventListener('pointermove', (e) => {
    if (drag) {
      state.view.x = e.clientX - drag.x;
      state.view.y = e.clientY - drag.y;
      applyView();
    }
    const at = pointerOnPicture(e);
    tooltipAt(at);
    onMove(at);
  });
  vp.addEventListener('pointerleave', () => {
    $('tooltip').hidden = true;
    onMove(undefined);
  });
  const centre = () => {
    const r = vp.getBoundingClientRect();
    return [r.width / 2, r.height / 2] as const;
  };
  $('zoom-in').addEventListener('click', () => zoomAt(1.5, ...centre()));
  $('zoom-out').addEventListener('click', () => zoomAt(1 / 1.5, ...centre()));
  $('zoom-fit').addEventListener('click', fitView);
}

function pointerOnPicture(e: PointerEvent): PicturePoint | undefined {
  const { preview, view } = state;
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

/** The markers under the pointer (areas contain it; points are within a few screen pixels), as a tooltip. */
function tooltipAt(at: PicturePoint | undefined): void {
  const tip = $('tooltip');
  const { preview } = state;
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
