// The cell under the pointer: its position and, per layer, the tile index, flags and rotation,
// and for DDNet physics layers the entity's name and numbers, in #hover-info (data-hover-info).
// The worker reads the cell; one request is in flight at a time and only the latest cell is
// asked for next, so moving the pointer never queues work.

import { ask } from '../ask.js';
import { $, el } from '../dom.js';
import type { CellInfo } from '../inspect/types.js';
import { state } from '../state.js';
import type { PicturePoint } from '../view.js';

let inFlight = false;
let wanted: { x: number; y: number } | undefined;
let last = '';

export function clearHover(): void {
  wanted = undefined;
  last = '';
  const box = $('hover-info');
  box.replaceChildren(el('span', 'Point at the picture to read a cell.', 'hint'));
  delete box.dataset.x;
  delete box.dataset.y;
}

/** The pointer moved over the picture (undefined: it left). */
export function hoverAt(at: PicturePoint | undefined): void {
  const p = state.preview;
  if (!at || !p || p.empty) return;
  const x = Math.floor(at.tx);
  const y = Math.floor(at.ty);
  if (x < 0 || y < 0 || x >= p.tilesWide || y >= p.tilesHigh) return;
  if (`${x},${y}` === last) return;
  last = `${x},${y}`;
  wanted = { x, y };
  void pump();
}

async function pump(): Promise<void> {
  if (inFlight || !wanted) return;
  const { x, y } = wanted;
  wanted = undefined;
  inFlight = true;
  const of = state.shownId;
  const r = await ask({ type: 'cell', of, x, y });
  inFlight = false;
  if (of === state.shownId && r.ok && 'cell' in r) show(r.cell, x, y);
  void pump();
}

function show(cell: CellInfo | null, x: number, y: number): void {
  const box = $('hover-info');
  box.dataset.x = String(x);
  box.dataset.y = String(y);
  const head = el('strong', `cell ${x}, ${y}`);
  if (!cell?.layers.length) {
    box.replaceChildren(head, el('span', ' — empty in every layer'));
    return;
  }
  const ul = el('ul');
  for (const l of cell.layers) {
    const li = el('li');
    li.dataset.layer = l.layer;
    li.dataset.index = String(l.index);
    li.append(el('span', l.layer, 'layer'), ` tile ${l.index}${l.text ? ` · ${l.text}` : ''}`);
    ul.append(li);
  }
  box.replaceChildren(head, ul);
}
