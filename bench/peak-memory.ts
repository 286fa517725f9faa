// Peak memory of one Teeworlds decode and what follows it (issue 19 §4), in a fresh process so
// nothing else is held:
//   node --expose-gc --import tsx bench/peak-memory.ts <map> <case>
// Cases: `all` (eager decode), `summary` (sections: 'summary'), `lazy` (layers: 'lazy', nothing
// read), `lazy+summarize`, `render` / `lazy+render` (decode, then render the main (game) layer),
// `render-all` / `lazy+render-all` (decode, then render every layer composited). Prints the array
// buffers and heap still held at the end (after a GC when --expose-gc is given) and the process's
// max RSS, the peak. Not a timing benchmark (one run); the figures are in
// src/formats/teeworlds/README.md §Memory.
import { readFileSync } from 'node:fs';
import { render, summarize, teeworlds } from '../src/index.js';

const CASES = ['all', 'summary', 'lazy', 'lazy+summarize', 'render', 'lazy+render', 'render-all', 'lazy+render-all'] as const;
type Case = (typeof CASES)[number];

const [file, which = 'all'] = process.argv.slice(2);
if (!file || !CASES.includes(which as Case)) {
  console.error(`usage: node --expose-gc --import tsx bench/peak-memory.ts <map> [${CASES.join('|')}]`);
  process.exit(1);
}
const bytes = new Uint8Array(readFileSync(file));
const lazy = which.startsWith('lazy');
const t0 = performance.now();
const map = teeworlds.decode(bytes, { sections: which === 'summary' ? 'summary' : 'all', layers: lazy ? 'lazy' : 'eager' });
let drawn = 0;
if (which.endsWith('summarize')) summarize(map);
if (which.endsWith('render') || which.endsWith('render-all')) drawn = render(map, { layer: which.endsWith('all') ? 'all' : 'main' }).drawn.length;
const ms = performance.now() - t0;
(globalThis as { gc?: () => void }).gc?.();
const u = process.memoryUsage();
const mb = (n: number) => +(n / 2 ** 20).toFixed(1);
console.log(
  JSON.stringify({
    case: which,
    layers: map.groups.reduce((n, g) => n + g.layers.length, 0),
    drawn,
    ms: Math.round(ms),
    heldArrayBuffersMB: mb(u.arrayBuffers),
    heldHeapMB: mb(u.heapUsed),
    maxRssMB: mb(process.resourceUsage().maxRSS * 1024),
  }),
);
