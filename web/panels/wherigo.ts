// A cartridge's objects (#42): the zones drawn on a plain canvas (wherigo-map.ts) and every object
// listed (wherigo-table.ts) with its kind, name, id, flags, container, commands, question, choices
// and answers, timer and the messages its handlers show. Every text from the file is set as text
// (dom.ts's `el`), never as markup. The inspector's detail view shows it (wherigoPanel); the
// site's level page lists the objects from the index's rows instead (it has no model).

import type { WherigoModel } from '../../src/formats/gwc/analysis/types.js';
import { $, el } from '../dom.js';
import { wheelZoom } from '../wheel-zoom.js';
import { drawZoneMap, FITTED, type MapView, type ZoneMap, zoneMap, zoomedView } from './wherigo-map.js';
import { kindCounts, objectLines, type Shown } from './wherigo-table.js';

/** What the page has of a cartridge's object model: the model, or why it could not be made. */
export type WherigoShown = { model: WherigoModel } | { error: { code: string; message: string } };

/** The map's canvas size in CSS pixels. */
const MAP_WIDTH = 640;
const MAP_HEIGHT = 420;

/** Fills the detail view's cartridge section (hidden for a file that is no cartridge). */
export function showWherigo(shown: WherigoShown | undefined): void {
  const box = $('wherigo');
  box.hidden = !shown;
  box.replaceChildren(...(shown ? wherigoPanel(shown).childNodes : []));
}

/** The panel's content in a new element: heading, map, objects table, the analysis's notes. */
export function wherigoPanel(shown: WherigoShown): HTMLElement {
  const box = el('div', undefined, 'wherigo');
  if ('error' in shown) {
    box.append(el('h3', 'Cartridge objects'), el('p', `The object model could not be made: ${shown.error.code}: ${shown.error.message}`, 'err'));
    return box;
  }
  const model = shown.model;
  box.append(el('h3', `Cartridge objects (${model.objects.length})`), el('p', kindCounts(model), 'wherigo-counts'));
  const map = zoneMap(model, MAP_WIDTH, MAP_HEIGHT);
  if (map) {
    const canvas = el('canvas', undefined, 'wherigo-map');
    canvas.width = map.width;
    canvas.height = map.height;
    canvas.dataset.zones = String(map.zones.length);
    canvas.dataset.dots = String(map.dots.length);
    const ctx = canvas.getContext('2d');
    if (ctx) zoomable(canvas, ctx, map);
    const notes = [
      'Zones as drawn by their points (north up, equirectangular); dots are items and characters with a location. The wheel zooms, a drag moves, a double click fits. No map tiles: nothing leaves the page.',
      map.undrawnZones ? `${map.undrawnZones} zone${map.undrawnZones === 1 ? '' : 's'} not drawn (points unknown or fewer than 3).` : '',
      map.outside ? `${map.outside} located object${map.outside === 1 ? '' : 's'} far outside the zones, not drawn.` : '',
    ];
    box.append(canvas, el('p', notes.filter(Boolean).join(' '), 'note'));
  }
  box.append(objectsTable(model));
  if (model.decoders.length)
    box.append(el('p', `Obfuscated strings decoded by ${model.decoders.map((d) => `${d.name ?? 'a local function'} (${d.shape})`).join(', ')}.`, 'note'));
  if (model.notes.length) {
    const notes = el('details');
    notes.append(el('summary', `What the analysis could not follow (${model.notes.length})`));
    const ul = el('ul');
    for (const n of model.notes) ul.append(el('li', n));
    notes.append(ul);
    box.append(notes);
  }
  return box;
}

/**
 * Draws `map` and redraws it as the wheel zooms (about the pointer), a drag moves it and a double
 * click fits it again; `data-zoom` says the zoom. The canvas may be shown smaller than its pixels
 * (max-width), so pointer positions are scaled to canvas pixels first.
 */
function zoomable(canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D, map: ZoneMap): void {
  let view: MapView = FITTED;
  const show = (v: MapView) => {
    view = v;
    canvas.dataset.zoom = v.zoom.toFixed(2);
    drawZoneMap(ctx, map, v);
  };
  const perCssPixel = () => canvas.width / (canvas.getBoundingClientRect().width || canvas.width);
  wheelZoom(canvas, (factor, x, y) => show(zoomedView(view, factor, x * perCssPixel(), y * perCssPixel())));
  let drag: { x: number; y: number } | undefined;
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button === 0) drag = { x: e.clientX, y: e.clientY };
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const k = perCssPixel();
    show({ ...view, x: view.x + (e.clientX - drag.x) * k, y: view.y + (e.clientY - drag.y) * k });
    drag = { x: e.clientX, y: e.clientY };
  });
  for (const end of ['pointerup', 'pointerleave', 'pointercancel'] as const) canvas.addEventListener(end, () => (drag = undefined));
  canvas.addEventListener('dblclick', () => show(FITTED));
  show(FITTED);
}

function objectsTable(model: WherigoModel): HTMLTableElement {
  const table = el('table', undefined, 'wherigo-objects');
  const head = el('tr');
  for (const c of ['#', 'kind', 'name', 'id', 'visible', 'active', 'container', 'details']) head.append(el('th', c));
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  for (const o of objectLines(model)) {
    const tr = el('tr');
    tr.dataset.kind = o.kind;
    tr.dataset.n = String(o.n);
    const name = cell(o.name);
    if (o.variable) name.title = o.variable;
    tr.append(el('td', o.n), el('td', o.kind), name, cell(o.id), cell(o.visible), cell(o.active), cell(o.container));
    const details = el('td');
    const dl = el('dl');
    for (const d of o.details) {
      const dd = el('dd');
      d.values.forEach((v, i) => {
        if (i) dd.append(' · ');
        dd.append(span(v));
      });
      dl.append(el('dt', d.label), dd);
    }
    details.append(dl);
    tr.append(details);
    tbody.append(tr);
  }
  table.append(thead, tbody);
  return table;
}

function cell(v: Shown): HTMLTableCellElement {
  const td = el('td');
  td.append(span(v));
  return td;
}

/** A value as a span of text; an unknown one marked (class `unknown`) so it reads as unknown, not as a value. */
function span(v: Shown): HTMLSpanElement {
  return el('span', v.text, v.unknown ? 'unknown' : undefined);
}
