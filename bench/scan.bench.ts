// `npx tsx bench/index.ts scan`: levelkit scan over the whole shared corpus (issue 13): cheap and
// full, 1 worker and N, wasm and js kernels, native and pako inflate; against merely walking and
// reading every file; and the resident memory of scanning 10,000 generated files and a 1 GB zip.
// Figures go to bench/README.md ("Scan").
import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Zip, ZipPassThrough } from 'fflate';
import { type ScanOptions, scan } from '../src/scan/index.js';
import { readFileSafe } from '../src/scan/read.js';
import { walk } from '../src/scan/walk.js';
import { CORPUS, FIXTURES, ROOT } from '../test/helpers/paths.js';
import { printTable } from './lib.js';

const N = Math.max(2, availableParallelism());

/** `cpu`: user + system seconds of this process, worker threads included (the machine is shared, so wall time alone says little). */
interface Run {
  label: string;
  seconds: number;
  cpu: number;
  files: number;
  bytes: number;
  records: number;
}

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function timedScan(label: string, paths: string[], opts: ScanOptions): Promise<Run> {
  const t0 = performance.now();
  const c0 = cpuSeconds();
  let files = 0;
  let bytes = 0;
  let records = 0;
  for await (const r of scan(paths, opts)) {
    records++;
    if (!r.error && r.format) {
      files++;
      bytes += r.bytes ?? 0;
    }
  }
  return { label, seconds: (performance.now() - t0) / 1000, cpu: cpuSeconds() - c0, files, bytes, records };
}

/** Walk and read every file, no decode: the floor a scan is compared with. */
function readOnly(): Run {
  const t0 = performance.now();
  const c0 = cpuSeconds();
  let files = 0;
  let bytes = 0;
  for (const e of walk([CORPUS])) {
    if (e.kind !== 'file') continue;
    const r = readFileSafe(e.path, { maxBytes: 1 << 30 });
    if ('bytes' in r) {
      files++;
      bytes += r.bytes.length;
    }
  }
  return { label: 'walk + read, no decode', seconds: (performance.now() - t0) / 1000, cpu: cpuSeconds() - c0, files, bytes, records: files };
}

/**
 * Scans `path` in a fresh process running the built scan (dist/scan.mjs, as users run it) and
 * returns its peak resident set size (maxRSS: the whole process, worker threads included), so
 * neither this process's heap nor tsx compiling sources in each worker is counted.
 */
