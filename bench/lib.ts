// Shared bench helpers: a WASM-vs-TS comparison that first checks both give equal output,
// then times them in one tinybench run and prints the ratio (absolute times are noise here).
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Bench } from 'tinybench';
import { procCpuMs } from '../src/scan/thread-cpu.js';
import { ROOT } from '../test/helpers/paths.js';

export interface PairCase<I> {
  /** Row label, e.g. `sumBytes 64 KB`. */
  name: string;
  input: I;
  /** Bytes of input processed per call, for MB/s. */
  bytes: number;
}

export interface PairResult {
  name: string;
  jsMBs: number;
  wasmMBs: number;
  ratio: number;
}

/**
 * Times `js(input)` against `wasm(input)` for each case. `same` must hold for their outputs
 * before anything is timed; a mismatch aborts the run.
 */
export async function comparePair<I, O>(
  title: string,
  cases: PairCase<I>[],
  js: (i: I) => O,
  wasm: (i: I) => O,
  same: (a: O, b: O) => boolean,
  timeMs = 400,
): Promise<PairResult[]> {
  const rows: PairResult[] = [];
  for (const c of cases) {
    if (!same(js(c.input), wasm(c.input))) throw new Error(`${title}: ${c.name}: js and wasm outputs differ; not timing a broken kernel`);
    const bench = new Bench({ time: timeMs, warmupTime: 100 });
    bench
      .add('js', () => {
        js(c.input);
      })
      .add('wasm', () => {
        wasm(c.input);
      });
    await bench.run();
    const mean = (n: string) => latencyMean(bench, n); // ms per call
    const jsMs = mean('js'),
      wasmMs = mean('wasm');
    rows.push({ name: c.name, jsMBs: c.bytes / 1e3 / jsMs, wasmMBs: c.bytes / 1e3 / wasmMs, ratio: jsMs / wasmMs });
  }
  printTable(
    title,
    ['case', 'TS MB/s', 'WASM MB/s', 'WASM ÷ TS'],
    rows.map((r) => [r.name, r.jsMBs.toFixed(0), r.wasmMBs.toFixed(0), `${r.ratio.toFixed(2)}×`]),
  );
  return rows;
}

/**
 * Before a whole-corpus timing: `a` and `b` (e.g. a decode with each kernel set) must give
 * deep-equal results for every input, or the run stops. A benchmark never times a broken path.
 */
export function assertSameOutputs<I>(title: string, inputs: I[], a: (i: I) => unknown, b: (i: I) => unknown): void {
  inputs.forEach((input, k) => {
    if (!isDeepStrictEqual(a(input), b(input))) throw new Error(`${title}: input ${k}: the two paths give different results; not timing them`);
  });
}

/**
 * Times several named variants of one job in one tinybench run; prints mean ms and ratio to the first.
 * `warmupIterations` (default tinybench's 16) can be lowered for jobs that take seconds per call.
 */
export async function compareMany(
  title: string,
  variants: [string, () => unknown][],
  timeMs = 1500,
  warmupIterations?: number,
): Promise<Record<string, number>> {
  const bench = new Bench({ time: timeMs, warmupTime: 200, iterations: 3, ...(warmupIterations !== undefined ? { warmupIterations } : {}) });
  for (const [n, f] of variants) bench.add(n, f);
  await bench.run();
  const out: Record<string, number> = {};
  for (const [n] of variants) out[n] = latencyMean(bench, n);
  const base = out[variants[0]![0]]!;
  printTable(
    title,
    ['variant', 'mean ms', `÷ ${variants[0]![0]}`],
    variants.map(([n]) => [n, out[n]!.toFixed(2), `${(out[n]! / base).toFixed(2)}×`]),
  );
  return out;
}

/** A full V8 collection between timed passes (the flag is set at run time, so no node option is needed). */
export function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

export interface RatioSummary {
  median: number;
  min: number;
  max: number;
  cpuMedian: number;
  cpuMin: number;
  cpuMax: number;
  fastest: number;
}

/**
 * Ratio of each variant's time to `base`'s, from passes run in alternating order (base first in
 * even rounds, last in odd ones), so the machine's load falls on both sides alike. Each timed
 * pass runs from a collected heap to a collected heap (a full GC before it, untimed, and one at
 * its end, timed): every pass pays for exactly its own garbage, not for what the pass before
 * left behind, nor leaves its own to the next. Prints and returns the median ratio per variant
 * with its range over the rounds, by wall time and by this process's CPU time: on a shared
 * machine a pass that is descheduled for a while inflates its wall time, not its CPU time.
 * `fastest` is the variant's fastest pass over the base's fastest (wall time): load only ever
 * adds time, so under heavy load the fastest passes are the nearest to a quiet machine's.
 */
