// A cartridge's objects (#42): the zones drawn on a plain canvas (wherigo-map.ts) and every object
// listed (wherigo-table.ts) with its kind, name, id, flags, container, commands, question, choices
// and answers, timer and the messages its handlers show. Every text from the file is set as text
// (dom.ts's `el`), never as markup. The inspector's detail view and the site's level page both
// show this one panel (wherigoPanel).

import type { WherigoModel } from '../../src/formats/gwc/analysis/types.js';
import { $, el } from '../dom.js';
import { drawZoneMap, zoneMap } from './wherigo-map.js';
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
    if (ctx) drawZoneMap(ctx, map);
    const notes = [
      'Zones as drawn by their points (north up, equirectangular); dots are items and characters with a location. No map tiles: nothing leaves the page.',
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
