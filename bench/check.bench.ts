// `levelkit check` of the corpus ÷ `scan --depth full` of it (issue 30's floor ≤ 1.5×), as users
// run them (dist/cli.mjs): whole processes alternating A B A B, the ratio the median of each
// round's pair (wall and CPU), with the load average beside it. Run it on an idle machine.
// `npm run build && npx tsx bench/index.ts check` (CHECK_BENCH_ROUNDS, default 5).
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { procCpuMs } from '../src/scan/thread-cpu.js';
import { CORPUS, ROOT } from '../test/helpers/paths.js';
import { printTable } from './lib.js';

const ROUNDS = Math.max(1, Number(process.env.CHECK_BENCH_ROUNDS ?? 5));
const CLI = join(ROOT, 'dist/cli.mjs');

/** `levelkit …args` in a fresh process, its output dropped: wall and CPU seconds (workers included). */
function levelkit(args: string[]): { wall: number; cpu: number } {
  const c0 = procCpuMs('self', true);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  // Exit 1 (findings) and 2 (two corpus files are not levels) are finished runs.
  if (r.status !== 0 && r.status !== 1 && r.status !== 2) throw new Error(`levelkit ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return { wall: (performance.now() - t0) / 1000, cpu: (procCpuMs('self', true) - c0) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const load0 = loadavg()[0]!;
const wall: number[] = [];
const cpu: number[] = [];
let scanWall = 0;
let checkWall = 0;
for (let i = 0; i < ROUNDS; i++) {
  const scan = levelkit(['scan', '--depth', 'full', '--quiet', '--out', '/dev/null', '--force', CORPUS]);
  const check = levelkit(['check', '--json', '--quiet', CORPUS]);
  wall.push(check.wall / scan.wall);
  cpu.push(check.cpu / scan.cpu);
  scanWall += scan.wall / ROUNDS;
  checkWall += check.wall / ROUNDS;
}
printTable(
  `check ÷ scan --depth full on the corpus (${ROUNDS} alternating rounds; load ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`,
  ['measure', 'scan s', 'check s', 'wall ratio', 'CPU ratio', 'floor'],
  [['corpus', scanWall.toFixed(2), checkWall.toFixed(2), `${median(wall).toFixed(2)}×`, `${median(cpu).toFixed(2)}×`, '≤ 1.5×']],
);
