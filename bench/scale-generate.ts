// Synthetic archives for bench/scale.ts (issue 39): DISTINCT levels of every format, each made by
// levelkit's own encoders from a model filled by a PRNG seeded per file (file i of an archive has
// the same bytes on every run, and no two files are alike, so no cache can cheat). The models are
// built with the fixture generators' building blocks (fixtures/generators/*), randomized here.
// Folders hold at most FOLDER_FILES files; worker threads generate whole folders in parallel.
//
// The mix, per 1,000 files (MIX below): Graal binary 450 (.graal 380, .zelda 70), Graal .nw 200,
// .gmap 10, Teeworlds/DDNet .map 220, WWD 60, GWC 25, .wdata 30, and 5 zips of 20–40 members
// (Graal, .nw, Teeworlds) each holding a zip of 5–12 more: mostly Graal, then Teeworlds, fewer of
// the rest, as community archives are.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { type Zippable, zipSync } from 'fflate';
import { only } from '../fixtures/generators/graal.js';
import { base, group, image, quads, tileLayer } from '../fixtures/generators/teeworlds.js';
import { buildWdata, WDATA_FIXTURES } from '../fixtures/generators/wdata.js';
import { CLAW_PATHS, level as wwdLevel, object as wwdObject, plane as wwdPlane } from '../fixtures/generators/wwd.js';
import { textFrom } from '../src/core/text.js';
import { blankLevel, encodeBinary, encodeGmap, encodeNw, type GraalGmap, type GraalLevel, NO_TILE } from '../src/formats/graal/index.js';
import type { GwcCartridge } from '../src/formats/gwc/index.js';
import type { WwdTileProperty } from '../src/formats/wwd/index.js';
import { gwc, teeworlds, wdata, wwd } from '../src/index.js';
import { sourceBootstrap } from '../src/scan/pool-node.js';
import { Prng } from '../test/helpers/prng.js';

export const FOLDER_FILES = 1000;

export type Kind = 'graal' | 'zelda' | 'nw' | 'gmap' | 'teeworlds' | 'wwd' | 'gwc' | 'wdata' | 'zip';

/** How many of every 1,000 files are of each kind (sums to 1,000). */
export const MIX: Record<Kind, number> = { graal: 380, zelda: 70, nw: 200, gmap: 10, teeworlds: 220, wwd: 60, gwc: 25, wdata: 30, zip: 5 };

export interface GenStats {
  /** Files on disk. */
  files: number;
  /** Levels: plain files plus zip members that are levels (zips themselves and inner zips not counted). */
  levels: number;
  bytes: number;
  /** Levels per kind (zip members counted under their own kind). */
  perKind: Partial<Record<Kind, number>>;
}

// Words for names, signs, scripts and texts; "castle" among them so a text search finds something.
const WORDS = (
  'castle tower dungeon forest river bridge cave sword shield key door chest dragon knight king queen ' +
  'village market temple ruins swamp desert island harbor ship lantern potion scroll gold silver wolf ' +
  'goblin wizard garden mill farm north south east west secret hidden old new dark bright stone'
).split(' ');
const LOGICS = ['Officer', 'Soldier', 'Rat', 'TreasurePowerup', 'StartElevator', 'Checkpoint', 'Crate', 'Spikes', 'FrontCandy', 'BehindCandy', 'AniCycle'];

/** Seed of file `i` of the archive (never 0: xorshift stays at 0). */
function fileSeed(i: number, salt: number): number {
  let x = (Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b)) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  return x || 1;
}

const pick = <T>(rng: Prng, xs: readonly T[]): T => xs[rng.int(xs.length)]!;
const between = (rng: Prng, lo: number, hi: number) => lo + rng.int(hi - lo + 1);
const words = (rng: Prng, n: number) => Array.from({ length: n }, () => pick(rng, WORDS)).join(' ');
const sentence = (rng: Prng) => {
  const s = words(rng, between(rng, 3, 9));
  return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
};

/** A grid of `cells` drawn from a palette of `colours` ids below `maxId`, in horizontal runs and repeated rows, as maps are drawn. */
function paletteGrid<T extends Uint16Array | Uint32Array>(rng: Prng, out: T, width: number, colours: number, maxId: number, empty?: number): T {
  const palette = Array.from({ length: colours }, () => rng.int(maxId));
  if (empty !== undefined) palette.push(empty, empty, empty);
  for (let i = 0; i < out.length; i++) {
    const r = rng.int(16);
    out[i] = i > 0 && r < 11 ? out[i - 1]! : i >= width && r < 14 ? out[i - width]! : pick(rng, palette);
  }
  return out;
}

