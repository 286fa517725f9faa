// The archive index's floors (issue 29), on the shared corpus, as users run it (dist/cli.mjs):
// - indexing at full depth ÷ `scan --depth full` writing JSON lines only (floor ≤ 1.3×),
// - `--resume` over the unchanged corpus ÷ a fresh indexing run (floor ≤ 0.2×),
// - "which maps use tile X" inside the query engine, warm (floor ≤ 0.5 s; process start aside),
// - peak RSS of indexing the corpus and 10,000 small files (floor < 300 MB).
// Whole processes alternate A B A B; ratios are medians of each round's pair, with the load beside.
// `npm run build && npx tsx bench/index.ts index` (INDEX_BENCH_ROUNDS, default 5).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexQuery } from '../src/archive-index/query.js';
import { procCpuMs } from '../src/scan/thread-cpu.js';
import { CORPUS, FIXTURES, ROOT } from '../test/helpers/paths.js';
import { median, printTable } from './lib.js';

const ROUNDS = Math.max(1, Number(process.env.INDEX_BENCH_ROUNDS ?? 5));
const CLI = join(ROOT, 'dist/cli.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'levelkit-indexbench-'));

interface Run {
  wall: number;
  cpu: number;
  peakMB: number;
}

/** `levelkit …args` in a fresh process: wall and CPU seconds, and its peak RSS (threads and DuckDB included). */
function levelkit(args: string[]): Run {
  const script = `process.argv = [process.argv[0], ${JSON.stringify(CLI)}, ...${JSON.stringify(args)}];
    process.on('exit', () => process.stderr.write('\\nPEAK ' + process.resourceUsage().maxRSS + '\\n'));
    await import(${JSON.stringify(CLI)});`;
  const c0 = procCpuMs('self', true);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  // Exit 2: some corpus file failed (two are not levels): a finished run.
  if (r.status !== 0 && r.status !== 2) throw new Error(`levelkit ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  const stderr = r.stderr;
  const wall = (performance.now() - t0) / 1000;
  const cpu = (procCpuMs('self', true) - c0) / 1000;
  const peak = /PEAK (\d+)/.exec(stderr);
  return { wall, cpu, peakMB: peak ? Number(peak[1]) / 1024 : Number.NaN };
}

const x = (v: number) => `${v.toFixed(2)}×`;

function manySmallFiles(): string {
  const root = join(tmp, 'many');
  const sources = ['wwd/claw-compressed.wwd', 'teeworlds/ddrace-v2.map', 'graal/gr-v103.graal', 'graal/layers.nw', 'teeworlds/tw07-skip.map'];
  for (let i = 0; i < 10_000; i++) {
    const dir = join(root, String(i % 100));
    if (i < 100) mkdirSync(dir, { recursive: true });
    const src = sources[i % sources.length]!;
    copyFileSync(join(FIXTURES, src), join(dir, `${i}-${src.split('/')[1]}`));
  }
  return root;
}

const load0 = loadavg()[0]!;
const jsonl = join(tmp, 'records.jsonl');
const ratios = { index: [] as number[], indexCpu: [] as number[], resume: [] as number[] };
let peakIndex = 0;
const kept = join(tmp, 'kept');
for (let r = 0; r < ROUNDS; r++) {
  const fresh = join(tmp, `fresh-${r}`);
  const scanFull = () => levelkit(['scan', CORPUS, '--depth', 'full', '--out', jsonl, '--force', '--quiet']);
  const indexFull = () => levelkit(['scan', CORPUS, '--index', fresh, '--quiet']);
  let a: Run;
  let b: Run;
  if (r % 2 === 0) {
    a = scanFull();
    b = indexFull();
  } else {
    b = indexFull();
    a = scanFull();
  }
  ratios.index.push(b.wall / a.wall);
  ratios.indexCpu.push(b.cpu / a.cpu);
  peakIndex = Math.max(peakIndex, b.peakMB);
  if (r === 0) execFileSync('cp', ['-r', fresh, kept]);
  rmSync(fresh, { recursive: true, force: true });
  const resumed = levelkit(['scan', CORPUS, '--index', kept, '--resume', '--quiet']);
  ratios.resume.push(resumed.wall / b.wall);
}

// "Which maps use tile X": the query levelkit query runs, warm (the first run reads the parts' footers).
const q = await IndexQuery.open(kept);
const TILE_SQL = "SELECT DISTINCT f.path FROM tiles t JOIN files f USING (id) WHERE t.kind = 'game' AND t.tile = 9";
await q.run(TILE_SQL);
const times: number[] = [];
for (let i = 0; i < 7; i++) {
  const t0 = performance.now();
  await q.run(TILE_SQL);
  times.push((performance.now() - t0) / 1000);
}
q.close();

const many = manySmallFiles();
const manyRun = levelkit(['scan', many, '--index', join(tmp, 'many-index'), '--quiet']);

printTable(
  `archive index on the corpus (${ROUNDS} alternating rounds; load ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`,
  ['measure', 'median', 'range', 'floor'],
  [
    ['index ÷ scan --depth full (JSONL), wall', x(median(ratios.index)), `${x(Math.min(...ratios.index))}–${x(Math.max(...ratios.index))}`, '≤ 1.3×'],
    ['index ÷ scan --depth full (JSONL), CPU', x(median(ratios.indexCpu)), `${x(Math.min(...ratios.indexCpu))}–${x(Math.max(...ratios.indexCpu))}`, ''],
    ['--resume (unchanged) ÷ fresh index, wall', x(median(ratios.resume)), `${x(Math.min(...ratios.resume))}–${x(Math.max(...ratios.resume))}`, '≤ 0.2×'],
    ['tile query, warm (s)', median(times).toFixed(3), `${Math.min(...times).toFixed(3)}–${Math.max(...times).toFixed(3)}`, '≤ 0.5 s'],
    ['peak RSS, indexing the corpus (MB)', peakIndex.toFixed(0), '', '< 300'],
    ['peak RSS, indexing 10,000 small files (MB)', manyRun.peakMB.toFixed(0), '', '< 300'],
  ],
);
rmSync(tmp, { recursive: true, force: true });
