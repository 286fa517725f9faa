// Kernels and inflaters side by side: the open file decoded with each, timed by the worker.

import { ask } from '../ask.js';
import { $, el } from '../dom.js';
import type { BenchRow } from '../protocol.js';

export async function showBench(bytes: Uint8Array): Promise<void> {
  const box = $('bench');
  box.hidden = false;
  const body = box.querySelector('tbody')!;
  body.replaceChildren(el('tr', 'timing…'));
  const r = await ask({ type: 'bench', bytes });
  const rows: BenchRow[] = r.ok && 'bench' in r ? r.bench : [];
  const best = Math.min(...rows.map((x) => x.ms ?? Infinity));
  body.replaceChildren(
    ...rows.map((x) => {
      const tr = el('tr');
      tr.append(
        el('td', x.label + (x.note ? ` (${x.note})` : '')),
        el('td', x.ms === null ? '—' : `${x.ms.toFixed(3)}${x.ms === best ? ' ★' : ` (${(x.ms / best).toFixed(1)}×)`}`),
      );
      return tr;
    }),
  );
}
