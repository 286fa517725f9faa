// A Graal world's page: the gmap's levels stitched into one picture (worlds/<key>.png, drawn by the
// builder) with zoom and pan, a link over each cell to its level's page, and the levels the gmap
// names that were missing or did not decode, listed.

import type { WorldPageData } from '../../src/site/contract.js';
import { el } from '../dom.js';
import { indexHref, levelHref, siteHref } from './links.js';
import { panZoom } from './pan-zoom.js';
import { link, section, table } from './sections.js';

export function worldPage(data: WorldPageData): void {
  const header = el('header');
  const nav = el('nav');
  nav.append(link('← all levels', indexHref()));
  header.append(nav, el('h1', data.name), el('p', `${data.columns} × ${data.rows} levels`));
  document.title = data.name;
  const controls = el('div', undefined, 'view-controls');
  const viewport = el('div', undefined, 'viewport');
  viewport.id = 'viewport';
  const stage = el('div', undefined, 'world');
  stage.id = 'world';
  stage.style.width = `${data.width}px`;
  stage.style.height = `${data.height}px`;
  const src = data.picture && siteHref(data.picture);
  if (src) {
    const img = el('img');
    img.alt = '';
    img.draggable = false;
    img.addEventListener('error', () => img.remove());
    img.src = src;
    stage.append(img);
  }
  // One box per cell over the picture, in percentages so they follow it at every zoom.
  for (const [i, cell] of data.cells.entries()) {
    const x = i % data.columns;
    const y = Math.floor(i / data.columns);
    const box = el(cell.key ? 'a' : 'div', undefined, `world-cell ${cell.state}`);
    if (cell.key) (box as HTMLAnchorElement).href = levelHref(cell.key);
    box.title = `${cell.name || '(empty)'}${cell.state === 'drawn' ? '' : ` (${cell.state})`}`;
    box.dataset.cell = String(i);
    box.style.left = `${(x / data.columns) * 100}%`;
    box.style.top = `${(y / data.rows) * 100}%`;
    box.style.width = `${100 / data.columns}%`;
    box.style.height = `${100 / data.rows}%`;
    if (cell.state !== 'drawn') box.append(el('span', cell.name, 'label'));
    stage.append(box);
  }
  viewport.append(stage);
  const gaps = data.cells.map((c, i) => ({ ...c, i })).filter((c) => c.name && c.state !== 'drawn');
  const missing = section(
    'missing',
    `Missing levels (${gaps.length})`,
    table(
      ['level', 'cell', 'state'],
      gaps.map((c) => [c.key ? link(c.name, levelHref(c.key)) : c.name, `column ${c.i % data.columns}, row ${Math.floor(c.i / data.columns)}`, c.state]),
    ),
  );
  if (!gaps.length) missing.classList.add('none');
  document.body.append(header, controls, viewport, missing);
  panZoom(viewport, stage, controls).setSize(data.width, data.height);
  document.body.dataset.ready = '1';
}
