// levelkit vs libwap32 (C, -O2, system zlib): full WWD decode of every corpus level both read, the
// main grids checked identical first, then alternating rounds: one in-process timing of N passes of
// libwap32 (its own process; start-up and file reading excluded) and N passes of levelkit in this
// process. Prints libwap32 time ÷ levelkit time per round (> 1: levelkit is faster), wall and CPU.
// Build the peer first: bash bench/peers/build.sh. Run: npx tsx bench/peers/wwd-libwap32.ts
// LEVELKIT_FROM=dist times the built package (npm run build first) instead of the sources, which
// tsx runs up to ~1.7× slower on some paths; the table's title says which was timed.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import type * as Levelkit from '../../src/index.js';
import type { DecodeOptions } from '../../src/index.js';
import { corpusDir, listFiles, readBytes } from '../../test/helpers/paths.js';
import { printTable } from '../lib.js';

const tool = join(process.env.LEVELKIT_PEERS ?? join(homedir(), '.cache/levelkit-peers'), 'wwdbench');
const dir = corpusDir('wwd');
if (!existsSync(tool)) throw new Error(`${tool} not found: run bash bench/peers/build.sh first`);
if (!dir) throw new Error('the WWD corpus (../shared/corpus/wwd) is needed');

const from = process.env.LEVELKIT_FROM ?? 'src';
if (from !== 'src' && from !== 'dist') throw new Error(`LEVELKIT_FROM is ${from}: src or dist`);
const lib: typeof Levelkit = from === 'dist' ? await import(new URL('../../dist/index.mjs', import.meta.url).href) : await import('../../src/index.js');
const { mainGrid, wwd } = lib;

const rounds = Number(process.env.ROUNDS ?? 15);
const passes = Number(process.env.PASSES ?? 2);
const all = listFiles(dir, /\.wwd$/i);

/** FNV-1a 64 of the main grid as u32 LE: what wwdbench prints. */
function gridHash(cells: ArrayLike<number>): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < cells.length; i++) {
    const t = cells[i]!;
    for (let k = 0; k < 4; k++) h = ((h ^ BigInt((t >>> (8 * k)) & 0xff)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

// Same main grid from both, or the file is left out (and counted).
const theirs = new Map(
  execFileSync(tool, ['grids', ...all], { encoding: 'utf8', maxBuffer: 1 << 26 })
    .trim()
    .split('\n')
    .map((l) => [l.slice(l.indexOf(' ') + 1), l.slice(0, l.indexOf(' '))] as const),
);
const files: string[] = [];
let unreadable = 0;
for (const f of all) {
  const h = theirs.get(f);
  if (!h || h === '-') {
    unreadable++;
    continue;
  }
  const grid = mainGrid(wwd.decode(readBytes(f)));
  if (!grid || gridHash(grid.cells) !== h) throw new Error(`${f}: libwap32 and levelkit give different main grids; not timing`);
  files.push(f);
}
console.log(`${files.length} levels with identical main grids (${unreadable} libwap32 cannot read, left out)`);

const bytes = files.map(readBytes);
const ours = (opts: DecodeOptions) => {
  const cpu0 = process.cpuUsage(),
    t0 = performance.now();
  for (let p = 0; p < passes; p++) for (const b of bytes) wwd.decode(b, opts);
  const c = process.cpuUsage(cpu0);
  return [performance.now() - t0, (c.user + c.system) / 1e3] as const;
};
const theirsTimed = () => {
  // One warm-up pass inside the process, then `passes` timed ones.
  const lines = execFileSync(tool, ['time', String(passes + 1), ...files], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .slice(1);
  return lines.map((l) => l.split(' ').map(Number) as [number, number]).reduce((a, b) => [a[0] + b[0], a[1] + b[1]] as [number, number], [0, 0]);
};

const variants: [string, DecodeOptions][] = [
  ['levelkit wasm', { backend: 'wasm' }],
  ['levelkit js', { backend: 'js' }],
  ['levelkit wasm, summary', { backend: 'wasm', sections: 'summary' }],
];
for (const [, o] of variants) ours(o); // warm up
const ratios = new Map(variants.map(([n]) => [n, { wall: [] as number[], cpu: [] as number[] }]));
const load0 = loadavg()[0]!;
for (let r = 0; r < rounds; r++) {
  for (const [name, opts] of r % 2 ? [...variants].reverse() : variants) {
    const [theirWall, theirCpu] = r % 2 ? theirsTimed() : [0, 0];
    const [wall, cpu] = ours(opts);
    const [tw, tc] = r % 2 ? [theirWall, theirCpu] : theirsTimed();
    ratios.get(name)!.wall.push(tw / wall);
    ratios.get(name)!.cpu.push(tc / cpu);
  }
}
const med = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return `${s[s.length >> 1]!.toFixed(2)} (${s[0]!.toFixed(2)}–${s[s.length - 1]!.toFixed(2)})`;
};
printTable(
  `libwap32 time ÷ levelkit (${from}) time, ${files.length} levels × ${passes} passes, ${rounds} alternating rounds (load ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`,
  ['levelkit', 'wall, median (range)', 'CPU, median (range)'],
  variants.map(([n]) => [n, med(ratios.get(n)!.wall), med(ratios.get(n)!.cpu)]),
);
