// The pages of `levelkit site` (web/site/, built to dist/site/) in a real headless Chromium, opened
// from file:// as a user opens a site folder: a site made by hand from the contract's types
// (helpers/site-folder.ts) with real fixtures as the level bytes. The index filters and sorts and
// keeps a view in its hash; a level page decodes and draws its level in the page and a layer's box
// changes the picture; a level without bytes falls back to its preview; the family and world pages
// link their levels; a name that looks like markup stays text; no request leaves the folder; and
// 50,000 levels filter with only the rows in sight in the DOM.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decode, render } from '../src/index.js';
import { dataScript, SITE_DATA_VERSION } from '../src/site/contract.js';
import { CatalogueQuery, DEFAULT_VIEW } from '../web/site/query.js';
import { startChromium } from './helpers/chromium.js';
import { describeWith } from './helpers/needs.js';
import { FIXTURES, readBytes } from './helpers/paths.js';
import { copyAssets, type HandLevel, shell, syntheticCatalogue, writeCatalogue, writeHandSite } from './helpers/site-folder.js';

const XSS = '<img src=x onerror="window.__xss=1">';
const DM1 = 'teeworlds/real/tw07-dm1.map';

const LEVELS: HandLevel[] = [
  {
    key: 'dm1',
    name: 'dm1',
    fixture: DM1,
    format: 'teeworlds',
    version: '4',
    author: 'matricks',
    uses: ['image:grass_main', 'tile:game:1'],
    findings: 0,
    warnings: 0,
    text: 'a deathmatch arena',
    thumb: 'th-dm1',
  },
  {
    key: 'xss',
    name: XSS,
    fixture: 'graal/gr-v105-layers.graal',
    format: 'graal',
    version: 'GR-V1.05',
    author: 'Unixmad',
    uses: ['logic:npc'],
    findings: 2,
    warnings: 1,
    text: 'castle gate',
    thumb: 'th-xss',
    texts: [{ object: 0, kind: 'sign', text: '<b>Welcome</b> to the castle', x: 10, y: 12 }],
    links: [
      { kind: 'link', name: 'dm1.graal', key: 'dm1' },
      { kind: 'link', name: 'gone.graal', key: null },
    ],
  },
  {
    key: 'ctf1',
    name: 'ctf1',
    fixture: 'teeworlds/ddnet-all-items.map',
    format: 'teeworlds',
    version: '4',
    author: null,
    uses: ['tile:game:1'],
    findings: 0,
    warnings: 0,
    text: 'capture the flag',
    thumb: 'th-ctf1',
    noThumbFile: true,
    noBytesFile: true,
  },
  {
    key: 'claw',
    name: 'Claw level 1',
    fixture: 'wwd/claw-compressed.wwd',
    format: 'wwd',
    version: '1',
    author: 'Monolith',
    uses: ['logic:Officer'],
    findings: 1,
    warnings: 0,
    text: 'la roca',
    thumb: 'th-claw',
    noBytes: true,
  },
  {
    key: 'world',
    name: 'world.gmap',
    fixture: 'graal/world.gmap',
    format: 'graal',
    version: 'gmap',
    author: null,
    uses: [],
    findings: 0,
    warnings: 0,
    text: '',
    thumb: '',
    noBytes: true,
  },
];

