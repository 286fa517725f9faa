// A site folder as `levelkit site` writes it (src/site/contract.ts, README.md there), built BY HAND
// from the contract's types, so the pages (web/site/, dist/site/) are tested without the builder:
// shells, data scripts, level bytes from real fixtures, small PNG thumbnails. Also a synthetic
// catalogue of any size, named and mixed like a community archive, for the 50,000-level cases.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode as encodePng } from 'fast-png';
import { type Catalogue, dataScript, type FamilyPageData, type LevelPageData, SITE_DATA_VERSION, type WorldPageData } from '../../src/site/contract.js';
import { FIXTURES, ROOT, readBytes } from './paths.js';
import { Prng } from './prng.js';

/** What a level of the hand-made site is made of. */
export interface HandLevel {
  key: string;
  name: string;
  /** A fixture below fixtures/ (its bytes go to files/<sha>.js unless `noBytes`). */
  fixture: string;
  format: string;
  version: string;
  author: string | null;
  uses: string[];
  findings: number;
  warnings: number;
  text: string;
  /** Thumbnail key ('' = none); a PNG is written for it unless `noThumbFile`. */
  thumb: string;
  noBytes?: boolean;
  /** The level page names its bytes file, but the file is not there (a site copied in part). */
  noBytesFile?: boolean;
  noThumbFile?: boolean;
  links?: LevelPageData['links'];
  texts?: LevelPageData['texts'];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The one HTML shell of contract.ts. */
export function shell(page: 'index' | 'level' | 'family' | 'world', key: string, title: string, data?: string): string {
  const root = page === 'index' ? '' : '../';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>\n` +
    `<link rel="stylesheet" href="${root}assets/site.css"></head>\n` +
    `<body data-page="${page}" data-key="${esc(key)}" data-root="${root}">\n` +
    `<script src="${root}data/catalogue.js"></script>\n` +
    (data ? `<script src="${root}${data}"></script>\n` : '') +
    `<script src="${root}assets/site.js"></script></body></html>\n`
  );
}

/** A solid PNG of `width × height` in colour `rgb`. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return encodePng({ width, height, data, channels: 4 });
}

/** An empty catalogue with room for `n` rows. */
function emptyCatalogue(): Catalogue {
  return {
    version: SITE_DATA_VERSION,
    built: '2026-11-29T00:00:00Z',
    index: 'archive-index',
    strings: [],
    levels: {
      key: [],
      name: [],
      path: [],
      format: [],
      version: [],
      author: [],
      bytes: [],
      width: [],
      height: [],
      layers: [],
      objects: [],
      warnings: [],
      findings: [],
      family: [],
      thumb: [],
      uses: [],
      text: [],
      error: [],
      stale: [],
    },
    families: [],
    worlds: [],
  };
}

/** Appends rows with interned strings. */
function catalogueWriter(c: Catalogue) {
  const ids = new Map<string, number>();
  const intern = (s: string) => {
    let i = ids.get(s);
    if (i === undefined) {
      i = c.strings.length;
      c.strings.push(s);
      ids.set(s, i);
    }
    return i;
  };
  return (row: {
    key: string;
    name: string;
    path: string;
    format: string;
    version: string;
    author: string | null;
    bytes: number;
    width: number;
    height: number;
    layers: number;
    objects: number;
    warnings: number;
    findings: number;
    family: number;
    thumb: string;
    uses: string[];
    text: string;
    error?: string;
  }) => {
    const L = c.levels;
    L.key.push(row.key);
    L.name.push(row.name);
    L.path.push(row.path);
    L.format.push(intern(row.format));
    L.version.push(intern(row.version));
    L.author.push(row.author === null ? -1 : intern(row.author));
    L.bytes.push(row.bytes);
    L.width.push(row.width);
    L.height.push(row.height);
    L.layers.push(row.layers);
    L.objects.push(row.objects);
    L.warnings.push(row.warnings);
    L.findings.push(row.findings);
    L.family.push(row.family);
    L.thumb.push(row.thumb);
    L.uses.push(row.uses.map(intern));
    L.text.push(row.text.toLowerCase().slice(0, 4096));
    L.error.push(row.error ?? '');
    L.stale.push('');
  };
}

/** Copies the built pages (dist/site/) into `dir`/assets. */
export function copyAssets(dir: string): void {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  for (const f of ['site.js', 'site.css']) copyFileSync(join(ROOT, 'dist/site', f), join(dir, 'assets', f));
}

/** The hand-made site of `levels` (families and worlds as given) in `dir`. */
export function writeHandSite(
  dir: string,
  levels: HandLevel[],
  families: { key: string; rows: number[]; exact: boolean; steps: FamilyPageData['steps'] }[],
  worlds: (WorldPageData & { row: number })[],
): Catalogue {
  for (const sub of ['data', 'levels', 'files', 'thumbs', 'families', 'diffs', 'worlds']) mkdirSync(join(dir, sub), { recursive: true });
  copyAssets(dir);
  writeFileSync(join(dir, '.levelkit-site'), '');
  const c = emptyCatalogue();
  const add = catalogueWriter(c);
  const familyOf = (row: number) => families.findIndex((f) => f.rows.includes(row));
  levels.forEach((l, row) => {
    const bytes = readBytes(join(FIXTURES, l.fixture));
    const sha = createHash('sha256').update(bytes).digest('hex');
    add({
      key: l.key,
      name: l.name,
      path: `archive/${l.fixture}`,
      format: l.format,
      version: l.version,
      author: l.author,
      bytes: bytes.length,
      width: 64,
      height: 48,
      layers: 3,
      objects: 2,
      warnings: l.warnings,
      findings: l.findings,
      family: familyOf(row),
      thumb: l.thumb,
      uses: l.uses,
      text: `${l.name} ${l.fixture} ${l.author ?? ''} ${l.text}`,
    });
    if (!l.noBytes && !l.noBytesFile)
      writeFileSync(join(dir, 'files', `${sha}.js`), dataScript('bytes', { sha256: sha, base64: Buffer.from(bytes).toString('base64') }));
    if (l.thumb && !l.noThumbFile) {
      writeFileSync(join(dir, 'thumbs', `${l.thumb}-s.png`), solidPng(16, 12, [200, 80, 40]));
      writeFileSync(join(dir, 'thumbs', `${l.thumb}-l.png`), solidPng(64, 48, [40, 160, 90]));
    }
    const page: LevelPageData = {
      version: SITE_DATA_VERSION,
      key: l.key,
      name: l.name,
      path: `archive/${l.fixture}`,
      format: l.format,
      formatVersion: l.version,
      summary: { kind: l.format, note: l.text },
      layers: [{ layer: 0, group: 0, kind: 'tiles', name: 'Game', width: 64, height: 48, image: null }],
      tiles: [
        {
          layer: 0,
          kind: 'tiles',
          counts: [
            [1, 300],
            [0, 2000],
          ],
        },
      ],
      objects: [{ object: 0, kind: 'npc', name: 'Guard', x: 3, y: 4 }],
      texts: l.texts ?? [],
      images: [{ name: 'tiles.png', width: 256, height: 256, external: true }],
      warnings: Array.from({ length: l.warnings }, (_, i) => ({ code: 'W', message: `warning ${i}` })),
      findings: Array.from({ length: l.findings }, (_, i) => ({ rule: 'rule', severity: 'warn', message: `finding ${i}` })),
      links: l.links ?? [],
      family: familyOf(row),
      bytes: l.noBytes ? null : `files/${sha}.js`,
      thumb: l.thumb,
      stale: null,
    };
    writeFileSync(join(dir, 'levels', `${l.key}.js`), dataScript('level', page));
    writeFileSync(join(dir, 'levels', `${l.key}.html`), shell('level', l.key, l.name, `levels/${l.key}.js`));
  });
  for (const f of families) {
    c.families.push({ key: f.key, rows: f.rows, exact: f.exact });
    const data: FamilyPageData = { version: SITE_DATA_VERSION, key: f.key, exact: f.exact, steps: f.steps };
    writeFileSync(join(dir, 'families', `${f.key}.js`), dataScript('family', data));
    writeFileSync(join(dir, 'families', `${f.key}.html`), shell('family', f.key, f.key, `families/${f.key}.js`));
    for (const s of f.steps) if (s.diff?.picture) writeFileSync(join(dir, s.diff.picture), solidPng(32, 24, [220, 40, 40]));
  }
  for (const { row, ...w } of worlds) {
    c.worlds.push({ key: w.key, name: w.name, row });
    writeFileSync(join(dir, 'worlds', `${w.key}.js`), dataScript('world', w));
    writeFileSync(join(dir, 'worlds', `${w.key}.html`), shell('world', w.key, w.name, `worlds/${w.key}.js`));
    if (w.picture) writeFileSync(join(dir, w.picture), solidPng(w.width, w.height, [60, 120, 200]));
  }
  writeCatalogue(dir, c);
  return c;
}

/** data/catalogue.js and index.html. */
export function writeCatalogue(dir: string, c: Catalogue): void {
  mkdirSync(join(dir, 'data'), { recursive: true });
  writeFileSync(join(dir, 'data', 'catalogue.js'), dataScript('catalogue', c));
  writeFileSync(join(dir, 'index.html'), shell('index', '', 'Levels'));
}

// Words and names for the synthetic archive (a community archive's: mostly Graal, then Teeworlds).
const WORDS =
  'castle tower dungeon forest river bridge cave sword shield key door chest dragon knight king queen village market temple ruins swamp desert island harbor ship lantern potion scroll gold silver wolf goblin wizard garden mill farm north south east west secret hidden old new dark bright stone'.split(
    ' ',
  );
const LOGICS = ['Officer', 'Soldier', 'Rat', 'TreasurePowerup', 'StartElevator', 'Checkpoint', 'Crate', 'Spikes', 'FrontCandy', 'BehindCandy', 'AniCycle'];
const IMAGES = ['grass_main', 'grass_doodads', 'desert_main', 'jungle_main', 'winter_main', 'generic_unhookable', 'pics1', 'bg_cloud1'];
/** Format mix per 1,000 (bench/scale-generate.ts's MIX, zips spread over their members' formats). */
const FORMATS: [string, string, number][] = [
  ['graal', 'GR-V1.05', 450],
  ['graal', 'nw', 200],
  ['graal', 'gmap', 10],
  ['teeworlds', '4', 225],
  ['wwd', '1', 60],
  ['gwc', '2', 25],
  ['wdata', '9', 30],
];

/** A catalogue of `n` synthetic levels (no files behind them): the scale cases of the index page. */
export function syntheticCatalogue(n: number, seed = 41): Catalogue {
  const rng = new Prng(seed);
  const c = emptyCatalogue();
  const add = catalogueWriter(c);
  const word = () => WORDS[rng.int(WORDS.length)]!;
  const authors = Array.from({ length: Math.max(10, Math.floor(n / 25)) }, (_, i) => `${word()}${word()}${i}`);
  const total = FORMATS.reduce((s, f) => s + f[2], 0);
  for (let i = 0; i < n; i++) {
    const pick = rng.int(total);
    let sum = 0;
    const [format, version] = FORMATS.find((f) => {
      sum += f[2];
      return pick < sum;
    })!;
    // A few authors make most levels (squared uniform: skewed to the first).
    const a = rng.int(10) < 2 ? null : authors[Math.floor((rng.int(1000) / 1000) ** 2 * authors.length)]!;
    const name = `${word()}-${word()}-${i}`;
    const uses = [`tile:${format === 'teeworlds' ? 'game' : 'main'}:${rng.int(64)}`];
    for (let k = rng.int(4); k > 0; k--)
      uses.push(format === 'teeworlds' ? `image:${IMAGES[rng.int(IMAGES.length)]}` : `logic:${LOGICS[rng.int(LOGICS.length)]}`);
    const texts = Array.from({ length: rng.int(12) }, word).join(' ');
    const w = 16 + rng.int(240);
    add({
      key: `l${i}`,
      name,
      path: `archive/${format}/${Math.floor(i / 1000)}/${name}.${version === 'nw' ? 'nw' : format}`,
      format,
      version,
      author: a,
      bytes: 500 + rng.int(200_000),
      width: w,
      height: 16 + rng.int(240),
      layers: 1 + rng.int(8),
      objects: rng.int(300),
      warnings: rng.int(20) === 0 ? 1 + rng.int(3) : 0,
      findings: rng.int(8) === 0 ? 1 + rng.int(5) : 0,
      family: -1,
      thumb: `t${i}`,
      uses: [...new Set(uses)],
      text: `${name} ${a ?? ''} ${texts}`,
    });
  }
  return c;
}
