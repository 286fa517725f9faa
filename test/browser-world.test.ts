// A Graal world on the page, in a real headless Chromium: a zip (and the same files dropped
// together) holding a .gmap and some of its levels; opening the gmap shows its world drawn by the
// worker, the levels in their cells, the missing one crossed and listed by name (as text).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { graal, tileColour, WORLD_MARKS } from '../src/index.js';
import { serve } from '../web/serve.js';
import { startChromium } from './helpers/chromium.js';
import { describeWith } from './helpers/needs.js';

function level(tile: number): Uint8Array {
  const l = graal.blankLevel('graal-nw');
  l.layers[0]!.tiles.fill(tile);
  return graal.encodeNw(l);
}

// A name that would be markup if it were set as HTML: the list must show it as text.
const GONE = '<b>gone</b>.nw';
const GMAP = new TextEncoder().encode(`GRMAP001\nWIDTH 2\nHEIGHT 2\nLEVELNAMES\n"a.nw","B.NW"\n"${GONE}","c.nw"\nLEVELNAMESEND\n`);
const FILES: Record<string, Uint8Array> = { 'world.gmap': GMAP, 'a.nw': level(1), 'b.nw': level(2), 'c.nw': level(3) };

describeWith(await startChromium(['dist/web/index.html', 'dist/web/app.js', 'dist/web/worker.js']), 'a Graal world on the page', (browser) => {
  let page: Page;
  let server: Awaited<ReturnType<typeof serve>>;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await serve(0);
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (e: Error) => errors.push(`pageerror: ${e.message}`));
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20_000 });
  });

  afterAll(async () => {
    await browser.close();
    await server?.close();
  });

  /** Opens the gmap's row of the files table and waits for its world. */
  async function openWorld(): Promise<void> {
    await page.waitForSelector('#list[data-state="done"]', { timeout: 60_000 });
    await page.fill('#filter-name', 'world.gmap');
    await page.click('#files tbody tr[data-index]');
    await page.waitForSelector('#world[data-state="done"]', { timeout: 60_000 });
  }

  /** The world canvas's pixel at the centre of cell (column, row) and at a point of its cross's fill. */
  const cellPixels = (column: number, row: number) =>
    page.evaluate(
      ([column, row]) => {
        const c = document.getElementById('world-picture') as HTMLCanvasElement;
        const size = Number(c.dataset.cellSize);
        const ctx = c.getContext('2d')!;
        const at = (x: number, y: number) => [...ctx.getImageData(column! * size + x, row! * size + y, 1, 1).data.subarray(0, 3)];
        return { centre: at(size / 2, size / 2), side: at(size / 8, size / 2) };
      },
      [column, row],
    );

  for (const how of ['a zip', 'files dropped together'] as const)
    it(`opening the gmap of ${how} shows its world, the missing level crossed and listed`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'levelkit-world-page-'));
      if (how === 'a zip') {
        writeFileSync(join(dir, 'worlds.zip'), zipSync(Object.fromEntries(Object.entries(FILES).map(([n, b]) => [`maps/${n}`, b]))));
        await page.setInputFiles('#file', join(dir, 'worlds.zip'));
      } else {
        for (const [n, b] of Object.entries(FILES)) writeFileSync(join(dir, n), b);
        await page.setInputFiles(
          '#file',
          Object.keys(FILES).map((n) => join(dir, n)),
        );
      }
      await openWorld();
      expect(await page.$eval('#world-picture', (c) => [c.dataset.columns, c.dataset.rows])).toEqual(['2', '2']);
      expect(await page.textContent('#world-summary')).toContain('3 drawn, 1 missing');
      expect((await cellPixels(0, 0)).centre).toEqual(tileColour(1));
      expect((await cellPixels(1, 0)).centre).toEqual(tileColour(2)); // B.NW found as b.nw, as a Graal server finds it
      expect((await cellPixels(1, 1)).centre).toEqual(tileColour(3));
      const gone = await cellPixels(0, 1);
      expect(gone).toEqual({ centre: WORLD_MARKS.missing.line, side: WORLD_MARKS.missing.fill });
      const listed = await page.$$eval('#world-missing li', (lis) => lis.map((li) => [li.dataset.state, li.dataset.name, li.querySelector('b') === null]));
      expect(listed).toEqual([['missing', GONE, true]]);
      await page.fill('#filter-name', '');
      expect(errors).toEqual([]);
    }, 120_000);
});
