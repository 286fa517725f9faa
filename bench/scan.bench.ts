// `npx tsx bench/index.ts scan`: where a scan's time goes (issue 20), for the shared corpus and
// for 10,000 small generated files: whole processes (read alone, the plain one-thread loop,
// `levelkit scan --workers 1` and `--workers 2`, all from the built dist/), then the library's
// scan() in this process split into walk / read / detect / decode / hash / record / write with
// the main thread's CPU beside the workers', and a projection for N cores from those per-file
// costs. Then the resident memory of scanning 10,000 files and a 1 GiB zip (issue 13).
// SCAN_BENCH=memory: only the memory rows; SCAN_BENCH=variants: also cheap/full × kernels × inflaters.
// SCAN_BENCH_ROUNDS=n: whole-process rows n times in alternating order, best of each kept (load only adds time).
// scan() in this process (both the 1- and the 2-worker split) runs under the 8x V8 interrupt budget
// the CLI sets (src/cli/tiering.ts); the plain loop is timed both
// without it (the reference) and with it.
// Figures go to bench/README.md ("Scan").
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Zip, ZipPassThrough } from 'fflate';
import { SCAN_INTERRUPT_BUDGET } from '../src/cli/tiering.js';
import type { ScanOptions, ScanStats } from '../src/scan/index.js';
import { readFileSafe } from '../src/scan/read.js';
import { procCpuMs } from '../src/scan/thread-cpu.js';
import { CORPUS, FIXTURES, ROOT } from '../test/helpers/paths.js';
import { printTable } from './lib.js';

const N = Math.max(2, availableParallelism());
const MODE = process.env.SCAN_BENCH ?? '';
const ROUNDS = Math.max(1, Number(process.env.SCAN_BENCH_ROUNDS ?? 1));
const CLI = join(ROOT, 'dist/cli.mjs');
const LIB = join(ROOT, 'dist/index.mjs');
if (!existsSync(CLI)) throw new Error('bench scan: run npm run build first (the rows run dist/)');
// The built scan, as users run it: its workers load dist/scan-worker.mjs (from source each worker
// would compile the TypeScript sources first).
const dist: typeof import('../src/scan/index.js') = await import(join(ROOT, 'dist/scan.mjs'));
// scan() in this process runs under the tiering the CLI sets (its workers start after this).
setFlagsFromString(`--interrupt-budget=${SCAN_INTERRUPT_BUDGET}`);
const scan = dist.scan;

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** CPU ms of this process (every thread). */
const processCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU ms of this process's main thread (Linux); NaN elsewhere. */
const mainThreadCpuMs = () => procCpuMs(`self/task/${process.pid}`);

// ---- whole processes ------------------------------------------------------------------------

/** The files under `dir`, each read whole (readFileSync), in a fresh process: the floor. */
const READ_ALONE = `
  import { readdirSync, readFileSync } from 'node:fs'; import { join } from 'node:path';
  const files = []; const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p); else if (e.isFile()) files.push(p); } };
  walk(process.argv[1]); let bytes = 0; for (const f of files) bytes += readFileSync(f).length;`;

/** The same, plus what a cheap scan does per file, in one thread: sha256, detect, decode(sections:'summary'), summarize. */
const PLAIN_LOOP = `
  import { readdirSync, readFileSync } from 'node:fs'; import { join } from 'node:path'; import { createHash } from 'node:crypto';
  import { decode, detect, summarize } from ${JSON.stringify(LIB)};
  const files = []; const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p); else if (e.isFile()) files.push(p); } };
  walk(process.argv[1]);
  for (const f of files) { const b = readFileSync(f); createHash('sha256').update(b).digest('hex'); if (detect(b.subarray(0, 64)) === undefined) continue;
    try { summarize(decode(b, { sections: 'summary' })); } catch {} }`;

/** CPU ms of this process's finished children (Linux); NaN elsewhere. */
const childrenCpuMs = () => procCpuMs('self', true);

/** Wall and CPU seconds of a fresh `node` running `args` (stdout discarded). */
function processSeconds(args: string[]): Timed {
  const t0 = performance.now();
  const c0 = childrenCpuMs();
  try {
    execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'ignore'] });
  } catch (e) {
    // levelkit scan exits 2 when some file failed (the corpus has two): that is a finished run.
    if ((e as { status?: number }).status !== 2) throw e;
  }
  return { wall: (performance.now() - t0) / 1000, cpu: (childrenCpuMs() - c0) / 1000 };
}

