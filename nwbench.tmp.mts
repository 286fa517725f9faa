import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { graal } from './src/index.ts';
import { splitLines } from './src/formats/graal/nw.ts';
const out: string[] = [];
const walk = (d: string) => { for (const n of readdirSync(d).sort()) { const p = join(d, n); if (statSync(p).isDirectory()) walk(p); else if (/\.nw$/.test(n)) out.push(p); } };
walk('/work/shared/corpus/graal');
const files = out.map((p) => new Uint8Array(readFileSync(p))).filter((b) => graal.sniff(b) === 'graal-nw');
console.log(files.length, files.reduce((n, b) => n + b.length, 0));
const jobs: [string, (b: Uint8Array) => unknown][] = [
  ['slice', (b) => b.slice()],
  ['split', (b) => splitLines(b, true)],
  ['decode wasm', (b) => graal.decode(b, { backend: 'wasm' })],
  ['decode js', (b) => graal.decode(b, { backend: 'js' })],
  ['summary', (b) => graal.decode(b, { sections: 'summary' })],
];
for (let round = 0; round < 2; round++) for (const [n, f] of jobs) {
  for (const b of files) f(b);
  const t0 = performance.now(); for (let r = 0; r < 5; r++) for (const b of files) f(b); console.log(n, ((performance.now() - t0) / 5).toFixed(1));
}
