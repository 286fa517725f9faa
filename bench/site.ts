// `levelkit site` against `levelkit render` (issue 41's floors): the site of a folder's index
// ≤ 1.5 × rendering the same levels to one folder (thumbnails dominate; the rest is cheap), and a
// re-run with nothing new ≤ 0.1 × the first. Whole processes of the built CLI (dist/cli.mjs), in
// alternating rounds so both share the load; the index is made once beforehand (not timed).
// Run idle:  npm run build && npx tsx bench/site.ts [folder (default: the corpus)] [rounds (default 3)]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS, ROOT } from '../test/helpers/paths.js';

const CLI = join(ROOT, 'dist/cli.mjs');
if (!existsSync(CLI) || !existsSync(join(ROOT, 'dist/site/site.js'))) throw new Error('dist/ is not built (or has no dist/site/): run npm run build');
const folder = process.argv[2] ?? CORPUS;
const rounds = Number(process.argv[3] ?? 3);
const tmp = mkdtempSync(join(tmpdir(), 'levelkit-site-bench-'));

/** Runs the CLI; its wall time in seconds. Exit 2 (some files failed: a corpus has damaged files) is a finished run. */
function timed(...args: string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const s = (performance.now() - start) / 1000;
  if (r.status !== 0 && r.status !== 2) throw new Error(`levelkit ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  if (args[0] === 'site') process.stdout.write(`    ${r.stderr.trim().split('\n').pop()}\n`);
  return s;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

try {
  const index = join(tmp, 'idx');
  console.log(`folder ${folder}; indexing (not timed)…`);
  timed('scan', folder, '--index', index, '--quiet');
  const load = [loadavg()[0]!];
  const render: number[] = [];
  const site: number[] = [];
  const rerun: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const out = join(tmp, `render-${i}`);
    render.push(timed('render', folder, '-o', out, '--quiet'));
    rmSync(out, { recursive: true, force: true });
    const web = join(tmp, `site-${i}`);
    site.push(timed('site', index, '-o', web));
    rerun.push(timed('site', index, '-o', web));
    rmSync(web, { recursive: true, force: true });
    console.log(`  round ${i + 1}: render ${render[i]!.toFixed(2)} s, site ${site[i]!.toFixed(2)} s, re-run ${rerun[i]!.toFixed(2)} s`);
  }
  load.push(loadavg()[0]!);
  const ratio = (a: number[], b: number[]) => median(a.map((x, i) => x / b[i]!));
  console.log(`site ÷ render: ${ratio(site, render).toFixed(2)}× (target ≤ 1.5×); re-run ÷ site: ${ratio(rerun, site).toFixed(3)}× (target ≤ 0.1×)`);
  console.log(
    `medians: render ${median(render).toFixed(2)} s, site ${median(site).toFixed(2)} s, re-run ${median(rerun).toFixed(2)} s; load ${load.map((l) => l.toFixed(1)).join(' → ')}`,
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