interface Timed {
  wall: number;
  cpu: number;
}

/**
 * Wall and CPU seconds of two fresh `node`s running `args` at the same time, until both end: what
 * this machine gives two independent single-threaded jobs. Two plain loops at once ÷ one plain
 * loop bounds what any split of the plain loop's work over two threads can reach here. (On the
 * 2-core machine of bench/README.md a pure integer loop gets 1.97× from two processes, but the
 * plain loop only 1.5–1.7×: it is bound by memory and V8's own threads, not the ALUs.)
 */
async function pairSeconds(args: string[]): Promise<Timed> {
  const t0 = performance.now();
  const c0 = childrenCpuMs();
  const one = () =>
    new Promise<void>((done, fail) => {
      const child = spawn(process.execPath, args, { stdio: 'ignore' });
      child.on('error', fail);
      child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`bench scan: a plain loop exited with ${code}`))));
    });
  await Promise.all([one(), one()]);
  return { wall: (performance.now() - t0) / 1000, cpu: (childrenCpuMs() - c0) / 1000 };
}

interface Processes {
  read: Timed;
  plain: Timed;
  /** The plain loop under the V8 tiering `levelkit scan` sets (src/cli/tiering.ts). */
  plainTuned: Timed;
  w1: Timed;
  w2: Timed;
  /** Two plain loops at once (each over every file), under the scan's tiering. */
  pair: Timed;
}

async function wholeProcesses(dir: string): Promise<Processes> {
  const kinds: [keyof Processes, string[]][] = [
    ['read', ['--input-type=module', '-e', READ_ALONE, dir]],
    ['plain', ['--input-type=module', '-e', PLAIN_LOOP, dir]],
    ['plainTuned', [`--interrupt-budget=${SCAN_INTERRUPT_BUDGET}`, '--input-type=module', '-e', PLAIN_LOOP, dir]],
    ['w1', [CLI, 'scan', dir, '--all', '--quiet', '--workers', '1']],
    ['w2', [CLI, 'scan', dir, '--all', '--quiet', '--workers', '2']],
  ];
  const none = { wall: Infinity, cpu: Infinity };
  const best: Processes = { read: none, plain: none, plainTuned: none, w1: none, w2: none, pair: none };
  const keep = (k: keyof Processes, t: Timed) => {
    best[k] = { wall: Math.min(best[k].wall, t.wall), cpu: Math.min(best[k].cpu, t.cpu) };
  };
  processSeconds(kinds[0]![1]); // warm the page cache
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [...kinds].reverse() : kinds;
    for (const [k, args] of order) keep(k, processSeconds(args));
    keep('pair', await pairSeconds(kinds[2]![1]));
  }
  return best;
}

// ---- scan() in this process -----------------------------------------------------------------

interface Split {
  workers: number;
  files: number;
  bytes: number;
  wall: number;
  walk: number;
  stages: { read: number; detect: number; decode: number; hash: number; record: number };
  write: number;
  mainCpu: number;
  workerCpu: number;
  processCpu: number;
}

/** One scan(): the consumer writes JSON lines to /dev/null in 64 KiB pieces, as the CLI writes to a file. */
async function split(dir: string, workers: number): Promise<Split> {
  const stats: ScanStats = { found: 0, walkDone: false, replacedWorkers: 0 };
  const fd = openSync('/dev/null', 'w');
  let pending = '';
  let write = 0;
  let files = 0;
  let bytes = 0;
  const m0 = mainThreadCpuMs();
  const c0 = processCpuMs();
  const t0 = performance.now();
  for await (const r of scan([dir], { workers, all: true, stats })) {
    const t = performance.now();
    pending += `${dist.recordLine(r)}\n`;
    if (pending.length >= 1 << 16) {
      writeSync(fd, pending);
      pending = '';
    }
    write += performance.now() - t;
    files++;
    bytes += r.bytes ?? 0;
  }
  writeSync(fd, pending);
  closeSync(fd);
  const wall = performance.now() - t0;
  return {
    workers,
    files,
    bytes,
    wall,
    walk: stats.walkMs ?? 0,
    stages: { ...stats.workerStages! },
    write,
    mainCpu: mainThreadCpuMs() - m0,
    workerCpu: stats.workerCpuMs ?? -1,
    processCpu: processCpuMs() - c0,
  };
}