function graalContent(rng: Prng, level: GraalLevel, maxTile: number): GraalLevel {
  paletteGrid(rng, level.layers[0]!.tiles, 64, between(rng, 12, 120), maxTile + 1);
  const name = () => `${pick(rng, WORDS)}_${rng.int(1000)}.${rng.int(3) ? 'nw' : 'graal'}`;
  for (let k = between(rng, 0, 4); k > 0; k--) {
    level.links.push({
      level: textFrom(name()),
      x: rng.int(60),
      y: rng.int(60),
      width: between(rng, 1, 4),
      height: between(rng, 1, 4),
      destX: textFrom(String(rng.int(64))),
      destY: textFrom(rng.int(2) ? 'playery' : String(rng.int(64))),
    });
  }
  for (let k = between(rng, 0, 3); k > 0; k--)
    level.baddies.push({ x: rng.int(64), y: rng.int(64), type: rng.int(10), verses: [sentence(rng), sentence(rng), sentence(rng)].map((s) => textFrom(s)) });
  for (let k = between(rng, 0, 4); k > 0; k--) {
    const script = `// ${words(rng, 4)}\nif (playerenters) {\n  message ${sentence(rng)};\n  setimg ${pick(rng, WORDS)}.png;\n}\nif (playertouchsme) {\n  say2 ${sentence(rng)};\n}`;
    level.npcs.push({ x: rng.int(64), y: rng.int(64), image: textFrom(rng.int(3) ? `${pick(rng, WORDS)}.png` : ''), script: textFrom(script) });
  }
  for (let k = between(rng, 1, 4); k > 0; k--) level.signs.push({ x: rng.int(64), y: rng.int(64), text: `${sentence(rng)}\n${sentence(rng)}` });
  for (let k = between(rng, 0, 2); k > 0; k--)
    level.chests.push({ x: rng.int(64), y: rng.int(64), item: pick(rng, ['bombs', 'darts', 'heart', 'greenrupee', 'goldensword']), signIndex: -1 });
  return level;
}

function graalBinary(rng: Prng): Uint8Array {
  const level = graalContent(rng, blankLevel('graal', 'GR-V1.03'), 4095);
  if (rng.int(4) === 0) {
    const overlay = { index: 1, tiles: new Uint16Array(4096).fill(NO_TILE) };
    for (let k = between(rng, 5, 200); k > 0; k--) overlay.tiles[rng.int(4096)] = rng.int(4095);
    return encodeBinary({ ...level, layers: [level.layers[0]!, overlay] }, { version: 'GR-V1.05' });
  }
  return encodeBinary(level);
}

function zelda(rng: Prng): Uint8Array {
  return encodeBinary(only(graalContent(rng, blankLevel('graal', 'Z3-V1.04'), 2047), 'Z3-V1.04'), { version: 'Z3-V1.04' });
}

function graalNw(rng: Prng): Uint8Array {
  return encodeNw(graalContent(rng, blankLevel('graal-nw'), 4095));
}

function graalGmap(rng: Prng): Uint8Array {
  const width = between(rng, 2, 8),
    height = between(rng, 2, 8),
    prefix = `${pick(rng, WORDS)}${rng.int(10000)}`;
  const map: GraalGmap = {
    format: 'graal-gmap',
    version: 'GRMAP001',
    width,
    height,
    levels: Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) => textFrom(rng.int(8) ? `${prefix}_${x}_${y}.nw` : ''))),
    options: [textFrom(`MAPIMG ${prefix}.png`)],
    lineEnding: '\n',
    warnings: [],
  };
  return encodeGmap(map);
}

// Layer and group names hold at most 11 bytes.
const layerName = (rng: Prng) => words(rng, 2).slice(0, 11);

function teeworldsMap(rng: Prng): Uint8Array {
  const m = base('ddnet');
  const txt = (s: string) => textFrom(s, 'utf-8');
  m.info = {
    version: 1,
    author: txt(`${pick(rng, WORDS)}${rng.int(1000)}`),
    mapVersion: txt(`${rng.int(5)}.${rng.int(10)}`),
    credits: txt(sentence(rng)),
    license: txt('CC-BY-SA 3.0'),
    settings: Array.from({ length: between(rng, 0, 4) }, () => txt(`sv_${pick(rng, WORDS)} ${rng.int(100)}`)),
  };
  m.images = [
    image(rng, 1, `${pick(rng, WORDS)}_${rng.int(100)}`, false),
    image(rng, 1, pick(rng, ['grass_main', 'desert_main', 'winter_main', 'jungle_main']), true),
  ];
  if (rng.int(3) === 0) m.images.push(image(rng, 1, `${pick(rng, WORDS)}_embedded`, false));
  const w = between(rng, 30, 160),
    h = between(rng, 20, 80);
  const layers = [tileLayer(rng, 'game', 3, w, h, 'Game'), tileLayer(rng, 'tiles', 3, w, h, layerName(rng))];
  if (rng.int(3) === 0) layers.push(tileLayer(rng, 'front', 3, w, h, 'Front'));
  if (rng.int(4) === 0) layers.push(tileLayer(rng, 'tiles', 3, w, h, layerName(rng)));
  m.groups = [group(3, layerName(rng), [quads(2, between(rng, 1, 12), layerName(rng))]), group(3, 'Game', layers)];
  return teeworlds.encode(m);
}

