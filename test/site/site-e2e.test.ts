// `levelkit site` end to end, as a user runs it: the built command scans fixtures/ into an index,
// writes the site of it, and the site is opened from file:// in headless Chromium. The index
// filters, a level page draws its level, a family page shows its chain with diff pictures, and
// the Graal world page shows the gmap's levels stitched, its missing cells listed. Nothing is
// asked for outside the folder and no page logs an error. (The pages alone, on a site made by
// hand, are test/site-page.test.ts; the builder alone is site.test.ts.)
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runInNewContext } from 'node:vm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Catalogue, FamilyPageData, WorldPageData } from '../../src/site/contract.js';
import { startChromium } from '../helpers/chromium.js';
import { describeWith } from '../helpers/needs.js';
import { FIXTURES, ROOT } from '../helpers/paths.js';

/** The value a data script queues. */
function dataOf<T>(file: string): T {
  const window: { levelkitSite?: { queue: [string, unknown][] } } = {};
  runInNewContext(readFileSync(file, 'utf8'), { window });
  return window.levelkitSite!.queue[0]![1] as T;
}

const levelkit = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'dist/cli.mjs'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });

describeWith(await startChromium(['dist/cli.mjs', 'dist/site/site.js']), 'levelkit site of fixtures/, opened in headless Chromium', (browser) => {
  let tmp = '';
  let site = '';
  let catalogue: Catalogue;
  let page: Page;
  const outside: string[] = [];
  const errors: string[] = [];
  const url = (rel: string) => `${pathToFileURL(site).href}/${rel}`;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'levelkit-site-e2e-'));
    site = join(tmp, 'site');
    // fixtures/graal/world.gmap names levels fixtures/ does not hold; beside a copy of it, two of
    // them (fixture levels under the names it gives), so its world has drawn and missing cells.
    const world = join(tmp, 'world');
    mkdirSync(world);
    copyFileSync(join(FIXTURES, 'graal', 'world.gmap'), join(world, 'world.gmap'));
    copyFileSync(join(FIXTURES, 'graal', 'layers.nw'), join(world, 'world_a1.nw'));
    copyFileSync(join(FIXTURES, 'graal', 'crlf.nw'), join(world, 'world_c1.nw'));
    // fixtures/ holds damaged files on purpose: the scan exits 2 for them, and indexes them as errors.
    const scan = levelkit('scan', FIXTURES, world, '--index', join(tmp, 'idx'), '--quiet');
    expect([0, 2], scan.stderr).toContain(scan.status);
    const built = levelkit('site', join(tmp, 'idx'), '-o', site, '--quiet');
    expect(built.status, built.stderr).toBe(0);
    catalogue = dataOf<Catalogue>(join(site, 'data', 'catalogue.js'));
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('request', (r) => {
      if (!r.url().startsWith(`${pathToFileURL(site).href}/`)) outside.push(r.url());
    });
    page.on('pageerror', (e: Error) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
  }, 300_000);

  afterAll(async () => {
    await browser.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const open = async (rel: string) => {
    await page.goto(url(rel));
    await page.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
    expect(await page.getAttribute('body', 'data-error')).toBeNull();
  };
  const shown = async () => Number(await page.getAttribute('body', 'data-shown'));
  const loaded = (selector: string) =>
    page.waitForFunction((s) => [...document.querySelectorAll<HTMLImageElement>(s)].some((i) => i.complete && i.naturalWidth > 0), selector, {
      timeout: 30_000,
    });

  it('the index lists every indexed file and filters by format and text', async () => {
    await open('index.html');
    const rows = catalogue.levels.key.length;
    expect(rows).toBeGreaterThan(50);
    expect(await shown()).toBe(rows);
    const graal = catalogue.levels.format.filter((f) => catalogue.strings[f] === 'graal').length;
    expect(graal).toBeGreaterThan(0);
    await page.selectOption('#filter-format', 'graal');
    expect(await shown()).toBe(graal);
    await page.selectOption('#filter-format', '');
    await page.fill('#filter-text', 'all-items');
    const named = catalogue.levels.text.filter((t) => t.includes('all-items')).length;
    expect(named).toBeGreaterThan(0);
    expect(await shown()).toBe(named);
    // The thumbnails drawn by the builder load in the list.
    await loaded('#list .thumb img');
  });

  it('a level page draws its level from the bytes the site carries', async () => {
    const row = catalogue.levels.path.findIndex((p) => p.endsWith('teeworlds/ddnet-all-items.map'));
    expect(row).toBeGreaterThanOrEqual(0);
    await open(`levels/${catalogue.levels.key[row]}.html`);
    expect(await page.getAttribute('#picture-box', 'data-picture')).toBe('drawn');
    const colours = await page.evaluate(() => {
      const c = document.getElementById('picture') as HTMLCanvasElement;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length && seen.size < 3; i += 4) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
      return seen.size;
    });
    expect(colours, 'the picture is not blank').toBeGreaterThan(1);
  });

  it('a family of versions is a chain, each change with its diff picture and counts', async () => {
    const family = catalogue.families.find((f) => !f.exact && f.rows.length >= 2)!;
    expect(family, 'fixtures/ hold versions of one Graal level').toBeDefined();
    const data = dataOf<FamilyPageData>(join(site, 'families', `${family.key}.js`));
    await open(`families/${family.key}.html`);
    const steps = page.locator('#chain .step');
    expect(await steps.count()).toBe(family.rows.length);
    const changed = data.steps.findIndex((s) => s.diff && !s.diff.same && s.diff.picture);
    expect(changed).toBeGreaterThan(0);
    expect(await steps.nth(changed).locator('.counts').textContent()).toBe(data.steps[changed]!.diff!.counts);
    expect(data.steps[changed]!.diff!.counts).toMatch(/changed/);
    await loaded('#chain img.diff');
  });

  it('the Graal world page stitches the gmap’s levels and lists the missing ones', async () => {
    const worlds = catalogue.worlds.map((w) => dataOf<WorldPageData>(join(site, 'worlds', `${w.key}.js`)));
    const data = worlds.find((w) => w.name === 'world.gmap' && w.cells.some((c) => c.state === 'drawn'))!;
    expect(data, 'the copy beside its levels').toBeDefined();
    expect(data.cells.map((c) => c.state)).toEqual(['drawn', 'missing', 'drawn', 'missing', 'missing', 'missing']);
    await open(`worlds/${data.key}.html`);
    expect(await page.locator('#world .world-cell').count()).toBe(data.columns * data.rows);
    await loaded('#world img');
    const missing = data.cells.filter((c) => c.state !== 'drawn' && c.name);
    for (const c of missing) expect(await page.textContent('#missing')).toContain(c.name);
    expect(await page.textContent('#missing')).not.toContain('world_a1.nw');
    // A drawn cell links its level's page.
    const linked = data.cells.findIndex((c) => c.state === 'drawn' && c.key);
    expect(linked).toBeGreaterThanOrEqual(0);
    await page.locator(`#world a.world-cell[data-cell="${linked}"]`).click();
    await page.waitForSelector('body[data-ready="1"]');
    expect(page.url()).toBe(url(`levels/${data.cells[linked]!.key}.html`));
  });

  it('no page asked for anything outside the site’s folder, and none logged an error', () => {
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});