const ms = (x: number) => (Number.isFinite(x) && x >= 0 ? x.toFixed(0) : '–');
const pct = (a: number, b: number) => (Number.isFinite(a) && b > 0 ? `${((100 * a) / b).toFixed(1)} %` : '–');

function report(title: string, p: Processes, runs: Split[]): void {
  const [one, two] = runs as [Split, Split];
  printTable(
    `${title}: whole processes (best of ${ROUNDS}, load ${load()})`,
    ['run', 'wall s', '÷ read alone', '÷ plain loop', 'CPU s', 'CPU ÷ plain loop', 'cores busy', 'files/s', 'MB/s'],
    (
      [
        ['read alone (readFileSync loop)', p.read],
        ['plain loop (read, sha256, detect, decode summary, summarize)', p.plain],
        ['plain loop, --interrupt-budget as levelkit scan sets it', p.plainTuned],
        ['levelkit scan --all --workers 1', p.w1],
        ['levelkit scan --all --workers 2', p.w2],
        ["two plain loops at once under the scan's tiering, each over every file (the machine: what 2 threads give)", p.pair],
      ] as const
    ).map(([label, t]) => [
      label,
      t.wall.toFixed(2),
      `${(t.wall / p.read.wall).toFixed(1)}×`,
      `${(t.wall / p.plain.wall).toFixed(2)}×`,
      t.cpu.toFixed(2),
      `${(t.cpu / p.plain.cpu).toFixed(2)}×`,
      (t.cpu / t.wall).toFixed(2),
      (one.files / t.wall).toFixed(0),
      (one.bytes / 2 ** 20 / t.wall).toFixed(1),
    ]),
  );
  // The floors are wall-time ratios on an idle machine. Under load wall times are mostly
  // queueing, so the CPU view is printed beside them. For the third: two workers on N idle cores
  // take at least (w2 CPU ÷ N), one worker takes (w1 CPU ÷ the cores it keeps busy), so the
  // ratio is at most N × w1 CPU ÷ (cores busy × w2 CPU).
  const busy1 = p.w1.cpu / p.w1.wall;
  const idle2 = (N * p.w1.cpu) / (busy1 * p.w2.cpu);
  console.log(`\nfloors (issue 20; idle 2-core machine; wall, with CPU beside; load ${load()}):`);
  console.log(`  --workers 2 ÷ read alone: ${(p.w2.wall / p.read.wall).toFixed(1)}× wall (≤ 8×, aim 4×)`);
  console.log(`  --workers 1 ÷ plain loop: ${(p.w1.wall / p.plain.wall).toFixed(2)}× wall, ${(p.w1.cpu / p.plain.cpu).toFixed(2)}× CPU (≤ 1.2×)`);
  console.log(
    `    (÷ the plain loop under the scan's tiering: ${(p.w1.wall / p.plainTuned.wall).toFixed(2)}× wall, ${(p.w1.cpu / p.plainTuned.cpu).toFixed(2)}× CPU)`,
  );
  console.log(
    `  --workers 1 ÷ --workers 2: ${(p.w1.wall / p.w2.wall).toFixed(2)}× wall (≥ 1.6×); CPU of 2 workers ÷ 1: ${(p.w2.cpu / p.w1.cpu).toFixed(2)}×, one worker kept ${busy1.toFixed(2)} cores busy, so ${N} idle cores allow ≤ ${idle2.toFixed(2)}× (under load cores busy falls and this bound is optimistic)`,
  );
  // Two independent plain loops share nothing but the machine: their throughput over one loop's
  // is the most two threads get here, before any cost of splitting one job between them.
  console.log(
    `  the machine: two plain loops at once (scan's tiering) give ${((2 * p.plainTuned.wall) / p.pair.wall).toFixed(2)}× one loop's throughput (wall), each keeping ${(p.pair.cpu / p.pair.wall / 2).toFixed(2)} cores busy: the most two workers could give here`,
  );

  // Stage times are measured in the workers by the clock (they include time a loaded machine
  // takes the core away); scaled to the workers' CPU time they add up to it.
  const rows = runs.map((r) => {
    const stageSum = r.stages.read + r.stages.detect + r.stages.decode + r.stages.hash + r.stages.record;
    const scale = r.workerCpu > 0 && stageSum > 0 ? r.workerCpu / stageSum : Number.NaN;
    const st = (x: number) => (Number.isFinite(scale) ? ms(x * scale) : `${ms(x)} (clock)`);
    return [
      `${r.workers} worker${r.workers > 1 ? 's' : ''}`,
      ms(r.wall),
      ms(r.walk),
      st(r.stages.read),
      st(r.stages.detect),
      st(r.stages.decode),
      st(r.stages.hash),
      st(r.stages.record),
      ms(r.write),
      ms(r.mainCpu),
      ms(r.workerCpu),
      ms(r.processCpu - r.mainCpu - r.workerCpu),
      ms(r.processCpu),
      pct(r.mainCpu, r.processCpu),
      (r.files / (r.wall / 1000)).toFixed(0),
    ];
  });
  printTable(
    `${title}: scan() in this process, ms (stages: worker CPU split by the stages' clock times)`,
    [
      'run',
      'wall',
      'walk',
      'read',
      'detect',
      'decode',
      'hash',
      'record',
      'write',
      'main thread CPU',
      'workers CPU',
      'other threads CPU (V8 GC, compiler)',
      'process CPU',
      'main share',
      'files/s',
    ],
    rows,
  );
  console.log(`\nmain thread CPU ÷ process CPU: ${pct(two.mainCpu, two.processCpu)} with 2 workers (≤ 10 %)`);
  projection(title, two);
}

