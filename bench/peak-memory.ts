// Peak memory of one Teeworlds decode (issue 19 §4), in a fresh process so nothing else is held:
//   npx tsx bench/peak-memory.ts <map> [all|summary]
// Prints the array buffers and heap held after the decode and the process's max RSS. Not a timing
// benchmark (one run); the figures are in src/formats/teeworlds/README.md §Memory.
import { readFileSync } from 'node:fs';
import { teeworlds } from '../src/index.js';

const [file, sections = 'all'] = process.argv.slice(2);
if (!file || (sections !== 'all' && sections !== 'summary')) {
  console.error('usage: tsx bench/peak-memory.ts <map> [all|summary]');
  process.exit(1);
}
const bytes = new Uint8Array(readFileSync(file));
const t0 = performance.now();
const map = teeworlds.decode(bytes, { sections });
const ms = performance.now() - t0;
const u = process.memoryUsage();
const mb = (n: number) => +(n / 2 ** 20).toFixed(1);
console.log(
  JSON.stringify({
    sections,
    layers: map.groups.reduce((n, g) => n + g.layers.length, 0),
    ms: Math.round(ms),
    arrayBuffersMB: mb(u.arrayBuffers),
    heapUsedMB: mb(u.heapUsed),
    maxRssMB: mb(process.resourceUsage().maxRSS * 1024),
  }),
);
