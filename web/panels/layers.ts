// The layers panel: every group (collapsible, with its parallax) and layer (kind, facts, DDNet
// physics layers marked), a visibility checkbox per drawn layer (data-layer-toggle) and one for
// the markers. A change asks the worker to draw the picture again with the layers ticked; the
// page only puts the bitmap it gets on the canvas, so no toggle blocks the page's thread.

import { ask } from '../ask.js';
import { $, el } from '../dom.js';
import { type Preview, state } from '../state.js';
import { applyView, fitView, resetRegions } from '../view.js';

/** A redraw in flight, and whether another change came meanwhile (only the latest is drawn). */
let busy = false;
let again = false;

export function showLayers(p: Preview | undefined): void {
  const box = $('layers');
  box.replaceChildren();
  box.hidden = !p || p.empty !== undefined || p.tree.length === 0;
  if (!p || box.hidden) return;
  box.append(el('h3', 'Layers'));
  const drawn = new Set(p.drawn);
  for (const [gi, g] of p.tree.entries()) {
    const details = el('details');
    details.open = true;
    details.dataset.group = String(gi);
    const parallax = g.parallax ? ` · parallax ${g.parallax[0]}%, ${g.parallax[1]}%` : '';
    details.append(el('summary', `${g.name}${parallax}${g.facts ? ` · ${g.facts}` : ''}`));
    const ul = el('ul');
    for (const l of g.layers) {
      const li = el('li');
      const label = el('label');
      if (l.render !== null) {
        const box = el('input');
        box.type = 'checkbox';
        box.dataset.layerToggle = String(l.render);
        box.checked = drawn.has(l.render);
        box.addEventListener('change', redraw);
        label.append(box);
        // Opacity as editors offer it: the worker mixes the layer in at this share.
        const slider = el('input');
        slider.type = 'range';
        slider.min = '0';
        slider.max = '100';
        slider.value = '100';
        slider.title = 'opacity';
        slider.dataset.layerOpacity = String(l.render);
        slider.addEventListener('input', redraw);
        li.append(slider);
      }
      label.append(` ${l.name}`, el('span', ` ${l.kind}${l.physics ? ' (physics: hover names entities)' : ''}`, 'kind'));
      li.append(label);
      if (l.facts) li.append(el('span', l.facts, 'facts'));
      ul.append(li);
    }
    details.append(ul);
    box.append(details);
  }
  const markers = el('label');
  const tick = el('input');
  tick.type = 'checkbox';
  tick.id = 'markers-toggle';
  tick.checked = true;
  tick.addEventListener('change', redraw);
  markers.append(tick, ' markers');
  box.append(markers);
}

/** Draws the picture again with the layers ticked. */
async function redraw(): Promise<void> {
  if (busy) {
    again = true;
    return;
  }
  busy = true;
  const of = state.shownId;
  const layers = [...document.querySelectorAll<HTMLInputElement>('#layers input[data-layer-toggle]')]
    .filter((b) => b.checked)
    .map((b) => Number(b.dataset.layerToggle))
    .sort((a, b) => a - b);
  const markers = $<HTMLInputElement>('markers-toggle').checked;
  const opacity: Record<number, number> = {};
  for (const s of document.querySelectorAll<HTMLInputElement>('#layers input[data-layer-opacity]'))
    if (Number(s.value) < 100) opacity[Number(s.dataset.layerOpacity)] = Number(s.value) / 100;
  $('layers').dataset.state = 'drawing';
  const r = await ask({ type: 'redraw', of, layers, markers, opacity });
  busy = false;
  const p = state.preview;
  if (r.ok && 'picture' in r && p && of === state.shownId) {
    const { bitmap, ...facts } = r.picture;
    const resized = facts.width !== p.width || facts.height !== p.height;
    Object.assign(p, facts, { drawn: layers });
    const canvas = $<HTMLCanvasElement>('preview');
    if (resized) {
      canvas.width = facts.width;
      canvas.height = facts.height;
    }
    const ctx = canvas.getContext('2d')!;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    if (bitmap) {
      ctx.drawImage(bitmap, 0, 0);
      bitmap.close();
    }
    resetRegions();
    if (resized) fitView();
    else applyView();
  }
  if (again) {
    again = false;
    await redraw();
    return;
  }
  $('layers').dataset.state = 'done';
}