/**
 * What N cores would give, from the per-file costs measured: the main thread's CPU per file is
 * serial (one walker, one writer); the workers' CPU per file divides among N workers. A scan
 * runs as a pipeline, so its wall time is about max(serial, parallel ÷ N) plus start-up, and
 * it stops scaling where the main thread is saturated. Amdahl's bound is the pessimistic side
 * (no overlap of the serial part).
 */
function projection(title: string, r: Split): void {
  const serial = r.mainCpu;
  const parallel = r.processCpu - r.mainCpu;
  if (!Number.isFinite(serial) || parallel <= 0) return;
  const s = serial / (serial + parallel);
  const perFileMain = (serial / r.files) * 1000;
  const perFileWorker = (parallel / r.files) * 1000;
  const rows = [1, 2, 4, 8, 16, 32, 64].map((n) => {
    const pipelineMs = Math.max(serial, parallel / n);
    const amdahl = 1 / (s + (1 - s) / n);
    return [String(n), `${(r.files / (pipelineMs / 1000)).toFixed(0)}`, `${((serial + parallel) / pipelineMs).toFixed(1)}×`, `${amdahl.toFixed(1)}×`];
  });
  printTable(
    `${title}: projection for N cores (main ${perFileMain.toFixed(1)} µs/file serial, workers ${perFileWorker.toFixed(0)} µs/file parallel; serial fraction ${(100 * s).toFixed(1)} %)`,
    ['cores', 'files/s (pipeline)', 'speed-up (pipeline)', 'speed-up (Amdahl)'],
    rows,
  );
}

// ---- data -----------------------------------------------------------------------------------

const tmp = mkdtempSync(join(tmpdir(), 'levelkit-scanbench-'));
const SOURCES = ['wwd/claw-compressed.wwd', 'teeworlds/ddrace-v2.map', 'graal/gr-v103.graal', 'graal/layers.nw', 'teeworlds/tw07-skip.map'];

/** 10,000 small level files (copies of five fixtures), 100 to a folder. */
function manySmallFiles(): string {
  const root = join(tmp, 'many');
  for (let i = 0; i < 10_000; i++) {
    const dir = join(root, String(i % 100));
    if (i < 100) mkdirSync(dir, { recursive: true });
    const src = SOURCES[i % SOURCES.length]!;
    copyFileSync(join(FIXTURES, src), join(dir, `${i}-${src.split('/')[1]}`));
  }
  return root;
}

