// Envelopes as curves: one small SVG per envelope, a line per channel over its time span (step
// curves drawn as steps), with its name, channels and length.

import { $, el } from '../dom.js';
import type { EnvelopeCurve } from '../inspect/types.js';

const SVG = 'http://www.w3.org/2000/svg';
const W = 240;
const H = 72;
const CHANNEL_COLOURS = ['#e55', '#5c5', '#58f', '#ccc'];
const KINDS: Record<number, string> = { 1: 'sound', 3: 'position', 4: 'colour' };

export function showEnvelopes(envelopes: EnvelopeCurve[]): void {
  const box = $('envelopes');
  box.hidden = envelopes.length === 0;
  box.replaceChildren();
  if (!envelopes.length) return;
  box.append(el('h3', `Envelopes (${envelopes.length})`));
  const grid = el('div', undefined, 'envelope-grid');
  envelopes.forEach((e, i) => {
    const fig = el('figure');
    fig.dataset.envelope = String(i);
    fig.append(
      curve(e),
      el('figcaption', `#${i} ${e.name || '(unnamed)'} · ${KINDS[e.channels] ?? `${e.channels} channels`} · ${e.time.length} points, ${e.time.at(-1) ?? 0} ms`),
    );
    grid.append(fig);
  });
  box.append(grid);
}

function curve(e: EnvelopeCurve): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', String(W));
  svg.setAttribute('height', String(H));
  const n = e.time.length;
  if (!n) return svg;
  const t0 = e.time[0]!;
  const span = Math.max(1, e.time[n - 1]! - t0);
  const channels = e.values[0]?.length ?? 0;
  const all = e.values.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  const px = (t: number) => 4 + ((t - t0) / span) * (W - 8);
  const py = (v: number) => H - 4 - ((v - lo) / (hi - lo || 1)) * (H - 8);
  for (let c = 0; c < channels; c++) {
    const pts: string[] = [];
    for (let i = 0; i < n; i++) {
      const x = px(e.time[i]!);
      const y = py(e.values[i]![c]!);
      pts.push(`${x.toFixed(1)},${y.toFixed(1)}`);
      // A step holds its value until the next point.
      if (e.curve[i] === 0 && i + 1 < n) pts.push(`${px(e.time[i + 1]!).toFixed(1)},${y.toFixed(1)}`);
    }
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', pts.join(' '));
    line.setAttribute('fill', 'none');
    line.setAttribute('stroke', CHANNEL_COLOURS[c] ?? '#ccc');
    line.setAttribute('stroke-width', '1.5');
    svg.append(line);
  }
  return svg;
}
