// `levelkit diff` on the two largest corpus maps (issue 30: diff ≤ 2× decoding both). Each map is
// diffed against itself with one game cell changed and written back (the diff a reviewer runs on a
// fixed map): `decode both` decodes the pair, `decode both + diff` decodes it and diffs it, the way
// the command does. The ratio of the two is the figure; one tinybench run, so they share the load.
// Run alone: npx tsx bench/index.ts diff
import { existsSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { teeworlds as sourceTeeworlds } from '../src/index.js';
import { corpusDir, listFiles, readBytes } from '../test/helpers/paths.js';
import { compareMany } from './lib.js';

const builtUrl = new URL('../dist/index.mjs', import.meta.url);
const teeworlds = existsSync(builtUrl) ? ((await import(builtUrl.href)) as typeof import('../src/index.js')).teeworlds : sourceTeeworlds;
console.log(teeworlds === sourceTeeworlds ? 'dist/ not built: timing the source through tsx' : 'timing the built package (dist/index.mjs)');

const dir = corpusDir('teeworlds');
if (dir) {
  const largest = listFiles(dir, /\.map$/)
    .sort((x, y) => statSync(y).size - statSync(x).size)
    .slice(0, 2);
  const pairs = largest.map((path) => {
    const before = readBytes(path);
    const map = teeworlds.decode(before);
    const game = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'game');
    if (game?.kind !== 'game' || !game.tiles) throw new Error(`${path}: no game layer`);
    game.tiles.index[0] = game.tiles.index[0] === 1 ? 2 : 1;
    const after = teeworlds.encode(map);
    // A benchmark never times a broken path: the pair must differ by exactly that one cell.
    const changes = teeworlds.diff(teeworlds.decode(before), teeworlds.decode(after));
    if (changes.length !== 1 || changes[0]!.kind !== 'tile') throw new Error(`${path}: diff found ${JSON.stringify(changes.slice(0, 3))}, not the one cell`);
    return { path, before, after };
  });
  console.log(
    `maps: ${pairs.map((p) => `${p.path.slice(dir.length + 1)} (${(p.before.length / 2 ** 20).toFixed(1)} MiB)`).join(', ')}; load ${loadavg()[0]!.toFixed(1)}`,
  );
  const decodeBoth = () => pairs.map((p) => [teeworlds.decode(p.before), teeworlds.decode(p.after)] as const);
  const times = await compareMany(
    'diff of the two largest corpus maps (target: decode both + diff ≤ 2× decode both)',
    [
      ['decode both', decodeBoth],
      ['decode both + diff', () => decodeBoth().map(([a, b]) => teeworlds.diff(a, b))],
    ],
    3000,
    2,
  );
  const ratio = times['decode both + diff']! / times['decode both']!;
  console.log(`ratio ${ratio.toFixed(2)}× (${ratio <= 2 ? 'met' : 'NOT met'}); load after ${loadavg()[0]!.toFixed(1)}`);
}
