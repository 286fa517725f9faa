// The summary of the open file (its facts as `levelkit info` gives them) and its warnings.

import { $, el } from '../dom.js';
import type { DecodedFile } from '../protocol.js';

/** Fields with nothing to say (null, an empty list) are left out: no `mod null`, no row of dashes. */
const nothing = (v: unknown) =>
  v === null || v === undefined || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && !!v && !('text' in v) && Object.values(v).every(nothing));

export function showSummary(summary: object): void {
  const dl = $('summary');
  dl.replaceChildren();
  for (const [k, v] of Object.entries(summary)) {
    if (nothing(v)) continue;
    // A group of fields (a Teeworlds map's info) reads as its own list.
    if (v && typeof v === 'object' && !Array.isArray(v) && !('text' in v) && Object.keys(v).length) {
      const inner = el('dl');
      for (const [ik, iv] of Object.entries(v)) if (!nothing(iv)) inner.append(el('dt', ik), el('dd', readable(iv)));
      const dd = el('dd');
      dd.append(inner);
      dl.append(el('dt', k), dd);
    } else dl.append(el('dt', k), el('dd', readable(v)));
  }
}

function readable(v: unknown): string {
  if (v && typeof v === 'object' && 'text' in v) return String((v as { text: unknown }).text);
  if (Array.isArray(v)) return v.map(readable).join(', ');
  if (v && typeof v === 'object')
    return Object.entries(v)
      .map(([k, x]) => `${k}: ${readable(x)}`)
      .join('; ');
  return String(v);
}

export function showWarnings(d: DecodedFile): void {
  const ul = $('warnings');
  ul.replaceChildren(
    ...d.warnings.map((w) => {
      const li = el('li');
      li.append(el('code', w.code), ` ${w.message}${w.offset !== undefined && w.offset !== null ? ` (at byte ${w.offset})` : ''}`);
      return li;
    }),
  );
  $('warning-count').textContent = `(${d.warnings.length})`;
  if (!d.warnings.length) ul.append(el('li', 'none'));
}
