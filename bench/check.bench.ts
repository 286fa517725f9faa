// `levelkit check` of the corpus ÷ `scan --depth full` of it (issue 30's floor ≤ 1.5×), as users
// run them (dist/cli.mjs): whole processes alternating A B A B, the ratio the median of each
// round's pair (wall and CPU), with the load average beside it. Run it on an idle machine.
// `npm run build && npx tsx bench/index.ts check` (CHECK_BENCH_ROUNDS, default 5).
import { loadavg } from 'node:os';
import { CORPUS } from '../test/helpers/paths.js';
import { levelkitProcess as levelkit, median, printTable } from './lib.js';

const ROUNDS = Math.max(1, Number(process.env.CHECK_BENCH_ROUNDS ?? 5));

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
