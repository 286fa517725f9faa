// The page (web/, built into dist/web/) as a person uses it, in a real headless Chromium: one
// fixture of each format through the file input (format label, a known tile's pixel on the
// canvas, marker count, warnings, no console errors), a clean view after an error, a .gwz, map
// info, a .wdata level's tables, plot and inspector, zips as a virtualised table with progress,
// sorting, filters, thumbnails of the rows in sight and the scan summary (compared with `levelkit
// scan --report`), and no Node built-in in any script the page loads. With the corpus: the largest
// map opens with its stages shown and, zoomed in, draws the tiles in sight at full resolution (the
// library's pixels, not the sampled picture's); a zip of 300 corpus files gets its table and
// thumbnails. Screenshots go to test-output/browser/; LEVELKIT_SCREENSHOT=1 also rewrites
// web/screenshot.png, the one the README shows (dm1, a fixture map).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { decode as decodePngFile, encode as encodePng } from 'fast-png';
import { zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decode, ENTITY_ASSETS, LEVEL_EXTENSIONS, markerColour, render, resourcesNeeded, tablesOf, tileColour } from '../src/index.js';
import { serve } from '../web/serve.js';
import { THUMB_SIDE } from '../web/thumbnails.js';
import { startChromium, waitForDetail } from './helpers/chromium.js';
import { cli } from './helpers/cli.js';
import { corpus, describeWith, itWith } from './helpers/needs.js';
import { bundledResources, pagePreview } from './helpers/page-preview.js';
import { corpusZip, largestCorpusMap, maxLongTask, pan, watchLongTasks } from './helpers/page-timing.js';
import { CORPUS, FIXTURES, listFiles, ROOT, readBytes } from './helpers/paths.js';

