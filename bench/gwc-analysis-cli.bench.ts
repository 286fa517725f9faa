// #42's floor as users meet it: the analysis of the corpus's cartridges ÷ their plain decode,
// whole processes of the built CLI. Both run `levelkit check` over the same folder (27 GWC and
// 14 GWZ): with `gwc/coordinates` (a rule of the decoded header: the plain decode) and with
// `gwc/zone-too-few-points` (a rule of the object model: decode + objectModel of every cartridge).
// Alternating A B A B; the ratio is the median of each round's pair (wall and CPU, workers
// included), the load beside it. `npm run build && npx tsx bench/index.ts gwc-analysis-cli`
// (GWC_CLI_BENCH_ROUNDS, default 7).
import { loadavg } from 'node:os';
import { corpusDir } from '../test/helpers/paths.js';
import { levelkitProcess, median, printTable } from './lib.js';

const dir = corpusDir('gwc');
if (!dir) console.log('gwc-analysis-cli: ../shared/corpus/gwc not found; skipped');
else {
  const rounds = Math.max(1, Number(process.env.GWC_CLI_BENCH_ROUNDS ?? 7));
  const check = (rule: string) => levelkitProcess(['check', dir, '--quiet', '--fail-on', 'never', '--rule', rule]);
  const plain = () => check('gwc/coordinates');
  const analysed = () => check('gwc/zone-too-few-points');
  const load0 = loadavg()[0]!;
  const wall: number[] = [];
  const cpu: number[] = [];
  const secs = { plain: [] as number[], analysed: [] as number[] };
  plain(); // one unmeasured run of each: the files in the page cache, the code on disk read
  analysed();
  for (let r = 0; r < rounds; r++) {
    let a: { wall: number; cpu: number }, b: { wall: number; cpu: number };
    if (r % 2 === 0) {
      a = plain();
      b = analysed();
    } else {
      b = analysed();
      a = plain();
    }
    wall.push(b.wall / a.wall);
    cpu.push(b.cpu / a.cpu);
    secs.plain.push(a.wall);
    secs.analysed.push(b.wall);
  }
  printTable(
    `levelkit check of ${dir}: object-model rule ÷ header rule (${rounds} alternating rounds; load ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`,
    ['compared', 'plain s (median)', 'analysed s (median)', 'wall ratio', 'CPU ratio', 'floor'],
    [
      [
        'check --rule gwc/zone-too-few-points ÷ check --rule gwc/coordinates',
        median(secs.plain).toFixed(2),
        median(secs.analysed).toFixed(2),
        `${median(wall).toFixed(2)}×`,
        `${median(cpu).toFixed(2)}×`,
        '≤ 3×',
      ],
    ],
  );
}
