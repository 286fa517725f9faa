// levelkit vs GraalSuite's JS level loader (Level.loadFromGraal / Level.loadFromNW), every corpus
// level both read: tile grids checked first (layer 0 of each level, as tileset positions
// y·128 + x, which is what GraalSuite keeps), then alternating rounds in this one process: one
// pass of each tool over every level, order flipped each round. Prints GraalSuite time ÷ levelkit
// time per round (> 1: levelkit is faster), medians with ranges and the load average.
// levelkit is the built package (dist/, what users run; `npm run build` first); LEVELKIT_FROM=src
// times the TypeScript source instead (slower under tsx).
// LEVELKIT_PEER_GRAALSUITE: an ES module of yours exporting `Level`, GraalSuite's level class
// (github MorenoLand/GScript.GraalSuite @1229685a, js/leveleditor.js; ../shared/docs/PEERS.md).
// Run: LEVELKIT_PEER_GRAALSUITE=/path/to/level.mjs npx tsx bench/peers/graal-graalsuite.ts
// (ROUNDS, default 9; PASSES per timing, default 2)
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Source from '../../src/index.js';
import { corpusDir, listFiles, readBytes } from '../../test/helpers/paths.js';
import { printTable } from '../lib.js';

interface PeerLevel {
  layers: { tiles: number[] }[];
}
interface PeerLevelClass {
  loadFromGraal(bytes: Uint8Array): PeerLevel | null;
  loadFromNW(text: string): PeerLevel;
}

const peerPath = process.env.LEVELKIT_PEER_GRAALSUITE;
const dir = corpusDir('graal');
if (!peerPath || !existsSync(peerPath))
  throw new Error(`LEVELKIT_PEER_GRAALSUITE (${peerPath ?? 'unset'}) must name an ES module exporting GraalSuite's Level class (@1229685a)`);
if (!dir) throw new Error('the Graal corpus (../shared/corpus/graal) is needed');
const { Level } = (await import(pathToFileURL(resolve(peerPath)).href)) as { Level: PeerLevelClass };
const fromSource = process.env.LEVELKIT_FROM === 'src';
const lib: typeof Source = fromSource ? await import('../../src/index.js') : await import(new URL('../../dist/index.mjs', import.meta.url).href);
const { graal } = lib;
const rounds = Number(process.env.ROUNDS ?? 9);
const passes = Number(process.env.PASSES ?? 2); // corpus passes per timing (one pass is ~0.1 s: noise under load)

const files = listFiles(dir, /\.(graal|zelda|nw)$/i).map((path) => ({ path, bytes: readBytes(path) }));
const binary = files.filter((f) => graal.sniff(f.bytes) === 'graal');
const text = files.filter((f) => graal.sniff(f.bytes) === 'graal-nw');
const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

/** Layer 0 as tileset positions (GraalSuite's tile values). */
function ourGrid(bytes: Uint8Array): number[] {
  const tiles = (graal.decode(bytes) as Source.graal.GraalLevel).layers[0]!.tiles;
  return Array.from(tiles, (id: number) => {
    const { x, y } = graal.tileToTileset(id);
    return y * 128 + x;
  });
}
// Tile 4095 (tileset position 31·128 + 127) is written `//` in .nw rows; GraalSuite skips that
// pair and leaves the cell unset (−1).
const TILE_4095 = 31 * 128 + 127;

// Same layer-0 grid from both (a cell GraalSuite never set counts as tile 0), or the file is left
// out of the timing and counted: "explained" when every differing cell is a `//` it skipped.
function check(kind: string, list: typeof files, load: (b: Uint8Array) => PeerLevel | null) {
  const same: typeof files = [];
  const explained: string[] = [];
  const differ: string[] = [];
  for (const f of list) {
    const theirs = load(f.bytes)?.layers[0]?.tiles;
    const ours = ourGrid(f.bytes);
    const bad = theirs && theirs.length === ours.length ? ours.flatMap((t, i) => (t === (theirs[i]! < 0 ? 0 : theirs[i]) ? [] : [i])) : undefined;
    const name = f.path.slice(dir!.length + 1);
    if (bad?.length === 0) same.push(f);
    else if (bad?.every((i) => ours[i] === TILE_4095 && theirs![i] === -1)) explained.push(name);
    else differ.push(name);
  }
  console.log(
    `${kind}: ${same.length}/${list.length} levels with identical layer-0 grids; ${explained.length} differ only where GraalSuite skips \`//\` (tile 4095)${
      differ.length ? `; ${differ.length} differ otherwise: ${differ.slice(0, 8).join(', ')}` : ''
    } (those ${explained.length + differ.length} are not timed)`,
  );
  if (differ.length > 0) throw new Error(`${kind}: grids differ beyond the known \`//\` case: not timing`);
  return same;
}
const sameBinary = check('binary', binary, (b) => Level.loadFromGraal(b));
const sameText = check('.nw', text, (b) => Level.loadFromNW(latin1(b)));

const timeIt = (run: () => void) => {
  const t0 = performance.now();
  for (let p = 0; p < passes; p++) run();
  return performance.now() - t0;
};
type Job = { name: string; peer: () => void; ours: [string, () => void][] };
const ourVariants = (list: typeof files): [string, () => void][] =>
  (['wasm', 'js'] as const).map((backend) => [
    backend,
    () => {
      for (const f of list) graal.decode(f.bytes, { backend });
    },
  ]);
const jobs: Job[] = [
  {
    name: `binary (${sameBinary.length})`,
    peer: () => {
      for (const f of sameBinary) Level.loadFromGraal(f.bytes);
    },
    ours: ourVariants(sameBinary),
  },
  {
    name: `.nw (${sameText.length}; latin1 decode in the peer's time)`,
    peer: () => {
      for (const f of sameText) Level.loadFromNW(latin1(f.bytes));
    },
    ours: ourVariants(sameText),
  },
];
for (const j of jobs) {
  j.peer();
  for (const [, run] of j.ours) run();
}
const load0 = loadavg()[0]!;
const rows: string[][] = [];
for (const j of jobs) {
  const ratios = new Map(j.ours.map(([n]) => [n, [] as number[]]));
  const jsOverWasm: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t: Record<string, number> = {};
    const steps: [string, () => void][] = [['peer', j.peer], ...j.ours];
    for (const [n, run] of r % 2 ? steps.reverse() : steps) t[n] = timeIt(run);
    for (const [n] of j.ours) ratios.get(n)!.push(t.peer! / t[n]!);
    jsOverWasm.push(t.js! / t.wasm!);
  }
  for (const [n, v] of ratios) rows.push([j.name, `levelkit ${n}`, med(v)]);
  rows.push([j.name, 'levelkit js ÷ wasm', med(jsOverWasm)]);
}
function med(v: number[]) {
  const s = [...v].sort((a, b) => a - b);
  return `${s[s.length >> 1]!.toFixed(2)} (${s[0]!.toFixed(2)}–${s[s.length - 1]!.toFixed(2)})`;
}
printTable(
  `GraalSuite time ÷ levelkit time (${fromSource ? 'src/ through tsx' : 'dist/'}), ${rounds} alternating rounds of ${passes} passes (load ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`,
  ['levels', 'levelkit', 'ratio, median (range)'],
  rows,
);