function wwdFile(rng: Prng): Uint8Array {
  const INV = 0xffffffff;
  const props: WwdTileProperty[] = Array.from({ length: between(rng, 4, 40) }, () => ({
    type: 1 as const,
    unknown: 0,
    width: 64,
    height: 64,
    attribute: rng.int(5),
  }));
  const objects = Array.from({ length: between(rng, 5, 60) }, () =>
    wwdObject(rng.int(100000), pick(rng, LOGICS), `LEVEL_${pick(rng, WORDS).toUpperCase()}`, 'GAME_CYCLE100', rng.int(2) ? words(rng, 2) : ''),
  );
  const grid = (w: number, h: number, colours: number, empty: boolean) => {
    const g = paletteGrid(rng, new Uint32Array(w * h), w, colours, 600, empty ? INV : undefined);
    return (x: number, y: number) => g[y * w + x]!;
  };
  const aw = between(rng, 40, 200),
    ah = between(rng, 20, 80);
  const planes = [
    wwdPlane('Background', 4 | 8, 64, 16, 12, ['LEVEL1_BACK'], grid(16, 12, 6, true)),
    wwdPlane('Action', 1, 64, aw, ah, ['ACTION'], grid(aw, ah, between(rng, 10, 80), true), objects),
  ];
  if (rng.int(2)) planes.push(wwdPlane('Front', 2, 64, aw >> 1, ah >> 1, ['FRONT'], grid(aw >> 1, ah >> 1, 8, true)));
  return wwd.encode(wwdLevel(`${sentence(rng).slice(0, 40)}`, CLAW_PATHS, planes, props), { compress: true });
}

let gwcBase: GwcCartridge | undefined;
function gwcFile(rng: Prng): Uint8Array {
  gwcBase ??= gwc.decode(readFileSync(new URL('../fixtures/gwc/basic.gwc', import.meta.url))) as GwcCartridge;
  const h = gwcBase.header;
  const t = (s: string, like: { encoding: string }) => textFrom(s, like.encoding);
  const guid = Array.from(rng.bytes(16), (b) => b.toString(16).padStart(2, '0')).join('');
  const header = {
    ...h,
    latitude: rng.int(180_000) / 1000 - 90,
    longitude: rng.int(360_000) / 1000 - 180,
    name: t(`The ${words(rng, 2)} ${rng.int(10000)}`, h.name),
    description: t(`${sentence(rng)} ${sentence(rng)}`, h.description),
    author: t(`${pick(rng, WORDS)}${rng.int(1000)}`, h.author),
    guid: t(`${guid.slice(0, 8)}-${guid.slice(8, 12)}-${guid.slice(12, 16)}-${guid.slice(16, 20)}-${guid.slice(20)}`, h.guid),
    startingLocation: t(words(rng, 3), h.startingLocation),
  };
  return gwc.encode({ ...gwcBase, header });
}

const WDATA_SPECS = Object.values(WDATA_FIXTURES);
function wdataFile(rng: Prng): Uint8Array {
  // The fixture writer makes a distinct file for each seed; levelkit's encoder writes what is decoded from it.
  const { bytes } = buildWdata({ ...pick(rng, WDATA_SPECS), seed: rng.next() });
  return wdata.encode(wdata.decode(bytes));
}

const MAKERS: Record<Exclude<Kind, 'zip'>, [string, (rng: Prng) => Uint8Array]> = {
  graal: ['graal', graalBinary],
  zelda: ['zelda', zelda],
  nw: ['nw', graalNw],
  gmap: ['gmap', graalGmap],
  teeworlds: ['map', teeworldsMap],
  wwd: ['wwd', wwdFile],
  gwc: ['gwc', gwcFile],
  wdata: ['wdata', wdataFile],
};
const ZIP_MEMBER_KINDS: Exclude<Kind, 'zip'>[] = ['graal', 'graal', 'nw', 'teeworlds'];
// 1980-01-01, the earliest time a zip holds: the same bytes on every run.
const MTIME = new Date(1980, 0, 1);