export function interleavedRatios(title: string, base: [string, () => unknown], variants: [string, () => unknown][], rounds = 7): Record<string, RatioSummary> {
  // Every ratio is reported with the machine's load beside it (1-minute average, before → after).
  const loadBefore = loadavg()[0]!;
  const gc = fullGc();
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e3;
  };
  const time = (f: () => unknown): [number, number] => {
    gc();
    const t0 = performance.now(),
      c0 = cpuMs();
    f();
    gc();
    return [performance.now() - t0, cpuMs() - c0];
  };
  const wall = new Map<string, number[]>(variants.map(([n]) => [n, []]));
  const best = new Map<string, number>([[base[0], Infinity], ...variants.map(([n]) => [n, Infinity] as [string, number])]);
  const keep = (n: string, t: number) => {
    if (t < best.get(n)!) best.set(n, t);
  };
  const cpu = new Map<string, number[]>(variants.map(([n]) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [n, f] of variants) {
      let b: [number, number], v: [number, number];
      if (r % 2 === 0) {
        b = time(base[1]);
        v = time(f);
      } else {
        v = time(f);
        b = time(base[1]);
      }
      wall.get(n)!.push(v[0] / b[0]);
      keep(base[0], b[0]);
      keep(n, v[0]);
      cpu.get(n)!.push(v[1] / b[1]);
    }
  }
  const stats = (rs: number[]) => {
    rs.sort((a, b) => a - b);
    return [rs[rs.length >> 1]!, rs[0]!, rs[rs.length - 1]!] as const;
  };
  const out: Record<string, RatioSummary> = {};
  for (const [n] of variants) {
    const [median, min, max] = stats(wall.get(n)!);
    const [cpuMedian, cpuMin, cpuMax] = stats(cpu.get(n)!);
    out[n] = { median, min, max, cpuMedian, cpuMin, cpuMax, fastest: best.get(n)! / best.get(base[0])! };
  }
  const x = (v: number) => v.toFixed(2);
  printTable(
    `${title} (${rounds} alternating rounds, each pass from a collected heap to a collected heap; load ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`,
    ['variant', `median ÷ ${base[0]} (wall)`, 'range', `median ÷ ${base[0]} (CPU time)`, 'range', 'fastest ÷ fastest'],
    variants.map(([n]) => {
      const o = out[n]!;
      return [n, `${x(o.median)}×`, `${x(o.min)}–${x(o.max)}×`, `${x(o.cpuMedian)}×`, `${x(o.cpuMin)}–${x(o.cpuMax)}×`, `${x(o.fastest)}×`];
    }),
  );
  return out;
}

export function printTable(title: string, head: string[], rows: string[][]): void {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  console.log(`\n### ${title}\n`);
  console.log(`| ${head.map((h, i) => h.padEnd(w[i]!)).join(' | ')} |`);
  console.log(`|${w.map((n) => '-'.repeat(n + 2)).join('|')}|`);
  for (const r of rows) console.log(`| ${r.map((c, i) => c.padEnd(w[i]!)).join(' | ')} |`);
}

export const SIZES: [string, number][] = [
  ['1 KB', 1024],
  ['64 KB', 65536],
  ['1 MB', 1 << 20],
  ['16 MB', 16 << 20],
];

function latencyMean(bench: Bench, name: string): number {
  const r = bench.getTask(name)?.result as { latency?: { mean: number }; error?: unknown } | undefined;
  if (!r?.latency) throw new Error(`bench task ${name} failed: ${String(r?.error)}`);
  return r.latency.mean;
}

/** The middle value of `xs` (the upper one of an even count); `xs` is not reordered. */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/**
 * `levelkit …args` as users run it (the built dist/cli.mjs in a fresh Node process), its output
 * dropped: wall and CPU seconds, worker threads included. Exit 1 (findings) and 2 (a file that
 * is not a level) are finished runs; anything else throws with the command's stderr.
 */
export function levelkitProcess(args: string[]): { wall: number; cpu: number } {
  const c0 = procCpuMs('self', true);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'dist/cli.mjs'), ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  if (r.status !== 0 && r.status !== 1 && r.status !== 2) throw new Error(`levelkit ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return { wall: (performance.now() - t0) / 1000, cpu: (procCpuMs('self', true) - c0) / 1000 };
}
