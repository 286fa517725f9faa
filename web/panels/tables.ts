// The open file's tables (objects, links, layers, quads, images…), each paged and filterable by
// any of its columns (a WWD object's logic, name, image set); a row that holds more than it
// shows, or stands for something on the picture, opens the inspector and centres the view on it.
// Embedded images get a download button.

import { $, el } from '../dom.js';
import { type Preview, state } from '../state.js';
import { centreOn } from '../view.js';
import { downloadImage } from './downloads.js';
import { select } from './inspector.js';

/** Opens a row in the inspector and centres the view on its object when it has a place. */
export function openRow(ref: { table: string; row: number }): void {
  select(ref);
  const place = state.preview?.places.find((p) => p.table === ref.table && p.row === ref.row);
  if (place) centreOn(place);
}

const PAGE = 25;

export function showTables(tables: Preview['tables']): void {
  const box = $('tables');
  box.replaceChildren();
  state.tables = tables;
  state.tablePagers.clear();
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
    /** Indexes of the rows passing the filter. */
    let matching = t.rows.map((_, i) => i);
    let pages = Math.ceil(t.rows.length / PAGE);
    const inspectable = !!t.records || !!state.preview?.markers.some((m) => m.ref?.table === t.name) || !!state.preview?.places.some((p) => p.table === t.name);
    const filter = el('input');
    filter.type = 'search';
    filter.placeholder = `filter ${t.name}…`;
    filter.dataset.filter = t.name;
    filter.addEventListener('input', () => {
      const needle = filter.value.trim().toLowerCase();
      matching = t.rows.flatMap((row, i) => (!needle || row.some((v) => String(v).toLowerCase().includes(needle)) ? [i] : []));
      pages = Math.max(1, Math.ceil(matching.length / PAGE));
      page = 0;
      head.textContent = needle ? `${t.name} (${matching.length} of ${t.rows.length})` : `${t.name} (${t.rows.length})`;
      draw();
    });
    const draw = () => {
      tbody.replaceChildren(
        ...matching.slice(page * PAGE, (page + 1) * PAGE).map((index) => {
          const row = t.rows[index]!;
          const tr = el('tr');
          tr.dataset.row = String(index);
          for (const v of row) tr.append(el('td', v));
          if (t.name === 'images' && row[3] === 'yes') {
            const td = el('td');
            const b = el('button', 'download PNG');
            b.type = 'button';
            b.dataset.downloadImage = String(index);
            b.addEventListener('click', (e) => {
              e.stopPropagation();
              void downloadImage(index);
            });
            td.append(b);
            tr.append(td);
          }
          if (inspectable) {
            tr.classList.add('inspectable');
            tr.addEventListener('click', () => openRow({ table: t.name, row: index }));
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
    state.tablePagers.set(t.name, (row) => {
      marked = row;
      if (row !== undefined) {
        const at = matching.indexOf(row);
        if (at < 0) {
          // Selected from the picture while filtered out: the filter goes.
          filter.value = '';
          filter.dispatchEvent(new Event('input'));
        }
        page = Math.floor(Math.max(0, matching.indexOf(row)) / PAGE);
      }
      draw();
    });
    draw();
    section.append(head, ...(t.rows.length > 5 ? [filter] : []), table, ...(pages > 1 ? [nav] : []));
    box.append(section);
  }
}