/**
 * Scans `path` in a fresh process running the built scan (dist/scan.mjs, as users run it) and
 * returns its peak resident set size (maxRSS: the whole process, worker threads included).
 */
function scanInChild(path: string): { records: number; seconds: number; peakMB: number } {
  const script = `import { scan } from ${JSON.stringify(join(ROOT, 'dist/scan.mjs'))};
    const t0 = performance.now(); let n = 0;
    for await (const r of scan([${JSON.stringify(path)}], { workers: ${N} })) n++;
    console.log(JSON.stringify({ records: n, seconds: (performance.now() - t0) / 1000, peakMB: process.resourceUsage().maxRSS / 1024 }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** A 1 GiB zip written in pieces (stored members), never held whole: 1 MiB members, every 8th a level file. */
function bigZip(): string {
  const zipPath = join(tmp, 'big.zip');
  const fd = openSync(zipPath, 'w');
  const zip = new Zip((e, chunk) => {
    if (e) throw e;
    writeSync(fd, chunk);
  });
  const filler = new Uint8Array(1 << 20).map((_, i) => (i * 2654435761) >>> 24);
  const levels = SOURCES.map((s) => readFileSafe(Buffer.from(join(FIXTURES, s)), { maxBytes: 1 << 20 }) as { bytes: Uint8Array });
  for (let i = 0; i < 1024; i++) {
    const isLevel = i % 8 === 0;
    const name = isLevel ? `levels/${i}-${SOURCES[(i / 8) % SOURCES.length]!.split('/')[1]}` : `blobs/${i}.bin`;
    const f = new ZipPassThrough(name);
    f.mtime = new Date(1980, 0, 1);
    zip.add(f);
    f.push(isLevel ? levels[(i / 8) % SOURCES.length]!.bytes : filler, true);
  }
  zip.end();
  closeSync(fd);
  return zipPath;
}

/** The backend × inflater variants of issue 13 (minutes on a loaded machine; SCAN_BENCH=variants). */
async function variants(): Promise<void> {
  const rows: string[][] = [];
  const list: [string, ScanOptions][] = [
    ['full, wasm, native', { depth: 'full' }],
    ['full, js, pako', { depth: 'full', decode: { backend: 'js', inflate: 'pako' } }],
    ['full, wasm, pako', { depth: 'full', decode: { inflate: 'pako' } }],
    ['full, js, native', { depth: 'full', decode: { backend: 'js' } }],
  ];
  for (const [label, opts] of list)
    for (const workers of [1, N]) {
      const t0 = performance.now();
      let n = 0;
      for await (const _ of scan([CORPUS], { ...opts, workers })) n++;
      rows.push([`${label}, ${workers} worker${workers > 1 ? 's' : ''}`, String(n), ((performance.now() - t0) / 1000).toFixed(2)]);
    }
  printTable(`scan of ${CORPUS}: variants (load ${load()})`, ['run', 'records', 'wall s'], rows);
}

// ---- run ------------------------------------------------------------------------------------

try {
  const many = manySmallFiles();
  if (MODE !== 'memory') {
    const sets: [string, string][] = [];
    if (existsSync(CORPUS)) sets.push([`corpus (${CORPUS})`, CORPUS]);
    else console.warn(`\n[levelkit] corpus rows SKIPPED: ${CORPUS} not found`);
    sets.push(['10,000 small generated files', many]);
    for (const [title, dir] of sets) {
      const p = await wholeProcesses(dir);
      const runs = [await split(dir, 1), await split(dir, 2)];
      report(title, p, runs);
    }
    if (MODE === 'variants' && existsSync(CORPUS)) await variants();
  }
  const manyMem = scanInChild(many);
  console.log(
    `\n10,000 generated files: ${manyMem.records} records in ${manyMem.seconds.toFixed(1)} s, peak RSS ${manyMem.peakMB.toFixed(0)} MB (goal < 300 MB)`,
  );
  const big = scanInChild(bigZip());
  console.log(`1 GiB zip (1,024 members): ${big.records} records in ${big.seconds.toFixed(1)} s, peak RSS ${big.peakMB.toFixed(0)} MB (goal < 300 MB)`);
  console.log(`load average at the end: ${load()} on ${availableParallelism()} cores`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