/** A zip of 20–40 levels and a zip of 5–12 more inside it. */
function zipFile(rng: Prng, stats: GenStats): Uint8Array {
  const members = (n: number, dir: string): Zippable => {
    const out: Zippable = {};
    for (let k = 0; k < n; k++) {
      const kind = pick(rng, ZIP_MEMBER_KINDS);
      const [ext, make] = MAKERS[kind];
      out[`${dir}${pick(rng, WORDS)}-${k}.${ext}`] = make(rng);
      count(stats, kind);
    }
    return out;
  };
  const outer = members(between(rng, 20, 40), 'levels/');
  outer['more.zip'] = zipSync(members(between(rng, 5, 12), ''), { level: 1, mtime: MTIME });
  return zipSync(outer, { level: 1, mtime: MTIME });
}

function count(stats: GenStats, kind: Kind): void {
  stats.levels++;
  stats.perKind[kind] = (stats.perKind[kind] ?? 0) + 1;
}

const CUMULATIVE = (() => {
  let sum = 0;
  return (Object.entries(MIX) as [Kind, number][]).map(([k, n]) => {
    sum += n;
    return [k, sum] as const;
  });
})();

function kindOf(rng: Prng): Kind {
  const r = rng.int(1000);
  return CUMULATIVE.find(([, upTo]) => r < upTo)![0];
}

interface FolderJob {
  root: string;
  folder: number;
  files: number;
  salt: number;
  only?: Kind;
}

/** Writes folder `folder` (files folder·FOLDER_FILES …): one PRNG per file, seeded from its number. */
function writeFolder(job: FolderJob): GenStats {
  const stats: GenStats = { files: 0, levels: 0, bytes: 0, perKind: {} };
  const dir = join(job.root, String(job.folder).padStart(4, '0'));
  mkdirSync(dir, { recursive: true });
  for (let k = 0; k < job.files; k++) {
    const i = job.folder * FOLDER_FILES + k;
    const rng = new Prng(fileSeed(i, job.salt));
    const kind = job.only ?? kindOf(rng);
    let bytes: Uint8Array;
    let ext: string;
    if (kind === 'zip') {
      bytes = zipFile(rng, stats);
      ext = 'zip';
    } else {
      const [e, make] = MAKERS[kind];
      bytes = make(rng);
      ext = e;
      count(stats, kind);
    }
    writeFileSync(join(dir, `${String(i).padStart(7, '0')}-${pick(rng, WORDS)}.${ext}`), bytes);
    stats.files++;
    stats.bytes += bytes.length;
  }
  return stats;
}

function merge(into: GenStats, s: GenStats): void {
  into.files += s.files;
  into.levels += s.levels;
  into.bytes += s.bytes;
  for (const [k, n] of Object.entries(s.perKind) as [Kind, number][]) into.perKind[k] = (into.perKind[k] ?? 0) + n;
}

export interface GenerateOptions {
  /** Salt of every file's seed: archives with different salts share no file. */
  salt?: number;
  /** Only this kind (for index bytes per format). */
  only?: Kind;
  /** Worker threads (default: the machine's parallelism). */
  workers?: number;
}

/**
 * Writes `files` files under `root` in folders of FOLDER_FILES, in worker threads; resolves to
 * what was written. Rejects on the first folder that fails.
 */
export async function generateArchive(root: string, files: number, opts: GenerateOptions = {}): Promise<GenStats> {
  const jobs: FolderJob[] = [];
  for (let folder = 0; folder * FOLDER_FILES < files; folder++)
    jobs.push({ root, folder, files: Math.min(FOLDER_FILES, files - folder * FOLDER_FILES), salt: opts.salt ?? 0, ...(opts.only ? { only: opts.only } : {}) });
  const total: GenStats = { files: 0, levels: 0, bytes: 0, perKind: {} };
  const n = Math.max(1, Math.min(opts.workers ?? availableParallelism(), jobs.length));
  const workers = Array.from({ length: n }, () => new Worker(sourceBootstrap(new URL(import.meta.url)), { eval: true, workerData: { scaleGenerator: true } }));
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            const next = () => {
              const job = jobs.shift();
              if (job) w.postMessage(job);
              else resolve();
            };
            w.on('message', (s: GenStats) => {
              merge(total, s);
              next();
            });
            w.on('error', reject);
            w.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`scale generator worker exited with ${code}`))));
            next();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return total;
}

if (!isMainThread && (workerData as { scaleGenerator?: boolean } | null)?.scaleGenerator) {
  parentPort!.on('message', (job: FolderJob) => parentPort!.postMessage(writeFolder(job)));
}