function scanInChild(path: string): { records: number; seconds: number; peakMB: number } {
  const script = `import { scan } from ${JSON.stringify(join(ROOT, 'dist/scan.mjs'))};
    const t0 = performance.now(); let n = 0;
    for await (const r of scan([${JSON.stringify(path)}], { workers: ${N} })) n++;
    console.log(JSON.stringify({ records: n, seconds: (performance.now() - t0) / 1000, peakMB: process.resourceUsage().maxRSS / 1024 }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

const rate = (r: Run) => [
  r.label,
  r.records.toString(),
  r.seconds.toFixed(2),
  r.cpu.toFixed(2),
  (r.records / r.seconds).toFixed(0),
  (r.bytes / 2 ** 20 / r.seconds).toFixed(1),
];

// SCAN_BENCH=memory runs only the memory rows (the corpus rows take minutes).
const corpusRows = process.env.SCAN_BENCH !== 'memory';
const runs: Run[] = [];
if (corpusRows) {
  // Warm the page cache so the first row is not charged for disk reads.
  readOnly();
  const read = readOnly();
  runs.push(read);
  const variants: [string, ScanOptions][] = [
    ['cheap, wasm, native, 1 worker', { depth: 'cheap', workers: 1 }],
    [`cheap, wasm, native, ${N} workers`, { depth: 'cheap', workers: N }],
    ['full, wasm, native, 1 worker', { depth: 'full', workers: 1 }],
    [`full, wasm, native, ${N} workers`, { depth: 'full', workers: N }],
    ['full, js, pako, 1 worker', { depth: 'full', workers: 1, decode: { backend: 'js', inflate: 'pako' } }],
    [`full, js, pako, ${N} workers`, { depth: 'full', workers: N, decode: { backend: 'js', inflate: 'pako' } }],
    ['full, wasm, pako, 1 worker', { depth: 'full', workers: 1, decode: { inflate: 'pako' } }],
    [`full, wasm, pako, ${N} workers`, { depth: 'full', workers: N, decode: { inflate: 'pako' } }],
    ['full, js, native, 1 worker', { depth: 'full', workers: 1, decode: { backend: 'js' } }],
    [`full, js, native, ${N} workers`, { depth: 'full', workers: N, decode: { backend: 'js' } }],
  ];
  for (const [label, opts] of variants) runs.push(await timedScan(label, [CORPUS], opts));
  printTable(`scan of ${CORPUS}`, ['run', 'records', 'wall s', 'CPU s', 'files/s', 'MB/s (decoded files)'], runs.map(rate));

  const find = (l: string) => runs.find((r) => r.label === l)!;
  const cheapN = find(`cheap, wasm, native, ${N} workers`);
  const cheap1 = find('cheap, wasm, native, 1 worker');
  const pako1 = find('full, js, pako, 1 worker');
  const pakoN = find(`full, js, pako, ${N} workers`);
  const wasmPako1 = find('full, wasm, pako, 1 worker');
  const wasmPakoN = find(`full, wasm, pako, ${N} workers`);
  console.log(`\nfloors:`);
  console.log(`  ${N} workers ÷ 1 worker, full/pako (js kernels): ${(pako1.seconds / pakoN.seconds).toFixed(2)}× (goal ≥ 1.6×)`);
  console.log(`  ${N} workers ÷ 1 worker, full/pako (wasm kernels): ${(wasmPako1.seconds / wasmPakoN.seconds).toFixed(2)}× (goal ≥ 1.6×)`);
  console.log(
    `  cheap scan (${N} workers) ÷ walk + read: ${(cheapN.seconds / read.seconds).toFixed(2)}× wall (goal ≤ 3×); 1 worker: ${(cheap1.seconds / read.seconds).toFixed(2)}× wall, ${(cheap1.cpu / read.cpu).toFixed(2)}× CPU`,
  );
  console.log(
    `  load average after the corpus rows: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores`,
  );
}

// Memory: a folder of 10,000 generated files, then a 1 GB zip, each scanned with N workers.
const tmp = mkdtempSync(join(tmpdir(), 'levelkit-scanbench-'));
try {
  const sources = ['wwd/claw-compressed.wwd', 'teeworlds/ddrace-v2.map', 'graal/gr-v103.graal', 'graal/layers.nw', 'teeworlds/tw07-skip.map'];
  for (let i = 0; i < 10_000; i++) {
    const dir = join(tmp, 'many', String(i % 100));
    if (i < 100) mkdirSync(dir, { recursive: true });
    const src = sources[i % sources.length]!;
    copyFileSync(join(FIXTURES, src), join(dir, `${i}-${src.split('/')[1]}`));
  }
  const many = scanInChild(join(tmp, 'many'));
  console.log(`\n10,000 generated files: ${many.records} records in ${many.seconds.toFixed(1)} s, peak RSS ${many.peakMB.toFixed(0)} MB (goal < 300 MB)`);

  // The zip is written in pieces (stored members), never held whole: 1 GiB of 1 MiB members, every
  // 8th a level file padded to its own size, the rest filler bytes no format claims.
  const zipPath = join(tmp, 'big.zip');
  const fd = openSync(zipPath, 'w');
  const zip = new Zip((e, chunk) => {
    if (e) throw e;
    writeSync(fd, chunk);
  });
  const filler = new Uint8Array(1 << 20).map((_, i) => (i * 2654435761) >>> 24);
  const levels = sources.map((s) => readFileSafe(Buffer.from(join(FIXTURES, s)), { maxBytes: 1 << 20 }) as { bytes: Uint8Array });
  for (let i = 0; i < 1024; i++) {
    const isLevel = i % 8 === 0;
    const name = isLevel ? `levels/${i}-${sources[(i / 8) % sources.length]!.split('/')[1]}` : `blobs/${i}.bin`;
    const f = new ZipPassThrough(name);
    f.mtime = new Date(1980, 0, 1);
    zip.add(f);
    f.push(isLevel ? levels[(i / 8) % sources.length]!.bytes : filler, true);
  }
  zip.end();
  closeSync(fd);
  const big = scanInChild(zipPath);
  console.log(`1 GiB zip (1,024 members): ${big.records} records in ${big.seconds.toFixed(1)} s, peak RSS ${big.peakMB.toFixed(0)} MB (goal < 300 MB)`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
