// The open file's tables (objects, links, layers, images…), each paged; a row that holds more
// than it shows, or stands for a marker, opens the inspector.

import { $, el } from '../dom.js';
import { type Preview, state } from '../state.js';
import { select } from './inspector.js';

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
    const pages = Math.ceil(t.rows.length / PAGE);
    const inspectable = !!t.records || !!state.preview?.markers.some((m) => m.ref?.table === t.name);
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
    state.tablePagers.set(t.name, (row) => {
      marked = row;
      if (row !== undefined) page = Math.floor(row / PAGE);
      draw();
    });
    draw();
    section.append(head, table, ...(pages > 1 ? [nav] : []));
    box.append(section);
  }
}
