// `levelkit site` (issue 41): the site of an index of fixture levels, built in-process with
// placeholder page assets (the real ones are web/site/'s build), and the command's refusals.

import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutputError } from '../../src/scan/write.js';
import { AssetsMissing } from '../../src/site/assets.js';
import { buildSite, type SiteOptions, type SiteParts } from '../../src/site/build.js';
import type { Catalogue, FamilyPageData, LevelPageData, WorldPageData } from '../../src/site/contract.js';
import { FolderRefused } from '../../src/site/out-folder.js';
import { CLI_ARGV, cli } from '../helpers/cli.js';
import { itWith, type Need } from '../helpers/needs.js';
import { FIXTURES, ROOT } from '../helpers/paths.js';

/** A level whose file name and sign are markup: both must stay text. */
const EVIL_NAME = '<b>evil<i>.nw';
const EVIL_SIGN = '</script><img src=x onerror=alert(1)>';

let tmp: string;
let levels: string;
let index: string;
let assets: string;

/** Makes a /dev/full at a path (mknod: root, or CAP_MKNOD). */
function fullDevice(): Need<(path: string) => void> {
  const probe = join(tmpdir(), `levelkit-site-full-${process.pid}`);
  const made = spawnSync('mknod', [probe, 'c', '1', '7']).status === 0;
  rmSync(probe, { force: true });
  if (!made) return { ok: false, missing: 'mknod of a /dev/full node (root or CAP_MKNOD)' };
  return {
    ok: true,
    value: (path) => {
      expect(spawnSync('mknod', [path, 'c', '1', '7']).status).toBe(0);
    },
  };
}

/** The value a data script queues (it runs as the page would run it). */
function dataOf<T>(file: string): T {
  const window: { levelkitSite?: { queue: [string, unknown][] } } = {};
  runInNewContext(readFileSync(file, 'utf8'), { window });
  return window.levelkitSite!.queue[0]![1] as T;
}

function options(out: string, more: Partial<SiteOptions> = {}): SiteOptions {
  return {
    index,
    out,
    force: false,
    assets,
    decode: {},
    maxBytes: 64 << 20,
    drawing: {},
    workers: 2,
    timeoutMs: 60_000,
    say: () => {},
    ...more,
  };
}

