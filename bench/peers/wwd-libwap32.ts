// levelkit vs libwap32 (C, -O2, system zlib): full WWD decode of every corpus level both read, the
// main grids checked identical first, then alternating rounds: one in-process timing of N passes of
// libwap32 (its own process; start-up and file reading excluded) and N passes of levelkit in this
// process. Prints libwap32 time ÷ levelkit time per round (> 1: levelkit is faster), wall and CPU.
// Two rows of node:zlib inflating the same main blocks alone and nothing else (inflateSync as is,
// and pre-sized to the header's block size as levelkit's decode calls it) show how much of either
// tool's time is the inflate both do.
// LEVELKIT_PEER_WWD: your build of bench/peers/wwdbench.c linked with libwap32 (github
// cubuspl42/libwap32 @a9ed93d, -O2, the system zlib; ../shared/docs/PEERS.md).
// Run: npm run build && LEVELKIT_PEER_WWD=/path/to/wwdbench npx tsx bench/peers/wwd-libwap32.ts
// It times the built package (dist/, what users run), as the GraalSuite harness does;
// LEVELKIT_FROM=src times the sources instead, which tsx runs up to ~1.7× slower on some paths.
// ROUNDS (default 15) alternating rounds of PASSES (default 2) corpus passes per timing.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { inflateSync } from 'node:zlib';
import type * as Levelkit from '../../src/index.js';
import type { DecodeOptions } from '../../src/index.js';
import { corpusDir, listFiles, readBytes } from '../../test/helpers/paths.js';
import { fullGc, printTable } from '../lib.js';

const tool = process.env.LEVELKIT_PEER_WWD;
const dir = corpusDir('wwd');
if (!tool || !existsSync(tool))
  throw new Error(`LEVELKIT_PEER_WWD (${tool ?? 'unset'}) must name your build of bench/peers/wwdbench.c linked with libwap32 @a9ed93d, -O2`);
if (!dir) throw new Error('the WWD corpus (../shared/corpus/wwd) is needed');

const from = process.env.LEVELKIT_FROM ?? 'dist';
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
// The main block of each level (after the 1,524-byte header), for the inflate-alone row; levels
// stored uncompressed (if any) have nothing to inflate there.
const HEADER_BYTES = 1524;
const blocks = bytes.flatMap((b) => {
  const { header, container } = wwd.decode(b);
  return header.compressed ? [{ src: b.subarray(HEADER_BYTES), size: container.mainBlockSizeField }] : [];
});
// As interleavedRatios (../lib.ts) times: from a collected heap (untimed) to a collected heap
// (timed), so each row pays for its own garbage, not for the row before it.
const gc = fullGc();
const timed = (run: () => void) => {
  gc();
  const cpu0 = process.cpuUsage(),
    t0 = performance.now();
  for (let p = 0; p < passes; p++) run();
  gc();
  const c = process.cpuUsage(cpu0);
  return [performance.now() - t0, (c.user + c.system) / 1e3] as const;
};
const decodeAll = (opts: DecodeOptions) => () => {
  for (const b of bytes) wwd.decode(b, opts);
};
const theirsTimed = () => {
  // One warm-up pass inside the process, then `passes` timed ones.
  const lines = execFileSync(tool, ['time', String(passes + 1), ...files], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .slice(1);
  return lines.map((l) => l.split(' ').map(Number) as [number, number]).reduce((a, b) => [a[0] + b[0], a[1] + b[1]] as [number, number], [0, 0]);
};

const INFLATE = `node:zlib inflateSync alone (${blocks.length} main blocks)`;
const PRESIZED = 'same, output pre-sized (chunkSize = size + 1)';
const variants: [string, () => void][] = [
  ['levelkit wasm', decodeAll({ backend: 'wasm' })],
  ['levelkit js', decodeAll({ backend: 'js' })],
  ['levelkit wasm, summary', decodeAll({ backend: 'wasm', sections: 'summary' })],
  [
    INFLATE,
    () => {
      for (const b of blocks) inflateSync(b.src);
    },
  ],
  [
    PRESIZED,
    () => {
      for (const b of blocks) inflateSync(b.src, { chunkSize: b.size + 1 });
    },
  ],
];
for (const [, run] of variants) timed(run); // warm up
const ratios = new Map(variants.map(([n]) => [n, { wall: [] as number[], cpu: [] as number[] }]));
// ms per corpus pass, to read the ratios by: each row's own, and libwap32's beside every row.
const perPass = new Map(['libwap32', ...variants.map(([n]) => n)].map((n) => [n, { wall: [] as number[], cpu: [] as number[] }]));
// levelkit wasm's time ÷ inflating alone, per round: what the decode costs beyond the inflate.
const overInflate = new Map([INFLATE, PRESIZED].map((n) => [n, { wall: [] as number[], cpu: [] as number[] }]));
const load0 = loadavg()[0]!;
for (let r = 0; r < rounds; r++) {
  const mine = new Map<string, readonly [number, number]>();
  for (const [name, run] of r % 2 ? [...variants].reverse() : variants) {
    const [theirWall, theirCpu] = r % 2 ? theirsTimed() : [0, 0];
    // Every spawn of the peer forks this process, and the first pass after a fork pays its
    // copy-on-write faults (3–5× the CPU of a pass, 20,000+ faults over the touched heap): a cost of
    // the harness, not of decoding. One untimed pass absorbs it, as the peer's own warm-up pass does.
    run();
    const [wall, cpu] = timed(run);
    const [tw, tc] = r % 2 ? [theirWall, theirCpu] : theirsTimed();
    mine.set(name, [wall, cpu]);
    for (const [n, w, c] of [
      [name, wall, cpu],
      ['libwap32', tw, tc],
    ] as const) {
      perPass.get(n)!.wall.push(w / passes);
      perPass.get(n)!.cpu.push(c / passes);
    }
    ratios.get(name)!.wall.push(tw / wall);
    ratios.get(name)!.cpu.push(tc / cpu);
  }
  const [dw, dc] = mine.get('levelkit wasm')!;
  for (const [n, v] of overInflate) {
    const [iw, ic] = mine.get(n)!;
    v.wall.push(dw / iw);
    v.cpu.push(dc / ic);
  }
}
const med = (v: number[], digits = 2) => {
  const s = [...v].sort((a, b) => a - b);
  return `${s[s.length >> 1]!.toFixed(digits)} (${s[0]!.toFixed(digits)}–${s[s.length - 1]!.toFixed(digits)})`;
};
printTable(
  `libwap32 time ÷ levelkit (${from}) time, ${files.length} levels × ${passes} passes, ${rounds} alternating rounds (load ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`,
  ['levelkit', 'wall, median (range)', 'CPU, median (range)'],
  variants.map(([n]) => [n, med(ratios.get(n)!.wall), med(ratios.get(n)!.cpu)]),
);
printTable(
  'ms per corpus pass (absolute times: the machine is shared, read the ratios)',
  ['', 'wall, median (range)', 'CPU, median (range)'],
  [...perPass].map(([n, v]) => [n, med(v.wall, 0), med(v.cpu, 0)]),
);
printTable(
  'levelkit wasm full decode time ÷ node:zlib inflating the same main blocks alone (same rounds)',
  ['levelkit wasm ÷', 'wall, median (range)', 'CPU, median (range)'],
  [...overInflate].map(([n, v]) => [n, med(v.wall), med(v.cpu)]),
);