const SHOTS = `${ROOT}/test-output/browser`;
/** Every STEP-th pixel of a zoomed-in chunk is compared with the library's picture. */
const STEP = 61;
/** One level of each format id, and the main grid's tile the pixel check looks at. */
const ONE_OF_EACH = [
  'wwd/claw-wapmap-trailing-meta.wwd',
  'teeworlds/real/ddnet-coverage.map',
  'graal/gr-v105-layers.graal',
  'graal/layers.nw',
  'graal/world.gmap',
  'gwc/odd-ids-deleted-cp1252.gwc',
  'wdata/eventbox-v9.wdata',
];
/** Imports of Node built-ins a browser cannot resolve. */
const NODE_IMPORT =
  /\bfrom\s*['"](node:|fs['"]|path['"]|zlib['"]|crypto['"]|os['"]|url['"]|util['"]|child_process['"])|\bimport\(\s*['"]node:|\brequire\(\s*['"]/;

/** Where to look for a pixel that shows a known tile: the first used cell no marker covers, and its colour. */
function knownTile(path: string): { x: number; y: number; rgb: [number, number, number] } | undefined {
  const value = decode(readBytes(path));
  const p = pagePreview(value);
  if (p.empty) return undefined;
  const cells = value.format === 'wwd' ? value.planes[value.mainPlane]!.tiles : undefined;
  const grid = cells ? { cells, width: p.tilesWide } : undefined;
  const near = (tx: number, ty: number) =>
    p.markers.some(
      (m) => (Math.abs(m.x - tx) < 2 && Math.abs(m.y - ty) < 2) || (m.w > 0 && tx >= m.x - 1 && tx <= m.x + m.w && ty >= m.y - 1 && ty <= m.y + m.h),
    );
  for (let ty = 0; ty < p.tilesHigh; ty++) {
    for (let tx = 0; tx < p.tilesWide; tx++) {
      const o = (Math.floor((ty + 0.5) * p.scale) * p.width + Math.floor((tx + 0.5) * p.scale)) * 4;
      const rgb: [number, number, number] = [p.rgba[o]!, p.rgba[o + 1]!, p.rgba[o + 2]!];
      const id = grid?.cells[ty * grid.width + tx];
      if (near(tx, ty)) continue;
      // The Node picture is the expected one; where the id is known the colour must be its tile colour.
      if (id !== undefined && id !== 0xffffffff && id !== 0) {
        expect(rgb).toEqual(tileColour(id));
        return { x: Math.floor((tx + 0.5) * p.scale), y: Math.floor((ty + 0.5) * p.scale), rgb };
      }
      if (id === undefined && rgb.join() !== '24,28,34') return { x: Math.floor((tx + 0.5) * p.scale), y: Math.floor((ty + 0.5) * p.scale), rgb };
    }
  }
  return undefined;
}

describeWith(await startChromium(['dist/web/index.html', 'dist/web/app.js', 'dist/web/worker.js']), 'levelkit page in headless Chromium', (browser) => {
  let page: Page;
  let server: Awaited<ReturnType<typeof serve>>;
  const consoleErrors: string[] = [];
  const scripts = new Map<string, string>();
  /** Every bundled picture the page fetched this session, in order (the worker keeps each for the session). */
  const assetFetches: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await serve(0);
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (e: Error) => consoleErrors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`console: ${m.text()}`);
    });
    page.on('request', (r) => {
      if (r.url().includes('/assets/teeworlds/')) assetFetches.push(new URL(r.url()).pathname.replace(/^.*\/assets\/teeworlds\//, ''));
    });
    page.on('response', async (r) => {
      if (/\.m?js$/.test(new URL(r.url()).pathname)) scripts.set(r.url(), await r.text().catch(() => ''));
    });
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
  });

  afterAll(async () => {
    await browser.close();
    await server?.close();
  });

  for (const rel of ONE_OF_EACH) {
    it(`shows ${rel} opened through the file input`, async () => {
      const path = `${FIXTURES}/${rel}`;
      const value = decode(readBytes(path));
      const preview = pagePreview(value);
      await page.setInputFiles('#file', path);
      await waitForDetail(page, basename(path), 20_000);
      expect(await page.textContent('#format')).toBe(value.format);
      expect(await page.getAttribute('#object-count', 'data-count')).toBe(String(preview.markers.length));
      expect(await page.textContent('#warning-count')).toBe(`(${value.warnings.length})`);
      const warnings = await page.$$eval('#warnings li code', (c) => c.map((x) => x.textContent));
      expect(warnings).toEqual(value.warnings.map((w) => w.code));
      const known = knownTile(path);
      if (preview.empty) {
        expect(await page.textContent('#empty')).toContain(preview.empty);
      } else if (value.format === 'wdata') {
        // A plot of box markers on a blank ground, no tiles: the .wdata test below checks its pixels.
        expect(await page.$eval('#preview', (c) => [(c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height])).toEqual([preview.width, preview.height]);
      } else {
        const seen = await page.evaluate(({ x, y }) => {
          const c = document.getElementById('preview') as HTMLCanvasElement;
          const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
          const colours = new Set<number>();
          for (let i = 0; i < d.length; i += 4 * 7) colours.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
          const o = (y * c.width + x) * 4;
          return { size: [c.width, c.height], colours: colours.size, pixel: [d[o], d[o + 1], d[o + 2]] };
        }, known ?? { x: 0, y: 0 });
        expect(seen.size).toEqual([preview.width, preview.height]);
        expect(seen.colours, 'canvas is not blank').toBeGreaterThan(2);
        expect(known, 'a tile to check').toBeDefined();
        expect(seen.pixel).toEqual(known!.rgb);
      }
      await page.screenshot({ path: `${SHOTS}/${basename(path)}.png`, fullPage: true });
      expect(consoleErrors).toEqual([]);
    });
  }

  /**
   * Waits until the list shows `n` of `n` files decoded. The list's `done` state alone is not
   * enough: a zip opened right after another finds it still `done` from the one before.
   */
  async function allDecoded(n: number, zip?: string, timeout = 60_000): Promise<void> {
    // A zip of as many files as the one before shows "n of n" until its own rows replace the old ones.
    if (zip)
      await page.waitForFunction((name) => document.querySelector('#files tbody tr[data-index] td')?.textContent?.startsWith(`${name}/`), zip, { timeout });
    await page.waitForFunction((want) => document.querySelector('#progress-text')?.textContent === want, `${n} of ${n} decoded`, { timeout });
    await page.waitForSelector('#list[data-state="done"]', { timeout });
  }

  /**
   * Waits until every row in sight of the files table has its thumbnail settled, and checks them:
   * the rows whose file has a grid show a small, non-blank picture; returns how many are drawn.
   */
  async function thumbnailsInSight(): Promise<number> {
    const inSight = () =>
      page.$$eval('#files tbody tr[data-index]', (trs) => {
        const box = document.getElementById('files-scroll')!.getBoundingClientRect();
        return trs
          .filter((tr) => {
            const r = tr.getBoundingClientRect();
            return r.bottom > box.top + 30 && r.top < box.bottom;
          })
          .map((tr) => {
            const c = tr.querySelector('canvas[data-thumb]') as HTMLCanvasElement;
            let colours = 0;
            if (c.dataset.state === 'drawn') {
              const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
              const seen = new Set<number>();
              for (let i = 0; i < d.length; i += 4) seen.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
              colours = seen.size;
            }
            return { name: tr.children[0]!.textContent!, state: c.dataset.state, size: [c.width, c.height], colours };
          });
      });
    await page.waitForFunction(
      () => {
        const box = document.getElementById('files-scroll')!.getBoundingClientRect();
        return [...document.querySelectorAll('#files tbody tr[data-index]')]
          .filter((tr) => tr.getBoundingClientRect().bottom > box.top + 30 && tr.getBoundingClientRect().top < box.bottom)
          .every((tr) => (tr.querySelector('canvas[data-thumb]') as HTMLElement).dataset.state !== 'waiting');
      },
      undefined,
      { timeout: 60_000 },
    );
    const rows = await inSight();
    expect(rows.length).toBeGreaterThan(3);
    const drawn = rows.filter((r) => r.state === 'drawn');
    for (const r of drawn) expect(Math.max(...r.size), r.name).toBeLessThanOrEqual(THUMB_SIDE);
    expect(drawn.length, 'thumbnails drawn').toBeGreaterThan(0);
    // A blank level draws one colour; levels with tiles more.
    expect(Math.max(...drawn.map((r) => r.colours)), 'a thumbnail showing tiles').toBeGreaterThan(2);
    return drawn.length;
  }

  /** Every row of the (virtualised) files table in display order, scrolling through it as a person would. */
  async function allFileRows(): Promise<string[][]> {
    const seen = new Map<string, string[]>();
    const order: string[] = [];
    await page.$eval('#files-scroll', (s) => {
      s.scrollTop = 0;
    });
    for (;;) {
      const batch = await page.$$eval('#files tbody tr[data-index]', (trs) =>
        trs.map((tr) => [(tr as HTMLElement).dataset.index!, ...[...tr.children].map((td) => td.textContent!)]),
      );
      for (const [index, ...cells] of batch)
        if (!seen.has(index!)) {
          seen.set(index!, cells);
          order.push(index!);
        }
      const moved = await page.$eval('#files-scroll', (s) => {
        const before = s.scrollTop;
        s.scrollTop += s.clientHeight / 2;
        s.dispatchEvent(new Event('scroll'));
        return s.scrollTop !== before;
      });
      if (!moved) break;
    }
    return order.map((i) => seen.get(i)!);
  }

  it('a dropped zip bomb is listed as refused, not inflated; an empty member named like a level is UNKNOWN_FORMAT, as in a scan', async () => {
    const level = readBytes(`${FIXTURES}/teeworlds/tw07-skip.map`);
    // Three members of 4 MiB of zeros: ~15 KB of zip that would inflate 12 MiB (far past 100 × its size).
    const zeros = new Uint8Array(4 << 20);
    const zip = Buffer.from(zipSync({ 'a.map': level, 'b.bin': zeros, 'c.bin': zeros, 'd.bin': zeros, 'empty.map': new Uint8Array(0) }, { level: 9 }));
    expect(Math.max(1 << 20, zip.length * 100)).toBeLessThan(zeros.length); // the budget holds none of them
    await page.setInputFiles('#file', { name: 'bomb.zip', mimeType: 'application/zip', buffer: zip });
    await allDecoded(5);
    const rows = await allFileRows();
    const byName = new Map(rows.map((r) => [r[0], r]));
    expect([...byName.keys()].sort()).toEqual(['bomb.zip/a.map', 'bomb.zip/b.bin', 'bomb.zip/c.bin', 'bomb.zip/d.bin', 'bomb.zip/empty.map']);
    expect(byName.get('bomb.zip/a.map')![1]).toBe('teeworlds');
    for (const n of ['b.bin', 'c.bin', 'd.bin']) expect(byName.get(`bomb.zip/${n}`)!.join(' '), n).toMatch(/LIMIT_EXCEEDED/);
    expect(byName.get('bomb.zip/empty.map')!.join(' ')).toMatch(/UNKNOWN_FORMAT/);
    expect(consoleErrors).toEqual([]);
  });

  it('lists zip members named like Object.prototype properties (issue 18.1): none is lost', async () => {
    const level = readBytes(`${FIXTURES}/teeworlds/tw07-skip.map`);
    const names = ['__PROTO__', 'constructor', 'prototype', 'hasOwnProperty', 'toString'];
    const zip = Buffer.from(zipSync(Object.fromEntries(names.map((n) => [n, level]))));
    // fflate writes from an object, which cannot hold `__proto__`: patch the name in (same length).
    for (let at = zip.indexOf('__PROTO__'); at >= 0; at = zip.indexOf('__PROTO__', at)) zip.write('__proto__', at);
    await page.setInputFiles('#file', { name: 'keys.zip', mimeType: 'application/zip', buffer: zip });
    await allDecoded(names.length, 'keys.zip');
    const rows = await allFileRows();
    const expected = names.map((n) => `keys.zip/${n === '__PROTO__' ? '__proto__' : n}`);
    expect(rows.map((r) => r[0]).sort()).toEqual(expected.sort());
    for (const r of rows) expect([r[1], r[6]], r[0]!).toEqual(['teeworlds', 'ok']);
    expect(consoleErrors).toEqual([]);
  });

  it('shows a zip of every fixture as a counted, virtualised table with progress and the scan summary; a row opens its preview', async () => {
    const files = listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap)$/i).filter((p) => !p.includes('/bad/'));
    const zip = zipSync(Object.fromEntries(files.map((p) => [relative(FIXTURES, p), readBytes(p)])));
    await page.setInputFiles('#file', { name: 'fixtures.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
    await allDecoded(files.length);
    expect(await page.textContent('#progress-text')).toBe(`${files.length} of ${files.length} decoded`);
    expect(await page.textContent('#list-title')).toBe(`${files.length} files`);
    const rows = await allFileRows();
    expect(rows.map((r) => r[0])).toEqual(
      files.map((p) => `fixtures.zip/${relative(FIXTURES, p)}`).sort((a, b) => a.localeCompare(b, undefined, { numeric: true })),
    );
    for (const r of rows) {
      const path = `${FIXTURES}/${r[0]!.slice('fixtures.zip/'.length)}`;
      expect(r[1], r[0]!).toBe(decode(readBytes(path)).format);
      expect(r[6], r[0]!).toBe('ok');
    }
    await page.$eval('#files-scroll', (s) => {
      s.scrollTop = 0;
      s.dispatchEvent(new Event('scroll'));
    });
    // Thumbnails: every row in sight gets one (a level with a grid: drawn, non-blank), made on demand.
    await thumbnailsInSight();
    await page.screenshot({ path: `${SHOTS}/zip-table.png`, fullPage: true });
    await page.fill('#filter-name', 'ddnet-coverage');
    await page.click('#files tbody tr[data-index]');
    await waitForDetail(page, 'ddnet-coverage.map', 20_000);
    await page.screenshot({ path: `${SHOTS}/zip.png`, fullPage: true });
    await page.fill('#filter-name', '');
    expect(consoleErrors).toEqual([]);
  });

  it('sorts and filters the files table, and its summary has the numbers `levelkit scan` reports for the same zip', async () => {
    const good = listFiles(FIXTURES, /\.(wwd|map|graal|zelda|nw|gmap|wdata|gwc)$/i).filter((p) => !p.includes('/bad/'));
    const bad = listFiles(`${FIXTURES}/teeworlds/bad`, /\.map$/).concat(listFiles(`${FIXTURES}/wwd/bad`, /\.wwd$/));
    // Two copies of one map under other names: a duplicate group.
    const members = Object.fromEntries([...good, ...bad].map((p) => [relative(FIXTURES, p), readBytes(p)]));
    members['copies/a.map'] = readBytes(`${FIXTURES}/teeworlds/tw07-skip.map`);
    const zip = zipSync(members);
    const dir = mkdtempSync(join(tmpdir(), 'levelkit-e2e-'));
    const zipPath = join(dir, 'mixed.zip');
    writeFileSync(zipPath, zip);
    await page.setInputFiles('#file', zipPath);
    await page.waitForSelector('#list[data-state="done"]', { timeout: 90_000 });

    const scan = cli('scan', zipPath, '--depth', 'full', '--out', join(dir, 'records.jsonl'), '--report', join(dir, 'report.json'));
    expect([0, 2], scan.stderr).toContain(scan.status);
    const { timing: _timing, unknown: _unknown, ...want } = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    // Only the rows in sight are in the page.
    expect(await page.$$eval('#files tbody tr[data-index]', (trs) => trs.length)).toBeLessThan(40);
    const shown = JSON.parse((await page.getAttribute('#report', 'data-report'))!);
    expect(shown).toEqual(want);
    expect(Object.keys(want.errors).length).toBeGreaterThan(0);
    expect(want.duplicates.contentDigest.groups).toBeGreaterThan(0);

    // Sort by size, largest first: the sizes the rows show never grow.
    await page.click('#files th[data-sort="size"]');
    await page.click('#files th[data-sort="size"]');
    expect(await page.getAttribute('#files th[data-sort="size"]', 'data-order')).toBe('descending');
    const bySize = await allFileRows();
    const bytesOf = (r: string[]) => members[r[0]!.slice('mixed.zip/'.length)]!.length;
    for (let i = 1; i < bySize.length; i++) expect(bytesOf(bySize[i - 1]!)).toBeGreaterThanOrEqual(bytesOf(bySize[i]!));

    // Filter: one format, then one error code.
    await page.selectOption('#filter-format', 'graal');
    const graal = await allFileRows();
    expect(graal.length).toBe(want.formats.graal.files);
    expect(graal.every((r) => r[1] === 'graal')).toBe(true);
    await page.selectOption('#filter-format', '');
    const code = Object.keys(want.errors)[0]!;
    await page.selectOption('#filter-error', code);
    const failed = await allFileRows();
    expect(failed.length).toBe(want.errors[code]);
    expect(failed.every((r) => r[6]!.startsWith(`${code}: `))).toBe(true);
    expect(await page.textContent('#shown')).toBe(`${failed.length} of ${want.files} shown`);
    await page.screenshot({ path: `${SHOTS}/zip-filtered.png`, fullPage: true });
    await page.selectOption('#filter-error', '');
    rmSync(dir, { recursive: true, force: true });
    expect(consoleErrors).toEqual([]);
  });

  /** Opens `path` (or named bytes) through the file input and waits until the detail view shows it. */
  async function openThroughInput(file: string | { name: string; buffer: Buffer }): Promise<void> {
    const name = typeof file === 'string' ? basename(file) : file.name;
    await page.setInputFiles('#file', typeof file === 'string' ? file : { name: file.name, mimeType: 'application/octet-stream', buffer: file.buffer });
    await waitForDetail(page, name, 20_000);
  }

  /** What the detail view shows, as a person would read it. */
  const detailView = () =>
    page.evaluate(() => {
      // Rendered, not merely without the attribute: a CSS display rule can undo `hidden`.
      const visible = (id: string) => document.getElementById(id)!.getClientRects().length > 0;
      const canvas = document.getElementById('preview') as HTMLCanvasElement;
      return {
        format: document.getElementById('format')!.textContent,
        error: visible('error') ? document.getElementById('error')!.textContent : null,
        summaryKeys: [...document.querySelectorAll('#summary dt')].map((d) => d.textContent),
        layers: (document.getElementById('layer') as HTMLSelectElement).options.length,
        picture: visible('viewport') ? [canvas.width, canvas.height] : null,
        controls: visible('view-controls'),
        empty: visible('empty') ? document.getElementById('empty')!.textContent : null,
        zoom: document.getElementById('zoom-label')!.textContent,
        tables: [...document.querySelectorAll('#tables [data-table]')].map((t) => (t as HTMLElement).dataset.table),
        markers: document.getElementById('object-count')!.textContent,
        warnings: document.querySelectorAll('#warnings li').length,
        media: document.querySelectorAll('#media figure').length,
        texts: document.querySelectorAll('#texts pre').length,
      };
    });

  it('starts every open from a clean view: after an error nothing of the map before remains, nor after a file with nothing to draw', async () => {
    const map = `${FIXTURES}/teeworlds/real/ddnet-coverage.map`;
    await openThroughInput(map);
    await page.click('#zoom-in');
    const before = await detailView();
    expect(before.layers).toBeGreaterThan(1);
    expect(before.picture).not.toBeNull();
    expect(before.tables.length).toBeGreaterThan(0);

    await openThroughInput(`${FIXTURES}/teeworlds/bad/truncated-item-table.map`);
    const afterError = await detailView();
    expect(afterError).toEqual({
      format: 'not decoded',
      error: expect.stringMatching(/^TRUNCATED: /),
      summaryKeys: [],
      layers: 0,
      picture: null,
      controls: false,
      empty: null,
      zoom: '100%',
      tables: [],
      markers: '',
      warnings: 0,
      media: 0,
      texts: 0,
    });
    await page.screenshot({ path: `${SHOTS}/after-error.png`, fullPage: true });

    await openThroughInput(map);
    await page.click('#zoom-in');
    const cartridge = `${FIXTURES}/gwc/odd-ids-deleted-cp1252.gwc`;
    await openThroughInput(cartridge);
    const nothingToDraw = await detailView();
    const summary = decode(readBytes(cartridge));
    expect(nothingToDraw.format).toBe('gwc');
    expect(nothingToDraw.error).toBeNull();
    expect(nothingToDraw.empty).toBe(`Nothing to draw: ${render(summary).empty}.`);
    expect(nothingToDraw.layers).toBe(0);
    expect(nothingToDraw.picture).toBeNull();
    expect(nothingToDraw.controls).toBe(false);
    expect(nothingToDraw.zoom).toBe('100%');
    // The cartridge's own tables and summary, none of the map's.
    expect(nothingToDraw.tables).toEqual(['header', 'media']);
    expect(nothingToDraw.summaryKeys).toContain('author');
    expect(nothingToDraw.summaryKeys).not.toContain('gameLayer');
    expect(consoleErrors).toEqual([]);
  });

  it('names every format it opens in the header and the file picker', async () => {
    const accept = (await page.getAttribute('#file', 'accept'))!.split(',');
    const intro = (await page.textContent('#intro'))!;
    for (const ext of [...LEVEL_EXTENSIONS, '.zip']) {
      expect(accept, ext).toContain(ext);
      expect(intro, ext).toContain(ext);
    }
  });

  it('opens a lone .gwz as a Wherigo source archive: the Lua source, the members, images shown and sounds playable', async () => {
    const lua = 'require "Wherigo"\n-- <script>alert(1)</script> stays text\ncartridge = Wherigo.ZCartridge()\n';
    const png = encodePng({ width: 8, height: 6, data: new Uint8Array(8 * 6 * 4).fill(200), channels: 4 });
    const gwz = zipSync({
      '_cartridge.lua': new TextEncoder().encode(lua),
      'logo.png': png,
      'beep.wav': wavTone(),
      'notes/readme.txt': new Uint8Array([104, 105]),
    });
    for (const name of ['tour.gwz', 'tour-renamed.zip']) {
      await openThroughInput({ name, buffer: Buffer.from(gwz) });
      const view = await detailView();
      expect(view.format, name).toBe('gwz');
      expect(view.error, name).toBeNull();
      expect(view.texts, name).toBe(1);
      expect(view.media, name).toBe(2);
      expect(view.tables, name).toEqual(['members']);
      expect(await page.textContent('#texts pre'), name).toBe(lua);
      const members = await page.$$eval('#tables [data-table="members"] tbody tr td:first-child', (tds) => tds.map((t) => t.textContent));
      expect(members.sort(), name).toEqual(['_cartridge.lua', 'beep.wav', 'logo.png', 'notes/readme.txt']);
      // The image decodes and the sound loads, as the browser itself reports.
      const media = await page.waitForFunction(
        () => {
          const img = document.querySelector('#media img') as HTMLImageElement | null;
          const audio = document.querySelector('#media audio') as HTMLAudioElement | null;
          if (!img?.complete || !audio || audio.readyState < 1) return null;
          return { image: [img.naturalWidth, img.naturalHeight], seconds: audio.duration };
        },
        undefined,
        { timeout: 10_000 },
      );
      const seen = (await media.jsonValue()) as { image: number[]; seconds: number };
      expect(seen.image, name).toEqual([8, 6]);
      expect(seen.seconds, name).toBeCloseTo(0.25, 2);
      expect(await page.$$eval('#texts script, #tables script', (s) => s.length)).toBe(0);
    }
    await page.screenshot({ path: `${SHOTS}/gwz.png`, fullPage: true });
    expect(consoleErrors).toEqual([]);
  });

  it("shows a Teeworlds map's info (author, version, credits, licence) and its server settings", async () => {
    await openThroughInput(`${FIXTURES}/teeworlds/ddnet-all-items.map`);
    const info = await page.$$eval('#summary > dt', (dts) =>
      dts
        .filter((dt) => dt.textContent === 'info')
        .map((dt) => Object.fromEntries([...dt.nextElementSibling!.querySelectorAll('dt')].map((d) => [d.textContent, d.nextElementSibling!.textContent]))),
    );
    expect(info).toEqual([{ author: 'levelkit', version: '1.0', credits: 'generated', license: 'CC-BY-SA 3.0', settings: 'sv_team 1, tune gravity 0.4' }]);
    const table = await page.$$eval('#tables [data-table="map info"] tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    expect(table).toEqual([
      ['author', 'levelkit'],
      ['version', '1.0'],
      ['credits', 'generated'],
      ['license', 'CC-BY-SA 3.0'],
      ['settings', '2 commands'],
    ]);
    expect(await page.textContent('#texts pre')).toBe('sv_team 1\ntune gravity 0.4');
    await page.screenshot({ path: `${SHOTS}/map-info.png`, fullPage: true });
  });

  /** The preview canvas's pixels (RGBA) and size, as a PNG out of the page (exact: the picture is opaque). */
  const canvasPixels = async () => {
    const url = await page.$eval('#preview', (c) => (c as HTMLCanvasElement).toDataURL('image/png'));
    const png = decodePngFile(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
    expect(png.channels).toBe(4);
    return { width: png.width, height: png.height, rgba: png.data as Uint8Array };
  };

  it('draws a map with external images in real tiles (the bundled map resources, fetched by name) and shows embedded images as thumbnails', async () => {
    const path = `${FIXTURES}/teeworlds/real/tw07-dm1.map`;
    const before = assetFetches.length;
    await openThroughInput(path);
    const value = decode(readBytes(path));
    const real = pagePreview(value);
    const plain = render(value, { layer: 'all' });
    const seen = await canvasPixels();
    expect([seen.width, seen.height]).toEqual([real.width, real.height]);
    let differ = 0;
    for (let i = 0; i < seen.rgba.length; i++) if (seen.rgba[i] !== plain.rgba[i]) differ++;
    expect(differ, 'pixels differ from the colour-per-id drawing').toBeGreaterThan(seen.rgba.length / 4);
    expect(Buffer.from(seen.rgba).equals(Buffer.from(real.rgba)), 'the picture is the one Node draws with the bundled pictures').toBe(true);
    // Only what the map names was fetched (each once per session: some may have come with a map before).
    const need = resourcesNeeded(value);
    const named = [...need.images.map((n) => `mapres/${n}.png`), ...need.entities.map((k) => ENTITY_ASSETS[k])];
    // This open fetched only what the map names; everything it names was fetched once this session (maybe for a map before).
    expect(assetFetches.slice(before).filter((f) => !named.includes(f))).toEqual([]);
    expect(named.filter((f) => !assetFetches.includes(f))).toEqual([]);
    expect(new Set(assetFetches).size).toBe(assetFetches.length);
    expect(await page.isVisible('#graphics-note')).toBe(false);
    await page.screenshot({ path: `${SHOTS}/tw07-dm1-real-tiles.png`, fullPage: true });
    // A map with embedded images: each has a thumbnail in the images table.
    await openThroughInput(`${FIXTURES}/teeworlds/ddnet-all-items.map`);
    const items = decode(readBytes(`${FIXTURES}/teeworlds/ddnet-all-items.map`));
    const embedded = items.format === 'teeworlds' ? items.images.flatMap((m, i) => (m.external ? [] : [i])) : [];
    expect(embedded.length).toBeGreaterThan(0);
    const thumbs = await page.$$eval('#tables [data-table="images"] tbody tr', (trs) =>
      trs.flatMap((tr) => {
        const c = tr.querySelector('canvas');
        return c ? [[Number((tr as HTMLElement).dataset.row), c.width, c.height]] : [];
      }),
    );
    expect(thumbs.map((t) => t[0])).toEqual(embedded);
    for (const [, w, h] of thumbs) expect(Math.max(w!, h!)).toBeLessThanOrEqual(64);
  });

  it('draws a Graal level with a tileset given once for the session, and says what a WWD would need', async () => {
    const path = `${FIXTURES}/graal/gr-v105-layers.graal`;
    await openThroughInput(path);
    expect(await page.textContent('#graphics-note')).toContain('pics1.png');
    const before = await canvasPixels();
    // A made-up 2048×512 atlas: each 16×16 tile one colour from its position.
    const atlas = new Uint8Array(2048 * 512 * 4);
    for (let y = 0; y < 512; y++) for (let x = 0; x < 2048; x++) atlas.set([(x >> 4) * 2, (y >> 4) * 8, 200, 255], (y * 2048 + x) * 4);
    const png = Buffer.from(encodePng({ width: 2048, height: 512, data: atlas, channels: 4, depth: 8 }));
    await page.setInputFiles('#graal-tileset', { name: 'pics1.png', mimeType: 'image/png', buffer: png });
    await page.waitForFunction(() => document.getElementById('tileset-state')?.textContent?.includes('2048×512'));
    await page.waitForFunction(() => document.getElementById('graphics-note')?.textContent?.includes('you gave'), undefined, { timeout: 20_000 });
    const value = decode(readBytes(path));
    // As the page draws a level with real tiles: every layer.
    const expected = render(value, { layer: 'all', resources: { graalTileset: { width: 2048, height: 512, channels: 4, pixels: atlas, layout: 'graal' } } });
    const after = await canvasPixels();
    expect(Buffer.from(after.rgba).equals(Buffer.from(expected.rgba))).toBe(true);
    expect(Buffer.from(after.rgba).equals(Buffer.from(before.rgba))).toBe(false);
    // Kept for the session: the next Graal level is drawn with it too.
    await openThroughInput(`${FIXTURES}/graal/gr-v103.graal`);
    expect(await page.textContent('#graphics-note')).toContain('you gave');
    // A level naming no bundled picture fetches none.
    const fetched: string[] = [];
    const listen = (r: { url(): string }) => {
      if (r.url().includes('/assets/')) fetched.push(r.url());
    };
    page.on('request', listen);
    await openThroughInput(`${FIXTURES}/wwd/claw-wapmap-trailing-meta.wwd`);
    expect(await page.textContent('#graphics-note')).toContain('REZ');
    page.off('request', listen);
    expect(fetched).toEqual([]);
  });

  it('shows a .wdata level as box tables and a top-down plot; a row or a marker opens the inspector and each highlights the other', async () => {
    const path = `${FIXTURES}/wdata/main-v22.wdata`;
    const value = decode(readBytes(path));
    const picture = render(value);
    await openThroughInput(path);
    // Every table, each paged, named as the library names them.
    const tables = await page.$$eval('#tables [data-table]', (ts) => ts.map((t) => (t as HTMLElement).dataset.table));
    expect(tables).toEqual(tablesOf(value).map((t) => t.name));
    expect(tables).toEqual(expect.arrayContaining(['EventBox npc', 'AniBG', 'ItemBox', 'Gimmick', 'scenes']));
    // The plot: the picture the library draws, a legend of box types in their colours.
    const seen = await page.evaluate(() => {
      const c = document.getElementById('preview') as HTMLCanvasElement;
      return { size: [c.width, c.height], legend: [...document.querySelectorAll('#legend li')].map((li) => (li as HTMLElement).dataset.kind) };
    });
    expect(seen.size).toEqual([picture.width, picture.height]);
    expect(seen.legend).toEqual(picture.legend.map((l) => l.kind));
    expect(picture.markers.length).toBe(44);
    // The point marker farthest from the others: its pixel, and later a click on it.
    const points = picture.markers.filter((m) => m.w === 0 && m.ref);
    const point = points
      .map((m) => ({ m, gap: Math.min(...points.filter((o) => o !== m).map((o) => Math.hypot(o.x - m.x, o.y - m.y))) }))
      .sort((a, b) => b.gap - a.gap)[0]!.m;
    const rgb = await page.evaluate(
      ({ x, y }) => [...(document.getElementById('preview') as HTMLCanvasElement).getContext('2d')!.getImageData(x, y, 1, 1).data].slice(0, 3),
      { x: Math.floor(point.x * picture.scale), y: Math.floor(point.y * picture.scale) },
    );
    expect(rgb).toEqual(markerColour(point.kind));

    // A row opens the inspector with every field, and rings its marker.
    await page.click('#tables [data-table="EventBox npc"] tbody tr[data-row="1"]');
    expect(await page.textContent('#inspector-title')).toBe('EventBox npc #1');
    const fields = await page.$$eval('#inspector-fields dt', (dts) => dts.map((d) => d.textContent));
    expect(fields).toEqual(expect.arrayContaining(['#', 'name', 'position', 'scale', 'rotation', 'extents']));
    expect(fields.length).toBe(Object.keys(tablesOf(value).find((t) => t.name === 'EventBox npc')!.records![1]!).length);
    expect(await page.getAttribute('#tables [data-table="EventBox npc"] tbody tr[data-row="1"]', 'class')).toContain('selected');
    const marker = picture.markers.find((m) => m.ref?.table === 'EventBox npc' && m.ref.row === 1)!;
    const at = await screenPoint(marker, picture.scale);
    const ring = (await page.locator('#highlight').boundingBox())!;
    expect(Math.abs(ring.x + ring.width / 2 - (marker.w ? at.x + (marker.w * at.perTile) / 2 : at.x))).toBeLessThan(4);
    await page.screenshot({ path: `${SHOTS}/wdata-inspector.png`, fullPage: true });

    // A marker (a point well apart from the others) opens its row: the inspector, and the row marked on its page.
    const apart = point;
    await page.locator('#viewport').scrollIntoViewIfNeeded();
    const target = await screenPoint(apart, picture.scale);
    await page.mouse.click(target.x, target.y);
    expect(await page.textContent('#inspector-title')).toBe(`${apart.ref!.table} #${apart.ref!.row}`);
    expect(await page.getAttribute(`#tables [data-table="${apart.ref!.table}"] tbody tr[data-row="${apart.ref!.row}"]`, 'class')).toContain('selected');
    expect(await page.$$eval('#tables tr.selected', (trs) => trs.length)).toBe(1);
    expect(await page.isVisible('#highlight')).toBe(true);
    await page.screenshot({ path: `${SHOTS}/wdata-marker.png` });
    await page.click('#inspector-close');
    expect(await page.isHidden('#inspector')).toBe(true);
    expect(consoleErrors).toEqual([]);
  });

  /** Where marker `m` is on screen (its point, or an area's corner), from the picture's transform and `scale` (pixels per tile). */
  async function screenPoint(m: { x: number; y: number }, scale: number): Promise<{ x: number; y: number; perTile: number }> {
    const vp = (await page.locator('#viewport').boundingBox())!;
    const transform = (await page.getAttribute('#preview', 'style'))!;
    const [, tx, ty, zoom] = /translate\(([-\d.e]+)px, ([-\d.e]+)px\) scale\(([-\d.e]+)\)/.exec(transform)!.map(Number);
    const perTile = scale * zoom!;
    return { x: vp.x + tx! + m.x * perTile, y: vp.y + ty! + m.y * perTile, perTile };
  }

  it('the README picture: a Teeworlds map (vanilla dm1) opened whole', async () => {
    await openThroughInput(`${FIXTURES}/teeworlds/real/tw07-dm1.map`);
    await page.screenshot({ path: `${SHOTS}/readme.png`, fullPage: false });
    if (process.env.LEVELKIT_SCREENSHOT) copyFileSync(`${SHOTS}/readme.png`, `${ROOT}/web/screenshot.png`);
  });

  itWith(
    corpus('teeworlds'),
    'opens the largest corpus map with its stages shown (read, inflate, draw, with how far), and zoomed in draws the tiles in sight at full resolution',
    async () => {
      const path = largestCorpusMap(`${CORPUS}/teeworlds`)!;
      // Every state of the progress element a person could have seen, as it changed.
      await page.evaluate(() => {
        const box = document.getElementById('open-progress')!;
        const seen: { hidden: boolean; stage: string | undefined; text: string }[] = [];
        (window as unknown as { progressSeen: typeof seen }).progressSeen = seen;
        new MutationObserver(() => seen.push({ hidden: box.hidden === true, stage: box.dataset.stage, text: box.textContent!.trim() })).observe(box, {
          attributes: true,
          childList: true,
          subtree: true,
          characterData: true,
        });
      });
      await openThroughInput(path);
      const seen = await page.evaluate(() => (window as unknown as { progressSeen: { hidden: boolean; stage?: string; text: string }[] }).progressSeen);
      const shown = seen.filter((s) => !s.hidden && s.stage);
      const stages = [...new Set(shown.map((s) => s.stage))];
      expect(stages).toEqual(expect.arrayContaining(['read', 'inflate', 'draw']));
      // Inflating and drawing say how far they are, and get there step by step.
      for (const stage of ['inflate', 'draw']) {
        const shares = shown.filter((s) => s.stage === stage).map((s) => Number(/(\d+)%/.exec(s.text)?.[1]));
        expect(shares.length, stage).toBeGreaterThan(2);
        expect(new Set(shares).size, stage).toBeGreaterThan(2);
      }
      expect(await page.isHidden('#open-progress')).toBe(true);
      await page.screenshot({ path: `${SHOTS}/largest-map.png`, fullPage: false });

      // Zoom in until a tile is many screen pixels: the picture is ~1 pixel per tile, so chunks come.
      const base = await page.evaluate(() => {
        const c = document.getElementById('preview') as HTMLCanvasElement;
        return { width: c.width, height: c.height };
      });
      const value = decode(readBytes(path));
      const whole = render(value, { layer: 'all', resources: bundledResources(value) });
      expect([base.width, base.height]).toEqual([whole.width, whole.height]);
      expect(whole.scale).toBeLessThanOrEqual(1);
      await watchLongTasks(page);
      for (let i = 0; i < 9; i++) await page.click('#zoom-in');
      await page.waitForFunction(() => document.querySelector('#regions canvas') && document.getElementById('regions')!.dataset.pending === '0', undefined, {
        timeout: 60_000,
      });
      await page.screenshot({ path: `${SHOTS}/largest-map-zoomed.png`, fullPage: false });
      const chunk = await page.evaluate((step) => {
        const c = document.querySelector('#regions canvas') as HTMLCanvasElement;
        const copy = document.createElement('canvas');
        copy.width = c.width;
        copy.height = c.height;
        copy.getContext('2d')!.drawImage(c, 0, 0);
        const d = copy.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        const sampled: number[] = [];
        for (let o = 0; o < d.length; o += 4 * step) sampled.push(d[o]!, d[o + 1]!, d[o + 2]!);
        return { x: Number(c.dataset.x), y: Number(c.dataset.y), scale: Number(c.dataset.scale), width: c.width, height: c.height, sampled };
      }, STEP);
      expect(chunk.scale).toBeGreaterThan(whole.scale);
      const tiles = { x: chunk.x, y: chunk.y, width: chunk.width / chunk.scale, height: chunk.height / chunk.scale };
      // The chunk is what the library draws for that rectangle at that scale, pixel for pixel.
      const want = render(value, { layer: 'all', scale: chunk.scale, region: tiles, resources: bundledResources(value) });
      expect([want.width, want.height]).toEqual([chunk.width, chunk.height]);
      let same = 0;
      let differsFromBase = 0;
      const samples = chunk.sampled.length / 3;
      for (let k = 0; k < samples; k++) {
        const o = k * STEP * 4;
        const rgb = chunk.sampled.slice(k * 3, k * 3 + 3);
        if (rgb.join() === [want.rgba[o], want.rgba[o + 1], want.rgba[o + 2]].join()) same++;
        // The sampled picture's pixel for the same tile: zoomed, it shows that colour all over the tile.
        const px = (o / 4) % chunk.width;
        const py = Math.floor(o / 4 / chunk.width);
        const bo = (Math.floor((tiles.y + py / chunk.scale) * whole.scale) * whole.width + Math.floor((tiles.x + px / chunk.scale) * whole.scale)) * 4;
        if (rgb.join() !== [whole.rgba[bo], whole.rgba[bo + 1], whole.rgba[bo + 2]].join()) differsFromBase++;
      }
      expect(same).toBe(samples);
      expect(differsFromBase / samples, 'share of pixels the zoomed-in chunk shows that the sampled picture cannot').toBeGreaterThan(0.05);

      // Pan about as a person would; the pauses of the page's thread are reported, not asserted (speed
      // is for bench/). Watched from here: the pixel read-back above is the test's own work on that thread.
      await watchLongTasks(page);
      await pan(page, '#viewport', 12);
      await page.waitForFunction(() => document.getElementById('regions')!.dataset.pending === '0', undefined, { timeout: 60_000 });
      const pauses = await maxLongTask(page);
      console.log(
        `largest map ${basename(path)}: while panning zoomed in, longest main-thread long task ${pauses.longTask ? `${pauses.longTask.toFixed(0)} ms` : 'none (no task ≥ 50 ms)'}, longest heartbeat gap ${pauses.heartbeat.toFixed(0)} ms`,
      );
      await page.screenshot({ path: `${SHOTS}/largest-map-panned.png`, fullPage: false });
      await page.click('#zoom-fit');
      expect(await page.$$('#regions canvas')).toHaveLength(0);
      expect(consoleErrors).toEqual([]);
    },
    240_000,
  );

  itWith(
    corpus('teeworlds'),
    'a zip of 300 corpus files: counted, sortable table with thumbnails for the rows in sight',
    async () => {
      const { count, path: zipPath } = corpusZip(CORPUS, 300);
      await page.setInputFiles('#file', zipPath);
      await allDecoded(count, undefined, 240_000);
      expect(await page.textContent('#list-title')).toBe(`${count} files`);
      await page.$eval('#files-scroll', (s) => {
        s.scrollTop = 0;
        s.dispatchEvent(new Event('scroll'));
      });
      await thumbnailsInSight();
      await page.click('#files th[data-sort="size"]');
      await thumbnailsInSight();
      await page.screenshot({ path: `${SHOTS}/corpus-300-table.png`, fullPage: false });
      rmSync(dirname(zipPath), { recursive: true, force: true });
      // A row opens its file (the smallest, sorted first), as the suite's later tests expect a file open.
      await page.click('#files tbody tr[data-index]');
      await page.waitForSelector('#detail[data-state="done"]', { timeout: 60_000 });
      expect(consoleErrors).toEqual([]);
    },
    300_000,
  );

  it('times kernels and inflaters side by side when asked', async () => {
    await page.check('#compare');
    await page.waitForSelector('#bench tbody tr:nth-child(6)', { timeout: 30_000 });
    const labels = await page.$$eval('#bench tbody td:first-child', (tds) => tds.map((t) => t.textContent));
    expect(labels).toEqual([
      'TypeScript kernels, pako',
      'WASM kernels, pako',
      'TypeScript kernels, WASM inflate',
      'WASM kernels, WASM inflate',
      'TypeScript kernels, native inflate (decodeAsync)',
      'WASM kernels, native inflate (decodeAsync)',
    ]);
    await page.uncheck('#compare');
  });

  it('loads no Node built-in in any script', () => {
    expect([...scripts.keys()].map((u) => new URL(u).pathname).sort()).toEqual(expect.arrayContaining(['/app.js', '/worker.js']));
    for (const [url, text] of scripts) expect(NODE_IMPORT.test(text), url).toBe(false);
  });
});

/** A quarter of a second of a 440 Hz tone as 8 kHz 8-bit mono PCM WAV. */
function wavTone(): Uint8Array {
  const rate = 8000;
  const samples = rate / 4;
  const out = new Uint8Array(44 + samples);
  const v = new DataView(out.buffer);
  const ascii = (at: number, s: string) => [...s].forEach((c, i) => v.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + samples, true);
  ascii(8, 'WAVEfmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, rate, true);
  v.setUint32(28, rate, true); // bytes per second
  v.setUint16(32, 1, true); // block align
  v.setUint16(34, 8, true); // bits per sample
  ascii(36, 'data');
  v.setUint32(40, samples, true);
  for (let i = 0; i < samples; i++) out[44 + i] = 128 + Math.round(60 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return out;
}