async function indexOf(dir: string, idx: string): Promise<void> {
  // From source, with more time than cli()'s 30 s: a scan's workers start slowly on a loaded machine.
  const r = spawnSync(process.execPath, [...CLI_ARGV, 'scan', dir, '--index', idx, '--quiet'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'levelkit-site-'));
  levels = join(tmp, 'levels');
  mkdirSync(join(levels, 'copy'), { recursive: true });
  for (const f of ['gr-v103.graal', 'layers.nw', 'world.gmap']) copyFileSync(join(FIXTURES, 'graal', f), join(levels, f));
  copyFileSync(join(FIXTURES, 'graal', 'gr-v103.graal'), join(levels, 'copy', 'gr-v103.graal'));
  copyFileSync(join(FIXTURES, 'teeworlds', 'ddnet-all-items.map'), join(levels, 'ddnet.map'));
  writeFileSync(join(levels, EVIL_NAME), `GLEVNW01\nSIGN 3 4\n${EVIL_SIGN}\nSIGNEND\n`);
  // The copy is older: the family chain starts with it; layers.nw (the same grid, as text) is the newest.
  utimesSync(join(levels, 'copy', 'gr-v103.graal'), 1_000_000, 1_000_000);
  utimesSync(join(levels, 'gr-v103.graal'), 2_000_000, 2_000_000);
  utimesSync(join(levels, 'layers.nw'), 3_000_000, 3_000_000);
  index = join(tmp, 'idx');
  await indexOf(levels, index);
  assets = join(tmp, 'assets');
  mkdirSync(assets);
  writeFileSync(join(assets, 'site.js'), '/* pages */');
  writeFileSync(join(assets, 'site.css'), '/* style */');
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('levelkit site', () => {
  let out: string;
  let first: Awaited<ReturnType<typeof buildSite>>;
  let catalogue: Catalogue;

  beforeAll(async () => {
    out = join(tmp, 'site');
    first = await buildSite(options(out));
    catalogue = dataOf<Catalogue>(join(out, 'data/catalogue.js'));
  }, 120_000);

  it('writes the shell pages, the catalogue, a page per level, the assets and the marker', () => {
    expect(catalogue.levels.key.length).toBe(6);
    expect(first.levels).toBe(6);
    for (const f of ['index.html', '.levelkit-site', 'assets/site.js', 'assets/site.css']) expect(existsSync(join(out, f)), f).toBe(true);
    for (const key of catalogue.levels.key) {
      expect(existsSync(join(out, 'levels', `${key}.html`)), key).toBe(true);
      expect(dataOf<LevelPageData>(join(out, 'levels', `${key}.js`)).key).toBe(key);
    }
    // Rows in path order, paths below the scanned folder.
    expect(catalogue.levels.path).toEqual([...catalogue.levels.path].sort());
    expect(catalogue.levels.path).toContain('copy/gr-v103.graal');
    const at = catalogue.levels.path.indexOf('layers.nw');
    expect(catalogue.strings[catalogue.levels.format[at]!]).toBe('graal-nw');
    expect(catalogue.levels.thumb[at]).not.toBe('');
    expect(existsSync(join(out, 'thumbs', `${catalogue.levels.thumb[at]}-s.png`))).toBe(true);
    expect(existsSync(join(out, 'thumbs', `${catalogue.levels.thumb[at]}-l.png`))).toBe(true);
    const page = dataOf<LevelPageData>(join(out, 'levels', `${catalogue.levels.key[at]}.js`));
    expect(page.layers.length).toBeGreaterThan(0);
    expect(page.tiles.length).toBeGreaterThan(0);
    const file = dataOf<{ sha256: string; base64: string }>(join(out, page.bytes!));
    expect(Buffer.from(file.base64, 'base64').equals(readFileSync(join(levels, 'layers.nw')))).toBe(true);
  });

  it('a level named as markup, with markup in its text, stays text', () => {
    const at = catalogue.levels.name.indexOf(EVIL_NAME);
    expect(at).toBeGreaterThanOrEqual(0);
    const key = catalogue.levels.key[at]!;
    const html = readFileSync(join(out, 'levels', `${key}.html`), 'utf8');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&#60;b&#62;evil&#60;i&#62;.nw');
    const script = readFileSync(join(out, 'levels', `${key}.js`), 'utf8');
    expect(script).not.toMatch(/<\/script|<img/i);
    expect(dataOf<LevelPageData>(join(out, 'levels', `${key}.js`)).texts.map((t) => t.text)).toContain(EVIL_SIGN);
    expect(readFileSync(join(out, 'data/catalogue.js'), 'utf8')).not.toContain('<');
  });

  it('two copies of a file are one thumbnail, drawn once', () => {
    const copies = catalogue.levels.path.flatMap((p, i) => (p.endsWith('gr-v103.graal') ? [catalogue.levels.thumb[i]] : []));
    expect(copies).toHaveLength(2);
    expect(copies[0]).not.toBe('');
    expect(copies[0]).toBe(copies[1]);
    // Six levels, five contents: the copy costs no drawing.
    expect(first.thumbnails).toBe(5);
    expect(first.drawn).toBeLessThanOrEqual(first.thumbnails);
    expect(readdirSync(join(out, 'thumbs')).filter((f) => f.endsWith('-s.png')).length).toBe(first.drawn);
  });

  it('exact re-saves (without a family finder: the same grid) are a family, oldest first, each step with its diff', () => {
    expect(catalogue.families).toHaveLength(1);
    const family = dataOf<FamilyPageData>(join(out, 'families', `${catalogue.families[0]!.key}.js`));
    expect(family.steps.map((s) => s.path)).toEqual(['copy/gr-v103.graal', 'gr-v103.graal', 'layers.nw']);
    expect(family.steps.map((s) => s.date)).toEqual([1e9, 2e9, 3e9].map((ms) => new Date(ms).toISOString()));
    expect(family.steps[0]!.diff).toBeNull();
    expect(family.steps[1]!.diff).toEqual({ picture: null, counts: 'the same file', same: true });
    expect(family.steps[2]!.diff!.counts).not.toMatch(/cells? changed/);
    for (const row of catalogue.families[0]!.rows) expect(catalogue.levels.family[row]).toBe(0);
  });

  it('a re-run draws nothing and keeps every thumbnail', async () => {
    const again = await buildSite(options(out));
    expect(again.drawn).toBe(0);
    expect(again.thumbnails).toBe(first.thumbnails);
    expect(dataOf<Catalogue>(join(out, 'data/catalogue.js')).levels.thumb).toEqual(catalogue.levels.thumb);
  }, 60_000);
});

describe('levelkit site: what it refuses and marks', () => {
  it('a folder that holds files and is not a site is refused, written into with force', async () => {
    const out = join(tmp, 'mine');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    await expect(buildSite(options(out))).rejects.toThrow(FolderRefused);
    expect(readdirSync(out)).toEqual(['notes.txt']);
    const r = cli('site', index, '-o', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`levelkit site: ${out} holds files and is not a levelkit site (no .levelkit-site); nothing was written (--force writes into it)\n`);
    await buildSite(options(out, { force: true }));
    expect(existsSync(join(out, '.levelkit-site'))).toBe(true);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
  }, 60_000);

  it('a bad option is said in one line naming it (then the usage), and nothing is written', () => {
    const out = join(tmp, 'bad-options');
    for (const [args, said] of [
      [['-o', out, '--scale', '0'], "levelkit site: --scale must be a whole number of pixels per tile, 1…64; got '0'"],
      [['-o', out, '--workers', 'many'], 'levelkit site: --workers'],
      [[], 'levelkit site: site needs -o <folder>'],
    ] as const) {
      const r = cli('site', index, ...args);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr.split('\n')[0]).toContain(said);
      expect(r.stderr.split('\n')[1]).toMatch(/^usage: levelkit site/);
    }
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('without the built pages, one line says to build them, and nothing is written', async () => {
    const out = join(tmp, 'unbuilt');
    await expect(buildSite(options(out, { assets: join(tmp, 'nowhere') }))).rejects.toThrow(AssetsMissing);
    await expect(buildSite(options(out, { assets: join(tmp, 'nowhere') }))).rejects.toThrow(/run npm run build/);
    expect(existsSync(out)).toBe(false);
  });

  it('never writes through a link in the site folder', async () => {
    const out = join(tmp, 'linked');
    await buildSite(options(out));
    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(elsewhere);
    rmSync(join(out, 'levels'), { recursive: true });
    symlinkSync(elsewhere, join(out, 'levels'));
    await expect(buildSite(options(out))).rejects.toThrow(/levels/);
    expect(readdirSync(elsewhere)).toEqual([]);
    // files/ (kept by content between runs) swapped for a link to someone's folder: nothing there is taken for the site's, or removed.
    rmSync(join(out, 'levels'));
    await buildSite(options(out));
    const theirs = join(tmp, 'theirs');
    mkdirSync(theirs);
    for (const f of readdirSync(join(out, 'files'))) copyFileSync(join(out, 'files', f), join(theirs, f));
    writeFileSync(join(theirs, 'notes.txt'), 'mine');
    rmSync(join(out, 'files'), { recursive: true });
    symlinkSync(theirs, join(out, 'files'));
    await expect(buildSite(options(out))).rejects.toThrow(/files/);
    expect(readFileSync(join(theirs, 'notes.txt'), 'utf8')).toBe('mine');
  }, 60_000);

  itWith(
    fullDevice(),
    'a full disk fails loudly, naming the file it could not write',
    async (device) => {
      const out = join(tmp, 'full');
      await buildSite(options(out));
      // A device that takes no byte (as /dev/full) where the catalogue goes: written into, as a shell's > would.
      unlinkSync(join(out, 'data/catalogue.js'));
      device(join(out, 'data/catalogue.js'));
      const failed = await buildSite(options(out)).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(OutputError);
      expect((failed as OutputError).message).toBe(`cannot write ${join(out, 'data/catalogue.js')}: no space left on device (ENOSPC)`);
    },
    60_000,
  );

  it('a file changed or gone since the index gets no picture and is marked; pages of levels gone from the index go', async () => {
    const dir = join(tmp, 'stale');
    mkdirSync(dir);
    for (const f of ['gr-v103.graal', 'layers.nw', 'gr-v101.graal']) copyFileSync(join(FIXTURES, 'graal', f), join(dir, f));
    const idx = join(tmp, 'stale-idx');
    await indexOf(dir, idx);
    writeFileSync(join(dir, 'layers.nw'), `${readFileSync(join(dir, 'layers.nw'), 'utf8')}\n`);
    unlinkSync(join(dir, 'gr-v101.graal'));
    const out = join(tmp, 'stale-site');
    const s = await buildSite(options(out, { index: idx }));
    expect(s.stale).toBe(2);
    const c = dataOf<Catalogue>(join(out, 'data/catalogue.js'));
    const row = (name: string) => c.levels.path.indexOf(name);
    expect(c.levels.stale[row('layers.nw')]).toMatch(/changed since the index was made/);
    expect(c.levels.stale[row('gr-v101.graal')]).toMatch(/gone/);
    expect(c.levels.stale[row('gr-v103.graal')]).toBe('');
    for (const name of ['layers.nw', 'gr-v101.graal']) {
      expect(c.levels.thumb[row(name)]).toBe('');
      const page = dataOf<LevelPageData>(join(out, 'levels', `${c.levels.key[row(name)]}.js`));
      expect(page.bytes).toBeNull();
      expect(page.stale).not.toBeNull();
    }
    // The index made again without one level: its page goes.
    const gone = c.levels.key[row('gr-v101.graal')]!;
    rmSync(idx, { recursive: true });
    await indexOf(dir, idx);
    await buildSite(options(out, { index: idx }));
    expect(existsSync(join(out, 'levels', `${gone}.html`))).toBe(false);
    expect(existsSync(join(out, 'levels', `${c.levels.key[row('gr-v103.graal')]}.html`))).toBe(true);
  }, 120_000);
});

describe('levelkit site: levels in zips', () => {
  it('reads each member from its zip (nested zips too), checked against the index, and links the members of one zip', async () => {
    const dir = join(tmp, 'zipped');
    mkdirSync(dir);
    copyFileSync(join(FIXTURES, 'zip', 'levels.zip'), join(dir, 'levels.zip'));
    const idx = join(tmp, 'zipped-idx');
    await indexOf(dir, idx);
    const out = join(tmp, 'zipped-site');
    const s = await buildSite(options(out, { index: idx }));
    expect(s.stale).toBe(0);
    const c = dataOf<Catalogue>(join(out, 'data/catalogue.js'));
    expect(c.levels.path.some((p) => p.startsWith('levels.zip::more.zip/'))).toBe(true);
    for (let row = 0; row < c.levels.key.length; row++) {
      if (c.levels.error[row]) continue;
      const page = dataOf<LevelPageData>(join(out, 'levels', `${c.levels.key[row]}.js`));
      expect(page.bytes, c.levels.path[row]).not.toBeNull();
      expect(c.levels.thumb[row], c.levels.path[row]).not.toBe('');
    }
    const graal = c.levels.path.indexOf('levels.zip::levels/gr-v103.graal');
    const page = dataOf<LevelPageData>(join(out, 'levels', `${c.levels.key[graal]}.js`));
    const file = dataOf<{ base64: string }>(join(out, page.bytes!));
    expect(Buffer.from(file.base64, 'base64').equals(readFileSync(join(FIXTURES, 'graal', 'gr-v103.graal')))).toBe(true);
    const map = c.levels.path.indexOf('levels.zip::levels/ddrace-v2.map');
    expect(page.links).toContainEqual({ kind: 'sibling', name: 'levels/ddrace-v2.map', key: c.levels.key[map] });
    expect(page.links.some((l) => l.key === page.key)).toBe(false);
  }, 120_000);
});

describe('levelkit site: the family finder and the world drawer it is given', () => {
  it('writes a family page with a diff per step, and a world page from the drawer with the levels found beside the gmap', async () => {
    const dir = join(tmp, 'world');
    mkdirSync(join(dir, 'elsewhere'), { recursive: true });
    copyFileSync(join(FIXTURES, 'graal', 'world.gmap'), join(dir, 'world.gmap'));
    copyFileSync(join(FIXTURES, 'graal', 'gr-v101.graal'), join(dir, 'world_a1.nw'));
    copyFileSync(join(FIXTURES, 'graal', 'gr-v103.graal'), join(dir, 'world_c1.nw'));
    // Named by the gmap but not beside it: not found.
    copyFileSync(join(FIXTURES, 'graal', 'layers.nw'), join(dir, 'elsewhere', 'world_a2.nw'));
    // The family's chain by date: the gmap, then the two levels (compared with each other).
    for (const [name, s] of [
      ['world.gmap', 1e6],
      ['world_a1.nw', 2e6],
      ['world_c1.nw', 3e6],
    ] as const)
      utimesSync(join(dir, name), s, s);
    const idx = join(tmp, 'world-idx');
    await indexOf(dir, idx);
    const out = join(tmp, 'parts');
    const asked: string[] = [];
    let levelRows: string[] = [];
    const parts: SiteParts = {
      families: (rows) => {
        levelRows = [...rows].map((r) => r.id);
        return [{ key: 'graal-family', ids: levelRows.slice(1), exact: false }];
      },
      drawWorld: (gmap, find) => {
        expect(gmap.format).toBe('graal-gmap');
        const names = ['world_a1.nw', 'world_c1.nw', 'world_a2.nw', 'world b2.nw'];
        for (const name of names) if (find(name)) asked.push(name);
        return {
          width: 2,
          height: 1,
          rgba: new Uint8Array(8).fill(200),
          columns: 2,
          rows: 2,
          cells: names.map((name, i) => ({ name, column: i % 2, row: i >> 1, state: find(name) ? 'drawn' : 'missing' })),
        };
      },
    };
    const s = await buildSite(options(out, { index: idx }), parts);
    expect(levelRows).toHaveLength(4);
    expect(s.families).toBe(1);
    expect(s.worlds).toBe(1);
    const c = dataOf<Catalogue>(join(out, 'data/catalogue.js'));
    const family = dataOf<FamilyPageData>(join(out, 'families', 'graal-family.js'));
    expect(family.steps).toHaveLength(3);
    expect(family.steps[0]!.diff).toBeNull();
    expect(family.steps.map((step) => step.path)).toEqual(['world.gmap', 'world_a1.nw', 'world_c1.nw']);
    // A gmap and a level cannot be compared: said, with no picture; two levels: their diff picture and counts.
    expect(family.steps[1]!.diff).toMatchObject({ picture: null, same: false });
    expect(family.steps[1]!.diff!.counts).toMatch(/^not compared: /);
    const last = family.steps[2]!.diff!;
    expect(last.same).toBe(false);
    expect(last.counts).toMatch(/\d+ cells? changed/);
    expect(readFileSync(join(out, last.picture!)).subarray(1, 4).toString()).toBe('PNG');
    expect(existsSync(join(out, 'families', 'graal-family.html'))).toBe(true);
    const world = c.worlds[0]!;
    expect(c.levels.path[world.row]).toBe('world.gmap');
    const page = dataOf<WorldPageData>(join(out, 'worlds', `${world.key}.js`));
    // From the site's folder, as every path in the page data (the page resolves it from there).
    expect(page.picture).toBe(`worlds/${world.key}.png`);
    expect(readFileSync(join(out, page.picture!)).subarray(1, 4).toString()).toBe('PNG');
    expect(asked).toEqual(['world_a1.nw', 'world_c1.nw']);
    const keyOf = (path: string) => c.levels.key[c.levels.path.indexOf(path)];
    expect(page.cells).toEqual([
      { name: 'world_a1.nw', key: keyOf('world_a1.nw'), state: 'drawn' },
      { name: 'world_c1.nw', key: keyOf('world_c1.nw'), state: 'drawn' },
      { name: 'world_a2.nw', key: null, state: 'missing' },
      { name: 'world b2.nw', key: null, state: 'missing' },
    ]);
    // A level of the gmap links to it.
    const gmapPage = dataOf<LevelPageData>(join(out, 'levels', `${world.key}.js`));
    expect(gmapPage.format).toBe('graal-gmap');
    expect(gmapPage.links.filter((l) => l.kind === 'gmap')).toEqual([
      { kind: 'gmap', name: 'world_a1.nw', key: keyOf('world_a1.nw') },
      { kind: 'gmap', name: 'world_c1.nw', key: keyOf('world_c1.nw') },
      { kind: 'gmap', name: 'world_a2.nw', key: null },
      { kind: 'gmap', name: 'world b2.nw', key: null },
    ]);
  }, 120_000);
});
