// The building blocks of the pages' text: a titled section, a table of text cells (long tables
// cut with a line saying how many rows were left out), and a link. Every string goes in as text.

import { el } from '../dom.js';

/** Rows a table shows before it says how many more there are (a level can have 100,000 objects). */
export const MAX_TABLE_ROWS = 2000;

export type Cell = string | number | null | undefined | Node;

export function section(id: string, title: string, ...content: (Node | string)[]): HTMLElement {
  const s = el('section');
  s.id = id;
  s.append(el('h2', title), ...content);
  return s;
}

export function link(text: string, href: string): HTMLAnchorElement {
  const a = el('a', text);
  a.href = href;
  return a;
}

/** A table of `rows` under `headers`; null and undefined cells show as '—'. */
export function table(headers: string[], rows: Cell[][], cls?: string): HTMLElement {
  const t = el('table', undefined, cls);
  const head = el('tr');
  for (const h of headers) head.append(el('th', h));
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  for (const r of rows.slice(0, MAX_TABLE_ROWS)) {
    const tr = el('tr');
    for (const c of r) {
      const td = el('td');
      if (c instanceof Node) td.append(c);
      else td.textContent = c === null || c === undefined ? '—' : String(c);
      tr.append(td);
    }
    body.append(tr);
  }
  t.append(thead, body);
  if (rows.length <= MAX_TABLE_ROWS) return t;
  const wrap = el('div');
  wrap.append(t, el('p', `… and ${rows.length - MAX_TABLE_ROWS} more rows.`, 'more'));
  return wrap;
}

/** "(x, y)" or '—' when the position is unknown. */
export const at = (x: number | null, y: number | null) => (x === null || y === null ? '—' : `(${x}, ${y})`);
