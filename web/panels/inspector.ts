// The inspector: every field of the selected row (a click on a table row or on its marker), the
// row marked on its table's page and its marker ringed on the picture.

import { $, el } from '../dom.js';
import { type RowRef, state } from '../state.js';
import { placeHighlight } from '../view.js';

/** Selects a row; undefined clears the selection. */
export function select(ref: RowRef | undefined): void {
  state.selected = ref;
  for (const [name, pager] of state.tablePagers) pager(ref?.table === name ? ref.row : undefined);
  placeHighlight();
  const panel = $('inspector');
  const t = ref && state.tables.find((x) => x.name === ref.table);
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
    // A script or a long text reads as it is written, lines kept.
    else if (typeof v === 'string' && v.includes('\n')) dd.append(el('pre', v, 'source'));
    else dd.textContent = Array.isArray(v) ? v.join(', ') : v === null || v === undefined ? '—' : String(v);
    dl.append(el('dt', k), dd);
  }
  panel.hidden = false;
}