describeWith(await startChromium(['dist/site/site.js', 'dist/site/site.css']), 'the site pages in headless Chromium, from file://', (browser) => {
  let dir = '';
  let page: Page;
  const outside: string[] = [];
  const errors: string[] = [];
  const url = (rel: string) => `${pathToFileURL(dir).href}/${rel}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'levelkit-site-page-'));
    writeHandSite(
      dir,
      LEVELS,
      [
        {
          key: 'dm1-family',
          rows: [0, 2],
          exact: false,
          steps: [
            { key: 'dm1', name: 'dm1', path: `archive/${DM1}`, date: '2008-01-01', formatVersion: '4', thumb: 'th-dm1', diff: null },
            {
              key: 'ctf1',
              name: 'ctf1',
              path: 'archive/ctf1.map',
              date: '2010-05-05',
              formatVersion: '4',
              thumb: 'th-ctf1',
              diff: { picture: 'diffs/dm1-ctf1.png', counts: '142 cells changed, 1 image added', same: false },
            },
          ],
        },
      ],
      [
        {
          version: 1,
          key: 'world',
          name: 'world.gmap',
          picture: 'worlds/world.png',
          width: 128,
          height: 96,
          columns: 2,
          rows: 2,
          cells: [
            { name: 'a.nw', key: 'xss', state: 'drawn' },
            { name: 'b.nw', key: 'dm1', state: 'drawn' },
            { name: 'c.nw', key: null, state: 'missing' },
            { name: 'd.nw', key: 'claw', state: 'error' },
          ],
          row: 4,
        },
      ],
    );
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('request', (r) => {
      if (!r.url().startsWith(`${pathToFileURL(dir).href}/`)) outside.push(r.url());
    });
    page.on('pageerror', (e: Error) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
  });

  afterAll(async () => {
    await browser.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const open = async (rel: string) => {
    await page.goto(url(rel));
    await page.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
    expect(await page.getAttribute('body', 'data-error')).toBeNull();
  };
  const names = () => page.$$eval('#list .row.level .name a', (a) => a.map((x) => x.textContent));
  const shown = async () => Number(await page.getAttribute('body', 'data-shown'));

  it('the index lists every level, filters by format and text, sorts, and keeps the view in its hash', async () => {
    await open('index.html');
    expect(await shown()).toBe(LEVELS.length);
    expect((await names()).sort()).toEqual(LEVELS.map((l) => l.name).sort());
    // Each row links its level page, its family and (a gmap) its world; a thumbnail that is there is shown, one that is not is left out.
    const row = (key: string) => page.locator(`#list .row.level:has(a[href="levels/${key}.html"])`);
    expect(await row('dm1').locator('.family a').getAttribute('href')).toBe('families/dm1-family.html');
    expect(await row('world').locator('.family a').getAttribute('href')).toBe('worlds/world.html');
    expect(await row('claw').locator('.family a').count()).toBe(0);
    expect(await row('dm1').locator('.thumb img').getAttribute('src')).toBe('thumbs/th-dm1-s.png');
    await page.waitForFunction(() => !document.querySelector('#list img[src="thumbs/th-ctf1-s.png"]'));
    await page.selectOption('#filter-format', 'teeworlds');
    expect(await shown()).toBe(2);
    expect((await names()).sort()).toEqual(['ctf1', 'dm1']);
    expect(new URL(page.url()).hash).toBe('#format=teeworlds');
    await page.selectOption('#filter-format', '');
    await page.fill('#filter-text', 'CASTLE');
    expect(await names()).toEqual([XSS]);
    await page.fill('#filter-text', '');
    await page.check('#filter-findings');
    expect((await names()).sort()).toEqual(['Claw level 1', XSS].sort());
    await page.uncheck('#filter-findings');
    await page.fill('#filter-logic', 'Officer');
    await page.press('#filter-logic', 'Enter');
    expect(await names()).toEqual(['Claw level 1']);
    await page.fill('#filter-logic', '');
    await page.press('#filter-logic', 'Enter');
    // Sorting: by name, then by size in bytes descending (a click on the column head).
    await page.selectOption('#sort', 'name');
    expect(await names()).toEqual(LEVELS.map((l) => l.name).sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    await page.selectOption('#sort', 'bytes');
    await page.check('#sort-desc');
    const bySize = LEVELS.map((l) => ({ name: l.name, bytes: readBytes(join(FIXTURES, l.fixture)).length })).sort((a, b) => b.bytes - a.bytes);
    expect(await names()).toEqual(bySize.map((l) => l.name));
    // A linked view opens as it was.
    await open('index.html#format=graal&q=gate');
    expect(await names()).toEqual([XSS]);
    expect(await page.inputValue('#filter-text')).toBe('gate');
  });

  it('a level named like markup shows as text, and its texts too', async () => {
    await open('index.html');
    const link = page.locator('#list .name a', { hasText: 'onerror' });
    expect(await link.textContent()).toBe(XSS);
    expect(await page.locator('#list img[src="x"]').count()).toBe(0);
    await link.click();
    await page.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
    expect(page.url()).toBe(url('levels/xss.html'));
    expect(await page.textContent('h1')).toBe(XSS);
    expect(await page.locator('#texts pre').textContent()).toBe('<b>Welcome</b> to the castle');
    expect(await page.locator('#texts b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    // Its links: one to a level of the site, one to a level that is not in it.
    expect(await page.getAttribute('#links a', 'href')).toBe('../levels/dm1.html');
    expect(await page.textContent('#links')).toContain('gone.graal (not in this site)');
  });

  it('a level page decodes its bytes and draws them; a layer box changes the picture to the library’s without that layer', async () => {
    await open('levels/dm1.html');
    expect(await page.getAttribute('#picture-box', 'data-picture')).toBe('drawn');
    const canvas = () =>
      page.evaluate(async () => {
        const c = document.getElementById('picture') as HTMLCanvasElement;
        const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        const colours = new Set<number>();
        for (let i = 0; i < data.length && colours.size < 3; i += 4) colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
        const d = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
        return { width: c.width, height: c.height, colours: colours.size, digest: Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('') };
      });
    const digest = (b: Uint8ClampedArray) => createHash('sha256').update(b).digest('hex');
    const before = await canvas();
    expect(before.colours, 'the picture is not blank').toBeGreaterThan(1);
    const value = decode(readBytes(join(FIXTURES, DM1)));
    const drawn = (await page.getAttribute('#picture', 'data-drawn'))!.split(',').map(Number);
    const whole = render(value, { layer: drawn });
    expect(before.digest).toBe(digest(whole.rgba));
    // A layer whose pixels show, unticked.
    const others = (i: number) => drawn.filter((j) => j !== i);
    const layer = [...drawn].reverse().find((i) => digest(render(value, { layer: others(i) }).rgba) !== digest(whole.rgba))!;
    expect(layer).toBeDefined();
    await page.uncheck(`#layers input[data-layer-toggle="${layer}"]`);
    const after = await canvas();
    expect(after.digest).not.toBe(before.digest);
    expect(after.digest).toBe(digest(render(value, { layer: others(layer) }).rgba));
    await page.check(`#layers input[data-layer-toggle="${layer}"]`);
    expect((await canvas()).digest).toBe(before.digest);
    // Zoom: the wheel enlarges the picture's transform.
    const zoomOf = async () => Number(/scale\(([\d.e-]+)\)/.exec((await page.getAttribute('#picture', 'style'))!)![1]);
    const z0 = await zoomOf();
    await page.mouse.move(600, 400);
    await page.locator('#viewport').hover();
    await page.mouse.wheel(0, -300);
    expect(await zoomOf()).toBeGreaterThan(z0);
    // Zoomed in past the picture's own pixels, the tiles in sight are drawn again at full resolution (the inspector's region layer).
    for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -300);
    await page.waitForFunction(() => document.querySelector('#regions canvas') && document.getElementById('regions')!.dataset.pending === '0', undefined, {
      timeout: 30_000,
    });
    expect(Number(await page.getAttribute('#regions', 'data-scale'))).toBeGreaterThan(whole.scale);
    // Its family, linked.
    expect(await page.getAttribute('#family a', 'href')).toBe('../families/dm1-family.html');
  });

  it('a level without bytes (or whose bytes file is gone) shows its prebuilt preview; without a preview either, says so', async () => {
    await open('levels/claw.html');
    expect(await page.getAttribute('#picture-box', 'data-picture')).toBe('thumb');
    expect(await page.getAttribute('#picture', 'src')).toBe('../thumbs/th-claw-l.png');
    await open('levels/world.html');
    expect(await page.getAttribute('.world-link a', 'href')).toBe('../worlds/world.html');
    expect(await page.getAttribute('#picture-box', 'data-picture')).toBe('none');
    expect(await page.textContent('#picture-box')).toContain('No picture');
    // Its bytes file named but absent, and its preview too.
    await open('levels/ctf1.html');
    expect(await page.getAttribute('#picture-box', 'data-picture')).toBe('none');
    expect(await page.textContent('#picture-note')).toContain('not in this copy of the site');
  });

  it('the family page shows the chain with dates, thumbnails and each change', async () => {
    await open('families/dm1-family.html');
    const steps = page.locator('#chain .step');
    expect(await steps.count()).toBe(2);
    expect(await steps.nth(0).locator('.when').textContent()).toBe('2008-01-01 · 4');
    expect(await steps.nth(1).locator('.counts').textContent()).toBe('142 cells changed, 1 image added');
    expect(await steps.nth(1).locator('img.diff').getAttribute('src')).toBe('../diffs/dm1-ctf1.png');
    expect(await steps.nth(1).locator('a').getAttribute('href')).toBe('../levels/ctf1.html');
    // ctf1's thumbnail file is missing: its image is gone, its name stays.
    await page.waitForFunction(() => document.querySelectorAll('#chain .step')[1]!.querySelector('.card img') === null);
    expect(await steps.nth(1).locator('.name').textContent()).toBe('ctf1');
  });

  it('the world page links its cells to their levels and lists the missing ones', async () => {
    await open('worlds/world.html');
    expect(await page.locator('#world .world-cell').count()).toBe(4);
    expect(await page.locator('#world a.world-cell').count()).toBe(3);
    expect(await page.textContent('#missing')).toContain('c.nw');
    expect(await page.textContent('#missing')).toContain('d.nw');
    expect(await page.textContent('#missing')).not.toContain('a.nw');
    await page.locator('#world a.world-cell[data-cell="1"]').click();
    await page.waitForSelector('body[data-ready="1"]');
    expect(page.url()).toBe(url('levels/dm1.html'));
  });

  it('data of another version is refused in one line, not half-shown', async () => {
    writeFileSync(join(dir, 'levels', 'future.js'), dataScript('level', { version: SITE_DATA_VERSION + 1, key: 'future' }));
    writeFileSync(join(dir, 'levels', 'future.html'), shell('level', 'future', 'future', 'levels/future.js'));
    await page.goto(url('levels/future.html'));
    await page.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
    expect(await page.getAttribute('body', 'data-error')).toBe(
      `the level data is of version ${SITE_DATA_VERSION + 1}; this page reads version ${SITE_DATA_VERSION} (build the site again)`,
    );
    expect(await page.locator('h1').count()).toBe(0);
  });

  it('no page asked for anything outside the site’s folder, and none logged an error', () => {
    expect(outside).toEqual([]);
    expect(errors.filter((e) => !/ERR_FILE_NOT_FOUND/.test(e))).toEqual([]);
  });

  it('50,000 levels: the index opens, filters and sorts with only the rows in sight in the DOM', async () => {
    const big = mkdtempSync(join(tmpdir(), 'levelkit-site-50k-'));
    try {
      const catalogue = syntheticCatalogue(50_000);
      copyAssets(big);
      writeCatalogue(big, catalogue);
      const tab = await browser.newPage({ viewport: { width: 1300, height: 900 } });
      await tab.goto(`${pathToFileURL(big).href}/index.html`);
      await tab.waitForSelector('body[data-ready="1"]', { timeout: 60_000 });
      expect(Number(await tab.getAttribute('body', 'data-shown'))).toBe(50_000);
      expect(await tab.locator('#list .row').count()).toBeLessThan(100);
      const query = new CatalogueQuery(catalogue);
      const view = { ...DEFAULT_VIEW, format: 'teeworlds', text: 'castle' };
      await tab.selectOption('#filter-format', 'teeworlds');
      await tab.fill('#filter-text', 'castle');
      expect(Number(await tab.getAttribute('body', 'data-shown'))).toBe(query.run(view).length);
      await tab.selectOption('#sort', 'author');
      const first = await tab.getAttribute('#list .row.level', 'data-row');
      expect(Number(first)).toBe(query.run({ ...view, sort: 'author' })[0]);
      expect(await tab.locator('#list .row').count()).toBeLessThan(100);
      await tab.close();
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  }, 120_000);
});
